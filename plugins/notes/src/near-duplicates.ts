import { performance } from 'node:perf_hooks';
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

/** A near-duplicate pair: indexes `i < j` into the texts, and their similarity (rounded to hundredths). */
export interface NearDuplicatePair {
  readonly i: number;
  readonly j: number;
  readonly similarity: number;
}

/**
 * The similarity of two notes' texts if they are near-duplicates, else undefined: the rules alone, without
 * the candidate buckets (a brute-force check compares every pair with it).
 */
export function nearDuplicateSimilarity(a: string, b: string): number | undefined {
  const similarity = nearDuplicate(factsOf(a), factsOf(b));
  return similarity === undefined ? undefined : Math.round(similarity * 100) / 100;
}

/** How a scan's work is counted: each note's facts, then each of the bucket keys' passes over every note. */
const KEYS = BANDS + 1;
/** The work units of a scan of `n` notes (what progress reports count to). */
export const scanWork = (n: number): number => n * (1 + KEYS);
/** A step of a scan that needs no clock: this many notes bucketed, or buckets found singletons, per step. */
const STEP = 64;

/**
 * The scan as a sequence of short steps, each a note's facts, a few notes bucketed or a bucket's row of
 * comparisons: the generator yields after each, so a driver may stop between any two. Candidate buckets
 * are built one key at a time (a band of the MinHash signature, then the content-word stems), so only one
 * key's buckets are held at once; the pairs found are the same whatever the order the buckets are read in
 * (each candidate is judged by the rules alone, once, under the first key that compares it).
 */
function* scan(
  texts: readonly string[],
  onProgress: (done: number, total: number) => void,
): Generator<void, NearDuplicatePair[]> {
  const n = texts.length;
  const total = scanWork(n);
  const facts: Facts[] = [];
  const signatures = new Uint32Array(n * HASHES);
  onProgress(0, total);
  for (let index = 0; index < n; index += 1) {
    const f = factsOf(texts[index]!);
    facts.push(f);
    signatures.set(signature(f.shingles), index * HASHES);
    if (index % 100 === 99) onProgress(index + 1, total);
    yield;
  }
  onProgress(n, total);
  // Where each note stands under each key read so far: its bucket's number and its place in the order the
  // bucket is compared in. A pair met again under a later key is not judged again when an earlier key
  // compared it already (the same bucket, at most MAX_BUCKET places apart): no set of every pair judged,
  // which grew to tens of millions over 50,000 templated notes and held the thread for seconds to grow.
  const bucketOf = new Int32Array(KEYS * n);
  const placeOf = new Int32Array(KEYS * n);
  const judgedBefore = (i: number, j: number, key: number) => {
    for (let k = 0, at = 0; k < key; k += 1, at += n) {
      if (bucketOf[at + i] === bucketOf[at + j] && Math.abs(placeOf[at + i]! - placeOf[at + j]!) <= MAX_BUCKET)
        return true;
    }
    return false;
  };
  const pairs: NearDuplicatePair[] = [];
  const consider = (x: number, y: number, key: number) => {
    const i = Math.min(x, y);
    const j = Math.max(x, y);
    if (judgedBefore(i, j, key)) return;
    const similarity = nearDuplicate(facts[i]!, facts[j]!);
    if (similarity !== undefined) pairs.push({ i, j, similarity: Math.round(similarity * 100) / 100 });
  };
  const byForm = (x: number, y: number) => {
    const [a, b] = [facts[x]!.form, facts[y]!.form];
    return a < b ? -1 : a > b ? 1 : x - y;
  };
  for (let key = 0; key < KEYS; key += 1) {
    const base = n * (1 + key);
    const buckets = new Map<string, number[]>();
    for (let index = 0; index < n; index += 1) {
      const f = facts[index]!;
      const at = index * HASHES + key * ROWS;
      const name =
        key < BANDS
          ? `${f.block}#${key}:${signatures.subarray(at, at + ROWS).join(',')}`
          : `${f.block}#stems:${f.stems}`;
      const bucket = buckets.get(name);
      if (bucket) bucket.push(index);
      else buckets.set(name, [index]);
      if (index % STEP === STEP - 1) yield;
    }
    onProgress(base + Math.floor(n / 2), total);
    let bucketed = 0;
    let singles = 0;
    let number = 0;
    const offset = key * n;
    for (const bucket of buckets.values()) {
      bucketed += bucket.length;
      number += 1;
      if (bucket.length < 2) {
        bucketOf[offset + bucket[0]!] = number;
        if (++singles % STEP === 0) yield;
        continue;
      }
      // A large bucket is compared within a window of its neighbours in text order (see MAX_BUCKET).
      const members = bucket.length > MAX_BUCKET ? yield* mergeSorted(bucket, byForm) : bucket;
      members.forEach((member, place) => {
        bucketOf[offset + member] = number;
        placeOf[offset + member] = place;
      });
      for (let x = 0; x < members.length; x += 1) {
        for (let y = x + 1; y < Math.min(members.length, x + 1 + MAX_BUCKET); y += 1)
          consider(members[x]!, members[y]!, key);
        yield;
      }
      onProgress(base + Math.floor(n / 2) + Math.floor(bucketed / 2), total);
    }
    onProgress(base + n, total);
  }
  pairs.sort((p, q) => p.i - q.i || p.j - q.j);
  return pairs;
}

/** `items` sorted by `compare` (a total order, so the result is the one Array#sort gives), a run at a time. */
function* mergeSorted(items: readonly number[], compare: (a: number, b: number) => number): Generator<void, number[]> {
  let from = Array.from(items);
  let to = new Array<number>(from.length);
  for (let width = 1; width < from.length; width *= 2) {
    for (let lo = 0; lo < from.length; lo += 2 * width) {
      const mid = Math.min(lo + width, from.length);
      const hi = Math.min(lo + 2 * width, from.length);
      let i = lo;
      let j = mid;
      for (let k = lo; k < hi; k += 1)
        to[k] = j >= hi || (i < mid && compare(from[i]!, from[j]!) <= 0) ? from[i++]! : from[j++]!;
      if (hi - lo >= STEP || lo % (STEP * 2) === 0) yield;
    }
    [from, to] = [to, from];
  }
  return from;
}

/**
 * The near-duplicate pairs among `texts` (each note's content as written), as index pairs `i < j` with
 * their similarity (3-gram Jaccard, 1 for equal comparable forms), in index order. Runs to the end on the
 * caller's thread: for a large set, see {@link nearDuplicatePairsInSlices}. Progress counts work units up to
 * {@link scanWork}.
 */
export function nearDuplicatePairs(
  texts: readonly string[],
  onProgress: (done: number, total: number) => void = () => {},
): NearDuplicatePair[] {
  const steps = scan(texts, onProgress);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** The longest one slice of a scan holds the event loop. */
export const SCAN_SLICE_MS = 20;
/** The most steps one slice takes, whatever the clock says (so a slice's work is bounded by count too). */
export const SCAN_SLICE_STEPS = 512;

/** Serves the event loop (timers, I/O, the console) before the next slice. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * {@link nearDuplicatePairs} in slices of at most {@link SCAN_SLICE_MS} (or {@link SCAN_SLICE_STEPS} steps),
 * serving the event loop between them: the same pairs, for a set of any size. Stops between two slices
 * once `signal` is aborted, rejecting with its reason.
 */
export async function nearDuplicatePairsInSlices(
  texts: readonly string[],
  options: { readonly onProgress?: (done: number, total: number) => void; readonly signal?: AbortSignal } = {},
): Promise<NearDuplicatePair[]> {
  const { signal } = options;
  signal?.throwIfAborted();
  const steps = scan(texts, options.onProgress ?? (() => {}));
  for (;;) {
    const start = performance.now();
    for (let taken = 0; taken < SCAN_SLICE_STEPS && performance.now() - start < SCAN_SLICE_MS; taken += 1) {
      // Aborted by a progress report: not one step more.
      if (signal?.aborted) break;
      const step = steps.next();
      if (step.done) return step.value;
    }
    signal?.throwIfAborted();
    await yieldToLoop();
    signal?.throwIfAborted();
  }
}
