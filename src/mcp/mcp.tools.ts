/**
 * The MCP tools: names, descriptions, input and output schemas, as plain JSON Schema.
 *
 * This module is the one definition of the tools. The MCP server lists them from here and
 * validates arguments against `inputSchema`; the discovery files (server card,
 * `llms-full.txt`) are generated from it too, so what AI systems read can never drift from
 * what the server does.
 *
 * The output schemas are the REST resources of `openapi.yaml` (taken from the generated,
 * `$ref`-inlined component schemas) with a `citation` member added where the result
 * carries scripture.
 */
import { componentSchemas } from '../../generated/route-schemas.js'
import { portable } from './portable-schema.js'

/** A JSON Schema whose instances are objects (what MCP requires of input and output schemas). */
export interface JsonSchemaObject {
  readonly type: 'object'
  readonly properties?: Readonly<Record<string, unknown>>
  readonly required?: readonly string[]
  readonly [keyword: string]: unknown
}

/** One tool as `tools/list` describes it. */
export interface McpToolDefinition {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly inputSchema: JsonSchemaObject
  readonly outputSchema: JsonSchemaObject
  readonly annotations: { readonly readOnlyHint: true; readonly openWorldHint: false; readonly title?: string }
}

/** The names of the tools, in the order `tools/list` gives them. */
export type McpToolName = 'get_verse' | 'get_passage' | 'search_scripture' | 'resolve_reference' | 'list_narratives' | 'get_narrative'

const STYLE = {
  type: 'string',
  enum: ['faithful', 'casual', 'all'],
  default: 'faithful',
  description:
    'Which simplified modern-English text to include beside the KJV text: `faithful` (precise, keeps the structure), ' +
    '`casual` (a conversational retelling) or `all` (both). Default `faithful`.',
} as const

/** The citation an AI system shows with what it quotes. */
const CITATION = {
  type: 'object',
  description: 'How to cite this result: a ready-made line, and the source, licence and public page of each reference.',
  required: ['text', 'source', 'license', 'references'],
  additionalProperties: false,
  properties: {
    text: {
      type: 'string',
      description: 'A citation line to show with quoted text: source, version, references, URLs and licence.',
    },
    source: { type: 'string', description: 'The content provider.' },
    license: { type: 'string', description: 'The licence statement that applies to the quoted text.' },
    references: {
      type: 'array',
      description: 'Each cited reference with the public page of its (first) verse.',
      items: {
        type: 'object',
        required: ['reference', 'url'],
        additionalProperties: false,
        properties: {
          reference: { type: 'string' },
          url: { type: 'string', format: 'uri' },
        },
      },
    },
  },
} as const

/** A REST resource schema with the top-level `citation` member added. */
function withCitation(resource: JsonSchemaObject): JsonSchemaObject {
  return {
    ...resource,
    required: [...(resource.required ?? []), 'citation'],
    properties: { ...resource.properties, citation: CITATION },
  }
}

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const

/** Every tool, in the order `tools/list` gives them. */
export const MCP_TOOLS: readonly McpToolDefinition[] = [
  {
    name: 'get_verse',
    title: 'Get a Bible verse',
    description:
      'Returns one verse of the King James Version with its simplified modern-English text, by canonical slug ' +
      '(`john-3-16`) or by a reference as people write it ("John 3:16", "Jn 3:16", "1 Cor 13:4"). For more than one ' +
      'verse use get_passage. The result includes the attribution and a citation line to show with any quoted text. ' +
      "Counts as one query against the API key's monthly quota.",
    inputSchema: {
      type: 'object',
      required: ['reference'],
      additionalProperties: false,
      properties: {
        reference: {
          type: 'string',
          minLength: 1,
          maxLength: 500,
          description: 'A verse slug (`john-3-16`) or a free-text reference of exactly one verse ("John 3:16").',
        },
        style: STYLE,
      },
    },
    outputSchema: portable(withCitation(componentSchemas.Verse)),
    annotations: { ...READ_ONLY, title: 'Get a Bible verse' },
  },
  {
    name: 'get_passage',
    title: 'Get a Bible passage',
    description:
      'Returns the verses of a passage of the King James Version in order (at most 200 verses), each with its ' +
      'simplified modern-English text. Accepts a canonical passage slug (`john-3-16-18`, `psalms-23`, `genesis-1-1-2-3`) ' +
      'or a free-text reference ("Psalm 23", "1 Cor 13:4-7", "Romans 8:28, 31-39"). The result includes the ' +
      'attribution and a citation line to show with any quoted text. Counts as one query against the monthly quota.',
    inputSchema: {
      type: 'object',
      required: ['reference'],
      additionalProperties: false,
      properties: {
        reference: {
          type: 'string',
          minLength: 1,
          maxLength: 500,
          description: 'A passage slug (`john-3-16-18`) or a free-text reference ("John 3:16-18", "Psalm 23").',
        },
        style: STYLE,
      },
    },
    outputSchema: portable(withCitation(componentSchemas.Passage)),
    annotations: { ...READ_ONLY, title: 'Get a Bible passage' },
  },
  {
    name: 'search_scripture',
    title: 'Search the Bible',
    description:
      'Ranked full-text search over the King James Version and its simplified modern-English texts. Put phrases in ' +
      'double quotes (`"the lord is my shepherd"`); optionally restrict to one book. Returns the matching verses, ' +
      'best first, with highlighted snippets, the attribution and a citation line. Page with `cursor`. Counts as one ' +
      'query against the monthly quota.',
    inputSchema: {
      type: 'object',
      required: ['query'],
      additionalProperties: false,
      properties: {
        query: {
          type: 'string',
          minLength: 1,
          maxLength: 200,
          description: 'Words and "quoted phrases" to look for, e.g. `love neighbour` or `"in the beginning"`.',
        },
        book: {
          type: 'string',
          minLength: 1,
          maxLength: 64,
          description: 'Only verses of this book: a slug or an alias (`john`, `1-corinthians`, `1-cor`, `psalms`).',
        },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: 50,
          default: 10,
          description: 'How many verses to return, 1 to 50 (default 10).',
        },
        style: STYLE,
        cursor: {
          type: 'string',
          minLength: 1,
          maxLength: 200,
          description: 'The `next_cursor` of the previous page (valid only with the same query, style and book).',
        },
      },
    },
    outputSchema: portable(withCitation(componentSchemas.SearchResults)),
    annotations: { ...READ_ONLY, title: 'Search the Bible' },
  },
  {
    name: 'resolve_reference',
    title: 'Find Bible references in text',
    description:
      'Finds the Bible references in a piece of text as people write them ("Read Jn 3:16 and Romans 8:28, 31-39") and ' +
      "returns each one's canonical reference and slug, its verse ranges and verse count. Returns no scripture text " +
      '(use get_verse or get_passage with the slug for that) and does not count against the quota.',
    inputSchema: {
      type: 'object',
      required: ['text'],
      additionalProperties: false,
      properties: {
        text: {
          type: 'string',
          minLength: 1,
          maxLength: 500,
          description: 'The text to find references in, 1 to 500 characters.',
        },
      },
    },
    outputSchema: portable(componentSchemas.ReferenceResolution),
    annotations: { ...READ_ONLY, title: 'Find Bible references in text' },
  },
  {
    name: 'list_narratives',
    title: 'List Gospel narratives',
    description:
      'Lists the narrative units of the four Gospels (548 in all: events and teachings such as "Jesus Feeds the Five ' +
      'Thousand") in canonical order, with their references and the slugs of their parallels in the other Gospels. ' +
      'Filter by Gospel or by words of the title; page with `cursor`. Returns titles and references, no scripture ' +
      'text (use get_narrative for that), and does not count against the quota.',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        gospel: {
          type: 'string',
          enum: ['matthew', 'mark', 'luke', 'john'],
          description: 'Only the narratives of this Gospel.',
        },
        query: {
          type: 'string',
          minLength: 1,
          maxLength: 200,
          description: 'Words of the title, e.g. `sower` or `five thousand`.',
        },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: 100,
          default: 50,
          description: 'How many narratives to return, 1 to 100 (default 50).',
        },
        cursor: {
          type: 'string',
          minLength: 1,
          maxLength: 200,
          description: 'The `next_cursor` of the previous page.',
        },
      },
    },
    outputSchema: portable(componentSchemas.NarrativeList),
    annotations: { ...READ_ONLY, title: 'List Gospel narratives' },
  },
  {
    name: 'get_narrative',
    title: 'Get a Gospel narrative',
    description:
      'Returns one Gospel narrative by slug (from list_narratives, e.g. `john-jesus-feeds-five-thousand`): its title, ' +
      'a summary in the requested style, every verse with its simplified text, and its parallels in the other ' +
      'Gospels. The result includes the attribution and a citation line to show with any quoted text. Counts as ' +
      'one query against the monthly quota.',
    inputSchema: {
      type: 'object',
      required: ['slug'],
      additionalProperties: false,
      properties: {
        slug: {
          type: 'string',
          minLength: 1,
          maxLength: 200,
          description: "The narrative's slug, e.g. `john-jesus-feeds-five-thousand`.",
        },
        style: STYLE,
      },
    },
    outputSchema: portable(withCitation(componentSchemas.Narrative)),
    annotations: { ...READ_ONLY, title: 'Get a Gospel narrative' },
  },
] satisfies readonly (McpToolDefinition & { readonly name: McpToolName })[]
