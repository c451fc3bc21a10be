/**
 * The content rules for the derived texts of a verse, shared by AI generation, import and
 * the curated set, so that a text is judged the same way whichever way it arrives.
 *
 * Styles and fields: `faithful` has simplified_text, bottom_line, historical_context and
 * practical_reflection; `casual` has simplified_text and bottom_line. Every field is a
 * non-empty string (judged after trimming) on one line, in plain text, of at most
 * {@link MAX_FIELD_LENGTH} characters.
 *
 * - bottom_line: one sentence of at most 30 words.
 * - historical_context, practical_reflection: 1 to 4 sentences.
 * - simplified_text: 0.5 to 2.5 times the KJV verse's word count, keeping the verse's
 *   proper names (see {@link properNames}).
 * - faithful only: no archaic forms in any field (see `findArchaicForms`).
 *
 * Sentences are counted by {@link splitSentences}, words by {@link countWords}.
 */
import { findArchaicForms } from './archaic.js'
import type { Style } from './content.store.js'

export type { Style }

/** The fields of one verse's content; which of them a style has is {@link STYLE_FIELDS}. */
export interface ContentFields {
  simplified_text: string
  bottom_line: string
  historical_context?: string
  practical_reflection?: string
}

/** Stable identifiers of the rules, for callers that count or filter issues. */
export type ValidationRule =
  | 'unknown_style'
  | 'required'
  | 'type'
  | 'unexpected_field'
  | 'too_long'
  | 'line_break'
  | 'control_character'
  | 'markup'
  | 'bottom_line_sentences'
  | 'bottom_line_words'
  | 'sentence_count'
  | 'length_ratio'
  | 'proper_names'
  | 'archaic_form'

/** One broken rule. The message says what was found and what is allowed, without the field name. */
export interface ValidationIssue {
  field: string
  rule: ValidationRule
  message: string
}

type FieldName = keyof ContentFields

/** The fields of each style, all required, in the order issues are reported. */
export const STYLE_FIELDS: Readonly<Record<Style, readonly FieldName[]>> = {
  faithful: ['simplified_text', 'bottom_line', 'historical_context', 'practical_reflection'],
  casual: ['simplified_text', 'bottom_line'],
}

/**
 * Longest field accepted, in UTF-16 code units. The other rules already bound the length in
 * words or sentences; this cap stops runaway generations (one endless "sentence") and
 * bounds the work of the other checks. The longest verse, Esther 8:9, at 2.5 times its 90
 * words stays well under it.
 */
export const MAX_FIELD_LENGTH = 3000
/** bottom_line: one sentence of at most this many words (product issue). */
export const BOTTOM_LINE_MAX_WORDS = 30
/** historical_context and practical_reflection: this many sentences (product issue). */
export const MIN_SENTENCES = 1
export const MAX_SENTENCES = 4
/** simplified_text words over KJV verse words, both bounds allowed (product issue). */
export const MIN_LENGTH_RATIO = 0.5
export const MAX_LENGTH_RATIO = 2.5

// ---------------------------------------------------------------------------------------
// Words and sentences

/**
 * Counts the words of a text: whitespace-separated tokens that contain a letter or digit,
 * so that a lone dash or ellipsis is not a word but "3:16" and "don't" are one each.
 */
export function countWords(text: string): number {
  let count = 0
  for (const token of text.split(/\s+/u)) if (/[\p{L}\p{N}]/u.test(token)) count++
  return count
}

/** Abbreviations after which a full stop never ends a sentence. Lower case, without the final dot. */
const ABBREVIATIONS: ReadonlySet<string> = new Set([
  'cf', 'viz', 'vs', 'st', 'sts', 'mt', 'mr', 'mrs', 'ms', 'dr', 'jr', 'sr', 'prof', 'rev', 'fr',
  'approx', 'ca', 'esp', 'lit', 'al', 'ibid', 'gk', 'heb', 'lat', 'aram',
])

/**
 * Abbreviations that end a sentence unless a number follows: "Gen. 1:1" and "No. 5" go on,
 * but "the tribe of Dan. Then" ends. Book abbreviations, reference words.
 */
const NUMBER_ABBREVIATIONS: ReadonlySet<string> = new Set([
  'no', 'nos', 'vol', 'pp', 'ch', 'chap', 'vv', 'ver',
  'gen', 'ex', 'exod', 'lev', 'num', 'deut', 'josh', 'judg', 'sam', 'kgs', 'chr', 'neh', 'esth',
  'ps', 'psa', 'prov', 'eccl', 'eccles', 'isa', 'jer', 'lam', 'ezek', 'dan', 'hos', 'obad', 'mic',
  'nah', 'hab', 'zeph', 'hag', 'zech', 'mal', 'matt', 'mk', 'lk', 'jn', 'rom', 'cor', 'gal', 'eph',
  'phil', 'col', 'thess', 'tim', 'tit', 'philem', 'jas', 'pet',
])

// A run of ., ! or ? (or …), then any closing quotes or brackets. Whether a space follows is
// checked in code: a lookahead here would make a long run of dots quadratic to scan.
const TERMINATOR = /[.!?…]+["'”’)\]]*/gu
const SPACES = /\s*/uy
const CLOSERS = /["'”’)\]]+$/u
const OPENERS = /^["'“‘(\[]+/u

/** True when the full stop after `word` (the token before it) belongs to an abbreviation. */
function isAbbreviation(word: string, following: string): boolean {
  const bare = word.replace(OPENERS, '')
  // Initials and dotted abbreviations: "C. S. Lewis", "c. 30", "A.D.", "e.g.", "i.e.".
  // "I." is left out: it ends sentences ("as did I.") far more often than it is an initial.
  if (/^\p{L}$/u.test(bare)) return bare !== 'I'
  if (/^(?:\p{L}\.)+\p{L}$/u.test(bare)) return true
  const lower = bare.toLowerCase()
  if (ABBREVIATIONS.has(lower)) return true
  return NUMBER_ABBREVIATIONS.has(lower) && /^\d/u.test(following)
}

/**
 * Splits a text into sentences, each trimmed; pieces without a letter or digit are dropped.
 * A sentence ends at ".", "!" or "?" (with any closing quotes or brackets) followed by a
 * space and then not a lower-case letter, or at the end of the text. These do not end one:
 * ellipses ("..." and "…"); abbreviations and initials ("e.g.", "i.e.", "St.", "Mt.",
 * "A.D.", "B.C.", "c.", "C. S. Lewis"); book and reference abbreviations before a number
 * ("Gen. 1:1", "v. 16"); numbers ("3.16"), whose dot is not followed by a space. A
 * semicolon or colon does not end a sentence; a last sentence without a full stop counts.
 * @example splitSentences('God loves people, e.g. you. He gave his Son...for all.') // 2 sentences
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = []
  let start = 0
  for (const match of text.matchAll(TERMINATOR)) {
    const end = match.index + match[0].length
    SPACES.lastIndex = end
    const next = end + (SPACES.exec(text)?.[0].length ?? 0)
    if (next === text.length) break
    // "3.16", "Hello.World": no space after, no sentence end.
    if (next === end) continue
    const following = String.fromCodePoint(text.codePointAt(next) ?? 0)
    const marks = match[0].replace(CLOSERS, '')
    // An ellipsis trails off or marks an omission; the sentence goes on.
    if (!/[!?]/u.test(marks) && (marks.includes('…') || marks.length > 1)) continue
    // "e.g. the", '"Go!" he said': what follows in lower case continues the sentence.
    if (/\p{Ll}/u.test(following)) continue
    if (marks === '.') {
      // The word before the stop. Words before different stops do not overlap (a space
      // follows each stop), so the backward scans add up to one pass over the text.
      let wordStart = match.index
      while (wordStart > start && !/\s/u.test(text.charAt(wordStart - 1))) wordStart--
      if (isAbbreviation(text.slice(wordStart, match.index), following)) continue
    }
    sentences.push(text.slice(start, end))
    start = end
  }
  sentences.push(text.slice(start))
  return sentences.map((s) => s.trim()).filter((s) => /[\p{L}\p{N}]/u.test(s))
}

// ---------------------------------------------------------------------------------------
// Proper names

// Letters (æ included) joined by apostrophes and hyphens: "Beth-el", "Israel's" are one word.
const WORD = /\p{L}+(?:['’-]\p{L}+)*/gu
// Where a capital says nothing about the word: after these, or at the start of the text.
const CLAUSE_START = /[.?!:;,(“"‘]/u

/**
 * Capitalised words of the KJV that are not proper names: divine titles and names of God
 * (LORD, God, Father, Holy Ghost, Jehovah: a simplification says "the LORD" or "God"),
 * pronouns and interjections (I, O, Thou, Selah, Amen, Hosanna), untranslated words that a
 * simplification translates (Raca, Corban, Talitha, Rabbi, Belial), titles (Tirshatha,
 * Rabshakeh), personified common nouns (Death, Day, Wormwood excepted) and the words that
 * open a quotation without a comma ("called The way of holiness"). Checked against the
 * whole KJV by the tests, so every capitalised word is either a name or listed here.
 */
export const NOT_NAMES: ReadonlySet<string> = new Set([
  // God, his names and titles
  'God', 'Gods', 'Godhead', 'God-ward', 'Lord', 'Lords', 'Jehovah', 'Jah', 'Jehovah-jireh',
  'Jehovah-nissi', 'Jehovah-shalom', 'Almighty', 'Most', 'High', 'Highest', 'Holiest', 'Holy',
  'Ghost', 'Spirit', 'Spirits', 'Father', 'Son', 'Word', 'Lamb', 'King', 'Kings', 'Prince',
  'Master', 'Maker', 'Creator', 'Redeemer', 'Saviour', 'Comforter', 'Judge', 'Shepherd',
  'Preacher', 'Branch', 'Ancient', 'Just', 'One', 'Light', 'Rock', 'Majesty', 'Mighty', 'Great',
  'Wonderful', 'Peace', 'Salvation', 'Praise', 'Strength', 'Faithful', 'True', 'Friend', 'Bishop',
  'Apostle', 'Priest', 'Priests', 'Ministers', 'Prophet', 'Angel', 'Head', 'Root', 'Lion', 'Star',
  'Sun', 'Beauty', 'Bands', 'Governor', 'Deliverer', 'Potentate', 'Seer', 'Sabaoth', 'Wicked',
  // pronouns, interjections, liturgical and musical words
  'I', 'O', 'Thou', 'Thee', 'Thy', 'Thine', 'Ye', 'You', 'He', 'Him', 'His', 'Oh', 'Lo', 'Amen',
  'Alleluia', 'Hosanna', 'Selah', 'Higgaion', 'Alamoth', 'Sheminith', 'Shigionoth', 'Yes', 'Yea',
  'Nay',
  // untranslated words and titles that a simplification translates
  'Abba', 'Raca', 'Corban', 'Anathema', 'Maranatha', 'Ephphatha', 'Talitha', 'Eloi', 'Mene',
  'Tekel', 'Peres', 'Upharsin', 'Rabbi', 'Rabboni', 'Belial', 'Christs', 'Gentile', 'Gentiles',
  'Nethinims', 'Tirshatha', 'Rab-shakeh', 'Rabshakeh', 'Rab-saris', 'Rabsaris', 'Rab-mag', 'Tartan',
  // common nouns capitalised as names or personified
  'Barbarians', 'Cherubims', 'Manna', 'Tabernacle', 'Sanctuary', 'Testimony', 'Ephod', 'Sceptre',
  'Salt', 'Iron', 'Day', 'Night', 'Heaven', 'Earth', 'Seas', 'Woman', 'Man', 'Death', 'Hell',
  'Devil', 'Circumcision', 'Uncircumcision', 'Outcast', 'Forsaken', 'Desolate', 'Shamed',
  'Jealous', 'Revelation', 'Six', 'Pavement',
  // words that open a quotation or a clause without punctuation before them
  'The', 'And', 'To', 'Then', 'For', 'Let', 'Arise', 'Blessed', 'No',
  // ordinary words that happen never to occur in lower case in the KJV
  'Accounting', 'Acquaint', 'Associate', 'Backbiters', 'Blotting', 'Choosing', 'Distributing',
  'Endeavouring', 'Enflaming', 'Enviest', 'Esteeming', 'Finally', 'Launch', 'Listen', 'Owe',
  'Produce', 'Providing', 'Remembering', 'Revilest', 'Submitting', 'Traitors', 'Wherewithal',
])

/**
 * The names that the KJV has at the start of a sentence, clause or quotation, or in capitals
 * (JESUS OF NAZARETH), where the capital letter alone cannot tell a name from "Behold" or
 * "Prepare". It is the list of capitalised words found in those places that never occur in
 * lower case anywhere in the KJV, less {@link NOT_NAMES}; the tests recompute it from the
 * seed, so it is complete for every verse. A word missing from it is simply not required,
 * which keeps the rule from rejecting a correct text.
 */
export const CLAUSE_START_NAMES: ReadonlySet<string> = new Set(`
  Aaron Abdon Abi-albon Abi-ezer Abia Abiah Abidan Abiel Abiezer Abijah Abishai Abishua Abner
  Abraham Abram Absalom Aceldama Achar Adah Adam Addan Addar Addon Adin Adina Admah Admatha Adna
  Adnah Adonijah Adullam Ahab Ahaz Ahaziah Ahi Ahiam Ahian Ahiezer Ahihud Ahijah Ahimaaz Ahimelech
  Ahinadab Ahinoam Ahira Ahithophel Ahitub Ahlai Aiah Aijalon Ain Akkub Alexander Alian Alvan
  Amalek Amam Amariah Amasa Amasai Amaziah Ammi Ammiel Ammihud Amminadab Ammonites Amnon Amok Amon
  Amos Amram Anaiah Anan Ananiah Ananias Anathoth Andrew Aner Annas Apollos Aquila Arab Arabia
  Arah Arioch Aristarchus Armoni Arphaxad Artaxerxes Asa Asahel Asaiah Asaph Ashbel Ashchenaz
  Ashdod Asher Ashkelon Ashkenaz Ashriel Asia Asshur Assir Assur Ataroth Ater Athaiah Attai
  Azareel Azariah Azel Azgad Azmaveth Azrikam Azzur Baal Baal-hanan Baal-meon Baalah Baana Baanah
  Babylon Balaam Balak Bani Barabbas Barak Barnabas Bartholomew Baruch Bashan Bashan-havoth-jair
  Bath-sheba Bavai Bebai Bedan Bedeiah Beerah Bel Bela Belshazzar Belteshazzar Ben Ben-hanan
  Benaiah Beninu Benjamin Beno Berechiah Beriah Berothah Beth-arabah Beth-aram Beth-dagon Beth-el
  Beth-jeshimoth Beth-lehem Beth-shean Beth-zur Bethsaida Bezai Bezaleel Bezer Bigtha Bigthan
  Bigvai Bilgah Bilgai Bilhan Bilshan Binnui Biztha Boaz Bocheru Bukki Bukkiah Bunni Cain Caleb
  Capernaum Cappadocia Carmel Cephas Chaldeans Chedorlaomer Chelluh Chemosh Chenaniah Chephirah
  Chileab Chimham Chorazin Christ Claudius Conaniah Cornelius Crescens Cretes Cush Cushi Cæsar
  Dabareh Daberath Dagon Damascus Dan Daniel Dathan David Debir Deborah Dedan Delilah Demas
  Demetrius Dibon Dimnah Dinah Dishon Dor Ebed Ebed-melech Eber Edom Edomites Egypt Ehi Ehud Ekron
  Elah Elam Eldad Eleasah Eleazar Eleph Elhanan Eli Eliab Eliada Eliahba Eliakim Eliam Elias
  Eliasaph Eliashib Eliathah Elidad Eliel Eliezer Elihoenai Elihoreph Elihu Elijah Elika Elioenai
  Eliphal Eliphaz Eliphelet Elisha Elishah Elishama Elizaphan Elizur Elkanah Elnathan Eltekeh
  Eluzai Elzabad En-gannim Enoch Enosh Epaphras Ephraim Ephrathites Er Erastus Eri Esaias Esau
  Eshcol Eshtaol Esther Etam Ethan Ethiopia Eubulus Evi Ezbon Ezer Ezra Felix Festus Gaal Gabbatha
  Gabriel Gad Gaddi Gaddiel Gaius Galatia Galilee Gallio Gamaliel Gareb Gath-rimmon Gaza Geba
  Gebal Geber Gedaliah Gehazi Gera Gershom Gershon Geuel Gibbethon Gibeah Gibeath Gibeon Giddalti
  Gideon Gilalai Gilead Gimzo Ginnetho Ginnethon Gittaim Gog Golan Goliath Gomer Hadad Hadar
  Hadattah Hadid Hadoram Hagar Haggai Haggiah Halhul Hallohesh Ham Haman Hamath Hamuel Hanameel
  Hanan Hanani Hananiah Hannah Hanniel Hanoch Hanun Haran Harbona Hareph Harim Hariph Haroeh
  Hashabiah Hashabnah Hashabniah Hashub Hashum Hathath Hattush Hazar-enan Hazar-hatticon Hazor
  Heber Hebron Helah Heleb Heled Helez Helkai Helkath Heman Hemdan Hena Henoch Hepher Heresh
  Hermas Hermes Heshbon Hezekiah Hezir Hezrai Hezro Hezron Hiddai Hilkiah Hittites Hivites
  Hizkijah Hodaiah Hodijah Hoglah Hophni Horem Hori Hoshama Hoshea Hothir Hurai Huram Hushai
  Husham Hushim Huz I-chabod Ibhar Iddo Igal Ilai Imnah Ira Iru Isaac Ish-bosheth Ishi Ishiah
  Ishijah Ishmael Ishmaiah Ishmerai Israel Issachar Ithai Ithream Ittai Izhar Izrahiah Jaasiel
  Jachin Jacob Jadau Jaddua Jael Jahath Jahaziel Jahzeel Jahziel Jair Jairus James Jamin Jarib
  Jarmuth Jashobeam Jashub Jathniel Javan Jazer Jeaterai Jecamiah Jechonias Jeconiah Jedaiah
  Jediael Jeduthun Jehdeiah Jehiel Jehoahaz Jehohanan Jehoiachin Jehoiakim Jehonathan Jehoram
  Jehoshaphat Jehoshua Jehozabad Jehu Jehubbah Jehush Jeiel Jekameam Jemima Jemuel Jephunneh
  Jerahmeel Jered Jeremai Jeremiah Jeremias Jeriah Jerimoth Jeroboam Jeroham Jerusalem Jeshaiah
  Jesher Jeshua Jesse Jesurun Jesus Jether Jetur Jeuel Jeush Jews Jezebel Jezreel Jimnah Joab Joah
  Joash Job Jobab Joel Johanan John Joiada Joiakim Jokneam Jonadab Jonathan Joram Jordan Joseph
  Joshbekashah Joshua Josiah Jotham Jozabad Judah Judas Jude Jupiter Jushab-hesed Kadmiel Kallai
  Kedemoth Kedesh Kelita Kemuel Kenan Kenaz Keren-happuch Kerioth Kezia Kiriathaim Kirjath-baal
  Kish Kishon Kittim Kohath Korah Laadan Lachish Lamech Lazarus Leah Lebanon Levi Levites Libnah
  Libni Lod Lotan Lucas Luke Maachah Maadai Maadiah Maai Maaseiah Maaz Maaziah Machbanai
  Machnadebai Madmenah Magpiash Mahalaleel Mahali Maharai Mahath Mahlah Mahli Malchiah Malchijah
  Malchiram Mallothi Malluch Manasseh Maon Marcus Marsena Martha Mary Mashal Massa Mattaniah
  Mattathah Mattenai Matthew Mattithiah Mebunnai Megiddo Memphis Mephibosheth Meraiah Meraioth
  Mercurius Meremoth Meres Merodach Mesha Meshach Meshezabeel Meshullam Methuselah Miamin Mibhar
  Mibsam Micah Micaiah Micha Michael Michah Michaiah Michal Middin Mijamin Milalai Milcah Miniamin
  Minni Miriam Misgab Mishael Mishal Mishma Mishmannah Mispar Mispereth Mithredath Moab Mordecai
  Moses Muppim Naarai Nabal Naboth Nadab Nahalal Nahamani Naharai Nahath Nahbi Nahor Nahshon Naomi
  Naphish Naphtali Nathan Nathanael Nazareth Nebai Nebaioth Nebajoth Neballat Nebo Nebuchadnezzar
  Nebuchadrezzar Necho Nehemiah Nehum Nekeb Nemuel Nereus Nergal-sharezer Nethaneel Nicodemus
  Nineveh Noah Nob Nohah Non Obadiah Obed-edom Omar Omri Oreb Orion Ornan Oshea Othni Othniel Ozem
  Paarai Pagiel Pahath-moab Palal Palti Paltiel Parosh Parthians Pasach Pashur Patrobas Paul
  Pedahel Pedaiah Pekod Pelaiah Pelatiah Peleg Peleth Perizzites Persia Peter Pethahiah Peulthai
  Pharaoh Pharez Pharisees Philip Philistia Phinehas Phlegon Phrygia Pilate Pileha Piltai Pithom
  Pithon Pontius Pul Raamiah Rachel Raddai Rahel Rakkath Ramah Ramath Ramiah Ramoth Rapha Reaia
  Rebekah Rechab Reelaiah Regem Rehabiah Rehob Rehoboam Rehum Remmon Reu Reuben Reuel Rezon Rimmon
  Ru-hamah Salathiel Sallai Sallu Salma Samaria Samgar-nebo Samlah Samson Samuel Sarah Sarai
  Sarsechim Satan Saul Scythian Seba Seir Seled Sennacherib Seraiah Sered Sergius Serug Sethur
  Shabbethai Shadrach Shallum Shama Shamir Shammah Shammai Shammoth Shammua Shaphat Sharai Sharon
  Shashai Shashak Shaul Sheba Shebaniah Shebuel Shechaniah Shechem Shelah Shelemiah Shelomith
  Shelomoth Shelumiel Shem Shemaiah Shemariah Shemuel Shephatiah Shephi Shepho Sherebiah Sheshai
  Sheshan Sheth Shethar Shethar-boznai Sheva Shimea Shimei Shimeon Shimri Shinab Shobal Shobek
  Shophan Shubael Shuni Shuppim Shuthelah Sibbecai Sibraim Sihon Simeon Simon Simri Sisera Socoh
  Sodom Solomon Suah Syria Taanach Tabeel Tabitha Tabor Tahath Talmon Tamar Tanach Tappuah
  Tarshish Tatnai Tebaliah Tel-haresha Tel-harsa Teman Terah Tertullus Thomas Timotheus Tiria
  Tirzah Titus Tola Tubal Tychicus Tyrus Ulam Ummah Uriah Uriel Urijah Uthai Uz Uzza Uzzah Uzzi
  Uzzia Uzziah Uzziel Vaniah Vashti Zabad Zabbai Zacchur Zacchæus Zaccur Zacharias Zadok Zalmon
  Zanoah Zatthu Zebadiah Zebah Zebina Zeboim Zebulun Zechariah Zedekiah Zelek Zemira Zenan Zephi
  Zepho Zer Zerah Zerahiah Zereth Zerubbabel Zetham Zethar Ziba Zichri Zidonians Zimmah Zimri Zina
  Zion Ziph Ziphion Zoheth Zophah Zophai Æneas`.split(/\s+/u).filter((w) => w !== ''))

/**
 * Other spellings accepted for a name of the verse, keyed by the KJV spelling: the KJV's
 * Greek forms of Old Testament names (Esaias, Elias, Noe), older English spellings (Cæsar,
 * Timotheus), and names a modern text says differently (Easter in Acts 12:4 is the
 * Passover; Jesus in Acts 7:45 and Hebrews 4:8 is Joshua; Christ and Messiah translate
 * each other). The KJV spelling itself is always accepted.
 */
export const NAME_EQUIVALENTS: Readonly<Record<string, readonly string[]>> = {
  'Cæsar': ['Caesar'],
  'Cæsarea': ['Caesarea'],
  'Judæa': ['Judea'],
  'Judaea': ['Judea'],
  'Esaias': ['Isaiah'],
  'Elias': ['Elijah'],
  'Eliseus': ['Elisha'],
  'Jeremias': ['Jeremiah'],
  'Jeremy': ['Jeremiah'],
  'Jonas': ['Jonah'],
  'Osee': ['Hosea'],
  'Noe': ['Noah'],
  'Sion': ['Zion'],
  'Sina': ['Sinai'],
  'Agar': ['Hagar'],
  'Sara': ['Sarah'],
  'Rachab': ['Rahab'],
  'Booz': ['Boaz'],
  'Judas': ['Judah'],
  'Juda': ['Judah'],
  'Phares': ['Perez'],
  'Pharez': ['Perez'],
  'Zara': ['Zerah'],
  'Zarah': ['Zerah'],
  'Esrom': ['Hezron'],
  'Aram': ['Ram'],
  'Naasson': ['Nahshon'],
  'Aminadab': ['Amminadab'],
  'Ozias': ['Uzziah'],
  'Joatham': ['Jotham'],
  'Achaz': ['Ahaz'],
  'Ezekias': ['Hezekiah'],
  'Manasses': ['Manasseh'],
  'Josias': ['Josiah'],
  'Jechonias': ['Jeconiah', 'Jehoiachin'],
  'Salathiel': ['Shealtiel'],
  'Zorobabel': ['Zerubbabel'],
  'Abia': ['Abijah'],
  'Josaphat': ['Jehoshaphat'],
  'Mathusala': ['Methuselah'],
  'Enos': ['Enosh'],
  'Cainan': ['Kenan'],
  'Saruch': ['Serug'],
  'Nachor': ['Nahor'],
  'Thara': ['Terah'],
  'Sem': ['Shem'],
  'Henoch': ['Enoch'],
  'Gedeon': ['Gideon'],
  'Jephthae': ['Jephthah'],
  'Zacharias': ['Zechariah'],
  'Zabulon': ['Zebulun'],
  'Nephthalim': ['Naphtali'],
  'Nepthalim': ['Naphtali'],
  'Sodoma': ['Sodom'],
  'Gomorrha': ['Gomorrah'],
  'Core': ['Korah'],
  'Messias': ['Messiah', 'Christ'],
  'Christ': ['Messiah'],
  'Emmanuel': ['Immanuel'],
  'Elisabeth': ['Elizabeth'],
  'Timotheus': ['Timothy'],
  'Marcus': ['Mark'],
  'Lucas': ['Luke'],
  'Jesus': ['Joshua'],
  'Easter': ['Passover'],
  'Jewry': ['Judea', 'Judah'],
  'Tyrus': ['Tyre'],
  'Zidon': ['Sidon'],
  'Zidonians': ['Sidonians'],
  'Cretes': ['Cretans'],
  'Cretians': ['Cretans'],
  'Chaldees': ['Chaldeans'],
  'Syriack': ['Syriac', 'Aramaic'],
  'Stoicks': ['Stoics'],
  'Melchisedec': ['Melchizedek'],
  'Aceldama': ['Akeldama'],
}

/**
 * Endings by which a mention of a name may differ from the KJV's: plural and possessive
 * (Pharisee/Pharisees, Jews/Jew, Israel's) and the people and adjective forms (Israelites
 * for "children of Israel", Jewish for "of the Jews", Egyptians, Babylonian). A name and a
 * word of the text match when both, with one such ending removed or none, are equal.
 */
const NAME_ENDINGS = ['s', 'es', 'ite', 'ites', 'ish', 'ian', 'ians'] as const
const MIN_STEM = 3

/** Case, diacritics, ligatures, possessive, hyphens and apostrophes do not distinguish names. */
function normalizeName(word: string): string {
  return word
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/æ/gu, 'ae')
    .replace(/Æ/gu, 'Ae')
    .replace(/œ/gu, 'oe')
    .replace(/Œ/gu, 'Oe')
    .toLowerCase()
    .replace(/['’]s$/u, '')
    .replace(/['’-]/gu, '')
}

/** The forms a normalized word stands for: itself and its stems without one ending. */
function nameForms(normalized: string): string[] {
  const forms = [normalized]
  for (const ending of NAME_ENDINGS) {
    if (normalized.endsWith(ending) && normalized.length - ending.length >= MIN_STEM) {
      forms.push(normalized.slice(0, -ending.length))
    }
  }
  return forms
}

const EQUIVALENTS_BY_NAME: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries(NAME_EQUIVALENTS).map(([name, others]) => [normalizeName(name), others]),
)

/** Strips a possessive and turns capitals (LORD, JESUS) into the ordinary spelling. */
function nameKey(word: string): string {
  const bare = word.replace(/['’]s$/u, '')
  const allCaps = bare.length > 1 && bare === bare.toUpperCase()
  return allCaps ? bare.charAt(0) + bare.slice(1).toLowerCase() : bare
}

/**
 * The proper names of a KJV verse, in order of first appearance, each once, possessive
 * removed and capitals turned into the ordinary spelling. A name is a capitalised word that
 * is not in {@link NOT_NAMES} and either stands inside a clause (after a word without
 * punctuation in between) or, where a capital means nothing (start of the text, after
 * . ? ! : ; , or an opening bracket or quote, or a word in capitals), is one of the
 * {@link CLAUSE_START_NAMES}.
 * @example properNames('Abraham begat Isaac; and Isaac begat Jacob') // ['Abraham', 'Isaac', 'Jacob']
 */
export function properNames(kjvText: string): string[] {
  const names: string[] = []
  const seen = new Set<string>()
  let previousEnd = -1
  for (const match of kjvText.matchAll(WORD)) {
    const word = match[0]
    const clauseStart = previousEnd < 0 || CLAUSE_START.test(kjvText.slice(previousEnd, match.index))
    previousEnd = match.index + word.length
    if (!/^\p{Lu}/u.test(word)) continue
    const key = nameKey(word)
    if (NOT_NAMES.has(key) || seen.has(key)) continue
    const allCaps = key !== word.replace(/['’]s$/u, '')
    if ((clauseStart || allCaps) && !CLAUSE_START_NAMES.has(key)) continue
    seen.add(key)
    names.push(key)
  }
  return names
}

/**
 * The names of the verse that the text does not mention in any accepted form: the KJV
 * spelling or an equivalent, in any case, with or without an ending of NAME_ENDINGS, with
 * or without hyphens and apostrophes ("Beth-el", "Bethel"), or as two words ("Beth el").
 */
function missingNames(names: readonly string[], text: string): string[] {
  const words = [...text.matchAll(WORD)].map((m) => normalizeName(m[0]))
  const present = new Set<string>()
  words.forEach((word, i) => {
    // Two words written together may be one hyphenated KJV name.
    const joined = i + 1 < words.length ? [word, word + words[i + 1]] : [word]
    for (const w of joined) for (const form of nameForms(w)) present.add(form)
  })
  return names.filter((name) => {
    const spellings = [name, ...(EQUIVALENTS_BY_NAME.get(normalizeName(name)) ?? [])]
    return !spellings.some((s) => nameForms(normalizeName(s)).some((form) => present.has(form)))
  })
}

// ---------------------------------------------------------------------------------------
// Plain text

const LINE_BREAK = /[\n\r\v\f\u0085\u2028\u2029]/u
// C0 and C1 controls other than the line breaks (tab included), zero-width characters, BOM.
const CONTROL = /[\u0000-\u0009\u000e-\u001f\u007f-\u0084\u0086-\u009f\u200b-\u200d\u2060\ufeff]/u

/** Markup a plain-text field must not contain, with how to name it in a message. */
const MARKUP: ReadonlyArray<{ readonly pattern: RegExp; readonly what: string }> = [
  // Bounded by the next "<", so a long run of "<" cannot make the search quadratic.
  { pattern: /<\/?[A-Za-z][^<>]*>|<!--/u, what: 'an HTML/XML tag' },
  { pattern: /&(?:[A-Za-z][A-Za-z0-9]*|#\d+|#x[0-9A-Fa-f]+);/u, what: 'an HTML entity' },
  { pattern: /\[[^[\]]*\][([]/u, what: 'a Markdown link' },
  { pattern: /\b(?:https?|ftp):\/\/|\bwww\.[\p{L}\p{N}-]+\.|\bmailto:/iu, what: 'a URL' },
  { pattern: /`/u, what: 'a backtick' },
  { pattern: /\*/u, what: 'an asterisk' },
  { pattern: /_/u, what: 'an underscore' },
  { pattern: /~~/u, what: 'Markdown strikethrough' },
  // [ \t]* rather than \s*, which would run across line breaks and make many lines quadratic.
  { pattern: /^[ \t]*(?:#|>|[-+][ \t])/mu, what: 'a Markdown heading, quote or list marker' },
]

/** Shows a found piece of text in a message: quoted, on one line, cut short. */
function quote(text: string, max = 40): string {
  const flat = text.replace(/\s+/gu, ' ')
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat)
}

function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`
}

// ---------------------------------------------------------------------------------------
// Validation

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

/** The rules every field of every style follows. */
function checkPlainText(field: string, text: string, issues: ValidationIssue[]): void {
  const lineBreak = LINE_BREAK.exec(text)
  if (lineBreak !== null) {
    issues.push({
      field,
      rule: 'line_break',
      message: `contains a line break (${codePoint(lineBreak[0])}) at character ${lineBreak.index + 1}; write the field as one line`,
    })
  }
  const control = CONTROL.exec(text)
  if (control !== null) {
    issues.push({
      field,
      rule: 'control_character',
      message: `contains the control or invisible character ${codePoint(control[0])} at character ${control.index + 1}; remove it`,
    })
  }
  const found: string[] = []
  for (const { pattern, what } of MARKUP) {
    const match = pattern.exec(text)
    if (match !== null) found.push(`${what} ${quote(match[0].trim() === '' ? match[0] : match[0].trim())}`)
  }
  if (found.length > 0) {
    issues.push({ field, rule: 'markup', message: `contains markup: ${found.join(', ')}; write plain text only` })
  }
}

/** The rules of one field's own kind: sentences, words, length against the verse, names. */
function checkField(field: FieldName, text: string, kjvText: string, issues: ValidationIssue[]): void {
  if (field === 'bottom_line') {
    const sentences = splitSentences(text)
    if (sentences.length !== 1) {
      issues.push({
        field,
        rule: 'bottom_line_sentences',
        message:
          sentences.length === 0
            ? 'must be exactly one sentence; found none (no letters or digits)'
            : `must be exactly one sentence; found ${sentences.length}: ${sentences.slice(0, 3).map((s) => quote(s, 30)).join(', ')}${sentences.length > 3 ? ', …' : ''}`,
      })
    }
    const words = countWords(text)
    if (words > BOTTOM_LINE_MAX_WORDS) {
      issues.push({
        field,
        rule: 'bottom_line_words',
        message: `has ${words} words; at most ${BOTTOM_LINE_MAX_WORDS} are allowed (cut ${words - BOTTOM_LINE_MAX_WORDS})`,
      })
    }
  } else if (field === 'historical_context' || field === 'practical_reflection') {
    const count = splitSentences(text).length
    if (count < MIN_SENTENCES || count > MAX_SENTENCES) {
      issues.push({
        field,
        rule: 'sentence_count',
        message: `has ${plural(count, 'sentence')}; ${MIN_SENTENCES} to ${MAX_SENTENCES} are allowed`,
      })
    }
  } else {
    const kjvWords = countWords(kjvText)
    const words = countWords(text)
    const min = Math.ceil(kjvWords * MIN_LENGTH_RATIO)
    const max = Math.floor(kjvWords * MAX_LENGTH_RATIO)
    if (words < min || words > max) {
      issues.push({
        field,
        rule: 'length_ratio',
        message:
          `has ${plural(words, 'word')} for a KJV verse of ${plural(kjvWords, 'word')} ` +
          `(${(words / kjvWords).toFixed(2)} times); it must have ${min} to ${max} words ` +
          `(${MIN_LENGTH_RATIO} to ${MAX_LENGTH_RATIO} times)`,
      })
    }
    const missing = missingNames(properNames(kjvText), text)
    if (missing.length > 0) {
      const described = missing.map((name) => {
        const others = EQUIVALENTS_BY_NAME.get(normalizeName(name))
        return others === undefined ? quote(name) : `${quote(name)} (or ${others.map((o) => quote(o)).join(' or ')})`
      })
      issues.push({
        field,
        rule: 'proper_names',
        message: `must keep the verse's proper names; missing ${described.join(', ')}`,
      })
    }
  }
}

/**
 * Checks one verse's content for a style against the rules in the file comment.
 * Every field is checked and every broken rule reported; an empty list means valid.
 * Field values are judged trimmed: callers store `value.trim()`.
 * @param fields the content fields only (no slug, style or provenance): any other key is an
 *   `unexpected_field` issue.
 * @param kjvText the KJV text of the verse, for the length ratio and the proper names.
 * @throws RangeError when kjvText has no words: a caller error, not a content problem.
 */
export function validateContent(style: Style, fields: Record<string, unknown>, kjvText: string): ValidationIssue[] {
  if (countWords(kjvText) === 0) throw new RangeError('validateContent: kjvText has no words')
  const expected: readonly FieldName[] | undefined = Object.hasOwn(STYLE_FIELDS, style) ? STYLE_FIELDS[style] : undefined
  if (expected === undefined) {
    return [{ field: 'style', rule: 'unknown_style', message: `${quote(String(style))} is not a style; use "faithful" or "casual"` }]
  }
  // Imported JSON is typed only by assertion; a line holding an array or a string must not throw.
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
    return [{ field: '(content)', rule: 'type', message: 'must be an object of content fields' }]
  }
  const issues: ValidationIssue[] = []
  for (const field of expected) {
    const value = Object.hasOwn(fields, field) ? fields[field] : undefined
    if (value === undefined || value === null) {
      issues.push({ field, rule: 'required', message: `is missing; the ${style} style requires it` })
      continue
    }
    if (typeof value !== 'string') {
      const kind = Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`
      issues.push({ field, rule: 'type', message: `must be a string, not ${kind}` })
      continue
    }
    const text = value.trim()
    if (text === '') {
      issues.push({ field, rule: 'required', message: value === '' ? 'is empty' : 'is only whitespace' })
      continue
    }
    if (text.length > MAX_FIELD_LENGTH) {
      issues.push({ field, rule: 'too_long', message: `is ${text.length} characters long; at most ${MAX_FIELD_LENGTH} are allowed` })
    }
    checkPlainText(field, text, issues)
    checkField(field, text, kjvText, issues)
    if (style === 'faithful') {
      const archaic = findArchaicForms(text)
      if (archaic.length > 0) {
        issues.push({
          field,
          rule: 'archaic_form',
          message: `uses archaic ${archaic.length === 1 ? 'form' : 'forms'} ${archaic.map((a) => quote(a)).join(', ')}; the faithful style is modern English`,
        })
      }
    }
  }
  for (const key of Object.keys(fields).sort()) {
    if (!(expected as readonly string[]).includes(key)) {
      issues.push({ field: key, rule: 'unexpected_field', message: `is not a field of the ${style} style (allowed: ${expected.join(', ')})` })
    }
  }
  return issues
}
