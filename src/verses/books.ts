/**
 * The 66 books of the KJV canon in canonical order, with the aliases that slugs and
 * references may use for them. Versification (chapters and verse counts) is not here:
 * it comes from the seeded text itself, so the two can never disagree.
 */

/** A book of the canon. */
export interface BookInfo {
  /** 1 (Genesis) to 66 (Revelation). */
  readonly position: number
  /** The KJV book name as used in references, e.g. "Song of Solomon". */
  readonly name: string
  /** Lower-case, hyphen-separated, e.g. `song-of-solomon`. */
  readonly slug: string
  readonly osis: string
  readonly testament: 'old' | 'new'
  /** Extra names and abbreviations accepted in slugs, beyond the name, slug and OSIS id. */
  readonly aliases: readonly string[]
}

type Row = readonly [name: string, osis: string, aliases: readonly string[]]

const OLD: readonly Row[] = [
  ['Genesis', 'Gen', ['ge', 'gn']],
  ['Exodus', 'Exod', ['ex', 'exo']],
  ['Leviticus', 'Lev', ['le', 'lv']],
  ['Numbers', 'Num', ['nu', 'nm', 'nb']],
  ['Deuteronomy', 'Deut', ['de', 'dt']],
  ['Joshua', 'Josh', ['jos', 'jsh']],
  ['Judges', 'Judg', ['jdg', 'jg', 'jdgs']],
  ['Ruth', 'Ruth', ['rth', 'ru']],
  ['1 Samuel', '1Sam', ['1sa', '1sm', '1s', 'isamuel', 'firstsamuel', '1kingdoms']],
  ['2 Samuel', '2Sam', ['2sa', '2sm', '2s', 'iisamuel', 'secondsamuel', '2kingdoms']],
  ['1 Kings', '1Kgs', ['1ki', '1kin', '1k', 'ikings', 'firstkings']],
  ['2 Kings', '2Kgs', ['2ki', '2kin', '2k', 'iikings', 'secondkings']],
  ['1 Chronicles', '1Chr', ['1ch', '1chron', 'ichronicles', 'firstchronicles']],
  ['2 Chronicles', '2Chr', ['2ch', '2chron', 'iichronicles', 'secondchronicles']],
  ['Ezra', 'Ezra', ['ezr']],
  ['Nehemiah', 'Neh', ['ne']],
  ['Esther', 'Esth', ['est', 'es']],
  ['Job', 'Job', ['jb']],
  ['Psalms', 'Ps', ['psalm', 'psa', 'pss', 'psm', 'pslm']],
  ['Proverbs', 'Prov', ['pro', 'prv', 'pr', 'proverb']],
  ['Ecclesiastes', 'Eccl', ['ecc', 'eccles', 'ec', 'qoheleth']],
  ['Song of Solomon', 'Song', ['songofsongs', 'sos', 'so', 'canticles', 'canticleofcanticles', 'sg', 'sng']],
  ['Isaiah', 'Isa', ['is']],
  ['Jeremiah', 'Jer', ['je', 'jr']],
  ['Lamentations', 'Lam', ['la']],
  ['Ezekiel', 'Ezek', ['eze', 'ezk']],
  ['Daniel', 'Dan', ['da', 'dn']],
  ['Hosea', 'Hos', ['ho']],
  ['Joel', 'Joel', ['jl']],
  ['Amos', 'Amos', ['am']],
  ['Obadiah', 'Obad', ['ob', 'oba']],
  ['Jonah', 'Jonah', ['jnh', 'jon']],
  ['Micah', 'Mic', ['mc']],
  ['Nahum', 'Nah', ['na']],
  ['Habakkuk', 'Hab', ['hb']],
  ['Zephaniah', 'Zeph', ['zep', 'zp']],
  ['Haggai', 'Hag', ['hg']],
  ['Zechariah', 'Zech', ['zec', 'zc']],
  ['Malachi', 'Mal', ['ml']],
]

const NEW: readonly Row[] = [
  ['Matthew', 'Matt', ['mt', 'mat']],
  ['Mark', 'Mark', ['mk', 'mrk', 'mr']],
  ['Luke', 'Luke', ['lk', 'luk']],
  ['John', 'John', ['jn', 'jhn', 'joh']],
  ['Acts', 'Acts', ['ac', 'act', 'actsoftheapostles']],
  ['Romans', 'Rom', ['ro', 'rm']],
  ['1 Corinthians', '1Cor', ['1co', 'icorinthians', 'firstcorinthians']],
  ['2 Corinthians', '2Cor', ['2co', 'iicorinthians', 'secondcorinthians']],
  ['Galatians', 'Gal', ['ga']],
  ['Ephesians', 'Eph', ['ephes']],
  ['Philippians', 'Phil', ['php', 'pp']],
  ['Colossians', 'Col', ['co']],
  ['1 Thessalonians', '1Thess', ['1th', '1thes', 'ithessalonians', 'firstthessalonians']],
  ['2 Thessalonians', '2Thess', ['2th', '2thes', 'iithessalonians', 'secondthessalonians']],
  ['1 Timothy', '1Tim', ['1ti', 'itimothy', 'firsttimothy']],
  ['2 Timothy', '2Tim', ['2ti', 'iitimothy', 'secondtimothy']],
  ['Titus', 'Titus', ['tit', 'ti']],
  ['Philemon', 'Phlm', ['philem', 'phm', 'phile']],
  ['Hebrews', 'Heb', ['he']],
  ['James', 'Jas', ['jm', 'jam']],
  ['1 Peter', '1Pet', ['1pe', '1pt', '1p', 'ipeter', 'firstpeter']],
  ['2 Peter', '2Pet', ['2pe', '2pt', '2p', 'iipeter', 'secondpeter']],
  ['1 John', '1John', ['1jn', '1jo', '1jhn', 'ijohn', 'firstjohn']],
  ['2 John', '2John', ['2jn', '2jo', '2jhn', 'iijohn', 'secondjohn']],
  ['3 John', '3John', ['3jn', '3jo', '3jhn', 'iiijohn', 'thirdjohn']],
  ['Jude', 'Jude', ['jud', 'jd']],
  ['Revelation', 'Rev', ['re', 'rv', 'revelations', 'apocalypse', 'revelationofjohn']],
]

/** Lower-case and hyphenate a book name: "1 Corinthians" -> "1-corinthians". */
function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}

/** The 66 books in canonical order. */
export const BOOKS: readonly BookInfo[] = Object.freeze(
  [...OLD.map((row) => [row, 'old'] as const), ...NEW.map((row) => [row, 'new'] as const)].map(([[name, osis, aliases], testament], index) =>
    Object.freeze({ position: index + 1, name, slug: slugify(name), osis, testament, aliases }),
  ),
)

/** Collapses a book token for lookup: case, spaces, hyphens, dots and underscores are ignored. */
export function bookKey(token: string): string {
  return token.toLowerCase().replace(/[\s._-]+/g, '')
}

const BY_KEY: ReadonlyMap<string, BookInfo> = (() => {
  const map = new Map<string, BookInfo>()
  for (const book of BOOKS) {
    for (const name of [book.name, book.slug, book.osis, ...book.aliases]) {
      const key = bookKey(name)
      const existing = map.get(key)
      // Two books claiming one alias would make a slug ambiguous; fail at load, not at request time.
      if (existing !== undefined && existing !== book) {
        throw new Error(`book alias "${name}" is claimed by ${existing.name} and ${book.name}`)
      }
      map.set(key, book)
    }
  }
  return map
})()

/**
 * Finds a book by name, slug, OSIS id or alias, ignoring case, spaces, hyphens and dots.
 * @example findBook('1cor')?.slug // '1-corinthians'
 */
export function findBook(token: string): BookInfo | undefined {
  return BY_KEY.get(bookKey(token))
}

/** The book at a canonical position (1 to 66). */
export function bookAt(position: number): BookInfo | undefined {
  return BOOKS[position - 1]
}
