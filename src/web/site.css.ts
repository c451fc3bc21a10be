/**
 * The stylesheet of the public pages, served at /assets/site.css. Change the look here:
 * system fonts, a readable measure, light and dark schemes (`prefers-color-scheme`), visible
 * focus, and a print style without the navigation. Colours meet WCAG AA contrast in both
 * schemes.
 */
export const SITE_CSS = `
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1b1b1b; --muted: #4d4d4d; --accent: #0b5cad; --panel: #f3f5f8; --border: #c9d1db; --mark: #fff2a8; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #121417; --fg: #ececec; --muted: #b9b9b9; --accent: #8ec5ff; --panel: #1d2127; --border: #3a424d; --mark: #5c4d00; }
}
* { box-sizing: border-box; }
html { font-size: 112.5%; }
body { overflow-wrap: break-word; margin: 0; background: var(--bg); color: var(--fg); font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; line-height: 1.6; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: .5rem; z-index: 1; }
header.site, footer.site { background: var(--panel); border-bottom: 1px solid var(--border); }
header.site .inner, footer.site .inner, main { max-width: 46rem; margin: 0 auto; padding: .75rem 1rem; }
main.wide { max-width: 80rem; }
header.site .inner { display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: center; justify-content: space-between; }
header.site nav a { margin-right: 1rem; }
.brand { font-weight: 700; text-decoration: none; }
form.search { display: flex; gap: .4rem; align-items: center; flex-wrap: wrap; }
form.search input { max-width: 100%; font: inherit; padding: .3rem .5rem; border: 1px solid var(--border); border-radius: .3rem; background: var(--bg); color: var(--fg); min-width: 10rem; }
form.search button { font: inherit; padding: .3rem .8rem; border: 1px solid var(--accent); border-radius: .3rem; background: var(--accent); color: var(--bg); cursor: pointer; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
footer.site { border-top: 1px solid var(--border); border-bottom: 0; margin-top: 2rem; font-size: .9rem; color: var(--muted); }
h1 { font-size: 1.8rem; line-height: 1.25; margin: 1rem 0 .5rem; }
h2 { font-size: 1.3rem; margin: 1.75rem 0 .5rem; }
h3 { font-size: 1.1rem; margin: 1.25rem 0 .25rem; }
blockquote.kjv { margin: 1rem 0; padding: .75rem 1rem; border-left: 4px solid var(--accent); background: var(--panel); font-family: Georgia, "Times New Roman", serif; font-size: 1.1rem; }
.note { color: var(--muted); font-style: italic; }
.meta, .crumbs { color: var(--muted); font-size: .95rem; }
dl.fields dt { font-weight: 700; margin-top: .75rem; }
dl.fields dd { margin: 0; }
nav.pager { display: flex; justify-content: space-between; gap: 1rem; margin: 1.5rem 0; }
pre { background: var(--panel); border: 1px solid var(--border); padding: .75rem; overflow-x: auto; font-size: .85rem; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
ol.chapters, ul.plain { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .4rem .9rem; }
.chapter-text p { margin: .5rem 0; }
.chapter-text sup a { text-decoration: none; font-weight: 700; font-size: .75rem; margin-right: .15rem; }
.styles a[aria-current="page"] { font-weight: 700; color: var(--fg); }
mark { background: var(--mark); color: var(--fg); }
ol.results li { margin-bottom: 1rem; }
.synopsis { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); }
.synopsis section { border: 1px solid var(--border); border-radius: .4rem; padding: .5rem .75rem; }
.synopsis h2 { margin-top: .25rem; font-size: 1.1rem; }
table { border-collapse: collapse; }
th, td { border: 1px solid var(--border); padding: .3rem .6rem; text-align: left; }
a.button, form.stack button, form.inline button, button.copy { display: inline-block; font: inherit; padding: .35rem .9rem; border: 1px solid var(--accent); border-radius: .3rem; background: var(--accent); color: var(--bg); cursor: pointer; text-decoration: none; }
form.stack { display: grid; gap: .4rem; max-width: 32rem; margin: .5rem 0 1rem; }
form.stack input, form.stack textarea, form.inline select { font: inherit; padding: .3rem .5rem; border: 1px solid var(--border); border-radius: .3rem; background: var(--bg); color: var(--fg); }
form.inline { display: inline-flex; gap: .4rem; align-items: center; flex-wrap: wrap; margin: 0; }
form.danger button { background: #a4161a; border-color: #a4161a; color: #fff; }
.notice { border-left: 4px solid var(--accent); background: var(--panel); padding: .5rem .75rem; }
.warning { border-left: 4px solid #a4161a; background: var(--panel); padding: .5rem .75rem; }
table.keys { width: 100%; font-size: .9rem; }
.columns { display: flex; flex-wrap: wrap; gap: 1rem 2rem; align-items: flex-start; }
figure.chart { margin: 1rem 0; }
figure.chart .bar { fill: var(--accent); }
figure.chart .axis { stroke: var(--border); }
figure.chart .label { fill: var(--muted); font-size: 12px; }
@media print {
  header.site, footer.site nav, form.search, nav.pager, .skip { display: none; }
  body { background: #fff; color: #000; }
  a { color: #000; }
}
`
