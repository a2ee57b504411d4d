/**
 * Near-duplicate notes in sub-quadratic time: MinHash signatures over character 3-gram shingles and
 * locality-sensitive hashing (16 bands of 4 rows) pick candidate pairs; each candidate is then
 * checked exactly. Two notes are near-duplicates when their comparable forms are equal, or their
 * shingle Jaccard similarity is at least {@link NEAR_DUPLICATE_THRESHOLD} and they name the same
 * numbers ("drawer 3" and "drawer 4" are different facts, however alike the words).
 */

/** The shingle Jaccard similarity from which two notes are near-duplicates. */
export const NEAR_DUPLICATE_THRESHOLD = 0.7;

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
  return Array.from({ length: HASHES }, () => [next() | 1, next()] as const);
})();

/** The distinct shingle hashes of a text, sorted (so two sets intersect by a linear merge). */
function shingles(comparable: string): Uint32Array {
  const text = ` ${comparable} `;
  const out = new Set<number>();
  for (let i = 0; i + 3 <= text.length; i += 1) out.add(fnv1a(text.slice(i, i + 3)));
  return Uint32Array.from(out).sort();
}

function signature(set: Uint32Array): Uint32Array {
  const sig = new Uint32Array(HASHES).fill(0xffffffff);
  for (const x of set) {
    for (let k = 0; k < HASHES; k += 1) {
      const [a, b] = SEEDS[k]!;
      const h = (Math.imul(a, x) + b) >>> 0;
      if (h < sig[k]!) sig[k] = h;
    }
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

const numbers = (comparable: string) => (comparable.match(/\p{N}+/gu) ?? []).sort().join(' ');

/**
 * The near-duplicate pairs among `comparables` (each note's comparable form), as index pairs `i < j`
 * with their similarity, in index order.
 */
export function nearDuplicatePairs(
  comparables: readonly string[],
  onProgress: (done: number, total: number) => void = () => {},
): Array<{ i: number; j: number; similarity: number }> {
  const sets = comparables.map(shingles);
  const buckets = new Map<string, number[]>();
  onProgress(0, sets.length);
  sets.forEach((set, index) => {
    if (index % 100 === 99) onProgress(index + 1, sets.length);
    const sig = signature(set);
    for (let band = 0; band < BANDS; band += 1) {
      const key = `${band}:${Array.from(sig.subarray(band * ROWS, band * ROWS + ROWS)).join(',')}`;
      const bucket = buckets.get(key);
      if (bucket) bucket.push(index);
      else buckets.set(key, [index]);
    }
  });
  onProgress(sets.length, sets.length);
  const seen = new Set<number>();
  const pairs: Array<{ i: number; j: number; similarity: number }> = [];
  const n = comparables.length;
  for (const bucket of buckets.values()) {
    for (let x = 0; x < bucket.length; x += 1) {
      for (let y = x + 1; y < bucket.length; y += 1) {
        const i = Math.min(bucket[x]!, bucket[y]!);
        const j = Math.max(bucket[x]!, bucket[y]!);
        const id = i * n + j;
        if (seen.has(id)) continue;
        seen.add(id);
        const same = comparables[i] === comparables[j];
        const similarity = same ? 1 : jaccard(sets[i]!, sets[j]!);
        if (same || (similarity >= NEAR_DUPLICATE_THRESHOLD && numbers(comparables[i]!) === numbers(comparables[j]!))) {
          pairs.push({ i, j, similarity: Math.round(similarity * 100) / 100 });
        }
      }
    }
  }
  return pairs.sort((p, q) => p.i - q.i || p.j - q.j);
}
