import { caseFold } from '@mira/core';
import { comparable, segmentSpaceless } from './text.js';

/**
 * Near-duplicate notes: pairs a person can act on (combine, or delete one) because they say the same
 * thing in other words — never two facts about different people, places, times, amounts or objects.
 *
 * Candidates come from two kinds of buckets, each keyed first by what must be equal (the numbers a
 * note names and how many negations it has), so a templated corpus ("note 1 about …", "note 2 about …")
 * never meets itself: MinHash signatures over character 3-grams with locality-sensitive hashing
 * (16 bands of 4 rows: reworded, repunctuated, misspelt text), and the set of content-word stems
 * (reordered text, other function words). A bucket larger than {@link MAX_BUCKET} is compared only
 * within a window of its neighbours in text order, so no bucket costs more than linear time.
 *
 * A candidate pair is a near-duplicate when its comparable forms are equal, or when
 *  - it names the same numbers in the same order, and as many negations (`not`, `no`, `never`,
 *    `without`, `n't` …);
 *  - every capitalised word (a name: a person, a place, a day) of each note is a word of the other;
 *  - every content word of each (not a function word or a filler such as "please note") has a match
 *    in the other: the same stem (`keeps`/`keep`, `charger's`/`charger`) or, for words of five letters
 *    or more that are not names, one typo away;
 *  - and its 3-gram Jaccard similarity is at least {@link NEAR_DUPLICATE_THRESHOLD}, or the two have the
 *    same content-word stems.
 * "Grace is allergic to strawberries" and "Ines is allergic to strawberries", "drawer 3" and "drawer 4",
 * "in the kitchen" and "in the garage", "likes tea" and "doesn't like tea" never pair.
 */

/** The shingle Jaccard similarity from which two notes with the same content may be near-duplicates. */
export const NEAR_DUPLICATE_THRESHOLD = 0.7;
/** The most notes one bucket compares all-against-all; a larger one compares each with this many neighbours. */
export const MAX_BUCKET = 64;

const HASHES = 64;
const BANDS = 16;
const ROWS = HASHES / BANDS;

/**
 * Words whose presence or absence does not change the fact: articles, copulas and auxiliaries, demonstratives,
 * and what people put before a note ("please note that", "just so you know"). Prepositions, modals and
 * quantities are not among them ("on" the table is not "under" it; "can" is not "must").
 */
const FUNCTION_WORDS = new Set(
  (
    'a an the is are was were be been being am do does did has have had it its this that these those there here ' +
    'and so then also just really actually very please note remember fyi btw ok okay hey well oh know you ' +
    'i we me us my our s re m ll ve d'
  ).split(' '),
);
/** Words that negate; a note's count of them must match its pair's ("no sugar" is "without sugar"). */
const NEGATIONS = new Set(['not', 'no', 'never', 'without', 'nobody', 'nothing', 'none', 'neither', 'nor']);

/** FNV-1a over a string's UTF-16 units: a 32-bit hash. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

// Fixed seeds (a deterministic generator), so the same notes always give the same pairs.
const SEEDS = (() => {
  let state = 0x9e3779b9;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
  const a = new Int32Array(HASHES);
  const b = new Int32Array(HASHES);
  for (let k = 0; k < HASHES; k += 1) {
    a[k] = next() | 1;
    b[k] = next();
  }
  return { a, b };
})();

/** The distinct shingle hashes of a text, sorted (so two sets intersect by a linear merge). */
function shingles(form: string): Uint32Array {
  const text = ` ${form} `;
  const out = new Set<number>();
  for (let i = 0; i + 3 <= text.length; i += 1) out.add(fnv1a(text.slice(i, i + 3)));
  return Uint32Array.from(out).sort();
}

function signature(set: Uint32Array): Uint32Array {
  const sig = new Uint32Array(HASHES).fill(0xffffffff);
  const { a, b } = SEEDS;
  for (let k = 0; k < HASHES; k += 1) {
    const ak = a[k]!;
    const bk = b[k]!;
    let min = 0xffffffff;
    for (let i = 0; i < set.length; i += 1) {
      const h = (Math.imul(ak, set[i]!) + bk) >>> 0;
      if (h < min) min = h;
    }
    sig[k] = min;
  }
  return sig;
}

function jaccard(a: Uint32Array, b: Uint32Array): number {
  let shared = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) {
      shared += 1;
      i += 1;
      j += 1;
    } else if (a[i]! < b[j]!) i += 1;
    else j += 1;
  }
  return shared / (a.length + b.length - shared || 1);
}

/**
 * A light English stem: the plural, third-person, past and progressive endings off a word of four letters
 * or more, then a final `e`, so `take`, `takes` and `taking` meet (`tak`), as do `box`/`boxes` and
 * `battery`/`batteries`.
 */
export function stem(word: string): string {
  let base = word;
  if (word.length >= 4) {
    if (word.endsWith('ies')) base = `${word.slice(0, -3)}y`;
    else if (/(?:s|x|z|ch|sh)es$/u.test(word)) base = word.slice(0, -2);
    else if (word.endsWith('ing') && word.length >= 6) base = word.slice(0, -3);
    else if (word.endsWith('ed') && word.length >= 5) base = word.slice(0, -2);
    else if (word.endsWith('s') && !word.endsWith('ss')) base = word.slice(0, -1);
  }
  return base.length >= 3 && base.endsWith('e') ? base.slice(0, -1) : base;
}

/** Whether two words are at most one edit apart (substitution, insertion, deletion or adjacent swap). */
function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  if (a.slice(i + 1) === b.slice(i + 1)) return true; // substitution (or equal)
  if (a.slice(i + 1) === b.slice(i)) return true; // a has one more
  if (a.slice(i) === b.slice(i + 1)) return true; // b has one more
  return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // swap
}

/** What the rules read of a note. */
interface Facts {
  readonly form: string;
  /** The numbers in the order written, and the count of negations: what must be equal for two notes to pair. */
  readonly block: string;
  /** Capitalised words, case-folded. */
  readonly names: ReadonlySet<string>;
  /** Every word, case-folded. */
  readonly words: ReadonlySet<string>;
  /** Content words (not function words, negations or numbers), case-folded. */
  readonly content: readonly string[];
  /** The stem of each content word. */
  readonly contentStems: readonly string[];
  /** The sorted set of their stems. */
  readonly stems: string;
  readonly shingles: Uint32Array;
}

const NUMBER = /^\p{N}+$/u;

/** Contractions written out, so "doesn't" is "does not", "cannot" is "can not" and "charger's" is "charger". */
function expandContractions(folded: string): string {
  return folded
    .replace(/\b(ca|wo)n['’]t\b/gu, (_, head: string) => (head === 'ca' ? 'can not' : 'will not'))
    .replace(/\bcannot\b/gu, 'can not')
    .replace(/n['’]t\b/gu, ' not')
    .replace(/['’](s|re|m|ll|ve|d)\b/gu, ' ');
}

function factsOf(text: string): Facts {
  const nfkc = text.normalize('NFKC');
  const expanded = expandContractions(caseFold(nfkc));
  const words = segmentSpaceless(comparable(expanded)).split(' ').filter(Boolean);
  const form = comparable(text);
  // In the order written: "note 3 … item 7" is not "note 7 … item 3".
  const numbers = words.filter((w) => NUMBER.test(w));
  const negations = words.filter((w) => NEGATIONS.has(w)).length;
  // A capitalised word is read with its contraction ("Don't" is "do not", never a name "Don"; "Alice's" is
  // "alice"), so a sentence that starts with one pairs with the same sentence written out.
  const names = new Set(
    Array.from(nfkc.matchAll(/(?<![\p{L}\p{N}])\p{Lu}[\p{L}\p{M}]*(?:['’][\p{L}\p{M}]+)*/gu), ([word]) =>
      expandContractions(caseFold(word)).split(/[^\p{L}\p{M}\p{N}]+/u),
    )
      .flat()
      .filter((name) => name !== '' && !FUNCTION_WORDS.has(name) && !NEGATIONS.has(name)),
  );
  const content = words.filter((w) => !FUNCTION_WORDS.has(w) && !NEGATIONS.has(w) && !NUMBER.test(w));
  const contentStems = content.map(stem);
  return {
    form,
    block: `${numbers.join(' ')}|${negations}`,
    names,
    words: new Set(words),
    content,
    contentStems,
    stems: [...new Set(contentStems)].sort().join(' '),
    shingles: shingles(form),
  };
}

/** Whether every content word of `a` has a match in `b` (names and short words only exactly, by stem). */
function covered(a: Facts, b: Facts): boolean {
  return a.content.every((word, i) => {
    if (b.words.has(word)) return true;
    const s = a.contentStems[i];
    return b.content.some(
      (other, j) =>
        b.contentStems[j] === s ||
        (word.length >= 5 && !a.names.has(word) && !b.names.has(other) && oneEditApart(word, other)),
    );
  });
}

function namesShared(a: Facts, b: Facts): boolean {
  for (const name of a.names) if (!b.words.has(name)) return false;
  for (const name of b.names) if (!a.words.has(name)) return false;
  return true;
}

/** The similarity of a near-duplicate pair, or undefined when the two are different facts. */
function nearDuplicate(a: Facts, b: Facts): number | undefined {
  if (a.form === b.form) return 1;
  if (a.block !== b.block) return undefined;
  const similarity = jaccard(a.shingles, b.shingles);
  if (similarity < NEAR_DUPLICATE_THRESHOLD && a.stems !== b.stems) return undefined;
  return namesShared(a, b) && covered(a, b) && covered(b, a) ? similarity : undefined;
}

/**
 * The near-duplicate pairs among `texts` (each note's content as written), as index pairs `i < j` with
 * their similarity (3-gram Jaccard, 1 for equal comparable forms), in index order.
 */
export function nearDuplicatePairs(
  texts: readonly string[],
  onProgress: (done: number, total: number) => void = () => {},
): Array<{ i: number; j: number; similarity: number }> {
  const facts: Facts[] = [];
  const buckets = new Map<string, number[]>();
  const add = (key: string, index: number) => {
    const bucket = buckets.get(key);
    if (bucket) bucket.push(index);
    else buckets.set(key, [index]);
  };
  onProgress(0, texts.length);
  texts.forEach((text, index) => {
    if (index % 100 === 99) onProgress(index + 1, texts.length);
    const f = factsOf(text);
    facts.push(f);
    const sig = signature(f.shingles);
    for (let band = 0; band < BANDS; band += 1) {
      add(`${f.block}#${band}:${sig.subarray(band * ROWS, band * ROWS + ROWS).join(',')}`, index);
    }
    add(`${f.block}#stems:${f.stems}`, index);
  });
  onProgress(texts.length, texts.length);
  const seen = new Set<number>();
  const pairs: Array<{ i: number; j: number; similarity: number }> = [];
  const n = texts.length;
  const consider = (x: number, y: number) => {
    const i = Math.min(x, y);
    const j = Math.max(x, y);
    const id = i * n + j;
    if (seen.has(id)) return;
    seen.add(id);
    const similarity = nearDuplicate(facts[i]!, facts[j]!);
    if (similarity !== undefined) pairs.push({ i, j, similarity: Math.round(similarity * 100) / 100 });
  };
  for (const bucket of buckets.values()) {
    if (bucket.length < 2) continue;
    if (bucket.length > MAX_BUCKET) {
      bucket.sort((x, y) => {
        const [a, b] = [facts[x]!.form, facts[y]!.form];
        return a < b ? -1 : a > b ? 1 : x - y;
      });
    }
    for (let x = 0; x < bucket.length; x += 1) {
      for (let y = x + 1; y < Math.min(bucket.length, x + 1 + MAX_BUCKET); y += 1) consider(bucket[x]!, bucket[y]!);
    }
  }
  return pairs.sort((p, q) => p.i - q.i || p.j - q.j);
}
