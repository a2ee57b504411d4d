// A labelled set for Find Duplicates: notes as a household robot's operator writes them, each labelled
// with the fact it states. Two notes are duplicates when they state the same fact in other words (case,
// punctuation, contractions, a "please note" before it, a dropped article, a typo, a moved time phrase);
// near misses state another fact in almost the same words (another person, place, number, day, object,
// preposition, or the negation). Deterministic: the same notes in the same order every run.
import { rng } from './stats.js';

export interface LabelledNote {
  readonly text: string;
  /** Notes with the same fact are duplicates of each other. */
  readonly fact: string;
}

const PEOPLE = ['Grace', 'Ines', 'Tomás', 'Priya', 'Jonas', 'Mei', 'Olu', 'Sasha', 'Aiko', 'Marta', 'Kofi', 'Lena'];
const PLACES = ['kitchen', 'garage', 'hallway', 'bedroom', 'study', 'laundry room', 'porch', 'attic'];
const FOODS = ['strawberries', 'peanuts', 'shellfish', 'gluten', 'kiwi', 'sesame', 'milk', 'eggs'];
const DRINKS = ['green tea', 'black coffee', 'oat milk', 'hot chocolate', 'sparkling water', 'chai'];
const THINGS = ['spare charger', 'first aid kit', 'torch', 'umbrella', 'toolbox', 'dog lead', 'spare keys'];
const SPOTS = ['sofa', 'shoe rack', 'bookshelf', 'fridge', 'front door', 'coat hooks', 'desk'];
const PREPS = ['behind', 'under', 'next to', 'above', 'inside'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const TIMES = ['morning', 'evening', 'afternoon'];

/** A fact: its slots, and the sentence (and its negation) that states it. */
interface Fact {
  readonly key: string;
  readonly say: string;
  readonly negated: string;
  /** The same fact in other words (more than the generic rewordings). */
  readonly rewordings: readonly string[];
}

type Template = (pick: <T>(list: readonly T[]) => T, n: () => number) => Fact;

const TEMPLATES: readonly Template[] = [
  (pick) => {
    const [p, f] = [pick(PEOPLE), pick(FOODS)];
    return {
      key: `allergy:${p}:${f}`,
      say: `${p} is allergic to ${f}`,
      negated: `${p} is not allergic to ${f}`,
      rewordings: [`${p}'s allergic to ${f}`],
    };
  },
  (pick, n) => {
    const [p, d] = [pick(PEOPLE), n()];
    return {
      key: `battery:${p}:${d}`,
      say: `The spare battery for ${p}'s wheelchair is in drawer ${d}`,
      negated: `The spare battery for ${p}'s wheelchair is not in drawer ${d}`,
      rewordings: [`${p}'s wheelchair spare battery is in drawer ${d}`],
    };
  },
  (pick) => {
    const [p, d, t] = [pick(PEOPLE), pick(DRINKS), pick(TIMES)];
    return {
      key: `drink:${p}:${d}:${t}`,
      say: `${p} drinks ${d} every ${t}`,
      negated: `${p} never drinks ${d} in the ${t}`,
      rewordings: [`Every ${t} ${p} drinks ${d}`],
    };
  },
  (pick) => {
    const [t, pr, s] = [pick(THINGS), pick(PREPS), pick(SPOTS)];
    return {
      key: `thing:${t}:${pr}:${s}`,
      say: `The ${t} is kept ${pr} the ${s}`,
      negated: `The ${t} is no longer kept ${pr} the ${s}`,
      rewordings: [`The ${t}: kept ${pr} the ${s}`],
    };
  },
  (pick, n) => {
    const [p, pl, d, h] = [pick(PEOPLE), pick(PLACES), pick(DAYS), 1 + (n() % 11)];
    return {
      key: `meeting:${p}:${pl}:${d}:${h}`,
      say: `${p} has physiotherapy in the ${pl} on ${d} at ${h} pm`,
      negated: `${p} has no physiotherapy in the ${pl} on ${d} at ${h} pm`,
      rewordings: [`On ${d} at ${h} pm ${p} has physiotherapy in the ${pl}`],
    };
  },
  (pick, n) => {
    const [pl, c] = [pick(PLACES), 1000 + (n() % 9000)];
    return {
      key: `code:${pl}:${c}`,
      say: `The door code for the ${pl} is ${c}`,
      negated: `The door code for the ${pl} is not ${c}`,
      rewordings: [`Door code of the ${pl}: ${c}`],
    };
  },
  (pick) => {
    const [p, pl, d] = [pick(PEOPLE), pick(PLACES), pick(DAYS)];
    return {
      key: `plants:${p}:${pl}:${d}`,
      say: `Remind ${p} to water the plants in the ${pl} on ${d}`,
      negated: `Do not remind ${p} to water the plants in the ${pl} on ${d}`,
      rewordings: [`On ${d}, remind ${p} to water the ${pl} plants`],
    };
  },
  (pick, n) => {
    const [p, m, d] = [pick(PEOPLE), pick(['March', 'June', 'October', 'December']), 1 + (n() % 28)];
    return {
      key: `birthday:${p}:${m}:${d}`,
      say: `${p}'s birthday is on ${m} ${d}`,
      negated: `${p}'s birthday is not on ${m} ${d}`,
      rewordings: [`${p} has a birthday on ${m} ${d}`],
    };
  },
  (pick) => {
    const [p, t] = [pick(PEOPLE), pick(THINGS)];
    return {
      key: `lent:${p}:${t}`,
      say: `${p} borrowed the ${t} and still has it`,
      negated: `${p} did not borrow the ${t}`,
      rewordings: [`${p} borrowed the ${t} and has it still`],
    };
  },
];

/** Rewordings every fact can take: the same fact, other words. */
const REWORD: ReadonlyArray<(text: string, random: () => number) => string> = [
  (t) => `${t.toLowerCase()}!`,
  (t) => `Please note: ${t}.`,
  (t) => `Remember that ${t[0]!.toLowerCase()}${t.slice(1)}`,
  (t) => t.replace(/^The /, '').replace(/ the /, ' '),
  (t) => t.replace(/ is /, "'s ").replace(/ is not /, " isn't "),
  // One typo in a long word (a letter doubled).
  (t, random) => {
    const words = t.split(' ');
    const long = words.map((w, i) => [w, i] as const).filter(([w]) => /^[a-z]{6,}$/.test(w));
    if (long.length === 0) return `${t}.`;
    const [w, i] = long[Math.floor(random() * long.length)]!;
    words[i] = `${w.slice(0, 3)}${w[3]}${w.slice(3)}`;
    return words.join(' ');
  },
  (t) => `${t}, just so you know`,
];

const SLOTS: ReadonlyArray<readonly string[]> = [PEOPLE, PLACES, FOODS, DRINKS, THINGS, SPOTS, PREPS, DAYS, TIMES];
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Up to two near misses of a fact: one slot's value (a person, place, food, day, number …) replaced by
 * another of its kind, in the sentence and in the fact's key alike.
 */
function nearMisses(base: Fact, random: () => number): Array<{ text: string; key: string }> {
  const options: Array<{ from: string; to: () => string }> = [];
  for (const list of SLOTS) {
    for (const word of list) {
      if (!new RegExp(`(?<![\\p{L}])${escape(word)}(?![\\p{L}])`, 'u').test(base.say)) continue;
      const others = list.filter((x) => x !== word);
      options.push({ from: word, to: () => others[Math.floor(random() * others.length)]! });
    }
  }
  for (const [number] of base.say.matchAll(/\d+/g)) {
    options.push({ from: number, to: () => String(Number(number) + 1 + Math.floor(random() * 5)) });
  }
  const out: Array<{ text: string; key: string }> = [];
  for (let k = 0; k < 2 && options.length > 0; k += 1) {
    const [option] = options.splice(Math.floor(random() * options.length), 1);
    const to = option!.to();
    const word = new RegExp(`(?<![\\p{L}\\d])${escape(option!.from)}(?![\\p{L}\\d])`, 'gu');
    out.push({
      text: base.say.replace(word, to),
      key: base.key
        .split(':')
        .map((part) => (part === option!.from ? to : part))
        .join(':'),
    });
  }
  return out;
}

/** At least `count` labelled notes: facts, their rewordings, and their near misses. */
export function labelledDuplicates(count = 320): LabelledNote[] {
  const random = rng(20261202);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const n = () => Math.floor(random() * 90) + 2;
  const notes: LabelledNote[] = [];
  const facts = new Set<string>();
  while (notes.length < count) {
    const template = pick(TEMPLATES);
    const base = template(pick, n);
    if (facts.has(base.key)) continue;
    facts.add(base.key);
    notes.push({ text: base.say, fact: base.key });
    // One or two rewordings: generic or the template's own.
    const rewordings = [...base.rewordings.map((r) => () => r), ...REWORD.map((f) => () => f(base.say, random))];
    const wanted = 1 + Math.floor(random() * 2);
    const used = new Set<string>([base.say]);
    for (let k = 0; k < wanted; k += 1) {
      const text = pick(rewordings)();
      if (!used.has(text)) {
        used.add(text);
        notes.push({ text, fact: base.key });
      }
    }
    // Near misses: another slot value, or the negation.
    for (const miss of nearMisses(base, random)) {
      if (facts.has(miss.key)) continue;
      facts.add(miss.key);
      notes.push({ text: miss.text, fact: miss.key });
    }
    if (random() < 0.5) notes.push({ text: base.negated, fact: `not:${base.key}` });
  }
  return notes;
}
