/**
 * The daily chart: an SVG bar chart (role="img", a title and a description saying the total and
 * the busiest day, each bar titled with its figure) and the same figures as a table, so that it
 * reads without sight and without CSS. Sizes are SVG attributes, never inline styles (the
 * dashboard's Content-Security-Policy allows no inline style).
 */
import { html, type SafeHtml } from '../web/html.js'

/** One day's figure. */
export interface DayFigure {
  readonly date: string
  readonly queries: number
}

const WIDTH = 620
const HEIGHT = 160
const LABELS = 20

/**
 * The chart and its table.
 * @param id a prefix for the element ids (two charts can share a page).
 */
export function dailyChart(id: string, caption: string, days: readonly DayFigure[]): SafeHtml {
  const total = days.reduce((sum, d) => sum + d.queries, 0)
  const peak = days.reduce<DayFigure | undefined>((best, d) => (best === undefined || d.queries > best.queries ? d : best), undefined)
  const max = Math.max(1, peak?.queries ?? 0)
  const slot = (WIDTH - 10) / Math.max(1, days.length)
  const summary =
    peak === undefined || peak.queries === 0
      ? `No counted queries yet this month.`
      : `${total} counted ${total === 1 ? 'query' : 'queries'} this month; the busiest day was ${peak.date} with ${peak.queries}.`
  const bars = days.map((d, i) => {
    const height = Math.round(((HEIGHT - LABELS - 5) * d.queries) / max)
    const x = (5 + i * slot).toFixed(1)
    return html`<rect class="bar" x="${x}" y="${HEIGHT - LABELS - height}" width="${Math.max(1, slot - 2).toFixed(1)}" height="${height}"
      ><title>${d.date}: ${d.queries}</title></rect
    >`
  })
  const first = days[0]
  const last = days[days.length - 1]
  return html`<figure class="chart" id="${id}">
    <svg role="img" aria-labelledby="${id}-title ${id}-desc" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" height="${HEIGHT}" focusable="false">
      <title id="${id}-title">${caption}</title>
      <desc id="${id}-desc">${summary}</desc>
      <line class="axis" x1="0" y1="${HEIGHT - LABELS}" x2="${WIDTH}" y2="${HEIGHT - LABELS}" />
      ${bars} ${first === undefined ? '' : html`<text class="label" x="5" y="${HEIGHT - 4}">${first.date}</text>`}
      ${last === undefined || last === first ? '' : html`<text class="label" x="${WIDTH - 5}" y="${HEIGHT - 4}" text-anchor="end">${last.date}</text>`}
    </svg>
    <details>
      <summary>The figures as a table</summary>
      <table>
        <caption class="visually-hidden">
          ${caption}
        </caption>
        <thead>
          <tr>
            <th scope="col">Day (UTC)</th>
            <th scope="col">Queries</th>
          </tr>
        </thead>
        <tbody>
          ${days.map(
            (d) =>
              html`<tr>
                <td>${d.date}</td>
                <td>${d.queries}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </details>
    <figcaption>${caption}: ${summary}</figcaption>
  </figure>`
}

/** A two-column table of counts (by endpoint, style, AI client), biggest first. */
export function countsTable(caption: string, heading: string, counts: Readonly<Record<string, number>>, empty: string): SafeHtml {
  const rows = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  if (rows.length === 0) return html`<p class="meta">${empty}</p>`
  return html`<table>
    <caption>
      ${caption}
    </caption>
    <thead>
      <tr>
        <th scope="col">${heading}</th>
        <th scope="col">Queries</th>
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        ([name, n]) =>
          html`<tr>
            <td>${name}</td>
            <td>${n}</td>
          </tr>`,
      )}
    </tbody>
  </table>`
}
