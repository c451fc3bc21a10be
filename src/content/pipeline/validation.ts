/**
 * The content rules for the derived texts of a verse, shared by AI generation, import, the
 * seed and the shipped-content checks, so that a text is judged the same way whichever way
 * it arrives.
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
 * - archaic forms: none in any faithful field (`findArchaicForms`).
 *
 * The editorial gates of db/content/EDITORIAL.md (editorial-1), in every field of both
 * styles (see src/text/editorial.ts): balanced straight quotes, a capital first letter,
 * final punctuation, no archaic form of the guide's full list (words in double quotes
 * excepted in historical_context), American spelling, and in simplified_text every number
 * of the verse. The one rule that needs every verse at once, no sentence repeated across
 * more than three verses, is src/content/repeated-sentences.ts.
 *
 * Sentences are counted by `splitSentences`, words by `countWords` (src/text/plain-text.ts).
 */
import { findArchaicForms } from '../../text/archaic.js'
import type { Style } from '../content.store.js'
import { blankQuotations, fieldGateIssues, numbersIssue } from '../../text/editorial.js'
import type { ValidationIssue } from '../../text/issues.js'
import { bottomLineIssues, sentenceCountIssue } from '../../text/length.js'
import { countWords, excerpt, plainTextIssues, plural } from '../../text/plain-text.js'

export type { Style }
export type { ValidationIssue, ValidationRule } from '../../text/issues.js'

/** The fields of one verse's content; which of them a style has is {@link STYLE_FIELDS}. */
export interface ContentFields {
  simplified_text: string
  bottom_line: string
  historical_context?: string
  practical_reflection?: string
}

/**
 * Which rules to apply.
 * - `editorial` (the default): every rule, the editorial gates included. For what is written
 *   or reviewed now: generation, scripts/validate-content.ts, the shipped-content test.
 * - `storage`: the rules every stored line must meet to be served (the seed and `content
 *   import`): plain text, lengths, sentences, names, and archaic forms in the faithful style
 *   by `findArchaicForms` (outside quotations in historical_context). Shipped lines written
 *   before editorial-1 still load while the writers bring them up to the guide; the
 *   shipped-content test holds them to `editorial`.
 */
export type ValidationLevel = 'editorial' | 'storage'

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
/** historical_context and practical_reflection: this many sentences (product issue). */
export const MIN_SENTENCES = 1
export const MAX_SENTENCES = 4
/** simplified_text words over KJV verse words, both bounds allowed (product issue). */
export const MIN_LENGTH_RATIO = 0.5
export const MAX_LENGTH_RATIO = 2.5

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
  'God',
  'Gods',
  'Godhead',
  'God-ward',
  'Lord',
  'Lords',
  'Jehovah',
  'Jah',
  'Jehovah-jireh',
  'Jehovah-nissi',
  'Jehovah-shalom',
  'Almighty',
  'Most',
  'High',
  'Highest',
  'Holiest',
  'Holy',
  'Ghost',
  'Spirit',
  'Spirits',
  'Father',
  'Son',
  'Word',
  'Lamb',
  'King',
  'Kings',
  'Prince',
  'Master',
  'Maker',
  'Creator',
  'Redeemer',
  'Saviour',
  'Comforter',
  'Judge',
  'Shepherd',
  'Preacher',
  'Branch',
  'Ancient',
  'Just',
  'One',
  'Light',
  'Rock',
  'Majesty',
  'Mighty',
  'Great',
  'Wonderful',
  'Peace',
  'Salvation',
  'Praise',
  'Strength',
  'Faithful',
  'True',
  'Friend',
  'Bishop',
  'Apostle',
  'Priest',
  'Priests',
  'Ministers',
  'Prophet',
  'Angel',
  'Head',
  'Root',
  'Lion',
  'Star',
  'Sun',
  'Beauty',
  'Bands',
  'Governor',
  'Deliverer',
  'Potentate',
  'Seer',
  'Sabaoth',
  'Wicked',
  // pronouns, interjections, liturgical and musical words
  'I',
  'O',
  'Thou',
  'Thee',
  'Thy',
  'Thine',
  'Ye',
  'You',
  'He',
  'Him',
  'His',
  'Oh',
  'Lo',
  'Amen',
  'Alleluia',
  'Hosanna',
  'Selah',
  'Higgaion',
  'Alamoth',
  'Sheminith',
  'Shigionoth',
  'Yes',
  'Yea',
  'Nay',
  // untranslated words and titles that a simplification translates
  'Abba',
  'Raca',
  'Corban',
  'Anathema',
  'Maranatha',
  'Ephphatha',
  'Talitha',
  'Eloi',
  'Mene',
  'Tekel',
  'Peres',
  'Upharsin',
  'Rabbi',
  'Rabboni',
  'Belial',
  'Christs',
  'Gentile',
  'Gentiles',
  'Nethinims',
  'Tirshatha',
  'Rab-shakeh',
  'Rabshakeh',
  'Rab-saris',
  'Rabsaris',
  'Rab-mag',
  'Tartan',
  // common nouns capitalised as names or personified
  'Barbarians',
  'Cherubims',
  'Manna',
  'Tabernacle',
  'Sanctuary',
  'Testimony',
  'Ephod',
  'Sceptre',
  'Salt',
  'Iron',
  'Day',
  'Night',
  'Heaven',
  'Earth',
  'Seas',
  'Woman',
  'Man',
  'Death',
  'Hell',
  'Devil',
  'Circumcision',
  'Uncircumcision',
  'Outcast',
  'Forsaken',
  'Desolate',
  'Shamed',
  'Jealous',
  'Revelation',
  'Six',
  'Pavement',
  // words that open a quotation or a clause without punctuation before them
  'The',
  'And',
  'To',
  'Then',
  'For',
  'Let',
  'Arise',
  'Blessed',
  'No',
  // ordinary words that happen never to occur in lower case in the KJV
  'Accounting',
  'Acquaint',
  'Associate',
  'Backbiters',
  'Blotting',
  'Choosing',
  'Distributing',
  'Endeavouring',
  'Enflaming',
  'Enviest',
  'Esteeming',
  'Finally',
  'Launch',
  'Listen',
  'Owe',
  'Produce',
  'Providing',
  'Remembering',
  'Revilest',
  'Submitting',
  'Traitors',
  'Wherewithal',
])

/**
 * The names that the KJV has at the start of a sentence, clause or quotation, or in capitals
 * (JESUS OF NAZARETH), where the capital letter alone cannot tell a name from "Behold" or
 * "Prepare". It is the list of capitalised words found in those places that never occur in
 * lower case anywhere in the KJV, less {@link NOT_NAMES}; the tests recompute it from the
 * seed, so it is complete for every verse. A word missing from it is simply not required,
 * which keeps the rule from rejecting a correct text.
 */
export const CLAUSE_START_NAMES: ReadonlySet<string> = new Set(
  `
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
  Zion Ziph Ziphion Zoheth Zophah Zophai Æneas`
    .split(/\s+/u)
    .filter((w) => w !== ''),
)

/**
 * Other spellings accepted for a name of the verse, keyed by the KJV spelling: the KJV's
 * Greek forms of Old Testament names (Esaias, Elias, Noe), older English spellings (Cæsar,
 * Timotheus), and names a modern text says differently (Easter in Acts 12:4 is the
 * Passover; Jesus in Acts 7:45 and Hebrews 4:8 is Joshua; Christ and Messiah translate
 * each other). The KJV spelling itself is always accepted.
 */
export const NAME_EQUIVALENTS: Readonly<Record<string, readonly string[]>> = {
  Cæsar: ['Caesar'],
  Cæsarea: ['Caesarea'],
  Judæa: ['Judea'],
  Judaea: ['Judea'],
  Esaias: ['Isaiah'],
  Elias: ['Elijah'],
  Eliseus: ['Elisha'],
  Jeremias: ['Jeremiah'],
  Jeremy: ['Jeremiah'],
  Jonas: ['Jonah'],
  Osee: ['Hosea'],
  Noe: ['Noah'],
  Sion: ['Zion'],
  Sina: ['Sinai'],
  Agar: ['Hagar'],
  Sara: ['Sarah'],
  Rachab: ['Rahab'],
  Booz: ['Boaz'],
  Judas: ['Judah'],
  Juda: ['Judah'],
  Phares: ['Perez'],
  Pharez: ['Perez'],
  Zara: ['Zerah'],
  Zarah: ['Zerah'],
  Esrom: ['Hezron'],
  Aram: ['Ram'],
  Naasson: ['Nahshon'],
  Aminadab: ['Amminadab'],
  Ozias: ['Uzziah'],
  Joatham: ['Jotham'],
  Achaz: ['Ahaz'],
  Ezekias: ['Hezekiah'],
  Manasses: ['Manasseh'],
  Josias: ['Josiah'],
  Jechonias: ['Jeconiah', 'Jehoiachin'],
  Salathiel: ['Shealtiel'],
  Zorobabel: ['Zerubbabel'],
  Abia: ['Abijah'],
  Josaphat: ['Jehoshaphat'],
  Mathusala: ['Methuselah'],
  Enos: ['Enosh'],
  Cainan: ['Kenan'],
  Saruch: ['Serug'],
  Nachor: ['Nahor'],
  Thara: ['Terah'],
  Sem: ['Shem'],
  Henoch: ['Enoch'],
  Gedeon: ['Gideon'],
  Jephthae: ['Jephthah'],
  Zacharias: ['Zechariah'],
  Zabulon: ['Zebulun'],
  Nephthalim: ['Naphtali'],
  Nepthalim: ['Naphtali'],
  Sodoma: ['Sodom'],
  Gomorrha: ['Gomorrah'],
  Core: ['Korah'],
  Messias: ['Messiah', 'Christ'],
  Christ: ['Messiah'],
  Emmanuel: ['Immanuel'],
  Elisabeth: ['Elizabeth'],
  Timotheus: ['Timothy'],
  Marcus: ['Mark'],
  Lucas: ['Luke'],
  Jesus: ['Joshua'],
  Easter: ['Passover'],
  Jewry: ['Judea', 'Judah'],
  Tyrus: ['Tyre'],
  Zidon: ['Sidon'],
  Zidonians: ['Sidonians'],
  Cretes: ['Cretans'],
  Cretians: ['Cretans'],
  Chaldees: ['Chaldeans'],
  Syriack: ['Syriac', 'Aramaic'],
  Stoicks: ['Stoics'],
  Melchisedec: ['Melchizedek'],
  Aceldama: ['Akeldama'],
  // Greek and older English forms of names a modern text spells otherwise (asked for by the
  // writers of the New Testament content, who had to keep the KJV form).
  Galilæans: ['Galileans'],
  Galilæan: ['Galilean'],
  Chaldæans: ['Chaldeans'],
  Arimathæa: ['Arimathea'],
  Nineve: ['Nineveh'],
  Thamar: ['Tamar'],
  Urias: ['Uriah'],
  Roboam: ['Rehoboam'],
  Sadoc: ['Zadok'],
  Chanaan: ['Canaan'],
  Charran: ['Haran'],
  Sychem: ['Shechem'],
  Emmor: ['Hamor'],
  Madian: ['Midian'],
  Saron: ['Sharon'],
  Cis: ['Kish'],
  Phenice: ['Phoenicia', 'Phoenix'],
  Phenicia: ['Phoenicia'],
  Mercurius: ['Hermes'],
  Cedron: ['Kidron'],
  Jewess: ['Jewish'],
  Lycaonia: ['Lycaonian'],
  Miletum: ['Miletus'],
  Median: ['Mede'],
  Grecia: ['Greece'],
  Phebe: ['Phoebe'],
  Cenchrea: ['Cenchreae'],
  Moabitess: ['Moabite'],
  Moabitish: ['Moabite'],
  Israelitish: ['Israelite'],
  Canaanitish: ['Canaanite'],
  Korhites: ['Korahites'],
  Naashon: ['Nahshon'],
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
// Validation

/** The rules of one field's own kind: sentences, words, length against the verse, names. */
function checkField(field: FieldName, text: string, kjvText: string, issues: ValidationIssue[]): void {
  if (field === 'bottom_line') {
    issues.push(...bottomLineIssues(field, text))
  } else if (field === 'historical_context' || field === 'practical_reflection') {
    const issue = sentenceCountIssue(field, text, MIN_SENTENCES, MAX_SENTENCES)
    if (issue !== undefined) issues.push(issue)
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
        return others === undefined ? excerpt(name) : `${excerpt(name)} (or ${others.map((o) => excerpt(o)).join(' or ')})`
      })
      issues.push({
        field,
        rule: 'proper_names',
        message: `must keep the verse's proper names; missing ${described.join(', ')}`,
      })
    }
  }
}

/** The editorial gates of one field (file comment): the field gates, and the verse's numbers in simplified_text. */
function checkEditorial(field: FieldName, text: string, kjvText: string, issues: ValidationIssue[]): void {
  if (field === 'simplified_text') {
    const numbers = numbersIssue(field, text, kjvText)
    if (numbers !== undefined) issues.push(numbers)
  }
  issues.push(
    ...fieldGateIssues(field, text, {
      kjvText: field === 'simplified_text' ? kjvText : undefined,
      // A note may discuss a word of the KJV, quoted as the KJV prints it.
      quotationsExempt: field === 'historical_context',
    }),
  )
}

/**
 * The storage level's archaic rule: the narrow forms, in the faithful style only, with the
 * same exception as the editorial gate for words a note quotes.
 */
function checkStoredArchaic(style: Style, field: FieldName, text: string, issues: ValidationIssue[]): void {
  if (style !== 'faithful') return
  const archaic = findArchaicForms(field === 'historical_context' ? blankQuotations(text) : text)
  if (archaic.length > 0) {
    issues.push({
      field,
      rule: 'archaic_form',
      message: `uses archaic ${archaic.length === 1 ? 'form' : 'forms'} ${archaic.map((a) => excerpt(a)).join(', ')}; the faithful style is modern English`,
    })
  }
}

/**
 * Checks one verse's content for a style against the rules in the file comment.
 * Every field is checked and every broken rule reported; an empty list means valid.
 * Field values are judged trimmed: callers store `value.trim()`.
 * @param fields the content fields only (no slug, style or provenance): any other key is an
 *   `unexpected_field` issue.
 * @param kjvText the KJV text of the verse, for the length ratio, the proper names, the
 *   numbers and the final punctuation of simplified_text.
 * @param options.level `editorial` (default) or `storage`: see {@link ValidationLevel}.
 * @throws RangeError when kjvText has no words: a caller error, not a content problem.
 */
export function validateContent(
  style: Style,
  fields: Record<string, unknown>,
  kjvText: string,
  options: { readonly level?: ValidationLevel } = {},
): ValidationIssue[] {
  if (countWords(kjvText) === 0) throw new RangeError('validateContent: kjvText has no words')
  const expected: readonly FieldName[] | undefined = Object.hasOwn(STYLE_FIELDS, style) ? STYLE_FIELDS[style] : undefined
  if (expected === undefined) {
    return [{ field: 'style', rule: 'unknown_style', message: `${excerpt(String(style))} is not a style; use "faithful" or "casual"` }]
  }
  // Imported JSON is typed only by assertion; a line holding an array or a string must not throw.
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
    return [{ field: '(content)', rule: 'type', message: 'must be an object of content fields' }]
  }
  const editorial = (options.level ?? 'editorial') === 'editorial'
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
    issues.push(...plainTextIssues(field, text))
    checkField(field, text, kjvText, issues)
    if (editorial) checkEditorial(field, text, kjvText, issues)
    else checkStoredArchaic(style, field, text, issues)
  }
  for (const key of Object.keys(fields).sort()) {
    if (!(expected as readonly string[]).includes(key)) {
      issues.push({ field: key, rule: 'unexpected_field', message: `is not a field of the ${style} style (allowed: ${expected.join(', ')})` })
    }
  }
  return issues
}
