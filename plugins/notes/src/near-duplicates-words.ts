import { caseFold } from '@mira/core';
import { segmentSpaceless } from './text.js';

/**
 * The words of a note as Find Duplicates compares them (near-duplicates.ts): contractions written out,
 * numbers, times and dates in one spelling, a small household synonym table, irregular verbs and a light
 * stem, so "Don't hoover the lounge after 7 p.m." and "Do not vacuum the living room after 19:00" read the
 * same words — and what tells two notes apart (a name, a number, a negation, a place, a colour) stays in them.
 *
 * Size: word tables (contractions, synonyms, irregular verbs, units) with the reader that applies them.
 */

/** A word of a note, as compared. */
export interface Token {
  /** The word case-folded, written out (contractions, numbers), and its synonym group's head. */
  readonly word: string;
  /** The word case-folded as written (a phrase's words together), which a typo is looked for in. */
  readonly surface: string;
  /** {@link Token.word}'s stem: what two words must share to match. */
  readonly stem: string;
  /**
   * `number` (digits, a time `19:30`, a date `24/12`: what must be equal), `negation`, `light` (a function
   * word, a filler, a pronoun: its presence does not change the fact) or `content`.
   */
  readonly kind: 'number' | 'negation' | 'light' | 'content';
  /**
   * A preposition or particle ("for", "in", "by"): a note may leave one out ("sheets for the guest room" is
   * "the guest room sheets"), but two notes with different ones ("under" / "behind" the sofa) differ.
   */
  readonly particle: boolean;
  /** Written with a capital letter. */
  readonly capital: boolean;
  /** Written with a capital letter and not first in its sentence: a name (a person, a pet, a place, a day). */
  readonly name: boolean;
}

/**
 * Words whose presence or absence does not change the fact: articles, copulas and auxiliaries, pronouns,
 * demonstratives, what people put before a note ("please note that", "just so you know", "reminder") and
 * hedges ("about", "usually"), the verbs of where a thing is ("kept", "stored", "hangs": "the key is kept in
 * the drawer" is "the key is in the drawer"), an obligation ("must", "has to", "should": an instruction in a
 * note is one), "number" ("the plumber's number is …" is "plumber: …": the number itself is compared) and
 * the names of currencies (£80 is 80 pounds). Prepositions, modals and quantities are not among them ("on"
 * the table is not "under" it; "can" is not "must").
 */
const LIGHT_WORDS = new Set(
  (
    'a an the is are was were be been being am do does did has have had it its this that these those there here ' +
    'and so then also just really actually very please pls plz note nb reminder remember fyi btw ok okay hey well ' +
    'oh know you i we me us my our s re m ll ve d he she they him her them his hers their theirs your yours mine ' +
    'ours who whom whose which where what will would shall get gets got getting gotten about around roughly ' +
    'approximately approx usually normally generally keep keeps kept keeping store stored located hidden hang ' +
    'hangs hung hanging one number must ish pound pounds quid dollar dollars euro euros buck bucks'
  ).split(' '),
);

/**
 * Prepositions and particles: see {@link Token.particle}.
 */
const PARTICLES = new Set(
  (
    'in on at by to for of with from into onto off out up down over under above below behind beside near inside ' +
    'outside through across along after before until till during since between against toward towards upon ' +
    'via per'
  ).split(' '),
);
/**
 * The verbs of a phrase whose noun says what is done ("take the dog for a walk" is "walk the dog", "give
 * Biscuit a bath" is "bath Biscuit"), as stems: left out by a note as a particle may be.
 */
const SUPPORT_VERBS = new Set(['take', 'make', 'give', 'go', 'put'].map((verb) => stem(verb)));

/** Words that negate; a note's count of them must match its pair's ("no sugar" is "without sugar"). */
const NEGATIONS = new Set(['not', 'no', 'never', 'without', 'nobody', 'nothing', 'none', 'neither', 'nor']);

/**
 * Household words that name the same thing, each group led by the word the others are read as. Written for
 * Mira from common knowledge of the words people use for one household object, person or state — chiefly
 * the British and American pairs (sofa/couch, tap/faucet, bin/trash, jumper/sweater, as listed in
 * Wikipedia's "Comparison of American and British English" and its word lists) and everyday abbreviations
 * (meds, specs, telly, GP). Deliberately small and literal: a word belongs to a group only where it names
 * the same thing in a household note, never a related one (oven is not cooker, tired is not sleepy), and no
 * word that is also a common pet's or person's name (biscuit/cookie). Phrases of two or three words
 * ("living room", "garbage can", "next to") are read as one word.
 */
const SYNONYMS: readonly (readonly string[])[] = [
  // Furniture and rooms.
  ['sofa', 'couch', 'settee'],
  ['lounge', 'living room', 'sitting room', 'front room', 'family room'],
  ['cupboard', 'cabinet'],
  ['wardrobe', 'closet'],
  ['loft', 'attic'],
  ['hallway', 'hall', 'corridor'],
  ['toilet', 'loo', 'lavatory', 'wc', 'restroom'],
  ['garden', 'yard', 'backyard'],
  ['flat', 'apartment'],
  ['lift', 'elevator'],
  ['flowerpot', 'flower pot', 'plant pot', 'planter'],
  ['curtain', 'drapes'],
  ['duvet', 'comforter'],
  ['bath', 'bathtub', 'tub'],
  ['sink', 'basin', 'washbasin'],
  ['socket', 'plug socket', 'power socket', 'outlet', 'power outlet'],
  ['bulb', 'light bulb', 'lightbulb'],
  // Appliances and household things.
  ['fridge', 'refrigerator', 'icebox'],
  ['cooker', 'stove'],
  ['hob', 'stovetop', 'cooktop'],
  ['tap', 'faucet'],
  ['vacuum', 'hoover', 'vacuum cleaner'],
  ['washer', 'washing machine'],
  ['bin', 'rubbish', 'trash', 'garbage', 'refuse', 'dustbin', 'trash can', 'garbage can', 'rubbish bin', 'wheelie bin'],
  ['torch', 'flashlight'],
  ['tv', 'telly', 'television'],
  ['remote', 'remote control', 'clicker'],
  ['phone', 'mobile', 'mobile phone', 'cellphone', 'cell phone'],
  ['wifi', 'wi fi', 'wireless'],
  ['post', 'mail'],
  ['postman', 'mailman', 'postie', 'postwoman', 'mail carrier'],
  ['letterbox', 'mailbox'],
  ['parcel', 'package'],
  ['pram', 'stroller', 'pushchair', 'buggy'],
  ['nappy', 'diaper'],
  ['dummy', 'pacifier'],
  ['lead', 'leash'],
  ['cling film', 'clingfilm', 'plastic wrap'],
  ['kitchen roll', 'paper towel'],
  ['foil', 'tin foil', 'kitchen foil', 'aluminium foil'],
  ['bedside table', 'nightstand', 'night stand', 'bedside cabinet'],
  ['dresser', 'chest of drawers'],
  ['car park', 'parking lot'],
  ['cot', 'crib'],
  ['sweets', 'candy'],
  ['boiler', 'furnace'],
  ['heating', 'heat'],
  ['aircon', 'air conditioning', 'ac'],
  ['washing up liquid', 'dish soap', 'washing liquid'],
  ['lorry', 'truck'],
  ['pavement', 'sidewalk'],
  ['holiday', 'vacation'],
  // Clothes.
  ['jumper', 'sweater', 'pullover'],
  ['trainer', 'sneaker'],
  ['glasses', 'specs', 'spectacles'],
  ['kit', 'gear'],
  // Food.
  ['courgette', 'zucchini'],
  ['aubergine', 'eggplant'],
  ['coriander', 'cilantro'],
  ['grocery', 'groceries', 'food shopping'],
  // Health.
  ['pill', 'tablet', 'tab', 'meds', 'medication', 'medicine'],
  ['doctor', 'gp', 'doc', 'dr'],
  ['pharmacy', 'chemist', 'drugstore'],
  ['vaccine', 'vaccination', 'jab'],
  ['ill', 'sick', 'unwell', 'poorly'],
  ['plaster', 'band aid'],
  ['inhaler', 'puffer'],
  ['paracetamol', 'acetaminophen'],
  ['vet', 'veterinarian', 'vets'],
  ['optician', 'optometrist'],
  ['physio', 'physiotherapy', 'physiotherapist', 'physical therapy'],
  // People.
  ['mum', 'mom', 'mother', 'mam', 'mummy', 'mommy'],
  ['dad', 'father', 'daddy'],
  ['gran', 'grandma', 'granny', 'nan', 'nana', 'nanny', 'grandmother'],
  ['grandpa', 'grandad', 'granddad', 'grandfather', 'gramps'],
  ['child', 'children', 'kid', 'kids'],
  ['aunt', 'auntie', 'aunty'],
  ['husband', 'hubby'],
  // States and actions; a condition and the word for who has it.
  ['allergy', 'allergic'],
  ['diabetes', 'diabetic'],
  ['asthma', 'asthmatic'],
  ['epilepsy', 'epileptic'],
  ['scared', 'frightened', 'afraid'],
  ['sleepy', 'drowsy'],
  ['toxic', 'poisonous'],
  ['dislike', 'hate', 'detest'],
  ['start', 'begin', 'commence'],
  ['fix', 'repair', 'mend'],
  ['game', 'match'],
  // An obligation, however written (light: "kids must be in bed by 8" is "kids in bed by 8"); "needs" alone is
  // not one ("Sam needs new shoes" is not "Sam has new shoes").
  ['must', 'need to', 'needs to', 'has to', 'have to', 'got to', 'ought to', 'should'],
  ['move', 'relocate'],
  ['like', 'enjoy'],
  ['buy', 'purchase'],
  ['collect', 'pick up'],
  ['switch', 'turn'],
  ['allowed', 'permitted'],
  ['forbidden', 'banned', 'prohibited'],
  ['closed', 'shut'],
  ['broken', 'bust', 'kaput'],
  ['big', 'large'],
  // Places and times relative to a thing.
  ['under', 'underneath', 'beneath'],
  ['beside', 'next to', 'alongside'],
  ['on', 'on top of', 'atop'],
  ['in', 'inside', 'within'],
  ['near', 'close to', 'near to', 'nearby'],
  ['until', 'till', 'til'],
  ['before', 'prior to'],
  ['every', 'each'],
  // How often.
  ['daily', 'every day', 'each day', 'per day', 'a day', 'everyday'],
  ['weekly', 'every week', 'each week', 'per week', 'a week'],
  ['monthly', 'every month', 'each month', 'per month', 'a month'],
  ['nightly', 'every night', 'each night'],
  // Units, as written after a number.
  ['minute', 'min', 'mins'],
  ['hour', 'hr', 'hrs'],
  ['second', 'sec', 'secs'],
  ['week', 'wk', 'wks'],
  ['year', 'yr', 'yrs'],
  ['metre', 'meter'],
  ['kilometre', 'km', 'kilometer', 'kms'],
  ['mile', 'mi'],
  ['mph', 'mile per hour', 'mile an hour'],
  ['kph', 'km per hour', 'kmh', 'kilometre per hour', 'kilometer per hour'],
  ['centimetre', 'cm', 'centimeter'],
  ['millimetre', 'mm', 'millimeter'],
  ['litre', 'liter', 'ltr'],
  ['kilogram', 'kg', 'kilo', 'kilos'],
  ['gram', 'grams'],
  ['milligram', 'mg'],
  ['millilitre', 'ml', 'milliliter'],
  // Spellings.
  ['grey', 'gray'],
  ['pyjamas', 'pajamas'],
  ['aluminium', 'aluminum'],
  ['jewellery', 'jewelry'],
  ['programme', 'program'],
  ['cosy', 'cozy'],
  ['mould', 'mold'],
  ['tomorrow', 'tmrw', 'tmr'],
  ['birthday', 'bday'],
  ['appointment', 'appt'],
];

/** One-letter units, read as the unit only right after a number ("1 m", "2 l"): elsewhere they are letters. */
const UNIT_LETTERS: ReadonlyMap<string, string> = new Map([
  ['m', 'metre'],
  ['h', 'hour'],
  ['g', 'gram'],
  ['l', 'litre'],
  ['c', 'degrees'],
]);

/** Irregular past tenses and participles, read as the verb ("fed" is "feed", "took" is "take"). */
const IRREGULAR = new Map(
  (
    'fed:feed took:take taken:take gave:give given:give went:go gone:go goes:go ate:eat eaten:eat drank:drink ' +
    'drunk:drink slept:sleep woke:wake woken:wake bought:buy brought:bring rang:ring rung:ring ran:run came:come ' +
    'broke:break broken:break wore:wear worn:wear lost:lose found:find hid:hide stood:stand wrote:write ' +
    'written:write told:tell said:say made:make hung:hang met:meet paid:pay sent:send spent:spend forgot:forget ' +
    'forgotten:forget began:begin begun:begin swam:swim swum:swim drove:drive driven:drive rode:ride ' +
    'ridden:ride fell:fall fallen:fall froze:freeze frozen:freeze chose:choose chosen:choose ' +
    'threw:throw thrown:throw knew:know known:know grew:grow grown:grow shook:shake shaken:shake ' +
    'taught:teach caught:catch thought:think held:hold kept:keep sold:sell'
  )
    .split(' ')
    .map((pair) => pair.split(':') as [string, string]),
);

/**
 * Words whose negation is a word of its own: "not" before one of them is read as the other ("isn't working"
 * is "broken", "not allowed" is "forbidden"), so the two spellings pair and the negation is not counted.
 */
const NOT: ReadonlyMap<string, string> = new Map(
  [
    ['like', 'dislike'],
    ['allowed', 'forbidden'],
    ['permitted', 'forbidden'],
    ['working', 'broken'],
    ['work', 'broken'],
    ['locked', 'unlocked'],
    ['open', 'closed'],
    ['happy', 'unhappy'],
    ['safe', 'unsafe'],
    ['able', 'unable'],
    ['available', 'unavailable'],
  ].map(([word, opposite]) => [stem(word!), opposite!]),
);

/** Titles of kin and carers: before a name they add nothing ("Grandpa Joe" is "Joe"). Mr and Mrs stay. */
const KIN_TITLES = new Set(['gran', 'grandpa', 'aunt', 'uncle', 'nurse', 'cousin']);

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const DAY_SET: ReadonlySet<string> = new Set(DAYS);
/** The parts of a day, as stems. */
const DAYPARTS: ReadonlySet<string> = new Set(['morning', 'afternoon', 'evening', 'night'].map((part) => stem(part)));
/** Abbreviated days: always a day, or (`wed`, `sat`, `sun`, also words) only where a day is written. */
const DAY_ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ['mon', 'monday'],
  ['tue', 'tuesday'],
  ['tues', 'tuesday'],
  ['weds', 'wednesday'],
  ['thu', 'thursday'],
  ['thur', 'thursday'],
  ['thurs', 'thursday'],
  ['fri', 'friday'],
]);
const AMBIGUOUS_DAYS: ReadonlyMap<string, string> = new Map([
  ['wed', 'wednesday'],
  ['sat', 'saturday'],
  ['sun', 'sunday'],
]);
/** Words before a day ("on Sat", "every Sun") and after one ("Sat morning"). */
const BEFORE_DAY = new Set([
  'on',
  'every',
  'each',
  'next',
  'last',
  'this',
  'until',
  'till',
  'from',
  'by',
  'before',
  'after',
]);
const AFTER_DAY = new Set(['morning', 'afternoon', 'evening', 'night', 'am', 'pm']);

const MONTHS: ReadonlyMap<string, number> = new Map([
  ['january', 1],
  ['jan', 1],
  ['february', 2],
  ['feb', 2],
  ['march', 3],
  ['mar', 3],
  ['april', 4],
  ['apr', 4],
  ['may', 5],
  ['june', 6],
  ['jun', 6],
  ['july', 7],
  ['jul', 7],
  ['august', 8],
  ['aug', 8],
  ['september', 9],
  ['sep', 9],
  ['sept', 9],
  ['october', 10],
  ['oct', 10],
  ['november', 11],
  ['nov', 11],
  ['december', 12],
  ['dec', 12],
]);
const MONTH = `(${[...MONTHS.keys()].join('|')})\\.?`;
const MONTH_NAME = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/iu;
const DAY_MONTH = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}\\b`, 'giu');
const MONTH_DAY = new RegExp(`\\b${MONTH}\\s+(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\b(?![:.]\\d)`, 'giu');

const NUMBER_WORDS: ReadonlyMap<string, number> = new Map(
  [
    'zero',
    'one',
    'two',
    'three',
    'four',
    'five',
    'six',
    'seven',
    'eight',
    'nine',
    'ten',
    'eleven',
    'twelve',
    'thirteen',
    'fourteen',
    'fifteen',
    'sixteen',
    'seventeen',
    'eighteen',
    'nineteen',
  ].map((word, n) => [word, n]),
);
const TENS: ReadonlyMap<string, number> = new Map(
  ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'].map((word, k) => [word, 20 + 10 * k]),
);
/** Whether a text has a number in words (then they are written in digits). */
const NUMBER_WORD =
  /\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|first|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|twice|thrice)\b/iu;
/** Ordinal words ("second" is left alone: it is also a unit of time). */
const ORDINALS: ReadonlyMap<string, number> = new Map([
  ['first', 1],
  ['third', 3],
  ['fourth', 4],
  ['fifth', 5],
  ['sixth', 6],
  ['seventh', 7],
  ['eighth', 8],
  ['ninth', 9],
  ['tenth', 10],
  ['eleventh', 11],
  ['twelfth', 12],
]);

/**
 * A light English stem: the plural, third-person, past and progressive endings off a word of four letters
 * or more (a doubled consonant left by them undoubled), then a final `e`, so `take`, `takes` and `taking`
 * meet (`tak`), as do `box`/`boxes`, `battery`/`batteries`, `stop`/`stopped` and `empty`/`emptied`.
 */
export function stem(word: string): string {
  let base = word;
  if (word.length >= 4) {
    if (word.endsWith('ies') || (word.endsWith('ied') && word.length >= 5)) base = `${word.slice(0, -3)}y`;
    else if (/(?:s|x|z|ch|sh)es$/u.test(word)) base = word.slice(0, -2);
    else if (word.endsWith('ing') && word.length >= 6) base = undouble(word.slice(0, -3));
    else if (word.endsWith('ed') && word.length >= 5) base = undouble(word.slice(0, -2));
    else if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) base = word.slice(0, -1);
  }
  return base.length >= 3 && base.endsWith('e') ? base.slice(0, -1) : base;
}

/** `stopp` → `stop`, `runn` → `run` (not `ll`, `ss`, `zz`: `spell`, `miss`). */
function undouble(base: string): string {
  const last = base.at(-1);
  return last && base.length >= 3 && last === base.at(-2) && /[bdgmnprt]/u.test(last) ? base.slice(0, -1) : base;
}

/** Stems already worked out (words repeat from note to note), forgotten when it grows large. */
const stemCache = new Map<string, string>();

/**
 * A word's stem as compared: irregular verbs first, then the light stem, then `-our` as `-or` (colour) and
 * a noun's `-tion`/`-sion` as its verb (`collection` is `collect`, `injection` is `inject`).
 */
function stemOf(word: string): string {
  let s = stemCache.get(word);
  if (s !== undefined) return s;
  s = stem(IRREGULAR.get(word) ?? word);
  if (s.length >= 6 && s.endsWith('our')) s = `${s.slice(0, -3)}or`;
  else if (s.length >= 8 && /[ts]ion$/u.test(s)) s = stem(s.slice(0, -3));
  if (stemCache.size >= 50_000) stemCache.clear();
  stemCache.set(word, s);
  return s;
}

/** Synonym phrases (stems joined by a space, one to three words) to their group's head. */
const PHRASES: ReadonlyMap<string, string> = (() => {
  const out = new Map<string, string>();
  for (const group of SYNONYMS) {
    const head = group[0]!.replaceAll(' ', '');
    for (const member of group) out.set(member.split(' ').map(stemOf).join(' '), head);
  }
  return out;
})();
const LONGEST_PHRASE = 3;
/** The first stems of the table's phrases of two words or more. */
const PHRASE_STARTS: ReadonlySet<string> = new Set(
  [...PHRASES.keys()].filter((key) => key.includes(' ')).map((key) => key.split(' ')[0]!),
);

/** The 24-hour clock: `7pm` is `19`, `7:30 p.m.` is `19:30`, `07:00` is `7` (whole hours without minutes). */
function clock(hour: number, minutes: number): string {
  return minutes === 0 ? String(hour) : `${hour}:${String(minutes).padStart(2, '0')}`;
}

function numberWord(word: string): number | undefined {
  return NUMBER_WORDS.get(word.toLowerCase()) ?? ORDINALS.get(word.toLowerCase());
}

/**
 * Contractions written out (`doesn't` → `does not`, `won't` → `will not`, `you'll` → `you will`, `it's` →
 * `it`, also without the apostrophe: `dont`), numbers in digits (`three` → `3`, `twenty-five` → `25`,
 * `1st` and `first` → `1`, `twice` → `2 times`), dates as day/month (`3 March`, `March 3rd`, `3/3` →
 * `3/3`) and times on the 24-hour clock (`7pm`, `7 p.m.`, `19:00` → `19`; `half six`, `6.30` → `6:30`).
 * Case is kept: a capital tells a name.
 */
export function writeOut(text: string): string {
  let out = text.normalize('NFKC');
  if (/[’‘ʼ`´]/u.test(out)) out = out.replace(/[’‘ʼ`´]/gu, "'");
  if (out.includes("'") || /nt\b|cannot/iu.test(out)) {
    out = out
      .replace(/\b(\d{1,2})\s*o'?clock\b/giu, '$1')
      .replace(/\b(w)on'?t\b/giu, (_, w: string) => `${w === 'W' ? 'W' : 'w'}ill not`)
      .replace(/\b(sha)n't\b/giu, '$1ll not')
      .replace(/\b(ca)n'?t\b/giu, '$1n not')
      .replace(/\b(can)not\b/giu, '$1 not')
      .replace(/\b(ai)n't\b/giu, 'is not')
      .replace(/n't\b/giu, ' not')
      .replace(/\b(do|does|did|is|are|was|were|has|have|had|could|should|would|must|need|might)nt\b/giu, '$1 not')
      .replace(/\b(let)'s\b/giu, '$1 us')
      .replace(/'ll\b/giu, ' will')
      .replace(/'re\b/giu, ' are')
      .replace(/'ve\b/giu, ' have')
      .replace(/'m\b/giu, ' am')
      .replace(/'d\b/giu, ' would')
      .replace(/'s\b/giu, '')
      .replace(/(?<=\p{L}s)'(?!\p{L})/gu, '');
  }
  if (out.includes('/')) out = out.replace(/\bw\/o\b/giu, 'without').replace(/\bw\/(?=\s|\p{L})/giu, 'with ');
  if (/gonna|wanna|gotta/iu.test(out))
    out = out
      .replace(/\bgonna\b/giu, 'going to')
      .replace(/\bwanna\b/giu, 'want to')
      .replace(/\bgotta\b/giu, 'got to');
  if (/fortnight|every other/iu.test(out)) {
    out = out
      .replace(/\bfortnightly\b/giu, 'every 2 weeks')
      .replace(/\bfortnight\b/giu, '2 weeks')
      .replace(/\bevery other (day|week|month|year)\b/giu, 'every 2 $1s');
  }
  // Numbers in words: "no one" is nobody; "one" is 1 before a word it counts ("one scoop"), not as a
  // pronoun ("the grey one", "one of them").
  if (NUMBER_WORD.test(out)) {
    out = out
      .replace(/\bno[\s-]one\b/giu, 'nobody')
      .replace(/\b(twice|thrice)\b/giu, (word: string) => (word.toLowerCase() === 'twice' ? '2 times' : '3 times'))
      .replace(
        /\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[\s-](one|two|three|four|five|six|seven|eight|nine))?\b/giu,
        (_, tens: string, unit: string | undefined) =>
          String(TENS.get(tens.toLowerCase())! + (unit ? NUMBER_WORDS.get(unit.toLowerCase())! : 0)),
      )
      .replace(
        /\b(zero|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|first|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth)\b/giu,
        (word: string) => String(numberWord(word)),
      )
      .replace(
        /\bone\b(?=\s+(?!(?:of|is|was|are|the|a|an|and|or|for|with|to|in|on|at|that|which|who|by|but)\b)[\p{L}\p{N}])/giu,
        '1',
      );
  }
  if (/noon|midday|midnight/iu.test(out)) {
    out = out
      .replace(/\b12\s*(?:noon|midday)\b/giu, '12')
      .replace(/\b(?:noon|midday)\b/giu, '12')
      .replace(/\bmidnight\b/giu, '0');
  }
  if (!/\d/u.test(out)) return out;
  if (/°|degree|celsius|centigrade|fahrenheit/iu.test(out)) out = temperatures(out);
  // Each pass only where it may apply: most notes have a number or two and none of these.
  // Dates, as day/month: "3 March", "3rd of March", "March 3rd", "Dec 24th", "2024-12-24", "24/12" (a first
  // part over 12 is the day; a second part over 12 is the month-first spelling, "12/24").
  if (MONTH_NAME.test(out)) {
    out = out
      .replace(DAY_MONTH, (whole, day: string, month: string) => date(whole, Number(day), month))
      .replace(MONTH_DAY, (whole, month: string, day: string) => date(whole, Number(day), month));
  }
  if (out.includes('-'))
    out = out.replace(
      /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/gu,
      (_, year: string, month: string, day: string) => `${Number(day)}/${Number(month)} ${year}`,
    );
  if (out.includes('/')) {
    out = out.replace(
      /\b(\d{1,2})\/(\d{1,2})(?:\/(\d{2}|\d{4}))?\b/gu,
      (_, a: string, b: string, year: string | undefined) => {
        const [first, second] = [Number(a), Number(b)];
        const [day, month] = second > 12 && first <= 12 ? [second, first] : [first, second];
        return `${day}/${month}${year ? ` ${year}` : ''}`;
      },
    );
  }
  if (/\d(?:st|nd|rd|th)\b/iu.test(out)) out = out.replace(/\b(\d+)(?:st|nd|rd|th)\b/giu, '$1');
  // "2x a day", "x2": times.
  if (/\d\s?x\b|\bx\s?\d/iu.test(out))
    out = out.replace(
      /\b(\d+)\s?x\b|\bx\s?(\d+)\b/giu,
      (_, a: string | undefined, b: string | undefined) => `${a ?? b} times`,
    );
  // Times.
  if (/half|quarter/iu.test(out)) {
    out = out
      .replace(/\bhalf\s+past\s+(\d{1,2})\b/giu, '$1:30')
      .replace(/\bquarter\s+past\s+(\d{1,2})\b/giu, '$1:15')
      .replace(/\bquarter\s+to\s+(\d{1,2})\b/giu, (_, h: string) => `${Number(h) === 1 ? 12 : Number(h) - 1}:45`)
      .replace(/\bhalf\s+(\d{1,2})\b(?![:./\d])/giu, '$1:30');
  }
  if (/\d\s*[ap]\.?\s?m\b/iu.test(out)) {
    out = out.replace(
      /\b(\d{1,2})(?:[:.](\d{2}))?\s*([ap])\.?\s?m\b\.?/giu,
      (whole, h: string, m: string | undefined, half: string) => {
        const [hour, minutes] = [Number(h), Number(m ?? 0)];
        if (hour < 1 || hour > 12 || minutes > 59) return whole;
        return clock((hour % 12) + (half.toLowerCase() === 'p' ? 12 : 0), minutes);
      },
    );
  }
  // "7 in the evening", "11 at night": the 24-hour clock.
  if (/\d(?:[:.]\d\d)?\s+(?:o'?clock\s+)?(?:in the|at night)/iu.test(out)) {
    out = out.replace(
      /\b(\d{1,2})(?:[:.](\d{2}))?\s+(?:o'?clock\s+)?(?:in\s+the\s+(morning|afternoon|evening)|at\s+(night))\b/giu,
      (whole, h: string, m: string | undefined, part: string | undefined, night: string | undefined) => {
        const [hour, minutes] = [Number(h), Number(m ?? 0)];
        if (hour < 1 || hour > 12 || minutes > 59) return whole;
        const later = night ? hour >= 6 && hour < 12 : part!.toLowerCase() !== 'morning' && hour < 12;
        return clock(
          hour === 12 && (night || part!.toLowerCase() === 'morning') ? 0 : hour + (later ? 12 : 0),
          minutes,
        );
      },
    );
  }
  // "19:00", and "6.30" after a word that gives a time ("at 6.30"; elsewhere a dot is a decimal point).
  if (/\d[:.]\d\d/u.test(out)) {
    out = out.replace(
      /(?<![\d.£$€])\b(?:(?<=\b(?:at|by|from|until|till|after|before|around|about)\s+)(\d{1,2})\.|(\d{1,2}):)(\d{2})\b(?![.:]\d)/giu,
      (whole, dotted: string | undefined, colon: string | undefined, m: string) => {
        const [hour, minutes] = [Number(dotted ?? colon), Number(m)];
        return hour > 24 || minutes > 59 ? whole : clock(hour, minutes);
      },
    );
  }
  return out;
}

/**
 * A temperature in one spelling: `20°C`, `20 °C`, `20 degrees C`, `20 degrees Celsius` and `20 degrees` are
 * `20 degrees` (a household's thermostat, oven and fridge speak Celsius here); `68°F` and `68 degrees
 * Fahrenheit` are `68 fahrenheit`, which never pairs with a Celsius reading.
 */
function temperatures(text: string): string {
  return text
    .replace(/(\d)\s*(?:°|degrees?|deg)\s*(?:f\b|fahrenheit\b)/giu, '$1 fahrenheit')
    .replace(/(\d)\s*(?:°\s*c\b|°|degrees?\s+(?:c|celsius|centigrade)\b|celsius\b|centigrade\b)/giu, '$1 degrees');
}

/** A date as day/month, or the text as written when it is not one (the 31st of a 30-day month passes). */
function date(whole: string, day: number, monthName: string): string {
  // "may" and "mar" are also words: a month only written with its capital.
  const lower = monthName.toLowerCase();
  if ((lower === 'may' || lower === 'mar') && monthName[0] === lower[0]) return whole;
  return day >= 1 && day <= 31 ? ` ${day}/${MONTHS.get(lower)} ` : whole;
}

/** A word, a number (with a time's minutes, a date's month or decimals), in the text written out. */
const WORD = /\d+(?::\d{2}|\/\d{1,2}|\.\d+)?|[\p{L}\p{M}][\p{L}\p{M}\p{N}]*/gu;
const NUMERIC = /^\d/u;
const ASCII = /^\p{ASCII}*$/u;
/** Between two words: what ends a sentence (or a label: "Note: …"), or a dash standing alone. */
const ENDS_SENTENCE = /[.!?:;•…\n]|\s[-–—]|[-–—]\s/u;
/** Abbreviations written with a full stop that does not end the sentence ("Mr. Okafor"). */
const ABBREVIATIONS = new Set(['mr', 'mrs', 'ms', 'dr', 'st', 'e', 'g', 'i', 'etc', 'approx', 'vs']);

interface Raw {
  readonly folded: string;
  readonly capital: boolean;
  readonly initial: boolean;
}

/** The words of a note, as compared (see {@link Token}). */
export function tokens(text: string): Token[] {
  const written = segmentSpaceless(writeOut(text));
  // ASCII folds as a whole (its lower case), keeping every word where it was; other text word by word.
  const ascii = ASCII.test(written);
  const lower = ascii ? written.toLowerCase() : written;
  const raw: Raw[] = [];
  let last = 0;
  for (const match of written.matchAll(WORD)) {
    const word = match[0];
    const at = match.index;
    const first = word[0]!;
    let initial = raw.length === 0;
    if (!initial && at - last !== 1) {
      const gap = written.slice(last, at);
      initial = ENDS_SENTENCE.test(gap) && !(gap.trimEnd() === '.' && ABBREVIATIONS.has(raw[raw.length - 1]!.folded));
    } else if (!initial && written[last] !== ' ') initial = ENDS_SENTENCE.test(written[last]!);
    raw.push({
      folded: ascii ? lower.slice(at, at + word.length) : caseFold(word),
      capital: first !== first.toLowerCase(),
      initial,
    });
    last = at + word.length;
  }
  const stems = raw.map((r) => stemOf(r.folded));
  // Phrases of the synonym table, longest first, then each word's own reading.
  const words: Array<Raw & { stem: string; surface: string }> = [];
  for (let i = 0; i < raw.length;) {
    let taken = 0;
    if (PHRASE_STARTS.has(stems[i]!)) {
      for (let length = Math.min(LONGEST_PHRASE, raw.length - i); length >= 2 && taken === 0; length -= 1) {
        const head = PHRASES.get(stems.slice(i, i + length).join(' '));
        if (head !== undefined) {
          words.push({
            folded: head,
            stem: stemOf(head),
            surface: raw
              .slice(i, i + length)
              .map((r) => r.folded)
              .join(''),
            capital: raw[i]!.capital,
            initial: raw[i]!.initial,
          });
          taken = length;
        }
      }
    }
    if (taken > 0) {
      i += taken;
      continue;
    }
    const r = raw[i]!;
    const previous = raw[i - 1]?.folded;
    let folded = r.folded;
    let s = stems[i]!;
    const day =
      DAY_ABBREVIATIONS.get(folded) ??
      (AMBIGUOUS_DAYS.has(folded) && isDayHere(raw, i) ? AMBIGUOUS_DAYS.get(folded) : undefined);
    if (day !== undefined) [folded, s] = [day, day];
    else if (previous !== undefined && NUMERIC.test(previous) && UNIT_LETTERS.has(folded)) {
      folded = UNIT_LETTERS.get(folded)!;
      s = stemOf(folded);
    } else if (LIGHT_WORDS.has(folded) || NEGATIONS.has(folded) || NUMERIC.test(folded)) s = folded;
    else {
      const head = PHRASES.get(s);
      if (head !== undefined) [folded, s] = [head, stemOf(head)];
    }
    words.push({ folded, stem: s, surface: r.folded, capital: r.capital, initial: r.initial });
    i += 1;
  }
  // "not" before a word with an opposite of its own is that opposite ("doesn't like" is "dislikes").
  for (let i = 0; i < words.length; i += 1) {
    if (words[i]!.folded !== 'not') continue;
    let j = i + 1;
    while (j < words.length && LIGHT_WORDS.has(words[j]!.folded)) j += 1;
    const opposite = words[j] && NOT.get(words[j]!.stem);
    if (opposite === undefined) continue;
    const head = PHRASES.get(stemOf(opposite)) ?? opposite;
    words[j] = { ...words[j]!, folded: head, stem: stemOf(head), surface: opposite };
    words.splice(i, 1);
  }
  return words.map((w, i) => {
    const next = words[i + 1];
    let kind: Token['kind'];
    if (NUMERIC.test(w.folded)) kind = 'number';
    else if (NEGATIONS.has(w.folded)) kind = 'negation';
    else if (LIGHT_WORDS.has(w.folded)) kind = 'light';
    // "at 7", "on Monday", "every Monday", "every morning", "in March": the day or time alone says it.
    else if (
      next !== undefined &&
      (((w.folded === 'at' || w.folded === 'on') && (NUMERIC.test(next.folded) || DAY_SET.has(next.stem))) ||
        (w.folded === 'every' && (DAY_SET.has(next.stem) || DAYPARTS.has(next.stem))) ||
        (w.folded === 'in' && MONTHS.has(next.folded) && next.folded.length > 3))
    )
      kind = 'light';
    // "Grandpa Joe" is Joe.
    else if (KIN_TITLES.has(w.folded) && next !== undefined && next.capital && !LIGHT_WORDS.has(next.folded))
      kind = 'light';
    else kind = 'content';
    return {
      word: w.folded,
      surface: w.surface,
      stem: w.stem,
      kind,
      particle: kind === 'content' && (PARTICLES.has(w.folded) || SUPPORT_VERBS.has(w.stem)),
      capital: w.capital,
      name: kind === 'content' && w.capital && !w.initial,
    };
  });
}

/** Whether `wed`, `sat` or `sun` is a day where it stands: capitalised, after "on" or "every", beside a day. */
function isDayHere(raw: readonly Raw[], i: number): boolean {
  const r = raw[i]!;
  if (r.capital && !r.initial) return true;
  const near = (k: number) => {
    const word = raw[k]?.folded;
    return word !== undefined && (DAY_SET.has(word) || DAY_ABBREVIATIONS.has(word) || AMBIGUOUS_DAYS.has(word));
  };
  const previous = raw[i - 1]?.folded;
  const next = raw[i + 1]?.folded;
  return (
    (previous !== undefined && BEFORE_DAY.has(previous)) ||
    (next !== undefined && (AFTER_DAY.has(next) || NUMERIC.test(next))) ||
    near(i - 1) ||
    near(i + 1) ||
    (['and', 'or', 'to'].includes(previous ?? '') && near(i - 2)) ||
    (['and', 'or', 'to'].includes(next ?? '') && near(i + 2))
  );
}
