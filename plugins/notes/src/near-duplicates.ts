import { performance } from 'node:perf_hooks';
import { BANDS, HASHES, ROWS, signature } from './near-duplicates-minhash.js';
import { factsOf, nearDuplicate, type Facts } from './near-duplicates-rules.js';

export { stem } from './near-duplicates-words.js';

/**
 * Near-duplicate notes: pairs a person can act on (combine, or delete one) because they say the same
 * thing in other words — never two facts about different people, places, times, amounts or objects.
 *
 * Each note is read as words (near-duplicates-words.ts): contractions written out ("Don't" is "do not", at
 * the start of a sentence too, never a name), numbers, times and dates in one spelling (`three` is `3`,
 * `7 p.m.` is `19:00`, `Tues` is `Tuesday`, `March 3rd` is `3/3`), a small household synonym table
 * (sofa/couch, bin/rubbish/trash, mum/mom), irregular verbs and a light stem.
 * The rules below are near-duplicates-rules.ts; the MinHash signatures, near-duplicates-minhash.ts.
 *
 * Candidates come from two kinds of buckets, each keyed first by what must be equal (the numbers a
 * note names and how many negations it has), so a templated corpus ("note 1 about …", "note 2 about …")
 * never meets itself: MinHash signatures over character 3-grams of the content words as written, sorted,
 * with locality-sensitive hashing (16 bands of 4 rows: misspelt text, a word written as two), and the set
 * of content-word stems (reordered text, other function words, synonyms, other spellings of a number).
 * A bucket larger than {@link MAX_BUCKET} is compared only within a window of its neighbours in text order,
 * so no bucket costs more than linear time.
 *
 * A candidate pair is a near-duplicate when its comparable forms are equal, or when
 *  - it names the same numbers (times and dates among them) in the same order, and as many negations
 *    (`not`, `no`, `never`, `without`, `n't` …; "not" before a word with an opposite of its own is that
 *    opposite: "doesn't like" is "dislikes");
 *  - every name (a capitalised word that does not start a sentence: a person, a pet, a place, a day) of
 *    each note is a word of the other;
 *  - every content word of each (not a function word, a pronoun or a filler such as "please note") has a
 *    match in the other: the same stem (`keeps`/`keep`, `fed`/`feed`, `couch`/`sofa`), one typo away (words
 *    of five letters or more written without a capital), or one word written as two (`fishtank`);
 *  - except that one of the two (not both) may leave out particles and the verbs of phrases such as "take
 *    the dog for a walk": "sheets for the guest room" is "the guest room sheets", but "under the sofa" is
 *    not "behind the sofa".
 * "Grace is allergic to strawberries" and "Ines is allergic to strawberries", "drawer 3" and "drawer 4",
 * "at 7pm" and "at 7am", "in the kitchen" and "in the garage", "likes tea" and "doesn't like tea", "the blue
 * pot" and "the red pot" never pair. A paraphrase that shares few words ("Tom is vegetarian", "Tom doesn't
 * eat meat") is out of reach of these rules.
 */

/** The most notes one bucket compares all-against-all; a larger one compares each with this many neighbours. */
export const MAX_BUCKET = 64;

/**
 * A near-duplicate pair: indexes `i < j` into the texts, and their similarity (3-gram Jaccard of their
 * comparable forms, rounded to hundredths: how alike they are as written).
 */
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
      // A band's ROWS (4) hashes, written out (no copy of the signature to join).
      const name =
        key < BANDS
          ? `${f.block}#${key}:${signatures[at]},${signatures[at + 1]},${signatures[at + 2]},${signatures[at + 3]}`
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
