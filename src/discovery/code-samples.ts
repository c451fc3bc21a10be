/**
 * Request examples for every operation of the contract (curl, JavaScript, Python), added to
 * the served document as `x-codeSamples`, which the reference at /docs shows beside each
 * operation. They are written from the contract itself: the path and query examples, the
 * request body's example and the credential the operation's security names, so they cannot
 * drift from what the server accepts.
 */
import { listOperations, type OpenApiDocument, type OperationView } from './openapi-view.js'

/** One sample as the `x-codeSamples` extension describes it. */
export interface CodeSample {
  readonly lang: string
  readonly label: string
  readonly source: string
}

/** The credential header an operation needs, with an environment variable for its value. */
function credentialOf(operation: OperationView): { readonly name: string; readonly value: string; readonly variable: string } | undefined {
  if (operation.security.some((s) => s.startsWith('ApiKey'))) return { name: 'X-API-Key', value: '', variable: 'PLAINVERSE_API_KEY' }
  if (operation.security.includes('IdentityToken')) return { name: 'Authorization', value: 'Bearer ', variable: 'ID_TOKEN' }
  if (operation.security.includes('MetricsToken')) return { name: 'Authorization', value: 'Bearer ', variable: 'METRICS_TOKEN' }
  return undefined
}

/** The request URL: path parameters from their examples (else `<name>`), required query parameters from theirs. */
function urlOf(operation: OperationView, baseUrl: string): string {
  let path = operation.path
  for (const parameter of operation.parameters.filter((p) => p.in === 'path')) {
    path = path.replace(`{${parameter.name}}`, parameter.example === undefined ? `<${parameter.name}>` : encodeURIComponent(parameter.example))
  }
  const query = operation.parameters
    .filter((p) => p.in === 'query' && p.required && p.example !== undefined)
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(p.example ?? '')}`)
  return `${baseUrl}${path}${query.length === 0 ? '' : `?${query.join('&')}`}`
}

/** The JSON body an operation sends: its first example, or an empty object when a body is required. */
function bodyOf(operation: OperationView): string | undefined {
  const body = operation.requestBody
  if (body === undefined) return undefined
  return JSON.stringify(body.examples[0]?.value ?? {})
}

/** The three samples of one operation. */
export function codeSamplesOf(operation: OperationView, baseUrl: string): CodeSample[] {
  const url = urlOf(operation, baseUrl)
  const credential = credentialOf(operation)
  const body = bodyOf(operation)
  const method = operation.method
  // The MCP endpoint's transport wants both media types in Accept.
  const accept = operation.tags.includes('MCP') ? 'application/json, text/event-stream' : undefined
  const shellHeaders = [
    ...(credential === undefined ? [] : [`-H "${credential.name}: ${credential.value}$${credential.variable}"`]),
    ...(accept === undefined ? [] : [`-H 'Accept: ${accept}'`]),
    ...(body === undefined ? [] : [`-H 'Content-Type: application/json'`, `-d '${body}'`]),
  ]
  const curl = [`curl -s${method === 'GET' ? '' : ` -X ${method}`} '${url}'`, ...shellHeaders].join(' \\\n  ')

  const jsHeaders = [
    ...(credential === undefined ? [] : [`'${credential.name}': \`${credential.value}\${process.env.${credential.variable}}\``]),
    ...(accept === undefined ? [] : [`Accept: '${accept}'`]),
    ...(body === undefined ? [] : [`'Content-Type': 'application/json'`]),
  ]
  const jsOptions = [
    ...(method === 'GET' ? [] : [`method: '${method}'`]),
    ...(jsHeaders.length === 0 ? [] : [`headers: { ${jsHeaders.join(', ')} }`]),
    ...(body === undefined ? [] : [`body: JSON.stringify(${body})`]),
  ]
  const javascript = [
    `const response = await fetch('${url}'${jsOptions.length === 0 ? '' : `, {\n  ${jsOptions.join(',\n  ')},\n}`})`,
    `console.log(response.status, await response.text())`,
  ].join('\n')

  const pyHeaders = [
    ...(credential === undefined ? [] : [`"${credential.name}": f"${credential.value}{os.environ['${credential.variable}']}"`]),
    ...(accept === undefined ? [] : [`"Accept": "${accept}"`]),
  ]
  const pyArguments = [
    `"${url}"`,
    ...(pyHeaders.length === 0 ? [] : [`headers={${pyHeaders.join(', ')}}`]),
    ...(body === undefined ? [] : [`json=${pythonLiteral(JSON.parse(body) as unknown)}`]),
  ]
  const python = [
    ...(credential === undefined ? [] : ['import os']),
    'import requests',
    '',
    `response = requests.${method.toLowerCase()}(${pyArguments.join(', ')})`,
    'print(response.status_code, response.text)',
  ].join('\n')

  return [
    { lang: 'Shell', label: 'curl', source: curl },
    { lang: 'JavaScript', label: 'JavaScript', source: javascript },
    { lang: 'Python', label: 'Python', source: python },
  ]
}

/** A JSON value written as a Python literal. */
function pythonLiteral(value: unknown): string {
  if (value === null) return 'None'
  if (value === true) return 'True'
  if (value === false) return 'False'
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`
  if (typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pythonLiteral(v)}`)
      .join(', ')}}`
  return JSON.stringify(value)
}

/**
 * The document with `x-codeSamples` on every operation.
 * @example withCodeSamples(doc, 'https://api.example.org').paths['/api/v1/verse/{slug}'].get['x-codeSamples'][0].label // 'curl'
 */
export function withCodeSamples(document: OpenApiDocument, baseUrl: string): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = Object.fromEntries(Object.entries(document.paths).map(([path, item]) => [path, { ...item }]))
  for (const operation of listOperations(document)) {
    const item = paths[operation.path]
    const method = operation.method.toLowerCase()
    const current = item?.[method]
    if (item === undefined || typeof current !== 'object' || current === null) continue
    item[method] = { ...current, 'x-codeSamples': codeSamplesOf(operation, baseUrl) }
  }
  return { ...document, paths }
}
