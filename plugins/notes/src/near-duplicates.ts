import { performance } from 'node:perf_hooks';
import { stem, tokens, type Token } from './near-duplicates-words.js';
import { comparable } from './text.js';

export { stem } from './near-duplicates-words.js';

/**
 * Near-duplicate notes: pairs a person can act on (combine, or delete one) because they say the same
 * thing in other words — never two facts about different people, places, times, amounts or objects.
 *
 * Each note is read as words (near-duplicates-words.ts): contractions written out ("Don't" is "do not", at
 * the start of a sentence too, never a name), numbers, times and dates in one spelling (`three` is `3`,
 * `7 p.m.` is `19:00`, `Tues` is `Tuesday`, `March 3rd` is `3/3`), a small household synonym table
 * (sofa/couch, bin/rubbish/trash, mum/mom), irregular verbs and a light stem.
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

const HASHES = 64;
const BANDS = 16;
const ROWS = HASHES / BANDS;

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

/** Whether two words are at most one edit apart (substitution, insertion, deletion or adjacent swap). */
function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  if (sameFrom(a, i + 1, b, i + 1)) return true; // substitution (or equal)
  if (sameFrom(a, i + 1, b, i)) return true; // a has one more
  if (sameFrom(a, i, b, i + 1)) return true; // b has one more
  return a[i] === b[i + 1] && a[i + 1] === b[i] && sameFrom(a, i + 2, b, i + 2); // swap
}

/** Whether `a` from `i` on is `b` from `j` on (`a.slice(i) === b.slice(j)`, without the copies). */
function sameFrom(a: string, i: number, b: string, j: number): boolean {
  if (Math.max(0, a.length - i) !== Math.max(0, b.length - j)) return false;
  for (; i < a.length; i += 1, j += 1) if (a.charCodeAt(i) !== b.charCodeAt(j)) return false;
  return true;
}

/** What the rules read of a note. */
interface Facts {
  readonly form: string;
  /** The numbers in the order written, and the count of negations: what must be equal for two notes to pair. */
  readonly block: string;
  /** The stems of its names (capitalised words that do not start a sentence). */
  readonly names: readonly string[];
  /** Every word, in the order written. */
  readonly words: readonly Token[];
  /** Content words (not light words, negations or numbers), in the order written. */
  readonly content: readonly Token[];
  /** Where each content word stands in {@link Facts.words}. */
  readonly contentAt: readonly number[];
  /** Their stems. */
  readonly stemSet: ReadonlySet<string>;
  /** The stem of each content word written together with the next (`fish tank` → `fishtank`). */
  readonly joined: readonly string[];
  /** Those stems, as a set. */
  readonly joinedSet: ReadonlySet<string>;
  /** The sorted set of their stems, particles apart. */
  readonly stems: string;
  /**
   * The 3-grams of its content words as written (case-folded, sorted: not their synonyms, so a typo in a word
   * of the table still leaves most of them alike), which the MinHash bands are taken from.
   */
  readonly shingles: Uint32Array;
}

function factsOf(text: string): Facts {
  const words = tokens(text);
  // In the order written: "note 3 … item 7" is not "note 7 … item 3".
  const numbers = words.filter((w) => w.kind === 'number').map((w) => w.word);
  const negations = words.filter((w) => w.kind === 'negation').length;
  const contentAt = words.flatMap((w, at) => (w.kind === 'content' ? [at] : []));
  const content = contentAt.map((at) => words[at]!);
  const stemSet = new Set(content.map((w) => w.stem));
  // A stem that ends inside the first word is no word written as two: "under red" is not "under" ("underred"
  // loses "ed" to the stem); such a joining is left out (an empty stem matches no word).
  const joined = content.slice(1).map((w, i) => {
    const first = content[i]!.word;
    const together = stem(first + w.word);
    return together.length > first.length ? together : '';
  });
  // The candidate keys leave particles out: a note may drop one ("sheets for the guest room").
  const stems = [...new Set(content.filter((w) => !w.particle).map((w) => w.stem))].sort().join(' ');
  return {
    form: comparable(text),
    block: `${numbers.join(' ')}|${negations}`,
    names: content.filter((w) => w.name).map((w) => w.stem),
    words,
    content,
    contentAt,
    stemSet,
    joined,
    joinedSet: new Set(joined),
    stems,
    shingles: shingles([...new Set(content.map((w) => w.surface))].sort().join(' ')),
  };
}

/**
 * Whether the `i`th content word of `a` has a match in `b`: the same stem; one typo away (a word of five
 * letters or more written without a capital, in both); or one word written as two (`fishtank`, `fish tank`).
 */
function matched(a: Facts, i: number, b: Facts): boolean {
  const word = a.content[i]!;
  const { joined } = a;
  return (
    b.stemSet.has(word.stem) ||
    b.joinedSet.has(word.stem) ||
    (i > 0 && b.stemSet.has(joined[i - 1]!)) ||
    (i < joined.length && b.stemSet.has(joined[i]!)) ||
    (!word.capital &&
      word.surface.length >= 5 &&
      b.content.some((other) => !other.capital && oneEditApart(word.surface, other.surface)))
  );
}

/**
 * Whether every content word of `a` has a match in `b` (see {@link matched}), particles apart (how many of
 * those have none is counted in `particles`). Stops at the first word without.
 */
function covered(a: Facts, b: Facts, particles: { count: number }): boolean {
  for (let i = 0; i < a.content.length; i += 1) {
    if (matched(a, i, b)) continue;
    if (!a.content[i]!.particle) return false;
    particles.count += 1;
  }
  return true;
}

/** The most content words a note may add to the other's and still say the same fact with a detail more. */
const MAX_INSERTED = 4;
/** Particles that place a thing ("on the left", "in the greenhouse"): a phrase they lead may be a detail added. */
const PLACING = new Set(['in', 'on', 'at', 'by', 'under', 'behind', 'beside', 'near', 'above', 'below', 'over']);
/** Light words that start the noun after a placing particle ("on the hook", "in his bag"). */
const DETERMINERS = new Set(['the', 'a', 'an', 'his', 'her', 'their', 'my', 'our', 'your', 'its']);
/**
 * Words that change a fact when added to it rather than adding a detail: how often or how much ("every other
 * evening", "only one biscuit", "more water"), a condition ("if it rains", "unless", "except"), and the
 * prefixes a hyphen joins to a word to make another thing ("semi-skimmed" milk is not "skimmed" milk).
 */
const CHANGES_FACT = new Set(
  (
    'other only more less fewer extra half double alternate except unless if when whenever but or instead ' +
    'again twice sometimes occasionally rarely semi non anti ex pre part full low high decaf'
  ).split(' '),
);

/**
 * Whether `long` is `short` with a detail added: every content word of `short` is matched in `long` (none
 * left out), and each of `long`'s words without a match in `short` (at most {@link MAX_INSERTED}) describes
 * a thing `short` names — a word written right beside another content word ("the old bikes", "the recycling
 * box", "always needs"), or a place phrase a placing particle and a determiner lead ("on the left", "in the
 * greenhouse"). "Tom goes to school by bus" adds a fact (how), not a detail: no determiner leads "bus". A name
 * added never passes (see namesShared), nor a word of {@link CHANGES_FACT}.
 */
function insertion(short: Facts, long: Facts): boolean {
  const left = { count: 0 };
  if (!covered(short, long, left) || left.count > 0) return false;
  // A name is matched as written, not by its stem: "Ines" must not stand for "in" while "priya" is added.
  if (short.content.some((w) => w.name && !long.content.some((other) => other.surface === w.surface))) return false;
  const { words, content, contentAt } = long;
  const added = new Set<number>();
  for (let i = 0; i < content.length; i += 1) if (!matched(long, i, short)) added.add(contentAt[i]!);
  if (added.size === 0 || added.size > MAX_INSERTED) return false;
  const placed = (at: number) => PLACING.has(words[at]?.word ?? '') && added.has(at);
  for (const at of added) {
    const word = words[at]!;
    if (CHANGES_FACT.has(word.word)) return false;
    if (word.particle) {
      if (!PLACING.has(word.word) || !DETERMINERS.has(words[at + 1]?.word ?? '')) return false;
      continue;
    }
    const beside = words[at - 1]?.kind === 'content' || words[at + 1]?.kind === 'content';
    const inPlacePhrase = DETERMINERS.has(words[at - 1]?.word ?? '') && placed(at - 2);
    if (!beside && !inPlacePhrase) return false;
  }
  return true;
}

/** Whether every name of each note is a word of the other. */
function namesShared(a: Facts, b: Facts): boolean {
  return a.names.every((name) => b.stemSet.has(name)) && b.names.every((name) => a.stemSet.has(name));
}

/** The similarity of a near-duplicate pair, or undefined when the two are different facts. */
function nearDuplicate(a: Facts, b: Facts): number | undefined {
  if (a.form === b.form) return 1;
  if (a.block !== b.block) return undefined;
  // Two notes of light words alone ("OK then", "that is it") pair only when written alike.
  if (a.content.length === 0 && b.content.length === 0) return undefined;
  if (!namesShared(a, b)) return undefined;
  // Every content word matched both ways; a particle may be left out by one note, not changed for another.
  const [ab, ba] = [{ count: 0 }, { count: 0 }];
  const same = covered(a, b, ab) && covered(b, a, ba) && !(ab.count > 0 && ba.count > 0);
  // Or one says what the other says with a detail added ("behind the old bikes on the left").
  if (!same && !insertion(a, b) && !insertion(b, a)) return undefined;
  return jaccard(shingles(a.form), shingles(b.form));
}

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
