/**
 * A word table (data, not code): the clause words of Russian, Ukrainian, Polish, Turkish, Indonesian,
 * Vietnamese, Arabic, Hebrew, Hindi, Thai and Swedish, read as clause-rules.ts reads the others (see
 * {@link ClauseRules}), and the words and letters that say a text in one of their scripts is in a language
 * without rules (Bulgarian, Belarusian, Serbian, Persian, Urdu, Marathi, Nepali, Yiddish…).
 *
 * Sources, per language (markers, conjunctions, relatives, complementizers, pronouns, possession):
 * Wade, A Comprehensive Russian Grammar; Pugh & Press, Ukrainian: A Comprehensive Grammar; Swan, A Grammar of
 * Contemporary Polish; Göksel & Kerslake, Turkish: A Comprehensive Grammar; Sneddon, Indonesian: A Comprehensive
 * Grammar; Thompson, A Vietnamese Reference Grammar; Holes, Modern Arabic; Glinert, Modern Hebrew: An Essential
 * Grammar; Kachru, Hindi; Iwasaki & Ingkaphirom, A Reference Grammar of Thai; Holmes & Hinchliffe, Swedish: A
 * Comprehensive Grammar. A marker is a frequent function word of its language that is no frequent word or given
 * name of another language with rules: not Indonesian `dan` or `dia` (Dan, Dia), not Swedish `men` (English
 * "men"), not Polish `nie` (German "nie") — such words stay in the clause lists, and `notMarkers` keeps them out
 * of the reading of the language.
 */
import type { ClauseRules } from './clause-rules-type.js';

/**
 * A list of words written as one string, separated by spaces (the tables stay readable at a glance), in the
 * form the text is read in (NFKC: Devanagari ड़ is ड and ़ there, Thai ำ is ํ and า).
 */
const list = (words: string): readonly string[] => words.normalize('NFKC').split(' ');
/** A pattern in the form the text is read in (NFKC). */
const nfkc = (source: string) => new RegExp(source.normalize('NFKC'), 'u');

// Stryker disable StringLiteral,ArrayDeclaration,Regex: the word tables are data; the labelled corpora
// (test/fixtures/language-corpus-more.ts) hold them to account by the cases they decide.

/** Russian relation nouns (any case a possessor in the genitive follows: брат Анны, сестре Олега). */
const RUSSIAN_RELATIONS =
  'друг\\p{L}*|подруг\\p{L}*|брат\\p{L}*|сестр\\p{L}*|мать|матери|мам\\p{L}*|от[еец]ц?\\p{L}*|пап\\p{L}*|сын\\p{L}*|доч\\p{L}*|муж\\p{L}*|жен\\p{L}*|коллег\\p{L}*|сосед\\p{L}*|начальни\\p{L}*|бабушк\\p{L}*|дедушк\\p{L}*|тёт\\p{L}*|тет\\p{L}*|дяд\\p{L}*|внук\\p{L}*|внучк\\p{L}*|племянни\\p{L}*|кузен\\p{L}*|кузин\\p{L}*|парн\\p{L}*|парень|девушк\\p{L}*|жених\\p{L}*|невест\\p{L}*|ребён\\p{L}*|ребен\\p{L}*|дет\\p{L}*|родител\\p{L}*|шеф\\p{L}*';

/** Russian (Wade, §§ 8, 11: conjunctions, relative который, the genitive of possession after its noun). */
export const RUSSIAN_CLAUSES: ClauseRules = {
  language: 'ru',
  script: 'Cyrillic',
  markers: list(
    'не и в на что это он она они мы я ты вы у с по к из за для его её ее их мой моя моё мои наш наша очень тоже уже ещё еще всегда никогда есть нет любит живёт живет работает пьёт пьет ест был была было были ли бы как где когда почему кто но или потому если может наверное говорит сказал сказала каждый каждое каждую сейчас теперь только же ни со от до без',
  ),
  letters: /[ыэъё]/u,
  coordinators: list('и'),
  conjunctions: list('и а но или либо потому поэтому хотя пока когда если чтобы зато однако тогда'),
  relatives: list(
    'который которая которое которые которого которой которому которым котором которых где куда откуда чей чья чьё чьи',
  ),
  complementizers: list('что'),
  pronouns: list('он она оно они я мы ты вы его её ее их'),
  copulaDash: true,
  possessorBefore: nfkc(`(?:^|\\s)(?:${RUSSIAN_RELATIONS})\\s*$`),
};

/** Ukrainian relation nouns. */
const UKRAINIAN_RELATIONS =
  'друг\\p{L}*|подруг\\p{L}*|брат\\p{L}*|сестр\\p{L}*|мати|матері|мам\\p{L}*|бать\\p{L}*|тат\\p{L}*|син\\p{L}*|доньк\\p{L}*|доч\\p{L}*|чолов\\p{L}*|дружин\\p{L}*|колег\\p{L}*|сусід\\p{L}*|начальни\\p{L}*|бабус\\p{L}*|бабц\\p{L}*|дідус\\p{L}*|дід\\p{L}*|тітк\\p{L}*|дядьк\\p{L}*|дяд\\p{L}*|онук\\p{L}*|онучк\\p{L}*|племінни\\p{L}*|хлопц\\p{L}*|хлопець|дівчин\\p{L}*|наречен\\p{L}*|дит\\p{L}*|діт\\p{L}*|батьк\\p{L}*|шеф\\p{L}*';

/** Ukrainian (Pugh & Press, chs. 9–10: conjunctions і/й/та, relative який, що as complementizer). */
export const UKRAINIAN_CLAUSES: ClauseRules = {
  language: 'uk',
  script: 'Cyrillic',
  markers: list(
    "не і й в у на що це він вона вони ми я ти ви з із до для його її їх мій моя моє мої наш наша дуже теж також вже ще завжди ніколи є немає нема любить живе працює п'є п’є їсть був була було були чи як де коли чому хто але або бо якщо мабуть каже сказав сказала кожен кожного кожну зараз тепер тільки лише ні від без про",
  ),
  letters: /[іїєґ]/u,
  coordinators: list('і й та'),
  conjunctions: list('і й та а але або чи бо тому хоча хоч поки коли якщо щоб проте однак зате'),
  relatives: list('який яка яке які якого якої якому яким якій яких котрий котра котре де куди звідки чий чия чиє чиї'),
  complementizers: list('що'),
  pronouns: list('він вона воно вони я ми ти ви його її їх'),
  copulaDash: true,
  possessorBefore: nfkc(`(?:^|\\s)(?:${UKRAINIAN_RELATIONS})\\s*$`),
};

/** Polish relation nouns (any case; the possessor follows in the genitive: brat Anny). */
const POLISH_RELATIONS =
  'brat\\p{L}*|siostr\\p{L}*|mam\\p{L}*|matk\\p{L}*|ojc\\p{L}*|ojciec|tat\\p{L}*|syn\\p{L}*|córk\\p{L}*|mąż|męża|mężem|żon\\p{L}*|przyjaci\\p{L}*|koleg\\p{L}*|koleżank\\p{L}*|sąsiad\\p{L}*|kuzyn\\p{L}*|babci\\p{L}*|babcia|dziad\\p{L}*|cioci\\p{L}*|ciocia|wujk\\p{L}*|wujek|wnuk\\p{L}*|wnuczk\\p{L}*|szef\\p{L}*|chłopak\\p{L}*|dziewczyn\\p{L}*|narzeczon\\p{L}*|dzieci\\p{L}*|dzieck\\p{L}*|rodzic\\p{L}*';

/** Polish (Swan, §§ 9–10: coordinating i/a/ale, relative który, że as complementizer). */
export const POLISH_CLAUSES: ClauseRules = {
  language: 'pl',
  markers: list(
    'jest się lubi lubię nigdy zawsze bardzo mieszka pracuje kocha czy jego jej mój moja moje już tylko oraz jeszcze teraz codziennie jestem przez dla także też gdzie jeśli jesli może moze chyba wcale ponieważ chociaż więc natomiast który która które którzy kawę herbatę w z podobno ponoć według myślę jeżeli gdyby gra',
  ),
  letters: /[łąęśźżń]/u,
  // "a" and "i" are words of English, Italian, Spanish…: clause words here, never a sign of Polish.
  notMarkers: list('a i'),
  coordinators: list('i oraz'),
  conjunctions: list('i a ale lub albo bo ponieważ choć chociaż gdy kiedy jeśli jeżeli więc zaś natomiast ani'),
  relatives: list('który która które którzy którego której którym których którą gdzie kto czyj czyja czyje'),
  complementizers: list('że iż'),
  pronouns: list('on ona ono oni one ja my ty wy jego jej ich'),
  possessorBefore: nfkc(`(?:^|\\s)(?:${POLISH_RELATIONS})\\s*$`),
};

/** Turkish relation nouns, as the possessed noun after a genitive (Ayşe'nin kardeşi). */
const TURKISH_RELATIONS =
  'kardeş|ağabey|abi|abla|anne|baba|oğl|kız|eş|koca|karı|arkadaş|komşu|teyze|hala|amca|dayı|dede|nine|babaanne|anneanne|torun|yeğen|kuzen|patron|müdür|sevgili|nişanlı|çocu|kayınvalide|kayınpeder|enişte|yenge|iş\\s+arkadaş';

/**
 * Turkish (Göksel & Kerslake, chs. 21, 25: ve/ama/çünkü, ki; relative clauses are participles before their
 * noun; a genitive possessor -(n)In before its possessed noun).
 */
export const TURKISH_CLAUSES: ClauseRules = {
  language: 'tr',
  markers: list(
    'bir çok cok değil degil seviyor sevmiyor içiyor iciyor için icin hep asla hiç onun benim kahve çay evde yok oturuyor ile belki diyor göre mı mü mısın misin musun müsün bunu şu gibi sanırım galiba bu çünkü fakat veya ki',
  ),
  // A lower-case word with ı, ğ or ş, or a verb in the present continuous (-iyor, typed without its letters too).
  letters: /[ığş]|\p{L}[ıiuü]yor(?:um|sun|uz|sunuz|lar)?$/u,
  // "ve" is also the end of English "I've".
  notMarkers: list('ve'),
  coordinators: list('ve ile'),
  conjunctions: list('ve ama fakat ancak çünkü veya yoksa oysa halbuki ki'),
  relatives: [],
  complementizers: [],
  pronouns: list('o ben sen biz siz onlar'),
  possessorAfter: nfkc(`^['’]?n?[ıiuü]n\\s+(?:\\p{L}+\\s+)?(?:${TURKISH_RELATIONS})`),
  // The value inside a participle clause of another noun after it: "… çay içen Ayşe" (Ayşe who drinks tea).
  relativeAfter: /^\s+\p{L}{2,}(?:[ae]n|d[ıiuü]ğ[ıiuü]\p{L}*|t[ıiuü]ğ[ıiuü]\p{L}*)\s+\p{L}/u,
  // Case endings on a noun, after a plural and a possessive (Göksel & Kerslake, chs. 8, 14): mantı-ya,
  // sınıf-a, baklava-sı-nı, çay-lar-ı, anne-m-e; a buffer y, n or s where a vowel meets a vowel. (A proper name
  // takes its endings after an apostrophe, which ends the word anyway: Elif'in.)
  wordEndings:
    /^(?:l[ae]r)?(?:s?[ıiuü]|[ıiuü]?m|[ıiuü]?m[ıiuü]z|[ıiuü]?n[ıiuü]z)?(?:n?(?:y?[ıiuüae]|[dt][ae]n?|[ıiuü]n|y?l[ae]))?$/u,
};

/** Indonesian relation nouns (not ibu, bapak, pak, bu, om, tante: they are also titles before a name). */
const INDONESIAN_RELATIONS =
  'kakak|adik|anak|suami|istri|isteri|teman|kawan|sahabat|pacar|tetangga|kakek|nenek|paman|bibi|sepupu|keponakan|cucu|mertua|ayah|rekan(?:\\s+kerja)?|atasan|(?:ibu|bapak|mama|papa)\\s+dari';

/** Indonesian (Sneddon, §§ 5.3, 6: dan/tetapi, the relative yang, bahwa; the possessor follows its noun). */
export const INDONESIAN_CLAUSES: ClauseRules = {
  language: 'id',
  markers: list(
    'tidak suka tinggal minum makan adalah ini itu dengan kopi selalu tapi atau bekerja sangat juga sudah belum mungkin kalau jika bukan yang dari akan sedang bisa punya saya aku mereka kami jangan tolong setiap sepertinya kayaknya katanya apakah kenapa siapa bagaimana nggak enggak gak tetapi karena bahwa menurut pernah sekali',
  ),
  // "dan" is a given name (Dan) and "dia" one too: clause words, never a sign of Indonesian.
  notMarkers: list('dan'),
  coordinators: list('dan serta'),
  conjunctions: list(
    'dan tetapi tapi atau karena sebab sedangkan sementara padahal walaupun meskipun ketika kalau jika supaya agar lalu kemudian serta',
  ),
  relatives: list('yang dimana'),
  complementizers: list('bahwa'),
  pronouns: list('dia ia mereka saya aku kami kita kamu anda beliau'),
  // The relation noun with -nya before its possessor (adiknya Ratna, ibunya Budi: Sneddon § 5.3).
  possessorBefore: nfkc(
    `(?:^|\\s)(?:(?:${INDONESIAN_RELATIONS})(?:nya)?|(?:ibu|bapak|mama|papa|om|tante)nya)(?:\\s+(?:laki-laki|perempuan|kandung))?\\s*$`,
  ),
};

/** Vietnamese relation nouns (not anh, chị, em, ông, bà, cô alone: they are also titles before a name). */
const VIETNAMESE_RELATIONS =
  'anh\\s+trai|chị\\s+gái|em\\s+trai|em\\s+gái|mẹ|bố|cha|má|con\\s+trai|con\\s+gái|chồng|vợ|bạn\\s+trai|bạn\\s+gái|bạn\\s+thân|hàng\\s+xóm|đồng\\s+nghiệp|sếp|người\\s+yêu|ông\\s+nội|bà\\s+nội|ông\\s+ngoại|bà\\s+ngoại|cháu';

/** Vietnamese (Thompson, §§ 8–9: và/nhưng, relative mà, rằng; the possessor follows its noun, with của or not). */
export const VIETNAMESE_CLAUSES: ClauseRules = {
  language: 'vi',
  markers: list(
    'không khong thích thich uống uong của cua được duoc đang những nhung người nguoi cũng cung chưa chua với rất và có ở tôi mình đã sẽ nhà này đó thì mà nhưng vì nếu neu khi rồi nhé nhỉ ạ ơi ăn ông bà nhiều nhieu',
  ),
  // The horn (ơ ư), a dot below or a hook above, a tilde beyond ã õ, or đ opening a word: letters only Vietnamese
  // writes among the languages read here (ă is Romanian too).
  letters: /[ơưĩũỹẽ\u1ea0-\u1ef9]|^đ/u,
  coordinators: list('và với'),
  conjunctions: list('và nhưng hoặc vì tuy khi nếu mà'),
  relatives: [],
  complementizers: list('rằng'),
  pronouns: list('tôi mình nó họ anh chị em ấy'),
  // A relation noun, with của or without; a title (anh, chị, bà…) only with của: "chị Lan" is Ms Lan.
  possessorBefore: nfkc(
    `(?:^|\\s)(?:(?:${VIETNAMESE_RELATIONS})(?:\\s+của)?|(?:anh|chị|em|bạn|con|ông|bà|cô|chú|bác|dì|cậu)\\s+của)\\s*$`,
  ),
};

/** Arabic relation nouns, in the construct state before the possessor (أخو أحمد, صديقة سارة). */
const ARABIC_RELATIONS =
  'أخو|أخي|أخا|أخ|اخو|اخ|أخت|اخت|ابن|إبن|بنت|ابنة|أب|أبو|أم|ام|زوج|زوجة|صديق|صديقة|جار|جارة|عم|عمة|خال|خالة|جد|جدة|حفيد|حفيدة|زميل|زميلة|مدير|مديرة|أولاد|اولاد|أطفال|اطفال|والد|والدة|خطيب|خطيبة';

/**
 * Arabic (Holes, chs. 5, 9: the conjunctions و and ف are written onto the next word, so a word opening with
 * one may open a clause; relative الذي/التي; أن as complementizer; the construct state for possession).
 */
export const ARABIC_CLAUSES: ClauseRules = {
  language: 'ar',
  script: 'Arabic',
  markers: list(
    'في من على إلى الى هو هي هم أنا انا نحن لا لم لن ليس ما هذا هذه كان كانت يحب تحب يسكن تسكن يعيش تعيش يعمل تعمل يشرب تشرب عند عنده عندها مع عن كل جدا أيضا ايضا دائما لكن أو او',
  ),
  coordinators: [],
  conjunctions: list('لكن لكنّ بينما أو او أم ثم لأن لان حيث إذ عندما حين بل'),
  relatives: list('الذي التي الذين اللذان اللتان اللواتي اللي'),
  complementizers: list('أن إن ان'),
  pronouns: list('هو هي هم هن أنا انا نحن أنت انت'),
  // و or ف written onto the next word: "أحمد يحب الشاي وسارة تحب القهوة".
  clauseMarks: /(?:^|\s)و\p{L}{2,}/u,
  possessorBefore: nfkc(`(?:^|\\s)(?:ال)?(?:${ARABIC_RELATIONS})\\s*$`),
};

/** Hebrew relation nouns, before של and the possessor (האח של דנה) or in the construct state. */
const HEBREW_RELATIONS =
  'אח|אחות|אחי|אמא|אבא|אם|אב|בן|בת|בעל|אישה|אשת|חבר|חברה|שכן|שכנה|סבא|סבתא|דוד|דודה|בן\\s+דוד|בת\\s+דודה|נכד|נכדה|ילד|ילדה|ילדים|הורים|עמית|עמיתה|בוס|מנהל|מנהלת|בן\\s+זוג|בת\\s+זוג|ארוס|ארוסה';

/**
 * Hebrew (Glinert, chs. 6, 27, 34: ו "and" and ש "that/who" are written onto the next word; אבל, או, כי;
 * possession with של).
 */
export const HEBREW_CLAUSES: ClauseRules = {
  language: 'he',
  script: 'Hebrew',
  markers: list(
    'את של לא הוא היא הם אני אנחנו זה זאת יש אין עם על גם מאוד תמיד אוהב אוהבת גר גרה עובד עובדת שותה אבל או כי אם כל רק עכשיו',
  ),
  coordinators: [],
  conjunctions: list('אבל או כי אז בזמן למרות בעוד אלא לכן כאשר'),
  relatives: list('אשר'),
  complementizers: [],
  pronouns: list('הוא היא הם הן אני אנחנו אתה את'),
  // ו "and" written onto the next word; ש or כש before a pronoun (שהוא, כשהיא): another clause.
  clauseMarks: /(?:^|\s)ו\p{L}{2,}|(?:^|\s)(?:כ?ש)(?:הוא|היא|הם|הן|אני|אנחנו|אתה|את)(?=\s|$)/u,
  possessorBefore: nfkc(
    `(?:^|\\s)ה?(?:${HEBREW_RELATIONS})\\p{L}*\\s+של\\s*$|(?:^|\\s)(?:אחי|אחות|בן|בת|אשת|בעל)\\s*$`,
  ),
};

/** Hindi relation nouns, after the possessor and का/की/के (रीना का भाई). */
const HINDI_RELATIONS =
  'भाई|बहन|माँ|मां|माता|पिता|पापा|मम्मी|बेटा|बेटी|पति|पत्नी|दोस्त|मित्र|सहेली|पड़ोसी|पड़ोसन|पड़ोसी|दादा|दादी|नाना|नानी|चाचा|चाची|मामा|मामी|बुआ|मौसी|भतीजा|भतीजी|भांजा|भांजी|बच्चे|बच्चा|बच्ची|सहकर्मी|बॉस|ससुर|सास|जीजा|भाभी|पोता|पोती|मंगेतर|बॉयफ्रेंड|गर्लफ्रेंड';

/** Hindi (Kachru, chs. 12, 17: और/लेकिन/क्योंकि, the relative जो, कि as complementizer, का/की/के). */
export const HINDI_CLAUSES: ClauseRules = {
  language: 'hi',
  script: 'Devanagari',
  markers: list(
    'है हैं था थी थे का की के में को से और नहीं भी बहुत हमेशा कभी मेरा मेरी मेरे उसका उसकी वह वो यह ये मैं हम आप तुम क्या ने रहता रहती रहते करता करती करते पसंद पीता पीती खाता खाती लेकिन या अगर तो शायद कि',
  ),
  coordinators: list('और तथा'),
  conjunctions: list('और लेकिन मगर या क्योंकि इसलिए जबकि जब बल्कि तथा एवं किंतु परंतु'),
  relatives: list('जो जिसे जिसने जिसका जिसकी जिसके जिन्हें जिन्होंने जहाँ जहां'),
  complementizers: list('कि'),
  pronouns: list('वह वो वे मैं हम तुम आप यह ये उसका उसकी उसके'),
  possessorAfter: nfkc(`^\\s*(?:का|की|के)\\s+(?:${HINDI_RELATIONS})`),
};

/** Thai relation nouns, before the possessor, with ของ or without (พี่ชายของสมชาย, แม่สมชาย). */
const THAI_RELATIONS =
  'พี่ชาย|พี่สาว|น้องชาย|น้องสาว|แม่|พ่อ|ลูกชาย|ลูกสาว|ลูก|สามี|ภรรยา|แฟน|เพื่อนบ้าน|เพื่อนร่วมงาน|เพื่อน|ปู่|ย่า|ยาย|ลุง|ป้า|น้า|หลาน|ลูกพี่ลูกน้อง|เจ้านาย|หัวหน้า';

/**
 * Thai (Iwasaki & Ingkaphirom, chs. 16, 20: no spaces between words; และ, แต่, หรือ, เพราะ, ส่วน "as for",
 * the relative ซึ่ง; the possessor after its noun, with ของ or without). Not ที่: it is also "at".
 */
export const THAI_CLAUSES: ClauseRules = {
  language: 'th',
  script: 'Thai',
  markers: [],
  markerText: nfkc('ไม่|ไหม|มั้ย|ชอบ|เป็น|อยู่|และ|ของ|กับ|ดื่ม|กิน|ครับ|ค่ะ|คะ|นะ|จะ|ได้|แล้ว'),
  coordinators: [],
  conjunctions: [],
  relatives: [],
  complementizers: [],
  pronouns: [],
  clauseMarks: nfkc('และ|แต่|หรือ|เพราะ|ส่วน|ขณะที่|ซึ่ง|โดยที่|ทั้งที่|แม้ว่า|ดังนั้น|ถ้า|เมื่อ'),
  possessorBefore: nfkc(`(?:${THAI_RELATIONS})(?:ของ)?\\s*$`),
};

/** Swedish relation nouns, before till and the possessor (brodern till Anna). */
const SWEDISH_RELATIONS =
  'vän|väninna|kompis|bror|brodern|syster|systern|mamma|mor|modern|pappa|far|fadern|son|sonen|dotter|dottern|man|mannen|fru|frun|hustru|sambo|flickvän|pojkvän|kollega|granne|grannen|kusin|farmor|mormor|farfar|morfar|moster|faster|morbror|farbror|barn|barnen|föräldrar|chef|chefen';

/**
 * Swedish (Holmes & Hinchliffe, chs. 10, 12: och/men/eller, the relative som, att; possession with the
 * genitive -s or with till).
 */
export const SWEDISH_CLAUSES: ClauseRules = {
  language: 'sv',
  markers: list(
    'och inte är jag det att som på för har gillar bor dricker äter tycker ingen aldrig alltid mycket också eller hennes heter jobbar arbetar spelar älskar hatar vill hemma kanske säger hans deras hon vår våra varje om ifall kommer gör enligt tror',
  ),
  letters: /å/u,
  // "men" is an English word.
  notMarkers: list('men'),
  coordinators: list('och'),
  conjunctions: list('och men eller utan medan när eftersom innan fastän därför'),
  relatives: list('vilken vilket vilka där vars'),
  // som is a relative, and "as" after a verb of occupation (jobbar som lärare): a clause only elsewhere.
  clauseMarks:
    /(?:^|\s)(?<!(?:jobbar|arbetar|jobbade|arbetade|fungerar|tjänstgör|anställd|verksam|känd)\s+)som(?=\s|$)/u,
  complementizers: list('att'),
  pronouns: list('han hon den det de jag vi du ni hans hennes deras'),
  possessorAfter: nfkc(`^s\\s+(?:${SWEDISH_RELATIONS})(?![\\p{L}])`),
  // The genitive -s on a name without an apostrophe: Elsas favoritfärg, Saras bror (Holmes & Hinchliffe, § 2.4).
  wordEndings: /^s$/u,
  possessorBefore: nfkc(`(?:^|\\s)(?:${SWEDISH_RELATIONS})\\s+(?:till|åt)\\s*$`),
};

/**
 * Words that say a text in a script read here is in a language without rules: Bulgarian (Cyrillic, no letter of
 * its own), Persian (Arabic script), Marathi and Nepali (Devanagari), Yiddish (Hebrew script). Each is a frequent
 * function word or verb of its language and no word of the languages with rules in that script.
 */
export const UNREAD_SCRIPT_WORDS: Readonly<Record<string, readonly string[]>> = {
  bg: list('е са съм който която което които тя към във със обича живее пие няма нещо'),
  fa: list('است را هست نیست دارد ندارد نمی می شد بود'),
  mr: list('आहे आहेत नाही आणि मला आवडते राहतो राहते'),
  ne: list('छ छन् छैन पनि हुन्छ गर्छ मलाई उनी'),
  yi: list('איז נישט ניט און דער דאס מיט זיך האט'),
};

/** Letters that only a language without rules writes, in a script read here (or in Latin letters), by language. */
export const UNREAD_LETTERS: Readonly<Record<string, RegExp>> = {
  be: /ў/u,
  sr: /[ђћџјљњ]/u,
  mk: /[ѓќѕ]/u,
  kk: /[әғқңөұүһ]/u,
  fa: /[پژگکی]/u,
  ur: /[ٹڈڑںےۓہ]/u,
  mr: /ळ/u,
  yi: /[װױײ]/u,
  cs: /[řěů]/u,
  hu: /[őű]/u,
  ro: /[țșţ]/u,
  is: /[ðþ]/u,
  lt: /[ėįų]/u,
  lv: /[āēīļķņģ]/u,
  az: /ə/u,
};

/** Scripts none of the languages with rules writes, by the language they most likely are (for the refusal). */
export const UNREAD_SCRIPTS: Readonly<Record<string, RegExp>> = {
  el: /\p{Script=Greek}/u,
  ka: /\p{Script=Georgian}/u,
  hy: /\p{Script=Armenian}/u,
  bn: /\p{Script=Bengali}/u,
  ta: /\p{Script=Tamil}/u,
  te: /\p{Script=Telugu}/u,
  gu: /\p{Script=Gujarati}/u,
  pa: /\p{Script=Gurmukhi}/u,
  kn: /\p{Script=Kannada}/u,
  ml: /\p{Script=Malayalam}/u,
  si: /\p{Script=Sinhala}/u,
  km: /\p{Script=Khmer}/u,
  lo: /\p{Script=Lao}/u,
  my: /\p{Script=Myanmar}/u,
  am: /\p{Script=Ethiopic}/u,
};
// Stryker restore StringLiteral,ArrayDeclaration,Regex
