/**
 * The MinHash half of Find Duplicates' candidates (near-duplicates.ts): a note's character 3-grams, its
 * signature of {@link HASHES} minimum hashes under fixed seeds (the same notes always give the same pairs),
 * read as {@link BANDS} bands of {@link ROWS} rows, and the 3-gram Jaccard similarity a pair is reported with.
 */

/** Hashes in a signature. */
export const HASHES = 64;
/** Bands a signature is cut into: notes alike in one band's rows share a bucket. */
export const BANDS = 16;
/** Hashes in a band. */
export const ROWS = HASHES / BANDS;

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
export function shingles(form: string): Uint32Array {
  const text = ` ${form} `;
  const out = new Set<number>();
  for (let i = 0; i + 3 <= text.length; i += 1) out.add(fnv1a(text.slice(i, i + 3)));
  return Uint32Array.from(out).sort();
}

/** A set's signature: the least of each seeded hash over its members. */
export function signature(set: Uint32Array): Uint32Array {
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

/** The Jaccard similarity of two sorted sets (shared over either). */
export function jaccard(a: Uint32Array, b: Uint32Array): number {
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
