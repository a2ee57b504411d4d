import { stem } from './near-duplicates-stem.js';

/**
 * The word tables Find Duplicates reads notes with (near-duplicates-words.ts reads them): light words,
 * particles, negations, household synonyms, irregular verbs, opposites, days, months and numbers in words.
 * Data, not code: a word is added here, and the reader stays as it is.
 */

/**
 * Words whose presence or absence does not change the fact: articles, copulas and auxiliaries, pronouns,
 * demonstratives, what people put before a note ("please note that", "just so you know", "reminder") and
 * hedges ("about", "usually"), the verbs of where a thing is ("kept", "stored", "hangs": "the key is kept in
 * the drawer" is "the key is in the drawer"), an obligation ("must", "has to", "should": an instruction in a
 * note is one), "number" ("the plumber's number is …" is "plumber: …": the number itself is compared) and
 * the names of currencies (£80 is 80 pounds). Prepositions, modals and quantities are not among them ("on"
 * the table is not "under" it; "can" is not "must").
 */
export const LIGHT_WORDS = new Set(
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
export const PARTICLES = new Set(
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
export const SUPPORT_VERBS = new Set(['take', 'make', 'give', 'go', 'put'].map((verb) => stem(verb)));

/** Words that negate; a note's count of them must match its pair's ("no sugar" is "without sugar"). */
export const NEGATIONS = new Set(['not', 'no', 'never', 'without', 'nobody', 'nothing', 'none', 'neither', 'nor']);

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
export const SYNONYMS: readonly (readonly string[])[] = [
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
export const UNIT_LETTERS: ReadonlyMap<string, string> = new Map([
  ['m', 'metre'],
  ['h', 'hour'],
  ['g', 'gram'],
  ['l', 'litre'],
  ['c', 'degrees'],
]);

/** Irregular past tenses and participles, read as the verb ("fed" is "feed", "took" is "take"). */
export const IRREGULAR = new Map(
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
export const NOT: ReadonlyMap<string, string> = new Map(
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
export const KIN_TITLES = new Set(['gran', 'grandpa', 'aunt', 'uncle', 'nurse', 'cousin']);

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
export const DAY_SET: ReadonlySet<string> = new Set(DAYS);
/** The parts of a day, as stems. */
export const DAYPARTS: ReadonlySet<string> = new Set(
  ['morning', 'afternoon', 'evening', 'night'].map((part) => stem(part)),
);
/** Abbreviated days: always a day, or (`wed`, `sat`, `sun`, also words) only where a day is written. */
export const DAY_ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ['mon', 'monday'],
  ['tue', 'tuesday'],
  ['tues', 'tuesday'],
  ['weds', 'wednesday'],
  ['thu', 'thursday'],
  ['thur', 'thursday'],
  ['thurs', 'thursday'],
  ['fri', 'friday'],
]);
export const AMBIGUOUS_DAYS: ReadonlyMap<string, string> = new Map([
  ['wed', 'wednesday'],
  ['sat', 'saturday'],
  ['sun', 'sunday'],
]);
/** Words before a day ("on Sat", "every Sun") and after one ("Sat morning"). */
export const BEFORE_DAY = new Set([
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
export const AFTER_DAY = new Set(['morning', 'afternoon', 'evening', 'night', 'am', 'pm']);

export const MONTHS: ReadonlyMap<string, number> = new Map([
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

export const NUMBER_WORDS: ReadonlyMap<string, number> = new Map(
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
export const TENS: ReadonlyMap<string, number> = new Map(
  ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'].map((word, k) => [word, 20 + 10 * k]),
);
/** Ordinal words ("second" is left alone: it is also a unit of time). */
export const ORDINALS: ReadonlyMap<string, number> = new Map([
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
