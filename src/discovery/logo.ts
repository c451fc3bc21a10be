/** `/logo.svg`: the service's logo, an open book on a rounded square (drawn for this project). */

/**
 * The logo as SVG, square so that it fits the icon slots of plugin stores and MCP clients.
 * @example buildLogoSvg('Plainverse').startsWith('<svg') // true
 */
export function buildLogoSvg(serviceName: string): string {
  const title = serviceName.replace(/&/g, '&amp;').replace(/</g, '&lt;')
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="512" height="512" role="img" aria-labelledby="title">
<title id="title">${title}</title>
<rect width="64" height="64" rx="14" fill="#1d3557"/>
<path d="M32 20c-5-4-12-5-19-4v29c7-1 14 0 19 4z" fill="#f1faee"/>
<path d="M32 20c5-4 12-5 19-4v29c-7-1-14 0-19 4z" fill="#a8dadc"/>
<path d="M18 25c4-.5 7 0 10 1.5M18 31c4-.5 7 0 10 1.5M18 37c4-.5 7 0 10 1.5" stroke="#1d3557" stroke-width="1.6" stroke-linecap="round" fill="none"/>
<path d="M36 26.5c3-1.5 6-2 10-1.5M36 32.5c3-1.5 6-2 10-1.5M36 38.5c3-1.5 6-2 10-1.5" stroke="#1d3557" stroke-width="1.6" stroke-linecap="round" fill="none"/>
</svg>
`
}
