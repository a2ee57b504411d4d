import { shingles, jaccard } from './near-duplicates-minhash.js';
import { stem, tokens, type Token } from './near-duplicates-words.js';
import { comparable } from './text.js';

/**
 * The rules of Find Duplicates (near-duplicates.ts tells them in full): what a note's words say (its
 * {@link Facts}), and whether two notes say the same fact — the same numbers and negations, the same names,
 * every content word matched, or one the other with a detail added.
 */

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
export interface Facts {
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

/** What the rules read of a note's text. */
export function factsOf(text: string): Facts {
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
export function nearDuplicate(a: Facts, b: Facts): number | undefined {
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
