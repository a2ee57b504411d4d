import { MONTHS, NUMBER_WORDS, ORDINALS, TENS } from './near-duplicates-tables.js';

/**
 * A note's text written out as Find Duplicates reads it (near-duplicates-words.ts): contractions, numbers,
 * dates, times and temperatures in one spelling, case kept.
 */

/** Whether a text has a number in words (then they are written in digits). */
const NUMBER_WORD =
  /\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|first|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|twice|thrice)\b/iu;
const MONTH = `(${[...MONTHS.keys()].join('|')})\\.?`;
const MONTH_NAME = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/iu;
const DAY_MONTH = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}\\b`, 'giu');
const MONTH_DAY = new RegExp(`\\b${MONTH}\\s+(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\b(?![:.]\\d)`, 'giu');

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
  const out = numbersInWords(contractions(text.normalize('NFKC')));
  if (!/\d/u.test(out)) return out;
  // Each pass only where it may apply: most notes have a number or two and none of these.
  return times(counts(dates(/°|degree|celsius|centigrade|fahrenheit/iu.test(out) ? temperatures(out) : out)));
}

/** Contractions written out (`doesn't` → `does not`, `dont` → `do not`), and `w/o`, `gonna`. */
function contractions(text: string): string {
  let out = text;
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
  return out;
}

/** Numbers in words in digits (`three` → `3`, `twice` → `2 times`, `fortnight` → `2 weeks`, `noon` → `12`). */
function numbersInWords(text: string): string {
  let out = text;
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
  return out;
}

/** Dates as day/month: `3 March`, `March 3rd`, `2024-12-24`, `24/12`. */
function dates(text: string): string {
  let out = text;
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
  return out;
}

/** Ordinals in digits as numbers (`3rd` → `3`), and `2x` as `2 times`. */
function counts(text: string): string {
  let out = text;
  if (/\d(?:st|nd|rd|th)\b/iu.test(out)) out = out.replace(/\b(\d+)(?:st|nd|rd|th)\b/giu, '$1');
  // "2x a day", "x2": times.
  if (/\d\s?x\b|\bx\s?\d/iu.test(out))
    out = out.replace(
      /\b(\d+)\s?x\b|\bx\s?(\d+)\b/giu,
      (_, a: string | undefined, b: string | undefined) => `${a ?? b} times`,
    );
  return out;
}

/** Times on the 24-hour clock: `half six`, `7pm`, `7 in the evening`, `19:00`, `at 6.30`. */
function times(text: string): string {
  let out = text;
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
