/**
 * The editorial gates of db/content/EDITORIAL.md, each failing on a bad example and passing
 * on good ones: quotes_balanced, first_letter, final_punctuation, archaic_form (the guide's
 * full list), numbers_kept (with the KJV and modern number parsers), american_spelling and
 * repeated_sentence; and the one set of plain-text rules every gate counts with.
 */
import t from 'tap'
import { findArchaicForms, findBroadArchaicForms } from '../../src/text/archaic.js'
import { findRepeatedSentences, MAX_VERSES_PER_SENTENCE, type CorpusLine } from '../../src/content/pipeline/repeated-sentences.js'
import { validateContent, type ValidationIssue } from '../../src/content/pipeline/validation.js'
import { findBritishSpellings } from '../../src/text/american-spelling.js'
import { fieldGateIssues } from '../../src/text/editorial.js'
import { readNumbers } from '../../src/text/numbers.js'
import { countWords, splitSentences } from '../../src/text/plain-text.js'
import { kjv } from '../helpers/kjv.js'

const rules = (issues: readonly ValidationIssue[]): string[] => issues.map((i) => `${i.field}:${i.rule}`)
/** The gates of one bottom line, where every field gate applies and no verse is involved. */
const gates = (text: string): string[] => rules(fieldGateIssues('bottom_line', text))
/** A casual rendering of a verse, judged with every rule. */
const casual = (simplifiedText: string, verse: string): string[] =>
  rules(validateContent('casual', { simplified_text: simplifiedText, bottom_line: 'It is said plainly.' }, verse))

t.test('one set of plain-text rules', async (t) => {
  t.equal(countWords('—'), 0, 'a dash alone is no word, for every gate')
  t.equal(countWords('Jesus wept — and then he spoke.'), 6)
  t.equal(splitSentences('He came. They saw "him." Then he left.').length, 3)
})

t.test('quotes_balanced: straight double quotes in pairs, no curly quotes', async (t) => {
  t.same(gates('He said, "Go."'), [])
  t.same(gates('He said, "Read \'Love your neighbor\' again."'), [], 'single quotes inside double quotes')
  t.same(gates("Don't be afraid."), [], 'an apostrophe')
  t.same(gates('He said, "Go.'), ['bottom_line:quotes_balanced'], 'a quotation left open')
  t.match(fieldGateIssues('bottom_line', 'He said, "Go.')[0]?.message, /has 1 double quote, an odd number/)
  t.same(gates('He said, “Go.”'), ['bottom_line:quotes_balanced'], 'curly double quotes')
  t.match(fieldGateIssues('bottom_line', 'He said, “Go.”')[0]?.message, /curly quotation mark “ at character 10; use straight quotes/)
  t.same(gates('He said, ‘Go.’'), ['bottom_line:quotes_balanced'], 'curly single quotes')
})

t.test('first_letter: a capital letter or a digit first', async (t) => {
  for (const good of ['And he went.', '"And he went."', '(See the note.)', '3 men came.', 'Éloïse came.']) t.same(gates(good), [], good)
  for (const bad of ['and he went.', '"and he went."', '— he went.', '...and he went.']) t.same(gates(bad), ['bottom_line:first_letter'], bad)
  t.match(fieldGateIssues('bottom_line', 'does not behave rudely.')[0]?.message, /must begin with a capital letter or a digit; begins with "does not beh"/)
})

t.test('final_punctuation: ".", "?" or "!", then closing quotes or brackets', async (t) => {
  for (const good of ['He went.', 'Did he go?', 'Go!', 'He said, "Go."', '(He went.)', 'He asked, "Where?"']) t.same(gates(good), [], good)
  for (const bad of ['He went', 'He went,', 'He went;', 'He went:', 'He went—', 'He went…', '"He went"'])
    t.same(gates(bad), ['bottom_line:final_punctuation'], bad)
  // Romans 8:38 runs on into verse 39: its rendering may end the same way.
  const runsOn = kjv(45, 8, 38)
  t.match(runsOn, /,$/)
  const rendering = 'For I am convinced that neither death nor life, nor angels nor rulers, nor things present nor things to come'
  for (const end of [',', ';', ':', '—', '-', '.']) t.same(casual(`${rendering}${end}`, runsOn), [], `simplified_text ending "${end}" where the verse runs on`)
  t.same(casual(rendering, runsOn), ['simplified_text:final_punctuation'], 'but not with nothing')
  const john = kjv(43, 11, 35)
  t.same(casual('Jesus wept,', john), ['simplified_text:final_punctuation'], 'a comma where the verse ends with a full stop')
  t.same(
    rules(validateContent('casual', { simplified_text: 'Jesus wept.', bottom_line: 'Jesus cried,' }, runsOn)).filter((r) => r.startsWith('bottom_line')),
    ['bottom_line:final_punctuation'],
    'only simplified_text may run on',
  )
})

t.test('archaic_form: the full list of section 10', async (t) => {
  const cases: Array<[string, string[]]> = [
    ['Thou knowest that he loveth thee.', ['thou', 'knowest', 'loveth', 'thee']],
    ['Behold, lo, verily, yea and nay.', ['behold', 'lo', 'verily', 'yea', 'nay']],
    ['Whosoever goes hither and thither, whence and thence, shall see it.', ['whosoever', 'hither', 'thither', 'whence', 'thence']],
    ['He smote them and brake the bread; the brethren were wroth.', ['smote', 'brake', 'brethren', 'wroth']],
    ['The kine and raiment and victuals thereof.', ['kine', 'raiment', 'victuals', 'thereof']],
    ['Abraham begat Isaac; hearken to him amongst them whilst you may.', ['begat', 'hearken', 'amongst', 'whilst']],
    ['And it came to pass that the Holy Ghost came.', ['it came to pass', 'holy ghost']],
    ['This came to pass, and he gave up the ghost.', ['came to pass', 'gave up the ghost']],
    ['He will judge the quick and the dead.', ['the quick and the dead']],
    ['An hundred men built an house and an holy place.', ['an hundred', 'an house', 'an holy']],
    ['Mine eyes have seen it, and mine own heart.', ['mine eyes', 'mine own']],
    ['Thou art there; the Father which art in heaven.', ['thou', 'art']],
  ]
  for (const [text, forms] of cases) t.same(findBroadArchaicForms(text), forms, text)
  for (const text of [
    'The choice is mine to make, and mine is the last word; a friend of mine who came.',
    'The salt mine and a gold mine.',
    'An hour later an honest heir brought an herb, an honor.',
    'The forest priest rests in the east; Nazareth and Elizabeth; the greatest art.',
    'Seventy times seven; it happened then.',
  ])
    t.same(findBroadArchaicForms(text), [], text)
  t.same(findArchaicForms('Behold, the brethren.'), [], 'the modernizer report keeps its narrow definition')
  t.same(gates('Behold, he comes.'), ['bottom_line:archaic_form'])
  t.match(fieldGateIssues('bottom_line', 'Behold, he comes unto them.')[0]?.message, /uses archaic forms "behold", "unto"; write modern English/)
  t.same(rules(fieldGateIssues('historical_context', 'The KJV\'s "unto" means to.', { quotationsExempt: true })), [], 'a quoted word in a note')
})

t.test('numbers_kept: the KJV number parser', async (t) => {
  const read = (text: string): number[] => readNumbers(text).numbers.map((n) => n.value)
  const cases: Array<[string, number[]]> = [
    ['an hundred and twenty', [120]],
    ['threescore and ten', [70]],
    ['fourscore and seven', [87]],
    ['two hundred thousand', [200000]],
    ['two and thirty thousand', [32000]],
    ['an hundred and forty and four thousand', [144000]],
    ['six hundred threescore and six', [666]],
    ['nine hundred sixty and nine years', [969]],
    ['an hundred and seven and twenty provinces', [127]],
    ['a thousand two hundred and threescore days', [1260]],
    ['a thousand thousand and an hundred thousand men', [1100000]],
    ['the third day', [3]],
    ['the tenth part', [10]],
    ['the five and twentieth year', [25]],
    ['the six hundredth year', [600]],
    ['some an hundredfold, some sixtyfold, some thirtyfold', [100, 60, 30]],
    ['sevenfold', [7]],
    ['ten thousand times ten thousand', [10000, 10000]],
    ['two and two', [2, 2]],
    ['three or four', [3, 4]],
    ['thousands of Israel and ten thousands of saints', []],
  ]
  for (const [text, values] of cases) t.same(read(text), values, text)
  t.same(readNumbers('seventy times seven').combined, [{ parts: [0, 1], value: 490 }])
  t.same(readNumbers('threescore years and ten').combined, [{ parts: [0, 1], value: 70 }])
})

t.test('numbers_kept: the modern number parser', async (t) => {
  const read = (text: string): number[] => readNumbers(text).numbers.map((n) => n.value)
  const cases: Array<[string, number[]]> = [
    ['144,000 people', [144000]],
    ['276 souls', [276]],
    ['twenty-five years', [25]],
    ['one hundred forty-four thousand', [144000]],
    ['a hundred and twenty', [120]],
    ['the 3rd day and the 25th', [3, 25]],
    ['about noon', [12]],
    ['a dozen', [12]],
    ['ten thousand', [10000]],
  ]
  for (const [text, values] of cases) t.same(read(text), values, text)
})

t.test('numbers_kept: every number of the verse, from three up, in simplified_text', async (t) => {
  const revelation = kjv(66, 7, 4)
  const names = 'the children of Israel'
  t.same(casual(`Then I heard how many were sealed: 144,000 from every tribe of ${names}.`, revelation), [])
  t.same(casual(`Then I heard how many were sealed: one hundred forty-four thousand from every tribe of ${names}.`, revelation), [])
  t.same(casual(`Then I heard how many were sealed: a great many from every tribe of ${names}.`, revelation), ['simplified_text:numbers_kept'])
  t.match(
    validateContent(
      'casual',
      { simplified_text: `I heard how many were sealed: a great many from every tribe of ${names}.`, bottom_line: 'Many are sealed.' },
      revelation,
    )[0]?.message,
    /must keep every number of the verse, in figures or words; missing "an hundred and forty and four thousand" \(144,000\)/,
  )
  const psalm = kjv(19, 90, 10)
  const lifespan = 'Our lives last SEVENTY years, or EIGHTY if we are strong, yet even their best is trouble and sorrow; they are soon gone, and we fly away.'
  t.same(casual(lifespan.replace('SEVENTY', 'seventy').replace('EIGHTY', 'eighty'), psalm), [], '"threescore years and ten" is seventy')
  t.same(casual(lifespan.replace('SEVENTY', 'seventy').replace('EIGHTY', 'many more'), psalm), ['simplified_text:numbers_kept'], '"fourscore" left out')
  t.same(casual('Methuselah lived 969 years in all, and then he died.', kjv(1, 5, 27)), [])
  t.same(casual('Jesus answered, "Not seven times, I tell you, but seventy times seven."', kjv(40, 18, 22)), [])
  t.same(casual('Jesus answered, "Not seven times, I tell you, but 490."', kjv(40, 18, 22)), [], 'or the product')
  t.same(
    casual('Jesus answered, "Not seven times, I tell you, but seventy-seven times."', kjv(40, 18, 22)),
    ['simplified_text:numbers_kept'],
    'a different number',
  )
  t.same(
    casual("Jacob's well was there, and Jesus, tired from the trip, sat down by the well. It was about noon.", kjv(43, 4, 6)),
    [],
    '"the sixth hour" is noon',
  )
  t.same(
    casual(
      'Nobody can serve masters who pull opposite ways: you will hate one and love the other, or stick with one and look down on the other. You cannot serve God and money.',
      kjv(40, 6, 24),
    ),
    [],
    '"two" is not required',
  )
})

t.test('american_spelling: British forms, with the American one to write', async (t) => {
  const found = (text: string): string[] => findBritishSpellings(text).map((s) => `${s.found}>${s.american}`)
  t.same(found('The Saviour honoured his neighbours with favour and labour.'), [
    'Saviour>Savior',
    'honoured>honored',
    'neighbours>neighbors',
    'favour>favor',
    'labour>labor',
  ])
  t.same(found('The centre of the theatre; a sceptre and a sepulchre.'), ['centre>center', 'theatre>theater', 'sceptre>scepter', 'sepulchre>sepulcher'])
  t.same(found('They realised, recognised and organised; baptising, criticised, unrecognised.'), [
    'realised>realized',
    'recognised>recognized',
    'organised>organized',
    'baptising>baptizing',
    'criticised>criticized',
    'unrecognised>unrecognized',
  ])
  t.same(found('To analyse the paralysed man in his defence, with offence and judgement.'), [
    'analyse>analyze',
    'paralysed>paralyzed',
    'defence>defense',
    'offence>offense',
    'judgement>judgment',
  ])
  t.same(found('He travelled and marvelled; the counsellor quarrelled in grey.'), [
    'travelled>traveled',
    'marvelled>marveled',
    'counsellor>counselor',
    'quarrelled>quarreled',
    'grey>gray',
  ])
  t.same(found('Whilst ploughing amongst mould he learnt to fulfil the programme.'), [
    'Whilst>While',
    'ploughing>plowing',
    'amongst>among',
    'mould>mold',
    'learnt>learned',
    'fulfil>fulfill',
    'programme>program',
  ])
  t.same(found('They practise ageing gracefully; the jewellery was sceptical.'), [
    'practise>practice',
    'ageing>aging',
    'jewellery>jewelry',
    'sceptical>skeptical',
  ])
  t.same(
    found(
      'Advise, exercise, surprise, promise, realism, baptism, criticism, towards, worshipped, fulfilled, Tyre, practice, the Church of the Holy Sepulchre.',
    ),
    [],
    'American words, names and spellings both sides accept',
  )
  t.same(gates('They honour him.'), ['bottom_line:american_spelling'])
  t.match(
    fieldGateIssues('bottom_line', 'They honour him at the centre.')[0]?.message,
    /uses British spelling: "honour" \(write "honor"\), "centre" \(write "center"\)/,
  )
  t.same(
    rules(fieldGateIssues('historical_context', 'The KJV says "thy neighbour" here.', { quotationsExempt: true, gates: ['american_spelling'] })),
    [],
    'a quotation of the KJV keeps its spelling',
  )
  t.same(casual('Jesus wept in his labour.', kjv(43, 11, 35)), ['simplified_text:american_spelling'], 'every field, simplified_text included')
})

t.test('repeated_sentence: no note sentence in more than three verses', async (t) => {
  const note = (slug: string, where: string, historical: string, reflection = ''): CorpusLine => ({
    slug,
    where,
    fields: { simplified_text: 'x', historical_context: historical, practical_reflection: `${reflection} Verse ${slug} says its own thing.` },
  })
  const stamp = 'Paul wrote this letter from Ephesus.'
  const three = [1, 2, 3].map((n) => note(`a-1-${n}`, `a-1.jsonl:${n}`, `${stamp} Verse ${n} is different.`))
  t.equal(MAX_VERSES_PER_SENTENCE, 3)
  t.same(findRepeatedSentences(three), [], 'three verses may share a sentence')
  const four = [...three, note('b-2-1', 'b-2.jsonl:1', `Something else.   PAUL wrote this  letter from Ephesus. `)]
  const repeated = findRepeatedSentences(four)
  t.same(
    repeated.map((r) => [r.sentence, r.verses]),
    [[stamp, 4]],
    'a fourth, compared trimmed, case-insensitive, whitespace collapsed',
  )
  t.same(
    repeated[0]?.places.map((p) => `${p.where} ${p.field}`),
    ['a-1.jsonl:1 historical_context', 'a-1.jsonl:2 historical_context', 'a-1.jsonl:3 historical_context', 'b-2.jsonl:1 historical_context'],
    'every place it occurs',
  )
  const sameVerse = [...three, note('a-1-1', 'a-1.jsonl:9', 'Other.', stamp)]
  t.same(findRepeatedSentences(sameVerse), [], 'verses are counted, not lines')
  const acrossFields = [...three, note('c-3-1', 'c-3.jsonl:1', 'Other.', stamp)]
  t.same(
    findRepeatedSentences(acrossFields).map((r) => r.places.at(-1)?.field),
    ['practical_reflection'],
    'both note fields count together',
  )
})
