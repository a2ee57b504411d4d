/**
 * A word table (data, not code): the assertion rules of Russian, Ukrainian, Polish, Turkish, Indonesian,
 * Vietnamese, Arabic, Hebrew, Hindi, Thai and Swedish, read as assertion-rules.ts reads the others (see
 * {@link AssertionRules}; patterns are written folded, as the text they read).
 *
 * Size: a word table (data, not code), one table per language.
 *
 * Each class of cue is written from the language's grammar, its source named above it:
 * - ru: Wade, A Comprehensive Russian Grammar (2011): particles ли, разве, неужели and question words §§ 9–10;
 *   modal words (может быть, наверное, кажется) § 11; conditionals если, бы § 10; reported speech § 11.
 * - uk: Pugh & Press, Ukrainian: A Comprehensive Grammar (1999): чи, хіба, невже; modal words (мабуть,
 *   напевно, здається); якщо, якби; reported speech; negation не, ні.
 * - pl: Swan, A Grammar of Contemporary Polish (2002): czy and question words; particles chyba, może, pewnie;
 *   jeśli, gdyby and the conditional -by; reported speech and podobno/ponoć; negation nie.
 * - tr: Göksel & Kerslake, Turkish: A Comprehensive Grammar (2005): the question clitic mI (ch. 19); evidential
 *   -mIş and diye (ch. 21); conditional -sA, eğer (ch. 27); negation -mA-, değil, yok (ch. 20); epistemic
 *   belki, galiba, herhalde, sanırım (ch. 21).
 * - id: Sneddon et al., Indonesian: A Comprehensive Grammar (2010): apakah, -kah, tags bukan/kan/ya, question
 *   words (ch. 8); modal mungkin, barangkali, sepertinya (ch. 7); kalau, jika, seandainya (ch. 9); katanya,
 *   menurut; negators tidak, bukan, belum, jangan.
 * - vi: Thompson, A Vietnamese Reference Grammar (1987): final particles không, chưa, à, hả, nhỉ and có …
 *   không; question words ai, gì, đâu, nào; modal có lẽ, có thể, chắc, hình như; nếu, giả sử; negation không,
 *   chẳng, chưa, đừng. Typed without diacritics too, each cue read with or without its marks.
 * - ar: Holes, Modern Arabic: Structures, Functions and Varieties (2004): هل, question words, أليس; ربما,
 *   يبدو, أظن; إذا, لو, إن; قال إن, يقال, حسب; negators لا, لم, لن, ليس, ما, and the dialects' مش, مو.
 * - he: Glinert, Modern Hebrew: An Essential Grammar (2005): האם, question words, tag נכון, לא; אולי, כנראה,
 *   נדמה לי; אם, אילו, לו; אמר ש, לפי, לדברי; negation לא, אין, אף פעם.
 * - hi: Kachru, Hindi (2006): क्या and question words, tags ना, है ना; शायद, लगता है, presumptive होगा;
 *   अगर, यदि; कहा कि, के अनुसार; negation नहीं, न, मत.
 * - th: Iwasaki & Ingkaphirom, A Reference Grammar of Thai (2005): question particles ไหม, มั้ย, หรือเปล่า,
 *   หรือยัง, เหรอ and question words (ch. 18); อาจ, คง, น่าจะ, มั้ง (ch. 13); ถ้า, หาก, สมมติ (ch. 21); บอกว่า,
 *   ได้ยินว่า (ch. 20); negation ไม่, ไม่เคย.
 * - sv: Holmes & Hinchliffe, Swedish: A Comprehensive Grammar (2013): questions by inversion (V1), question
 *   words, tags eller hur, va (§ 12); modal particles and adverbs kanske, nog, väl, troligen (§ 8); om,
 *   ifall (§ 10); reported säger att, enligt, lär; negation inte, aldrig, ingen (§ 8). Danish and Norwegian
 *   ikke and aldri count too: a neighbour's sentence read as Swedish is never read as not negated.
 */
import { lazily, request, type AssertionRules } from './assertion-rules.js';

/**
 * A pattern as the text it reads is written: NFKC (Thai ำ is ํ and า there, Devanagari ड़ is ड and ़), so each
 * helper normalises its words.
 */
const nfkc = (source: string) => new RegExp(source.normalize('NFKC'), 'u');
/** Whole words: no letter, mark, digit or apostrophe right before, no letter, mark or digit right after. */
const w = (words: string) => nfkc(`(?<![\\p{L}\\p{M}\\p{N}'’])(?:${words})(?![\\p{L}\\p{M}\\p{N}])`);
/** A cue that opens the sentence (its reading, without what stands around it). */
const start = (words: string) => nfkc(`^[\\s"'“„«(]*(?:${words})(?![\\p{L}\\p{M}\\p{N}])`);
/** A cue at the start of a sentence or of a clause after a comma, semicolon or colon. */
const opening = (words: string) => nfkc(`(?:^|[,;:،؛]\\s*)[\\s"'“„«(]*(?:${words})(?![\\p{L}\\p{M}\\p{N}])`);
/** A tag after a comma at the end of a sentence ("…, да", "…, bukan"). */
const tag = (words: string) => nfkc(`[,،]\\s*(?:${words})\\s*[.!?…]*\\s*$`);
/** A word that closes the sentence (a final particle), with or without a comma before it. */
const last = (words: string) => nfkc(`(?<![\\p{L}\\p{M}\\p{N}'’])(?:${words})\\s*[.!?…]*\\s*$`);
/**
 * Vietnamese words as written, or typed without their diacritics (khong for không, da for đã) in a sentence
 * typed all in ASCII (a name set aside, ·, aside): only there, since "may" is a word of its own beside "mấy" and
 * "dau" beside "đâu".
 */
const loose = (words: string) =>
  `${words}|(?<=^[\\x00-\\x7f\\u00b7]*)(?:${words.normalize('NFD').replace(/\p{M}/gu, '').replace(/đ/gu, 'd')})(?=[\\x00-\\x7f\\u00b7]*$)`;
const vw = (words: string) => w(loose(words));

// Stryker disable StringLiteral,Regex: the tables are data; test/fixtures/language-corpus-more.ts holds them to
// account by the cases it decides.

/** Russian. */
export const RUSSIAN: AssertionRules = lazily(() => ({
  doNotKeep: [
    w(
      'не\\s+(?:надо\\s+|нужно\\s+)?(?:это\\s+)?(?:запоминай|запоминайте|запоминать|записывай|записывайте|записывать|сохраняй|сохраняйте|сохранять|запиши|запишите)|(?<!не\\s+)забудь(?:те)?(?:\\s+(?:это|об\\s+этом|что\\s+я\\s+сказал\\p{L}*))?|между\\s+нами|не\\s+для\\s+записи|по\\s+секрету',
    ),
  ],
  hedges: [
    w(
      'может\\s+быть|может|наверное|наверно|вероятно|возможно|кажется|по-моему|видимо|пожалуй|думаю|полагаю|считаю|не\\s+уверен\\p{L}*|не\\s+знаю|вроде|вроде\\s+бы|как\\s+будто|похоже|должно\\s+быть|скорее\\s+всего|наверняка|если\\s+не\\s+ошибаюсь|насколько\\s+я\\s+знаю',
    ),
  ],
  conditions: [
    w('если|бы|б|в\\s+случае|при\\s+условии|предположим|допустим|представь|представьте|вообрази|ежели|коли'),
  ],
  reportedBefore: [
    w(
      '(?:говорит|говорят|говорил\\p{L}*|сказал\\p{L}*|утверждает|утверждал\\p{L}*|считает|думает|думал\\p{L}*|рассказал\\p{L}*|рассказывал\\p{L}*|слышал\\p{L}*|пишет|писал\\p{L}*|уверяет|клянётся|клянется)(?:\\s*,)?\\s+(?:что|будто)|мне\\s+сказали|я\\s+слышал\\p{L}*|говорят|якобы|мол|дескать|будто|по\\s+слухам',
    ),
  ],
  reportedAnywhere: [w('по\\s+словам|по\\s+мнению|по\\s+данным|согласно|как\\s+говорят|говорят|якобы|по\\s+слухам')],
  ownWords: [
    w('как\\s+я\\s+(?:уже\\s+)?(?:говорил\\p{L}*|сказал\\p{L}*)|я\\s+же\\s+говорил\\p{L}*|как\\s+уже\\s+сказано'),
  ],
  negation: [w('не|нет|никогда|ни|никто|ничего|ничто|нигде|нельзя|ниразу')],
  notNegating: [w('не\\s+забудь(?:те)?|не\\s+забывай(?:те)?|не\\s+только|не\\s+так\\s+ли|не\\s+правда\\s+ли')],
  questions: [
    w('ли|разве|неужели|неужто'),
    // An alternative question (Wade § 10: "кофе или чай"): neither is asserted, with its mark or without.
    w('или|либо'),
    start(
      'кто|что|где|куда|откуда|когда|почему|зачем|как(?!\\s+(?:я|всегда|обычно|уже|известно))|какой|какая|какое|какие|который|которая|сколько|чей|чья|чьё|чьи|правда\\s+ли|скажи',
    ),
    tag('да|правда|верно|нет|не\\s+так\\s+ли|ага|что\\s+ли|так'),
    w('знаешь\\s+ли|не\\s+знаешь'),
  ],
  requests: [
    /^(?:(?:ты\s+)?(?:можешь|могли\s+бы|мог\s+бы|можете)\s+(?:ли\s+)?(?:пожалуйста\s+)?(?:запомнить|записать|сохранить))(?:\s*,)?(?:\s+что)?\s+/u,
  ],
}));

/** Ukrainian. */
export const UKRAINIAN: AssertionRules = lazily(() => ({
  doNotKeep: [
    w(
      "не\\s+(?:треба\\s+|потрібно\\s+)?(?:це\\s+)?(?:запам['’ʼ]ятовуй|запам['’ʼ]ятовуйте|запам['’ʼ]ятовувати|записуй|записуйте|записувати|зберігай|зберігайте|зберігати|запиши|запишіть)|(?<!не\\s+)забудь(?:те)?(?:\\s+(?:це|про\\s+це))?|між\\s+нами|не\\s+для\\s+запису|по\\s+секрету",
    ),
  ],
  hedges: [
    w(
      'може\\s+бути|може|можливо|мабуть|напевно|напевне|ймовірно|імовірно|здається|видимо|видно|схоже|певно|думаю|гадаю|вважаю|по-моєму|не\\s+впевнен\\p{L}*|не\\s+знаю|либонь|начебто|ніби|мовби|скоріше\\s+за\\s+все',
    ),
  ],
  conditions: [
    w('якщо|якби|коли\\s+б|б|би|у\\s+разі|в\\s+разі|за\\s+умови|припустимо|припустім|уяви|уявіть|уявімо|аби'),
  ],
  reportedBefore: [
    w(
      '(?:каже|кажуть|казав|казала|казали|сказав|сказала|сказали|стверджує|стверджував\\p{L}*|вважає|думає|думав|думала|розповів|розповіла|розповідав\\p{L}*|чув|чула|пише|писав|писала)(?:\\s*,)?\\s+(?:що|ніби|начебто)|мені\\s+сказали|я\\s+чув|я\\s+чула|кажуть|нібито|начебто|мовляв',
    ),
  ],
  reportedAnywhere: [w('за\\s+словами|на\\s+думку|згідно\\s+з|як\\s+кажуть|кажуть|нібито|мовляв')],
  ownWords: [w('як\\s+я\\s+(?:вже\\s+)?(?:казав|казала|сказав|сказала|говорив|говорила)|я\\s+ж\\s+казав\\p{L}*')],
  negation: [w('не|ні|ніколи|ніхто|нічого|ніде|нема|немає|жоден|жодна|жодне|жодного|жодної')],
  notNegating: [w('не\\s+забудь(?:те)?|не\\s+забувай(?:те)?|не\\s+тільки|не\\s+лише|чи\\s+не\\s+так|чи\\s+ні')],
  questions: [
    w('чи|хіба|невже'),
    // An alternative (чи … чи, або): neither is asserted.
    w('або'),
    start(
      'хто|що|де|куди|звідки|коли|чому|навіщо|як(?!\\s+(?:я|завжди|зазвичай|вже|відомо))|який|яка|яке|які|котрий|котра|скільки|чий|чия|чиє|чиї|скажи',
    ),
    tag('так|правда|вірно|ні|чи\\s+не\\s+так|еге\\s+ж|ага|хіба\\s+ні'),
  ],
  requests: [
    /^(?:(?:ти\s+)?(?:можеш|могли\s+б|міг\s+би|можете)\s+(?:будь\s+ласка\s+)?(?:запам['’ʼ]ятати|записати|зберегти))(?:\s*,)?(?:\s+що)?\s+/u,
  ],
}));

/** Polish. */
export const POLISH: AssertionRules = lazily(() => ({
  doNotKeep: [
    w(
      'nie\\s+(?:musisz\\s+(?:tego\\s+)?)?(?:zapisuj|zapisujcie|zapamiętuj|zapamiętujcie|zapamiętywać|zapisywać|notuj|zachowuj|zapamiętaj|zapisz)|(?<!nie\\s+)zapomnij(?:cie)?(?:\\s+o\\s+tym|\\s+to)?|między\\s+nami|nieoficjalnie|nie\\s+do\\s+protokołu',
    ),
  ],
  hedges: [
    w(
      'może|moze|chyba|pewnie|prawdopodobnie|przypuszczalnie|możliwe|być\\s+może|raczej|myślę|sądzę|wydaje\\s+mi\\s+się|wydaje\\s+się|zdaje\\s+się|nie\\s+jestem\\s+(?:pewien|pewna|pewny)|nie\\s+wiem|mam\\s+wrażenie|o\\s+ile\\s+wiem|bodajże|chyba\\s+że',
    ),
  ],
  conditions: [
    w(
      'jeśli|jesli|jeżeli|jezeli|gdyby|gdybyś|jeśliby|o\\s+ile|chyba\\s+że|pod\\s+warunkiem|załóżmy|przypuśćmy|wyobraź\\s+sobie|wyobraźmy\\s+sobie|w\\s+razie|w\\s+przypadku|\\p{L}+(?:łby|łaby|łoby|łyby|liby|łbym|łabym|łbyś|łabyś|libyśmy|łybyśmy)',
    ),
    opening('jak(?!\\s+(?:już|juz|zwykle|zawsze|mówiłem|mówiłam))|gdy'),
  ],
  reportedBefore: [
    w(
      '(?:mówi|mówią|mówił|mówiła|mówili|powiedział|powiedziała|powiedzieli|twierdzi|twierdził|twierdziła|uważa|uważał|uważała|sądzi|myśli|myślał|myślała|pisze|napisał|napisała|opowiadał|opowiadała|słyszał|słyszała|słyszałem|słyszałam)(?:\\s*,)?\\s+(?:że|iż)|słyszałem|słyszałam|podobno|ponoć|rzekomo|jakoby|mówią',
    ),
  ],
  reportedAnywhere: [w('według|wg|zdaniem|podobno|ponoć|rzekomo|jakoby|jak\\s+mówią|mówią')],
  ownWords: [w('jak\\s+(?:już\\s+)?(?:mówiłem|mówiłam|powiedziałem|powiedziałam)')],
  negation: [w('nie|nigdy|nikt|nic|niczego|żaden|żadna|żadne|żadnego|żadnej|ani|wcale|nigdzie')],
  notNegating: [w('nie\\s+zapomnij(?:cie)?|nie\\s+zapominaj(?:cie)?|nie\\s+tylko|nie\\s+prawda|prawda\\s+nie')],
  questions: [
    w('czy|czyż'),
    // An alternative (albo, lub): neither is asserted.
    w('albo|lub'),
    start(
      'kto|co(?!\\s+(?:tydzień|tydzien|roku|rok|miesiąc|dzień|dzien|rano|wieczór|noc))|gdzie|kiedy|dlaczego|czemu|jak(?!\\s+(?:już|juz|zwykle|zawsze|mówiłem|mówiłam))|jaki|jaka|jakie|który|która|które|ile|skąd|dokąd|po\\s+co',
    ),
    tag('prawda|tak|nie|co\\s+nie|no\\s+nie|czyż\\s+nie|zgadza\\s+się'),
  ],
  requests: [
    /^(?:(?:czy\s+)?(?:możesz|mógłbyś|mogłabyś|możecie|mógłby\s+pan|mogłaby\s+pani)\s+(?:proszę\s+)?(?:zapamiętać|zapisać|zanotować))(?:\s*,)?(?:\s+(?:że|iż))?\s+/u,
  ],
}));

/** Turkish. */
export const TURKISH: AssertionRules = lazily(() => ({
  doNotKeep: [
    w(
      'kaydetme|kaydetmeyin|not\\s+etme|not\\s+etmeyin|not\\s+alma|not\\s+almayın|aklında\\s+tutma|aklınızda\\s+tutmayın|hatırlama|yazma|yazmayın|(?:kaydetmene|hatırlamana|yazmana|not\\s+etmene)\\s+gerek\\s+yok|bunu\\s+unut|unut\\s+(?:bunu|gitsin|onu)|boş\\s*ver|aramızda\\s+kalsın|gizli\\s+kalsın',
    ),
  ],
  hedges: [
    w(
      'belki|galiba|herhalde|sanırım|sanirim|sanki|muhtemelen|olasılıkla|büyük\\s+ihtimalle|bence|zannederim|zannımca|tahminen|emin\\s+değilim|emin\\s+degilim|bilmiyorum|olabilir|olmalı|gibi\\s+(?:görünüyor|geliyor)|diye\\s+düşünüyorum|acaba',
    ),
  ],
  conditions: [
    w(
      'eğer|eger|şayet|keşke|keske|diyelim\\s+ki|farz\\s+et|farz\\s+edelim|varsayalım|tut\\s+ki|hayal\\s+et|takdirde|durumunda',
    ),
    // The conditional -sA after a tense, and the counterfactual -sAydI (gelirse, içmezse, olsaydı), not a name's
    // case ending after an apostrophe (Bursa'da).
    /(?<![\p{L}\p{M}\p{N}'’])(?!ayse(?![\p{L}]))\p{L}+(?:rs[ae]|ys[ae]|zs[ae]|s[ae]yd[ıi]\p{L}*)(?![\p{L}\p{M}\p{N}'’])/u,
  ],
  reportedBefore: [
    w(
      'diyor|dedi|demiş|söylüyor|söyledi|söylemiş|iddia\\s+ediyor|iddia\\s+etti|sanıyor|düşünüyor|duydum|duyduğuma\\s+göre|dediğine\\s+göre|anlattı|anlatıyor',
    ),
  ],
  reportedAnywhere: [
    w('göre|rivayete\\s+göre|söylentiye\\s+göre|diye\\s+duydum|dediler|diyorlar|diyormuş|söylenti'),
    // The evidential -mIş closing the sentence: what one heard or inferred, not saw (gelmiş, evlenmişler).
    /\p{L}{2,}m[ıiuü]ş(?:lar|ler|t[ıiuü]r)?\s*[.!…]*\s*$/u,
  ],
  ownWords: [w('dediğim\\s+gibi|söylediğim\\s+gibi')],
  negation: [
    w('değil|degil|yok|hiç|hic|asla|hiçbir|hicbir|kimse|ne\\s+de'),
    // The negative verb -mA- before its tense: içmiyor, sevmez, gelmedi, gitmeyecek, olmamış (not Yılmaz, a name).
    /(?<![\p{L}\p{M}\p{N}'’])(?!y[ıi]lmaz|namaz)\p{L}+(?:m[ıiuü]yor|m[ae]z|m[ae]d[ıi]|m[ae]y[ae]c[ae]k|m[ae]m[ıi]ş)\p{L}*/u,
  ],
  notNegating: [w('unutma|unutmayın|sadece\\s+değil|değil\\s+mi|degil\\s+mi|hiç\\s+değilse')],
  questions: [
    // The clitic mI with its person endings, written apart (Ayşe çay içer mi, geliyor musun).
    w('m[ıiuü](?:y[ıiuü]m|s[ıiuü]n|y[ıiuü]z|s[ıiuü]n[ıiuü]z|d[ıiuü]r|yd[ıiuü]|ym[ıiuü]ş|yd[ıiuü]k|yd[ıiuü]n)?'),
    // An alternative question (yoksa, veya: ch. 19): neither is asserted.
    w('yoksa|veya|ya\\s+da'),
    w(
      'kim|kimin|kime|kimi|ne|neyi|nerede|nereye|nereden|nerde|ne\\s+zaman|neden|niye|niçin|nasıl|hangi|kaç|kaçta|ne\\s+kadar',
    ),
    last('di\\s+mi|değil\\s+mi|öyle\\s+mi'),
  ],
  negationAfter: true,
}));

/** Indonesian. */
export const INDONESIAN: AssertionRules = lazily(() => ({
  doNotKeep: [
    w(
      'jangan\\s+(?:di)?(?:catat|simpan|ingat|tulis|rekam)|(?:tidak|nggak|gak|ga|enggak)\\s+(?:perlu|usah)\\s+(?:di)?(?:catat|ingat|simpan|tulis|rekam)|lupakan(?:\\s+(?:saja|aja))?|lupain|antara\\s+kita(?:\\s+(?:saja|aja))?|rahasia|off\\s+the\\s+record',
    ),
  ],
  hedges: [
    w(
      'mungkin|barangkali|kemungkinan|sepertinya|kayaknya|kelihatannya|tampaknya|rasanya|agaknya|(?:saya|aku)\\s+(?:kira|pikir|rasa|rasa-rasa)|kukira|kupikir|entah|(?:tidak|nggak|gak|kurang)\\s+yakin|bisa\\s+jadi|boleh\\s+jadi|jangan-jangan|seolah|seolah-olah|(?:tidak|nggak|gak)\\s+tahu\\s+(?:apakah|apa)',
    ),
  ],
  conditions: [
    w(
      'kalau|kalo|klo|jika|jikalau|apabila|bila|seandainya|andaikan|andai|andaikata|misalkan|umpamanya|seumpama|asalkan|kecuali\\s+(?:kalau|jika|bila)|bayangkan|anggap\\s+saja|anggaplah|seandainya',
    ),
  ],
  reportedBefore: [
    w(
      'bilang|berkata|mengatakan|kata|mengaku|mengklaim|(?:ber)?cerita\\s+(?:bahwa|kalau)|menceritakan|(?:saya|aku|gue|gw)\\s+(?:dengar|mendengar)|mendengar\\s+bahwa|memberitahu\\p{L}*|ngomong\\s+(?:bahwa|kalau)|menyebutkan\\s+bahwa|yakin\\s+bahwa',
    ),
  ],
  reportedAnywhere: [
    w('menurut|konon|kabarnya|katanya|rumornya|dengar-dengar|denger-denger|kata\\s+orang|orang\\s+bilang'),
  ],
  ownWords: [
    w('(?:seperti|kayak|kaya)\\s+(?:yang\\s+)?(?:sudah\\s+|udah\\s+)?(?:saya|aku|gue|gw)\\s+(?:bilang|katakan)'),
  ],
  negation: [
    w('tidak|tak|nggak|ngga|enggak|engga|gak|ga|ndak|kagak|tdk|bukan|belum|jangan|tiada|tidak\\s+pernah|tak\\s+pernah'),
  ],
  notNegating: [w('jangan\\s+lupa|(?:tidak|bukan|nggak|gak)\\s+(?:hanya|cuma|cuman|saja)|tidak\\s+apa-apa')],
  questions: [
    w(
      'apakah|apa\\s+kah|bukankah|siapakah|manakah|bagaimanakah|kapankah|dimanakah|berapakah|adakah|benarkah|bisakah|maukah|sudahkah|haruskah|mengapa|kenapa|bagaimana|gimana|siapa|kapan|berapa|di\\s+mana|dimana|ke\\s+mana|kemana|dari\\s+mana|darimana',
    ),
    // An alternative question with atau (Sneddon § 8): neither is asserted.
    w('atau'),
    start('apa'),
    tag('bukan|kan|ya|betul|benar|iya|toh|ya\\s+kan|bukan\\s+begitu'),
    last('kan|ya\\s+kan|bukan|(?:atau|apa)\\s+(?:tidak|nggak|enggak|gak|ga|belum|bukan)|ya|nggak|gak|enggak|belum'),
  ],
  requests: [
    /^(?:(?:bisa|bisakah|tolong|boleh|mohon)\s+(?:kamu\s+|anda\s+)?(?:tolong\s+)?(?:ingat|ingatkan|catat|simpan|ingat-ingat))(?:\s+(?:ya|dong))?(?:\s*,)?(?:\s+bahwa)?\s+/u,
  ],
}));

/** Vietnamese. */
export const VIETNAMESE: AssertionRules = lazily(() => ({
  doNotKeep: [
    vw(
      'đừng\\s+(?:có\\s+)?(?:ghi|nhớ|lưu|ghi\\s+nhớ|ghi\\s+lại|lưu\\s+lại|chép)|không\\s+cần\\s+(?:phải\\s+)?(?:ghi|nhớ|lưu)|quên\\s+(?:chuyện|điều|cái)\\s+(?:này|đó)\\s+đi|quên\\s+nó\\s+đi|quên\\s+đi|giữ\\s+bí\\s+mật|bí\\s+mật\\s+nhé|giữa\\s+chúng\\s+ta',
    ),
  ],
  hedges: [
    vw(
      'có\\s+lẽ|có\\s+thể|chắc(?!\\s+chắn)|chắc\\s+là|hình\\s+như|dường\\s+như|hẳn\\s+là|(?:tôi|mình|em|anh|chị|tớ|tao)\\s+(?:nghĩ|đoán|tưởng)|không\\s+chắc|chưa\\s+chắc|không\\s+biết\\s+(?:là|liệu|có\\s+phải)|e\\s+là|có\\s+vẻ|liệu|biết\\s+đâu|nghe\\s+như|khả\\s+năng\\s+là',
    ),
  ],
  conditions: [
    vw(
      'nếu|nếu\\s+như|giả\\s+sử|giả\\s+như|lỡ\\s+như|trong\\s+trường\\s+hợp|hễ|miễn\\s+là|trừ\\s+khi|tưởng\\s+tượng|giá\\s+mà',
    ),
  ],
  reportedBefore: [
    vw(
      '(?:nói|bảo|kể|kêu)\\s+(?:là|rằng)|cho\\s+rằng|nghĩ\\s+rằng|nghe\\s+nói|nghe\\s+bảo|nghe\\s+đồn|đồn\\s+(?:là|rằng)|người\\s+ta\\s+nói|nghe\\s+đâu|khẳng\\s+định',
    ),
  ],
  reportedAnywhere: [vw('theo\\s+lời|theo\\s+như|theo\\s+\\S+\\s+thì|nghe\\s+nói|nghe\\s+đồn|người\\s+ta\\s+bảo')],
  ownWords: [
    vw('như\\s+(?:tôi|mình|em|anh|chị)\\s+(?:đã\\s+)?nói|như\\s+đã\\s+nói|(?:tôi|mình)\\s+đã\\s+nói\\s+(?:là|rằng)'),
  ],
  negation: [vw('không|chẳng|chưa|chưa\\s+bao\\s+giờ|không\\s+bao\\s+giờ|không\\s+còn|ko|hông')],
  notNegating: [vw('không\\s+chỉ|không\\s+những|đừng\\s+quên|không\\s+sao|chưa\\s+chắc')],
  questions: [
    // A final particle (không, chưa, à, hả, nhỉ, chứ…), or có … không, phải không.
    last(
      loose(
        'không|chưa|à|hả|hử|nhỉ|chứ|ư|sao|hông|ko|phải\\s+không|đúng\\s+không|phải\\s+chứ|được\\s+không|chưa\\s+nhỉ|không\\s+nhỉ',
      ),
    ),
    // Not as "every" before cũng (lúc nào cũng: always), nor in "never" (chưa bao giờ).
    // An alternative question with hay (Thompson: "A hay B"), hoặc in statements: neither is asserted. Not hay
    // "often" right after the subject or after thường.
    nfkc(`(?:\\S+\\s+){2,}(?<!thường\\s+)(?:${loose('hay|hoặc')})(?=\\s)`),
    vw(
      '(?:ai|gì|đâu|nào)(?!\\s+cũng)|(?<!(?:chưa|không|chẳng)\\s+)bao\\s+giờ(?!\\s+cũng)|khi\\s+nào|tại\\s+sao|vì\\s+sao|thế\\s+nào|ra\\s+sao|bao\\s+nhiêu|mấy|có\\s+phải',
    ),
  ],
  requests: [
    new RegExp(
      `^(?:${loose('(?:(?:bạn|em|anh|chị)\\s+)?(?:có\\s+thể\\s+|hãy\\s+|làm\\s+ơn\\s+)?(?:nhớ|ghi\\s+nhớ|ghi\\s+lại|lưu\\s+lại)(?:\\s+giúp(?:\\s+\\S+)?)?(?:\\s+(?:là|rằng))?')})\\s+`,
      'u',
    ),
  ],
}));

/** Alef in any of its written forms (أ إ آ ا): chat often drops the hamza. */
const A = '[أإآا]';

/** Arabic. */
export const ARABIC: AssertionRules = lazily(() => ({
  doNotKeep: [
    w(
      `(?:لا|ما|بلاش)\\s+(?:تحفظ|تحفظي|تسجل|تسجلي|تكتب|تكتبي|تتذكر|تتذكري|تدون|تدوني)|لا\\s+داعي\\s+(?:ل|${A}ن\\s+)\\S*|${A}نس(?:ى|ي|اه|اها)?\\s+(?:هذا|ذلك|الموضوع|الأمر|ما\\s+قلت)|بيني\\s+وبينك|بيننا|سر\\s+بيننا`,
    ),
  ],
  hedges: [
    w(
      `ربما|لربما|يمكن|ممكن|لعل|قد\\s+يكون|قد\\s+تكون|${A}ظن|${A}عتقد|${A}حسب|${A}توقع|على\\s+ما\\s+${A}ظن|على\\s+ما\\s+يبدو|يبدو|غالبا|على\\s+الأرجح|من\\s+المحتمل|محتمل|احتمال|لست\\s+متأكد\\p{L}*|مش\\s+متأكد\\p{L}*|مو\\s+متأكد\\p{L}*|لا\\s+${A}عرف|لا\\s+${A}دري|${A}شك|يا\\s+ترى`,
    ),
  ],
  conditions: [
    w(
      `إذا|اذا|${A}ن\\s+كان|${A}ن\\s+كانت|لو(?!\\s+سمحت)|لولا|في\\s+حال|في\\s+حالة|بشرط|شرط\\s+${A}ن|${A}فترض|لنفترض|تخيل|تخيلي|فرضا|مثلا\\s+لو`,
    ),
  ],
  reportedBefore: [
    w(
      `قال|قالت|قالوا|يقول|تقول|يقولون|زعم|زعمت|يزعم|تزعم|ادعى|ادعت|يدعي|تدعي|سمعت|يقال|قيل|يظن|تظن|يعتقد|تعتقد|${A}خبرني|${A}خبرتني|حكى|حكت|يحكى`,
    ),
  ],
  reportedAnywhere: [w(`حسب|بحسب|وفقا\\s+ل\\S*|على\\s+حد\\s+قول|نقلا\\s+عن|يقال|قيل|يقولون|سمعت\\s+${A}ن`)],
  ownWords: [w('كما\\s+قلت(?:\\s+لك)?|زي\\s+ما\\s+قلت|مثل\\s+ما\\s+قلت|قلت\\s+لك')],
  negation: [
    w(`(?:و|ف)?(?:لا|لم|لن|ليس|ليست|لست|لسنا|ما|مش|مو|مب|مهو|مهي|مافي|ماكو)|${A}بدا|${A}طلاقا|لا\\s+${A}حد|لا\\s+شيء`),
  ],
  notNegating: [
    w(
      `لا\\s+بد|لا\\s+سيما|لا\\s+تنس\\p{L}*|ما\\s+تنس\\p{L}*|ليس\\s+فقط|لا\\s+يزال|لا\\s+تزال|ما\\s+زال|ما\\s+زالت|مازال|مازالت|ما\\s+دام|لو\\s+سمحت|ما\\s+شاء\\s+الله`,
    ),
  ],
  questions: [
    w(
      `(?:و|ف)?هل|^${A}ي\\s+\\S+|ماذا|${A}ين|وين|فين|متى|لماذا|ليش|ليه|كيف|كيفك|ازاي|شو|ايش|${A}يش|كم|${A}ليس|${A}لا\\s+ترى|من\\s+هو|من\\s+هي|من\\s+هم`,
    ),
    // An alternative question with أم, or a disjunction with أو: neither is asserted.
    w(`${A}م|${A}و`),
    last(`صح|صحيح|مش\\s+كده|مش\\s+كذا|${A}ليس\\s+كذلك|ولا\\s+لا|${A}م\\s+لا|ولا\\s+ل${A}|${A}و\\s+لا`),
  ],
  requests: [request('(?:هل\\s+)?(?:يمكنك|تستطيع|ممكن)\\s+(?:أن\\s+)?(?:تتذكر|تحفظ|تسجل|تدون)', 'أن|أنّ|ان')],
}));

/** Hebrew. */
export const HEBREW: AssertionRules = lazily(() => ({
  doNotKeep: [
    w(
      'אל\\s+(?:ת\\S*זכור|תזכרי|תשמור|תשמרי|תרשום|תרשמי|תכתוב|תכתבי)|(?:לא\\s+צריך|אין\\s+צורך)\\s+ל(?:זכור|שמור|רשום|כתוב)|(?:ת?שכח|תשכחי|שכחי)\\s+מזה|בינינו|זה\\s+סוד|לא\\s+לפרוטוקול|אוף\\s+דה\\s+רקורד',
    ),
  ],
  hedges: [
    w(
      'אולי|כנראה|נדמה\\s+לי|נראה\\s+לי|נראה\\s+ש\\S*|אני\\s+(?:חושב|חושבת|מניח|מניחה|מאמין|מאמינה|משער|משערת)|לדעתי|ייתכן|יתכן|אפשר\\s+ש\\S*|סביר\\s+ש\\S*|(?:אני\\s+)?לא\\s+(?:בטוח|בטוחה)|מן\\s+הסתם|ככל\\s+הנראה|ככל\\s+הידוע\\s+לי|כמדומני|אם\\s+אני\\s+לא\\s+טועה|לא\\s+יודע\\p{L}*\\s+אם|תוהה\\s+אם',
    ),
  ],
  conditions: [
    w(
      'אם(?!\\s+כי)|אילו|לו\\s+(?:רק|הייתי|היית|היה|הייתה|היו)|במקרה\\s+ש\\S*|בתנאי\\s+ש\\S*|נניח|תניח|דמיין|תדמיין|תדמייני|תארו\\s+לעצמכם|אלמלא',
    ),
  ],
  reportedBefore: [
    w(
      'אומר|אומרת|אומרים|אמר|אמרה|אמרו|טוען|טוענת|טוענים|טען|טענה|חושב|חושבת|חושבים|סיפר|סיפרה|סיפרו|שמעתי|מסתבר|מתברר|שמועה',
    ),
  ],
  reportedAnywhere: [w('לפי|על\\s+פי|לדברי|כביכול|אומרים\\s+ש\\S*|שמעתי\\s+ש\\S*')],
  ownWords: [w('(?:כמו|כפי)\\s+ש(?:כבר\\s+)?אמרתי|אמרתי\\s+לך')],
  negation: [
    w(
      '(?:ו|ש|וש|כש)?(?:לא|אין|אינו|אינה|אינם|אינן|אינני|איני)|אף\\s+פעם|בכלל\\s+לא|שום|אף\\s+אחד|אף\\s+אחת|מעולם\\s+לא|כבר\\s+לא',
    ),
  ],
  notNegating: [w('אל\\s+תשכח\\p{L}*|לא\\s+רק|לא\\s+משנה')],
  questions: [
    // An alternative (או … או): neither is asserted.
    w('או'),
    w('(?:ו|ה)?האם'),
    start('מי|מה|איפה|היכן|לאן|מאין|מאיפה|מתי|למה|מדוע|איך|כיצד|כמה|איזה|איזו|אילו|הלא|וכי'),
    tag('נכון|לא|או\\s+לא|כן|נכון\\s+ש\\S*'),
    last('נכון|או\\s+לא|כן\\s+או\\s+לא'),
  ],
  // "תוכל לזכור שדני אוהב קפה?": the complementizer ש is written onto what is to be kept (Glinert, ch. 5), so
  // the request ends before it; a whether-word (אם) after it still asks.
  requests: [
    nfkc(
      '^(?:(?:אתה|את|אתם)\\s+)?(?:יכול|יכולה|יכולים|תוכל|תוכלי|תוכלו)\\s+(?:בבקשה\\s+)?(?:לזכור|לרשום|לשמור|לזכור\\s+בבקשה)\\s+',
    ),
  ],
}));

/** Devanagari letters take vowel signs (\p{M}); a nukta may stand under a consonant (ख़, ज़). */
const N = '\u093c?';

/** Hindi. */
export const HINDI: AssertionRules = lazily(() => ({
  doNotKeep: [
    w(
      `(?:याद|नोट|सेव|रिकॉर्ड|दर्ज)\\s+(?:मत|न|ना)\\s+(?:रखो|रखना|रखें|रखिए|करो|करना|करें|कीजिए)|(?:मत|न|ना)\\s+(?:लिखो|लिखना|लिखें|लिखिए)|लिखना\\s+मत|(?:इसे|ये|यह|यह\\s+बात|ये\\s+बात)\\s+भूल\\s+(?:जाओ|जाइए|जाएं|जाना)|भूल\\s+जाओ|(?:हमारे|अपने)\\s+बीच\\s+(?:में\\s+)?(?:ही\\s+)?(?:रहे|रखना)|(?:याद\\s+रखने|लिखने|सेव\\s+करने)\\s+की\\s+(?:ज${N}रूरत|आवश्यकता)\\s+नहीं`,
    ),
  ],
  hedges: [
    w(
      `शायद|संभवतः|सम्भवतः|संभव\\s+है|हो\\s+सकता\\s+है|लगता\\s+है|मुझे\\s+लगता|मेरे\\s+(?:ख${N}याल|ख${N}्याल|विचार|हिसाब)\\s+से|मुझे\\s+नहीं\\s+पता|पता\\s+नहीं|पक्का\\s+नहीं|यकीन\\s+नहीं|(?:मैं\\s+)?सोचता\\s+हूँ|(?:मैं\\s+)?सोचती\\s+हूँ|मेरा\\s+मानना|अंदाज${N}ा|होगा|होगी|होंगे|होंगी|ऐसा\\s+लगता`,
    ),
  ],
  conditions: [w('अगर|यदि|मान\\s+लो|मान\\s+लीजिए|मान\\s+लें|मानो|कल्पना\\s+(?:करो|कीजिए|करें)|बशर्ते|जब\\s+तक|वरना')],
  reportedBefore: [
    w('कहता|कहती|कहते|कहा|बताया|बताती|बताता|बताते|सुना|सुनने\\s+में\\s+आया|दावा|मानता|मानती|मानते|सोचता|सोचती|सोचते'),
  ],
  reportedAnywhere: [w('के\\s+अनुसार|के\\s+मुताबिक|का\\s+कहना|कथित\\s+तौर|सुना\\s+है|लोग\\s+कहते|कहते\\s+हैं')],
  ownWords: [w('जैसा\\s+(?:कि\\s+)?मैंने\\s+(?:पहले\\s+)?(?:कहा|बताया)|मैंने\\s+(?:पहले\\s+ही\\s+)?(?:कहा|बताया)\\s+था')],
  negation: [w('नहीं|नही|न|ना|मत|कभी\\s+नहीं|कोई\\s+नहीं|कुछ\\s+नहीं|बिल्कुल\\s+नहीं')],
  notNegating: [
    w(
      '(?:मत|न|ना)\\s+भूल[\\p{L}\\p{M}]*|भूल[\\p{L}\\p{M}]*\\s+(?:मत|नहीं)|न\\s+केवल|ना\\s+सिर्फ|न\\s+सिर्फ|नहीं\\s+तो|है\\s+ना|है\\s+न',
    ),
  ],
  questions: [
    // An alternative question with या (Kachru ch. 12): neither is asserted.
    w('या|अथवा'),
    w('क्या|कौन|कौनसा|कौन\\s+सा|कहाँ|कहां|कब|क्यों|कैसे|कैसा|कैसी|कितना|कितनी|कितने|किसका|किसकी|किसके|किसे|किसने|किसको|किस'),
    last('ना|न|है\\s+ना|है\\s+न|या\\s+नहीं|क्या|नहीं\\s+क्या|सही'),
    tag('नहीं|ठीक|सच'),
  ],
  negationAfter: true,
  requests: [
    request(
      '(?:क्या\\s+)?(?:आप|तुम)\\s+(?:यह\\s+)?(?:याद\\s+रख|नोट\\s+कर|लिख)\\s+(?:सकते|सकती|सकेंगे|सकोगे|सकेंगी|सकोगी)(?:\\s+(?:हैं|हो|है))?',
      'कि',
    ),
  ],
}));

/** Thai: no spaces between words, so cues match as text; a final particle before a space or the end. */
export const THAI: AssertionRules = lazily(() => ({
  doNotKeep: [
    nfkc(
      String.raw`(?:ไม่ต้อง|อย่า)(?:ไป)?(?:จำ|บันทึก|จด|เก็บ|เซฟ)|ลืม(?:มัน|เรื่องนี้|ที่\S*)?ไป(?:เลย|ซะ)?|เป็นความลับ|ความลับ(?:นะ)?|ระหว่างเรา`,
    ),
  ],
  hedges: [
    nfkc(
      String.raw`อาจจะ|อาจ(?!ารย์)|คงจะ|(?<!ยัง)คง(?!ที่|ทน|ไว้)|น่าจะ|มั้ง|เหมือนจะ|ดูเหมือน|ไม่แน่ใจ|ไม่แน่|(?:ผม|ฉัน|ดิฉัน|เรา|หนู|พี่|ชั้น)คิดว่า|คิดว่า|เดาว่า|สงสัยว่า|ไม่รู้ว่า|ไม่ทราบว่า|เข้าใจว่า`,
    ),
  ],
  conditions: [nfkc(String.raw`ถ้า|หาก|สมมติ|สมมุติ|ในกรณี|เผื่อ|ถ้าเกิด|จินตนาการ`)],
  reportedBefore: [nfkc(String.raw`บอกว่า|พูดว่า|เล่าว่า|อ้างว่า|ยืนยันว่า|ได้ยิน(?:มา)?ว่า|เขาว่า|ว่ากันว่า|ข่าวว่า|ลือกันว่า|ลือว่า`)],
  reportedAnywhere: [nfkc(String.raw`ตามที่\S*(?:บอก|ว่า)|ได้ยินมา|ว่ากันว่า|เขาว่ากัน|ข่าวลือ|ตามคำ`)],
  ownWords: [nfkc(String.raw`อย่างที่(?:ผม|ฉัน|ดิฉัน|เรา|หนู)?(?:เคย)?บอก|(?:ผม|ฉัน|ดิฉัน)บอก(?:แล้ว|ไปแล้ว)`)],
  negation: [nfkc(String.raw`ไม่|มิได้|หามิได้|ไม่เคย|ไม่ได้|ไม่มี|ยังไม่|ห้าม`)],
  notNegating: [nfkc(String.raw`ไม่ลืม|อย่าลืม|ไม่เพียงแต่|ไม่เพียง|ไม่ใช่แค่|ไม่กี่|ไม่ว่า|ไม่เป็นไร`)],
  questions: [
    nfkc(
      String.raw`(?:ไหม|มั้ย|ไม๊|มั๊ย|หรือเปล่า|รึเปล่า|หรือป่าว|ป่าว|หรือไม่|หรือยัง|รึยัง|ใช่ไหม|ใช่มั้ย|ใช่หรือเปล่า|เหรอ|หรอ|หรือ|รึ|มิใช่หรือ)(?:ครับ|คะ|ค่ะ|ค้ะ|จ๊ะ|จ้ะ|จ๊ะ|นะ|น่ะ|เนี่ย)*(?=\s|$|[.!?…])`,
    ),
    nfkc(
      String.raw`ใคร|อะไร|ที่ไหน|ไหน|เมื่อไร|เมื่อไหร่|ทำไม|อย่างไร|ยังไง|เท่าไร|เท่าไหร่|(?<!ไม่)กี่|หรือเปล่า|หรือไม่|ไหม(?=ครับ|คะ|ค่ะ|$|\s)`,
    ),
  ],
  // "ช่วยจำไว้ว่ามาลีชอบกาแฟได้ไหม", "จดไว้หน่อยว่า…": the request before what it keeps, its close (ได้ไหม, หน่อย, นะ)
  // after it (Iwasaki & Ingkaphirom, ch. 20: requests with ช่วย, ได้ไหม).
  requests: [nfkc('^(?:ช่วย|กรุณา|รบกวน)?\\s*(?:จำ|จด|บันทึก)(?:\\s*ไว้)?(?:\\s*(?:ให้|หน่อย|ด้วย))*\\s*ว่า\\s*')],
  requestEnds: [nfkc('\\s*(?:ได้(?:ไหม|มั้ย|มั๊ย)|หน่อย|ด้วย)?\\s*(?:นะ)?\\s*(?:คะ|ค่ะ|ครับ)?$')],
}));

/** Swedish. */
export const SWEDISH: AssertionRules = lazily(() => ({
  doNotKeep: [
    w(
      '(?:spara|kom\\s+ihåg|skriv|anteckna|notera|lagra|registrera)\\s+(?:det\\s+|detta\\s+)?(?:inte|ej)|(?:behöver|måste)\\s+(?:inte|ej)\\s+(?:spara|komma\\s+ihåg|skriva|anteckna)|glöm\\s+(?:bort\\s+)?(?:det|detta|vad\\s+jag\\s+sa)|mellan\\s+oss|off\\s+the\\s+record',
    ),
  ],
  hedges: [
    w(
      'kanske|nog|troligen|troligtvis|förmodligen|antagligen|möjligen|eventuellt|väl|jag\\s+(?:tror|antar|gissar|misstänker|förmodar)|tror\\s+jag|verkar|inte\\s+säker|osäker|vet\\s+inte\\s+om|undrar\\s+om|kan\\s+vara|kan\\s+ha|skulle\\s+kunna|mig\\s+veterligen|såvitt\\s+jag\\s+vet|kanskje|måske',
    ),
  ],
  conditions: [
    opening('om|ifall'),
    w(
      'ifall|förutsatt\\s+att|antag\\s+att|anta\\s+att|tänk\\s+om|tänk\\s+dig|såvida|i\\s+fall|om\\s+(?:hon|han|de|vi|jag|du|ni)\\s',
    ),
  ],
  reportedBefore: [
    w(
      'säger|sa|sade|påstår|påstod|hävdar|hävdade|tror|trodde|berättade|berättar|hörde|har\\s+hört|tycker\\s+att|menar\\s+att|enligt',
    ),
  ],
  reportedAnywhere: [w('enligt|tydligen|visst\\s+ska|ryktet\\s+säger|det\\s+sägs|sägs|påstås|lär\\s+(?:vara|ha|bo)')],
  ownWords: [w('som\\s+jag\\s+(?:redan\\s+)?sa|som\\s+sagt|jag\\s+sa\\s+ju')],
  negation: [w('inte|icke|ej|aldrig|ingen|inget|inga|ingenting|varken|knappast|ikke|ikkje|aldri')],
  notNegating: [w('glöm\\s+inte|glöm\\s+ej|inte\\s+bara|inte\\s+sant|eller\\s+hur')],
  questions: [
    start(
      'är|har|var|hade|kan|ska|skall|vill|måste|får|brukar|gillar|bor|dricker|äter|jobbar|arbetar|spelar|tycker|heter|kommer|känner|vet|talar|pratar|röker|äger|älskar|hatar|föredrar|behöver|kör|läser|sover|tränar|simmar|lagar|går|bodde|tyckte|visste|blev|vem|vad|när|varför|hur|vilken|vilket|vilka|vart|varifrån|månne',
    ),
    // An alternative question with eller (§ 12): neither is asserted.
    w('eller'),
    tag('eller\\s+hur|va|eller|visst|inte\\s+sant|eller\\s+vad|eller\\s+inte|stämmer\\s+det|eller\\s+hur\\s+då'),
    last('eller\\s+hur|eller\\s+inte|eller\\s+vad'),
  ],
  requests: [
    /^(?:(?:kan|skulle)\s+du\s+(?:kunna\s+)?(?:snälla\s+)?(?:komma\s+ihåg|spara|notera|anteckna|skriva\s+upp))(?:\s+att)?\s+/u,
  ],
}));
// Stryker restore StringLiteral,Regex
