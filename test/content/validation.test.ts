/**
 * The content validation rules (src/content/validation.ts): each rule with passing and
 * failing cases on real KJV verses, hostile inputs, and the proper-name lists checked
 * against the whole KJV so that they cannot drift from the seed.
 */
import t from 'tap'
import { CLAUSE_START_NAMES, MAX_FIELD_LENGTH, NOT_NAMES, properNames, validateContent, type ValidationIssue } from '../../src/content/pipeline/validation.js'
import { countWords, splitSentences } from '../../src/text/plain-text.js'
import { kjv, SEED_VERSES } from '../helpers/kjv.js'

const verses = SEED_VERSES

const JOHN_3_16 = kjv(43, 3, 16)
const JOHN_3_1 = kjv(43, 3, 1)
const GENESIS_1_1 = kjv(1, 1, 1)
const MATTHEW_1_2 = kjv(40, 1, 2)
const MATTHEW_3_3 = kjv(40, 3, 3)
const LUKE_2_1 = kjv(42, 2, 1)
const PSALM_23_1 = kjv(19, 23, 1)
const JOHN_11_35 = kjv(43, 11, 35)
const JOHN_19_19 = kjv(43, 19, 19)
const ESTHER_8_9 = kjv(17, 8, 9)

/** A faithful John 3:16 that passes every rule; tests change one field at a time. */
const FAITHFUL_JOHN_3_16 = {
  simplified_text:
    'God loved the world so much that he gave his one and only Son, so that everyone who believes in him will not die but will have eternal life.',
  bottom_line: 'God loved the world so much that he gave his Son so we could live forever.',
  historical_context:
    'Jesus spoke these words to Nicodemus, a Jewish leader who came to him at night. In that culture, an only son carried the family name and its hopes.',
  practical_reflection: 'You are included in "the world" that God loves. Trust him today.',
}
const CASUAL_JOHN_3_16 = {
  simplified_text: 'God loved everybody so much that he gave his only Son, so anyone who trusts him gets life that never ends.',
  bottom_line: "God's love is big enough for everyone.",
}

const rules = (issues: readonly ValidationIssue[]): string[] => issues.map((i) => `${i.field}:${i.rule}`)
const faithful = (fields: Record<string, unknown>, text = JOHN_3_16): ValidationIssue[] =>
  validateContent('faithful', { ...FAITHFUL_JOHN_3_16, ...fields }, text)
const casual = (fields: Record<string, unknown>, text = JOHN_3_16): ValidationIssue[] => validateContent('casual', { ...CASUAL_JOHN_3_16, ...fields }, text)
const words = (n: number, word = 'word'): string => Array.from({ length: n }, () => word).join(' ')

t.test('the verses are the real KJV text', async (t) => {
  t.equal(JOHN_11_35, 'Jesus wept.')
  t.equal(countWords(JOHN_11_35), 2)
  t.equal(countWords(ESTHER_8_9), 90, 'Esther 8:9, the longest verse')
})

t.test('countWords', async (t) => {
  t.equal(countWords(''), 0)
  t.equal(countWords('   \t '), 0)
  t.equal(countWords('God so loved the world'), 5)
  t.equal(countWords('  God   so\tloved\nthe world  '), 5, 'any whitespace separates')
  t.equal(countWords('Wait — what ... ? !'), 2, 'tokens without a letter or digit are not words')
  t.equal(countWords('John 3:16 says "God loves."'), 5, 'numbers and quoted words count')
  t.equal(countWords("don't Israel's Beth-el"), 3)
  t.equal(countWords('Cæsar Ésaïe 神'), 3, 'non-ASCII letters are letters')
})

t.test('splitSentences', async (t) => {
  t.same(splitSentences(''), [])
  t.same(splitSentences('...'), [], 'no letters, no sentence')
  t.same(splitSentences('God loves you'), ['God loves you'], 'a last sentence needs no full stop')
  t.same(splitSentences('God loves you. Trust him! Will you?'), ['God loves you.', 'Trust him!', 'Will you?'])
  t.same(splitSentences('He said, "Go." Then he left.'), ['He said, "Go."', 'Then he left.'], 'closing quotes stay with the sentence')
  t.same(splitSentences('(See the note.) Then read on.'), ['(See the note.)', 'Then read on.'])
  t.equal(splitSentences('"Go!" he said, and they went.').length, 1, 'lower case after ! continues')
  t.equal(splitSentences('Some books, e.g. Romans, explain this.').length, 1, 'e.g.')
  t.equal(splitSentences('The gift, i.e. eternal life, is free.').length, 1, 'i.e.')
  t.equal(splitSentences('St. Paul wrote to Rome.').length, 1, 'St.')
  t.equal(splitSentences('Jesus taught on Mt. Zion and Mt. Olivet.').length, 1, 'Mt.')
  t.equal(splitSentences('Herod died in 4 B.C. Jesus was a child then.').length, 1, 'B.C. is taken as an abbreviation (lenient)')
  t.equal(splitSentences('Paul wrote around A.D. 55 from Ephesus.').length, 1, 'A.D.')
  t.equal(splitSentences('It was written c. 90 by John.').length, 1, 'c.')
  t.equal(splitSentences('C. S. Lewis loved this verse.').length, 1, 'initials')
  t.equal(splitSentences('John 3.16 is well known. It is short.').length, 2, 'a decimal is not a stop')
  t.equal(splitSentences('Compare Gen. 1:1 and Ps. 23:1 here.').length, 1, 'book abbreviations before a number')
  t.equal(splitSentences('He belonged to the tribe of Dan. Then he moved.').length, 2, 'a book abbreviation not before a number ends the sentence')
  t.equal(splitSentences('He waited... Then he spoke.').length, 1, 'an ellipsis never ends a sentence')
  t.equal(splitSentences('He waited… and then he spoke.').length, 1, 'nor does the ellipsis character')
  t.equal(splitSentences('God saw it. It was good. He rested. He blessed it. He made it holy.').length, 5)
  t.equal(splitSentences('Really?! Yes.').length, 2)
  t.equal(splitSentences('as did I. Then we left.').length, 2, '"I." ends a sentence')
})

t.test('properNames', async (t) => {
  t.same(properNames(JOHN_3_16), [], 'God and Son are divine titles; "For" starts the sentence')
  t.same(properNames(GENESIS_1_1), [])
  t.same(properNames(PSALM_23_1), [], 'LORD and I are not names')
  t.same(properNames(kjv(43, 1, 1)), [], 'the Word is a title')
  t.same(properNames(JOHN_3_1), ['Pharisees', 'Nicodemus', 'Jews'], 'a name after a comma is still a name')
  t.same(properNames(JOHN_11_35), ['Jesus'], 'a name starting the verse is still a name')
  t.same(properNames(MATTHEW_1_2), ['Abraham', 'Isaac', 'Jacob', 'Judas'], 'each name once')
  t.same(properNames(LUKE_2_1), ['Cæsar', 'Augustus'])
  t.same(properNames(ESTHER_8_9), ['Sivan', 'Mordecai', 'Jews', 'India', 'Ethiopia'], "possessive lower case (king's) is no name")
  t.same(properNames(MATTHEW_3_3), ['Esaias'], 'quotation openings (The, Prepare) and Lord are not names')
  t.same(properNames(JOHN_19_19), ['Pilate', 'Jesus', 'Nazareth', 'Jews'], 'words in capitals: names kept, OF/THE/KING not')
  t.same(properNames(kjv(40, 1, 1)), ['Jesus', 'Christ', 'David', 'Abraham'], 'Christ is required')
  t.same(properNames(kjv(1, 32, 28)), ['Jacob', 'Israel'], 'Thy at a clause start is no name')
  t.same(properNames("the children of Israel's"), ['Israel'], 'possessive removed')
  t.same(properNames(''), [])
})

t.test('a valid faithful and casual text pass', async (t) => {
  t.same(validateContent('faithful', FAITHFUL_JOHN_3_16, JOHN_3_16), [])
  t.same(validateContent('casual', CASUAL_JOHN_3_16, JOHN_3_16), [])
  const nicodemus = {
    simplified_text: 'There was a Pharisee named Nicodemus, a leader of the Jewish people.',
    bottom_line: 'Even a respected religious leader had questions for Jesus.',
    historical_context:
      'The Pharisees were a strict group who studied the Law of Moses closely. As a member of the ruling council, Nicodemus had much to lose by visiting Jesus.',
    practical_reflection: 'Honest questions are a good place to start. What would you ask Jesus?',
  }
  t.same(validateContent('faithful', nicodemus, JOHN_3_1), [])
})

t.test('required: missing, empty, whitespace-only, non-string', async (t) => {
  t.same(rules(faithful({ historical_context: undefined })), ['historical_context:required'])
  t.same(rules(validateContent('casual', { simplified_text: CASUAL_JOHN_3_16.simplified_text }, JOHN_3_16)), ['bottom_line:required'])
  t.same(rules(faithful({ bottom_line: null })), ['bottom_line:required'], 'null is missing')
  const empty = faithful({ bottom_line: '' })
  t.same(rules(empty), ['bottom_line:required'])
  t.match(empty[0]?.message, /is empty/)
  const blank = faithful({ practical_reflection: ' \t\u00a0\u3000 ' })
  t.same(rules(blank), ['practical_reflection:required'], 'Unicode spaces are whitespace')
  t.match(blank[0]?.message, /only whitespace/)
  t.same(rules(faithful({ simplified_text: 42 })), ['simplified_text:type'])
  t.same(rules(faithful({ simplified_text: ['God', 'loves'] })), ['simplified_text:type'])
  t.same(rules(faithful({ bottom_line: { text: 'x' } })), ['bottom_line:type'])
  t.same(rules(faithful({ bottom_line: true })), ['bottom_line:type'])
  t.match(faithful({ bottom_line: true })[0]?.message, /not a boolean/)
  t.same(rules(validateContent('casual', {}, JOHN_3_16)), ['simplified_text:required', 'bottom_line:required'])
  t.same(rules(faithful({ bottom_line: '  God loves you.  ' })), [], 'surrounding whitespace is trimmed')
})

t.test('unexpected fields and unknown style', async (t) => {
  t.same(rules(casual({ historical_context: 'A fine context.' })), ['historical_context:unexpected_field'], 'casual has no context')
  t.same(rules(casual({ practical_reflection: 'x.', Bottom_Line: 'x' })), ['Bottom_Line:unexpected_field', 'practical_reflection:unexpected_field'])
  t.same(rules(faithful({ slug: 'john-3-16' })), ['slug:unexpected_field'], 'only content fields are passed')
  t.same(rules(faithful({ __proto__: 'x' })), [], 'an object literal __proto__ is not a key')
  t.same(rules(faithful(JSON.parse('{"__proto__": "x"}') as Record<string, unknown>)), ['__proto__:unexpected_field'], 'a JSON __proto__ key is one')
  t.same(rules(validateContent('modern' as 'casual', CASUAL_JOHN_3_16, JOHN_3_16)), ['style:unknown_style'])
  t.same(rules(validateContent('toString' as 'casual', CASUAL_JOHN_3_16, JOHN_3_16)), ['style:unknown_style'], 'no prototype lookup')
  t.same(rules(validateContent('casual', null as unknown as Record<string, unknown>, JOHN_3_16)), ['(content):type'])
  t.same(rules(validateContent('casual', ['x'] as unknown as Record<string, unknown>, JOHN_3_16)), ['(content):type'])
  t.throws(() => validateContent('casual', CASUAL_JOHN_3_16, '  '), RangeError, 'a verse without words is a caller error')
})

t.test('bottom_line: one sentence of at most 30 words', async (t) => {
  const two = faithful({ bottom_line: 'God loves the world. He gave his Son.' })
  t.same(rules(two), ['bottom_line:bottom_line_sentences'])
  t.match(two[0]?.message, /found 2: "God loves the world\.", "He gave his Son\."/)
  t.same(rules(casual({ bottom_line: 'God loves you, e.g. when you fail, and St. Paul knew it.' })), [], 'abbreviations are no sentence end')
  t.same(rules(casual({ bottom_line: 'God loves... even you.' })), [], 'an ellipsis is no sentence end')
  t.same(rules(casual({ bottom_line: 'God loves you' })), ['bottom_line:final_punctuation'], 'one sentence without a full stop (final_punctuation asks for it)')
  t.same(rules(casual({ bottom_line: '?!' })), ['bottom_line:bottom_line_sentences', 'bottom_line:first_letter'], 'punctuation alone is no sentence')
  t.same(rules(casual({ bottom_line: `Love ${words(29, 'love')}.` })), [], '30 words')
  const long = casual({ bottom_line: `Love ${words(30, 'love')}.` })
  t.same(rules(long), ['bottom_line:bottom_line_words'])
  t.match(long[0]?.message, /has 31 words; at most 30/)
  t.same(rules(casual({ bottom_line: `Love ${words(29, 'love')} — !` })), [], 'a dash is not a word')
})

t.test('historical_context and practical_reflection: 1 to 4 sentences', async (t) => {
  t.same(rules(faithful({ historical_context: 'Nicodemus was a Pharisee.' })), [], '1 sentence')
  t.same(rules(faithful({ practical_reflection: 'One. Two. Three. Four.' })), [], '4 sentences')
  const five = faithful({ practical_reflection: 'One. Two. Three. Four. Five.' })
  t.same(rules(five), ['practical_reflection:sentence_count'])
  t.match(five[0]?.message, /has 5 sentences; 1 to 4/)
  t.same(rules(faithful({ historical_context: '...' })), ['historical_context:sentence_count', 'historical_context:first_letter'], 'no sentence at all')
  t.same(
    rules(
      faithful({
        historical_context: 'John wrote c. 90 A.D. in Ephesus, i.e. late. Mt. Zion, St. Peter and Gen. 3:15 matter... a lot. See John 3.16. It is clear.',
      }),
    ),
    [],
    'abbreviations, numbers and ellipses do not inflate the count (4 sentences)',
  )
  t.same(rules(casual({ bottom_line: 'One.' })), [], 'casual has no sentence-count fields')
})

t.test('simplified_text: 0.5 to 2.5 times the KJV word count', async (t) => {
  // John 11:35 has 2 words: 1 to 5 are allowed.
  t.same(rules(casual({ simplified_text: 'Jesus!', bottom_line: 'Jesus cared.' }, JOHN_11_35)), [], '1 word (0.5 times)')
  t.same(rules(casual({ simplified_text: 'Jesus cried.' }, JOHN_11_35)), [])
  t.same(rules(casual({ simplified_text: 'Jesus began to cry openly.' }, JOHN_11_35)), [], '5 words (2.5 times)')
  const six = casual({ simplified_text: 'Jesus began to cry very openly.' }, JOHN_11_35)
  t.same(rules(six), ['simplified_text:length_ratio'])
  t.match(six[0]?.message, /has 6 words for a KJV verse of 2 words \(3\.00 times\); it must have 1 to 5 words/)
  // Esther 8:9 has 90 words: 45 to 225.
  // Its names and its numbers (the third month, the twenty-third day, 127 provinces).
  const kept = 'Mordecai Sivan Jews India Ethiopia third twenty-third 127'
  const esther = (n: number): ValidationIssue[] => casual({ simplified_text: `${kept} ${words(n - 8)}.` }, ESTHER_8_9)
  t.same(rules(esther(45)), [])
  t.same(rules(esther(44)), ['simplified_text:length_ratio'])
  t.same(rules(esther(225)), [])
  t.same(rules(esther(226)), ['simplified_text:length_ratio'])
  t.same(rules(faithful({ simplified_text: 'God loves.' })), ['simplified_text:length_ratio'], 'John 3:16 has 25 words: 13 needed')
})

t.test('proper names are kept in simplified_text, in both styles', async (t) => {
  const missing = casual({ simplified_text: 'There was a man from the Pharisees, a leader of the Jews.' }, JOHN_3_1)
  t.same(rules(missing), ['simplified_text:proper_names'])
  t.match(missing[0]?.message, /missing "Nicodemus"$/)
  const faithfulMissing = validateContent(
    'faithful',
    { ...FAITHFUL_JOHN_3_16, simplified_text: 'There was a man of the strict religious group, called Nico, a ruler of the people.' },
    JOHN_3_1,
  )
  t.same(rules(faithfulMissing), ['simplified_text:proper_names'])
  t.match(faithfulMissing[0]?.message, /missing "Pharisees", "Nicodemus", "Jews"/)
  t.same(rules(casual({ simplified_text: 'NICODEMUS was a pharisee and a jewish leader.' }, JOHN_3_1)), [], 'case, singular and -ish forms accepted')
  t.same(rules(casual({ simplified_text: "Nicodemus's friends: the Pharisees' leader among the Jews'." }, JOHN_3_1)), [], 'possessives accepted')
  t.same(rules(casual({ simplified_text: 'Jesus cried.' }, JOHN_11_35)), [])
  t.same(rules(casual({ simplified_text: 'He cried.' }, JOHN_11_35)), ['simplified_text:proper_names'], 'a verse-initial name is required')
  t.same(
    rules(casual({ simplified_text: 'Abraham was the father of Isaac, Isaac of Jacob, and Jacob of Judah and his brothers.' }, MATTHEW_1_2)),
    [],
    'Judah for Judas (equivalence table)',
  )
  const noAbraham = casual({ simplified_text: 'He was the father of Isaac, Isaac of Jacob, and Jacob of Judas and his brothers.' }, MATTHEW_1_2)
  t.same(rules(noAbraham), ['simplified_text:proper_names'])
  t.match(noAbraham[0]?.message, /missing "Abraham"$/)
  const luke = 'In those days the emperor NAME ordered a census of the whole Roman world.'
  t.same(rules(casual({ simplified_text: luke.replace('NAME', 'Caesar Augustus') }, LUKE_2_1)), [], 'Caesar for Cæsar')
  t.same(rules(casual({ simplified_text: luke.replace('NAME', 'Cæsar Augustus') }, LUKE_2_1)), [], 'the KJV spelling')
  const noCaesar = casual({ simplified_text: luke.replace('NAME', 'Augustus') }, LUKE_2_1)
  t.same(rules(noCaesar), ['simplified_text:proper_names'])
  t.match(noCaesar[0]?.message, /missing "Cæsar" \(or "Caesar"\)/, 'the message names the modern spelling')
  const isaiah = 'Isaiah the prophet spoke of him: a voice shouts in the desert, get the road ready for the Lord, make his paths straight.'
  t.same(rules(casual({ simplified_text: isaiah }, MATTHEW_3_3)), [], 'Isaiah for Esaias')
  t.same(rules(casual({ simplified_text: 'In the beginning God created the heavens and the earth.' }, GENESIS_1_1)), [], 'no names to keep')
  t.same(rules(casual({ simplified_text: 'The Lord is my shepherd; I have all I need.' }, PSALM_23_1)), [])
  const jacob = kjv(1, 32, 28)
  t.same(
    rules(
      casual(
        { simplified_text: 'He said, "Your name will no longer be Jacob but Israelite, for you have struggled with God and with people and have won."' },
        jacob,
      ),
    ),
    [],
    'Israelite(s) for Israel',
  )
  t.same(rules(casual({ simplified_text: 'The story of Jesus the Messiah, son of David, son of Abraham.' }, kjv(40, 1, 1))), [], 'Messiah for Christ')
  const darius = kjv(27, 5, 31)
  t.same(rules(casual({ simplified_text: 'And Darius the Mede took over the kingdom when he was about sixty-two years old.' }, darius)), [], 'Mede for Median')
  t.same(
    rules(casual({ simplified_text: 'And Darius took over the kingdom when he was about sixty-two years old.' }, darius)),
    ['simplified_text:proper_names'],
    'Darius kept, the Mede left out',
  )
  t.same(
    rules(casual({ simplified_text: 'From Miletus he sent a message to Ephesus and called for the elders of the church.' }, kjv(44, 20, 17))),
    [],
    'Miletus for Miletum',
  )
  t.same(rules(casual({ simplified_text: 'Jacob went to Beth el.' }, 'And Jacob came to Beth-el.')), [], 'a hyphenated name written as two words')
  // Modern spellings of names whose KJV form is Greek or old English (Acts 16:1, 14:6; Luke 13:1, 23:51).
  t.same(
    rules(
      casual(
        {
          simplified_text:
            'Then Paul came to Derbe and Lystra, and a disciple named Timothy lived there, the son of a Jewish woman who believed, though his father was Greek.',
        },
        kjv(44, 16, 1),
      ),
    ),
    [],
    'Jewish for Jewess, Timothy for Timotheus',
  )
  t.same(
    rules(casual({ simplified_text: 'They realized it and fled to Lystra and Derbe, Lycaonian cities, and the region around.' }, kjv(44, 14, 6))),
    [],
    'Lycaonian for Lycaonia',
  )
  t.same(
    rules(
      casual(
        { simplified_text: 'Some people were there then who told him about the Galileans whose blood Pilate had mixed with their sacrifices.' },
        kjv(42, 13, 1),
      ),
    ),
    [],
    'Galileans for Galilæans',
  )
  t.same(
    rules(casual({ simplified_text: 'He came from Arimathea, a Jewish town, and he too waited for the kingdom of God.' }, kjv(42, 23, 51))),
    [],
    'Arimathea for Arimathæa',
  )
})

t.test("archaic forms: every field of both styles, by the guide's full list", async (t) => {
  for (const field of ['simplified_text', 'bottom_line', 'historical_context', 'practical_reflection'] as const) {
    const value =
      field === 'simplified_text'
        ? 'God so loved the world that he gave his only Son, so that whoever believeth in him will not die but have eternal life forever.'
        : field === 'bottom_line'
          ? 'God hath loved thee.'
          : 'God speaks unto you. He hath a plan.'
    const issues = faithful({ [field]: value })
    t.same(rules(issues), [`${field}:archaic_form`], field)
  }
  t.match(faithful({ bottom_line: 'God hath loved thee.' })[0]?.message, /archaic forms "hath", "thee"/)
  t.same(rules(casual({ bottom_line: 'God hath loved thee.' })), ['bottom_line:archaic_form'], 'casual too')
  const broad = casual({ bottom_line: 'Behold, it came to pass that mine eyes saw an holy house, brethren.' })
  t.same(rules(broad), ['bottom_line:archaic_form'])
  t.match(broad[0]?.message, /"behold", "it came to pass", "mine eyes", "an holy", "brethren"/)
  t.same(rules(casual({ bottom_line: 'The Holy Ghost came, and he gave up the ghost.' })), ['bottom_line:archaic_form'], 'phrases')
  t.same(
    rules(faithful({ historical_context: 'Jesus grew up in Nazareth, and Elizabeth was the mother of John. The priest Zechariah served in the east.' })),
    [],
    'names and ordinary words ending in -eth/-est are not archaic',
  )
  t.same(rules(casual({ bottom_line: 'The choice is mine to make, and an honest heir waits an hour.' })), [], '"mine" as a pronoun; "an" before a silent h')
  // A note may discuss a KJV word in quotation marks; no other field may.
  t.same(
    rules(faithful({ historical_context: 'The KJV\'s "Verily" renders the Hebrew amen; "brethren" means brothers and sisters.' })),
    [],
    'quoted in historical_context',
  )
  t.same(rules(faithful({ practical_reflection: 'The old word "brethren" includes everyone.' })), ['practical_reflection:archaic_form'], 'quoted elsewhere')
  t.same(rules(faithful({ historical_context: 'The word unto is old.' })), ['historical_context:archaic_form'], 'unquoted in historical_context')
})

t.test('markup is rejected', async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['God <b>loves</b> you.', /HTML\/XML tag "<b>"/],
    ['God loves you.<br/>', /HTML\/XML tag "<br\/>"/],
    ['God loves <!-- note --> you.', /HTML\/XML tag "<!--"/],
    ['God loves you &amp; me.', /HTML entity "&amp;"/],
    ['See [John 3:16](https://example.com) today.', /Markdown link "\[John 3:16\]\("/],
    ['See [this][1] today.', /Markdown link/],
    ['Read https://example.com today.', /URL "https:\/\/"/],
    ['Read www.example.com today.', /URL "www\.example\."/],
    ['God *loves* you.', /asterisk "\*"/],
    ['God **loves** you.', /asterisk/],
    ['God _loves_ you.', /underscore "_"/],
    ['God `loves` you.', /backtick/],
    ['God ~~hates~~ loves you.', /strikethrough/],
    ['# God loves you.', /heading, quote or list marker "#"/],
    ['> God loves you.', /heading, quote or list marker ">"/],
    ['- God loves you.', /heading, quote or list marker "-"/],
  ]
  for (const [text, message] of cases) {
    // A list marker or a tag at either end also breaks first_letter or final_punctuation.
    const issues = casual({ bottom_line: text }).filter((i) => i.rule === 'markup')
    t.same(rules(issues), ['bottom_line:markup'], text)
    t.match(issues[0]?.message, message, text)
  }
  t.same(rules(faithful({ historical_context: '<p>Jesus spoke to Nicodemus at night.</p>' })), [
    'historical_context:markup',
    'historical_context:first_letter',
    'historical_context:final_punctuation',
  ])
  t.match(casual({ bottom_line: 'God <i>loves</i> *you*.' })[0]?.message, /HTML\/XML tag "<i>", an asterisk "\*"; write plain text only/)
  for (const text of [
    'God loves you - and me.',
    'If 3 < 4 and 5 > 2, God still loves you.',
    'God loves [all] people.',
    'God loves you (and me).',
    'Love is #1 for God.',
    'God loves you; e.g. 100% & more.',
  ]) {
    t.same(rules(casual({ bottom_line: text })), [], `plain: ${text}`)
  }
})

t.test('line breaks and control characters are rejected', async (t) => {
  for (const lineBreak of ['\n', '\r\n', '\r', '\u2028', '\u2029', '\u000b', '\u0085']) {
    const issues = faithful({ practical_reflection: `Trust God.${lineBreak}He is faithful.` })
    const label = `U+${(lineBreak.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`
    t.same(rules(issues), ['practical_reflection:line_break'], label)
  }
  t.match(faithful({ practical_reflection: 'Trust God.\nHe is faithful.' })[0]?.message, /line break \(U\+000A\) at character 11/)
  t.same(rules(faithful({ practical_reflection: '\nTrust God.\n' })), [], 'leading and trailing line breaks are trimmed')
  for (const control of ['\t', '\u0000', '\u001b', '\u200b', '\ufeff', '\u007f']) {
    const label = `U+${(control.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`
    t.same(rules(casual({ bottom_line: `God${control} loves you.` })), ['bottom_line:control_character'], label)
  }
  t.same(rules(casual({ bottom_line: 'Dieu aime le monde — «\u00a0vraiment\u00a0» 😀.' })), [], 'non-ASCII text and no-break spaces are fine')
})

t.test('hostile inputs: 100 KB strings are reported, and validated without quadratic blow-ups', async (t) => {
  const big = 'God loves you. '.repeat(7000)
  t.ok(big.length > 100_000)
  const issues = validateContent('faithful', { simplified_text: big, bottom_line: big, historical_context: big, practical_reflection: big }, JOHN_3_16)
  t.ok(issues.some((i) => i.field === 'simplified_text' && i.rule === 'too_long'))
  t.match(issues.find((i) => i.rule === 'too_long')?.message, new RegExp(`is ${big.trim().length} characters long; at most ${MAX_FIELD_LENGTH}`))
  t.same([...new Set(rules(issues))].sort(), [
    'bottom_line:bottom_line_sentences',
    'bottom_line:bottom_line_words',
    'bottom_line:too_long',
    'historical_context:sentence_count',
    'historical_context:too_long',
    'practical_reflection:sentence_count',
    'practical_reflection:too_long',
    'simplified_text:length_ratio',
    'simplified_text:too_long',
  ])
  const messages = issues.map((i) => i.message).join('\n')
  t.ok(messages.length < 5000, 'messages quote at most a short excerpt')
  // Inputs that make careless regular expressions quadratic.
  for (const piece of ['<a', '[', '&a', '.', '...', '*', 'a.', ' ', 'http', 'A.']) {
    const text = piece.repeat(Math.ceil(100_000 / piece.length))
    validateContent('faithful', { simplified_text: text, bottom_line: text, historical_context: text, practical_reflection: text }, ESTHER_8_9)
  }
  // No wall-clock bound (the suite must pass on a loaded machine): a quadratic expression on
  // these inputs takes hours, which the test's own timeout turns into a failure.
  t.pass('every hostile input was validated')
})

t.test('the proper-name lists agree with the whole KJV', async (t) => {
  // Recomputes CLAUSE_START_NAMES from the seed: capitalised words at a clause start or in
  // capitals that never occur in lower case, less NOT_NAMES.
  const word = /\p{L}+(?:['’-]\p{L}+)*/gu
  const lower = new Set<string>()
  const atStart = new Set<string>()
  const inside = new Set<string>()
  for (const { text } of verses) {
    let previousEnd = -1
    for (const match of text.matchAll(word)) {
      const gap = previousEnd < 0 ? null : text.slice(previousEnd, match.index)
      previousEnd = match.index + match[0].length
      const w = match[0].replace(/['’]s$/u, '')
      if (!/^\p{Lu}/u.test(w)) {
        lower.add(w.toLowerCase())
        continue
      }
      const caps = w.length > 1 && w === w.toUpperCase()
      const key = caps ? w.charAt(0) + w.slice(1).toLowerCase() : w
      ;(caps || gap === null || /[.?!:;,(“"‘]/u.test(gap) ? atStart : inside).add(key)
    }
  }
  const expected = [...atStart].filter((w) => !lower.has(w.toLowerCase()) && !NOT_NAMES.has(w)).sort()
  t.same([...CLAUSE_START_NAMES].sort(), expected, 'CLAUSE_START_NAMES is exactly the names found at clause starts')
  // Capitalised words inside a clause are names unless listed in NOT_NAMES. Those that also
  // occur in lower case were each reviewed: these are names (Lot, the Red sea, the mount of
  // Olives, the gate called Beautiful, the king So).
  const reviewed = [
    'Beautiful',
    'Ephah',
    'Hen',
    'Legion',
    'Lot',
    'Mark',
    'Olives',
    'On',
    'Passover',
    'Psalms',
    'Ram',
    'Red',
    'Shittim',
    'Sin',
    'So',
    'Straight',
    'Wormwood',
  ]
  const unreviewed = [...inside].filter((w) => lower.has(w.toLowerCase()) && !NOT_NAMES.has(w) && !reviewed.includes(w))
  t.same(unreviewed, [], 'every capitalised common word inside a clause is decided')
  // A verse's own text keeps all its names, so the rule can always be met.
  const failing = verses.filter((v) => {
    const issues = validateContent('casual', { simplified_text: v.text, bottom_line: 'Fine.' }, v.text)
    return issues.some((i) => i.rule === 'proper_names')
  })
  t.same(
    failing.map((v) => `${v.b}.${v.c}.${v.v}`),
    [],
    'every verse passes the rule with its own text',
  )
})
