/**
 * The rules of the MCP tools, apart from the protocol: checking arguments against the tools'
 * input schemas, answering each tool from the same services as the REST API, and saying
 * which calls count (those that return scripture) and which verses they served.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import type { components } from '../../generated/api-types.js'
import { AppError } from '../errors.js'
import type { Gospel } from '../narratives/narrative.store.js'
import type { NarrativesService } from '../narratives/narratives.service.js'
import type { PassagesService } from '../passages/passages.service.js'
import type { SearchService } from '../search/search.service.js'
import type { StyleSelector, VersesService } from '../verses/verses.service.js'
import { citation, narrativeListText, narrativeText, passageText, resolutionText, searchText, verseText, type CitationSource } from './mcp.render.js'
import { MCP_TOOLS, type JsonSchemaObject, type McpToolName } from './mcp.tools.js'

type Verse = components['schemas']['Verse']

/** The services the tools read from (the same ones the REST routes use). */
export interface McpToolsDeps {
  readonly verses: Pick<VersesService, 'find' | 'byId' | 'toResource'>
  readonly passages: Pick<PassagesService, 'resolve' | 'select' | 'toResource'>
  readonly narratives: Pick<NarrativesService, 'list' | 'find' | 'notFound' | 'toResource'>
  readonly search: Pick<SearchService, 'search'>
  readonly citation: CitationSource
}

/** The result of a successful call. */
export interface ToolOutcome {
  /** The structured content; it validates against the tool's output schema. */
  readonly structured: Record<string, unknown>
  /** The text rendering, ending with the citation line when it carries scripture. */
  readonly text: string
  /** Present when the call returned scripture: it counts as one query with this style. */
  readonly served?: { readonly style: StyleSelector; readonly verseIds: readonly number[] }
}

/** Arguments that passed the input schema (their exact shape is the schema's). */
type Args = Readonly<Record<string, unknown>>

/** Tools whose successful calls return scripture and so count against the quota. */
const COUNTED: ReadonlySet<McpToolName> = new Set<McpToolName>(['get_verse', 'get_passage', 'search_scripture', 'get_narrative'])

/** Runs the MCP tools. */
export class McpToolsService {
  private readonly schemas: ReadonlyMap<string, JsonSchemaObject> = new Map(MCP_TOOLS.map((tool) => [tool.name, tool.inputSchema]))
  /** Each tool's validator, compiled at its first call (compiling them all was part of every start's time to ready). */
  private readonly validators = new Map<string, ValidateFunction>()
  private ajv: Ajv | undefined

  constructor(private readonly deps: McpToolsDeps) {}

  /** Whether a tool of this name exists. */
  has(name: string): name is McpToolName {
    return this.schemas.has(name)
  }

  /** Whether a successful call of this tool counts as a query (it returns scripture). */
  counts(name: string): boolean {
    return (COUNTED as ReadonlySet<string>).has(name)
  }

  /**
   * Checks arguments against the tool's input schema.
   * @returns undefined when they are valid, else a message naming each bad argument.
   */
  invalidArguments(name: McpToolName, args: unknown): string | undefined {
    const validate = this.validatorOf(name)
    if (validate(args)) return undefined
    const problems = [...new Set((validate.errors ?? []).map(describe))]
    return `Invalid arguments for ${name}: ${problems.join('; ')}.`
  }

  private validatorOf(name: McpToolName): ValidateFunction {
    const known = this.validators.get(name)
    if (known !== undefined) return known
    const schema = this.schemas.get(name)
    if (schema === undefined) throw new Error(`no input schema for ${name}`)
    this.ajv ??= new Ajv({ allErrors: true, strict: true })
    const compiled = this.ajv.compile(schema)
    this.validators.set(name, compiled)
    return compiled
  }

  /**
   * Runs a tool on arguments that passed `invalidArguments`.
   * @throws AppError with a detail for the model (unknown reference, bad cursor...).
   */
  async run(name: McpToolName, args: Args): Promise<ToolOutcome> {
    switch (name) {
      case 'get_verse':
        return this.getVerse(String(args.reference), styleOf(args))
      case 'get_passage':
        return this.getPassage(String(args.reference), styleOf(args))
      case 'search_scripture':
        return this.searchScripture(args)
      case 'resolve_reference':
        return this.resolveReference(String(args.text))
      case 'list_narratives':
        return this.listNarratives(args)
      case 'get_narrative':
        return this.getNarrative(String(args.slug), styleOf(args))
    }
  }

  private getVerse(reference: string, style: StyleSelector): ToolOutcome {
    const { verses, passages } = this.deps
    let record = verses.find(reference)
    if (record === undefined) {
      const selection = selectForVerse(passages, reference)
      const [only, ...more] = selection.verseIds
      if (only === undefined || more.length > 0) {
        throw new AppError(
          'invalid_parameter',
          `reference "${reference.slice(0, 100)}" names ${selection.verseIds.length} verses (${selection.reference}); get_verse returns one verse: use get_passage for more.`,
        )
      }
      record = verses.byId(only)
    }
    const verse = verses.toResource(record, style)
    const cite = citation(this.deps.citation, [{ reference: verse.reference, url: verse.attribution.url }])
    return { structured: { ...verse, citation: cite }, text: verseText(verse, cite), served: { style, verseIds: [record.id] } }
  }

  private getPassage(reference: string, style: StyleSelector): ToolOutcome {
    const selection = this.deps.passages.select(reference)
    const passage = this.deps.passages.toResource(selection, style)
    const urls = new Map(passage.verses.map((v) => [v.slug, v.attribution.url]))
    const cite = citation(
      this.deps.citation,
      passage.ranges.map((r) => ({ reference: r.reference, url: urls.get(r.start) ?? pageOf(passage.verses[0]) })),
    )
    return { structured: { ...passage, citation: cite }, text: passageText(passage, cite), served: { style, verseIds: selection.verseIds } }
  }

  private async searchScripture(args: Args): Promise<ToolOutcome> {
    const style = styleOf(args)
    const results = await this.deps.search.search({
      q: String(args.query),
      style,
      limit: typeof args.limit === 'number' ? args.limit : 10,
      ...(typeof args.book === 'string' ? { book: args.book } : {}),
      ...(typeof args.cursor === 'string' ? { cursor: args.cursor } : {}),
    })
    const cite = citation(
      this.deps.citation,
      results.data.map((hit) => ({ reference: hit.reference, url: hit.attribution.url })),
    )
    const verseIds = results.data.flatMap((hit) => this.deps.verses.find(hit.slug)?.id ?? [])
    // A search counts like its REST counterpart: once, even when nothing matches.
    return { structured: { ...results, citation: cite }, text: searchText(results, cite), served: { style, verseIds } }
  }

  private resolveReference(text: string): ToolOutcome {
    const resolution = { query: text, references: this.deps.passages.resolve(text) }
    return { structured: resolution, text: resolutionText(resolution) }
  }

  private listNarratives(args: Args): ToolOutcome {
    const list = this.deps.narratives.list({
      limit: typeof args.limit === 'number' ? args.limit : 50,
      ...(typeof args.gospel === 'string' ? { gospel: args.gospel as Gospel } : {}),
      ...(typeof args.query === 'string' ? { q: args.query } : {}),
      ...(typeof args.cursor === 'string' ? { cursor: args.cursor } : {}),
    })
    return { structured: list, text: narrativeListText(list) }
  }

  private getNarrative(slug: string, style: StyleSelector): ToolOutcome {
    const record = this.deps.narratives.find(slug)
    if (record === undefined) throw this.deps.narratives.notFound(slug)
    const narrative = this.deps.narratives.toResource(record, style)
    const cite = citation(this.deps.citation, [{ reference: narrative.reference, url: pageOf(narrative.verses[0]) }])
    return { structured: { ...narrative, citation: cite }, text: narrativeText(narrative, cite), served: { style, verseIds: record.verseIds } }
  }
}

function styleOf(args: Args): StyleSelector {
  return args.style === 'casual' || args.style === 'all' ? args.style : 'faithful'
}

/**
 * The verses a get_verse reference names, with the errors worded for one verse: the passage
 * finder's own speak of passages.
 * @throws AppError verse_not_found when it names no verse, invalid_parameter when too many.
 */
function selectForVerse(passages: McpToolsDeps['passages'], reference: string): ReturnType<McpToolsDeps['passages']['select']> {
  try {
    return passages.select(reference)
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    const quoted = `"${reference.slice(0, 100)}"`
    if (error.code === 'passage_not_found') {
      throw new AppError('verse_not_found', `No verse of the KJV matches ${quoted}. Use a slug such as john-3-16 or a reference such as "John 3:16".`)
    }
    if (error.code === 'passage_too_long') {
      throw new AppError('invalid_parameter', `reference ${quoted} names many verses; get_verse returns one verse: use get_passage (up to 200 verses).`)
    }
    throw error
  }
}

/** The public page of a passage's or narrative's first verse. */
function pageOf(verse: Verse | undefined): string {
  if (verse === undefined) throw new Error('a passage without verses')
  return verse.attribution.url
}

/** One schema violation, naming the argument. */
function describe(error: ErrorObject): string {
  const argument = error.instancePath.replace(/^\//, '').replace(/\//g, '.')
  if (error.keyword === 'required') return `missing required argument "${String(error.params.missingProperty)}"`
  if (error.keyword === 'additionalProperties') return `unknown argument "${String(error.params.additionalProperty)}"`
  if (argument === '') return `arguments ${error.message ?? 'are invalid'}`
  if (error.keyword === 'enum') return `argument "${argument}" must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`
  return `argument "${argument}" ${error.message ?? 'is invalid'}`
}
