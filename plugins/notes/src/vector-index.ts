/**
 * Binary quantisation for note vectors: each vector is kept as its sign bits (384 dimensions →
 * 48 bytes), scanned by Hamming distance among the notes a viewer may see (scope and key are
 * checked during the scan, so hidden neighbours never crowd out visible ones), and the best
 * candidates are then re-scored exactly with their stored float vectors. At 100,000 notes the
 * scan touches 4.8 MB and takes a few milliseconds; an exact scan reads 150 MB of floats.
 */

/** The sign bits of a vector, 32 per word (bit i of word w is dimension 32·w + i, set when > 0). */
export function binaryCode(vector: Float32Array): Uint32Array {
  const code = new Uint32Array(Math.ceil(vector.length / 32));
  for (let i = 0; i < vector.length; i += 1) if (vector[i]! > 0) code[i >>> 5]! |= 1 << (i & 31);
  return code;
}

/** Bits set in a 32-bit word. */
function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Cosine similarity of two vectors of the same length. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** Who may see a vector's note: its scope among `scopes`, and (unless `keys` is null) its key digest among `keys`. */
export interface VectorFilter {
  readonly scopes: ReadonlySet<string>;
  readonly keys: ReadonlySet<string> | null;
}

/** The in-memory index of binary codes, with each note's scope and key digest. */
export class QuantizedIndex {
  readonly words: number;
  #ids = new Float64Array(1024);
  #codes: Uint32Array;
  #scope = new Int32Array(1024);
  #key = new Int32Array(1024);
  #used = 0;
  #live = 0;
  readonly #slots = new Map<number, number>();
  readonly #scopeNames: string[] = [];
  readonly #keyNames: string[] = [];
  readonly #scopeIds = new Map<string, number>();
  readonly #keyIds = new Map<string, number>();
  /** The highest note ID indexed (later notes are appended when another process adds them). */
  maxId = 0;

  constructor(dimension: number) {
    this.words = Math.ceil(dimension / 32);
    this.#codes = new Uint32Array(1024 * this.words);
  }

  get size(): number {
    return this.#live;
  }

  static #intern(value: string, names: string[], ids: Map<string, number>): number {
    let id = ids.get(value);
    if (id === undefined) {
      id = names.length;
      names.push(value);
      ids.set(value, id);
    }
    return id;
  }

  #grow(): void {
    const capacity = this.#ids.length * 2;
    const grow = <T extends Float64Array | Int32Array | Uint32Array>(old: T, size: number): T => {
      const next = new (old.constructor as new (n: number) => T)(size);
      next.set(old);
      return next;
    };
    this.#ids = grow(this.#ids, capacity);
    this.#scope = grow(this.#scope, capacity);
    this.#key = grow(this.#key, capacity);
    this.#codes = grow(this.#codes, capacity * this.words);
  }

  /** Adds or replaces the code of note `id`. */
  upsert(id: number, code: Uint32Array, scope: string, keyDigest: string): void {
    let slot = this.#slots.get(id);
    if (slot === undefined) {
      if (this.#used === this.#ids.length) this.#grow();
      slot = this.#used++;
      this.#slots.set(id, slot);
      this.#live += 1;
    }
    this.#ids[slot] = id;
    this.#codes.set(code.subarray(0, this.words), slot * this.words);
    this.#scope[slot] = QuantizedIndex.#intern(scope, this.#scopeNames, this.#scopeIds);
    this.#key[slot] = QuantizedIndex.#intern(keyDigest, this.#keyNames, this.#keyIds);
    if (id > this.maxId) this.maxId = id;
  }

  /**
   * The IDs of the `k` visible notes whose codes are nearest `query` (Hamming distance), nearest
   * first, ties by ID: the candidates to re-score exactly.
   */
  nearest(query: Uint32Array, filter: VectorFilter, k: number): number[] {
    const scopeOk = new Uint8Array(this.#scopeNames.length);
    this.#scopeNames.forEach((name, i) => (scopeOk[i] = filter.scopes.has(name) ? 1 : 0));
    const keyOk = new Uint8Array(this.#keyNames.length);
    this.#keyNames.forEach((name, i) => (keyOk[i] = filter.keys === null || filter.keys.has(name) ? 1 : 0));
    const words = this.words;
    const bits = words * 32;
    const distance = new Uint16Array(this.#used).fill(0xffff);
    const histogram = new Uint32Array(bits + 1);
    const codes = this.#codes;
    for (let slot = 0; slot < this.#used; slot += 1) {
      if (!scopeOk[this.#scope[slot]!] || !keyOk[this.#key[slot]!]) continue;
      let d = 0;
      const at = slot * words;
      for (let w = 0; w < words; w += 1) d += popcount(codes[at + w]! ^ query[w]!);
      distance[slot] = d;
      histogram[d]! += 1;
    }
    // The smallest distance that admits k notes, then those notes in order.
    let cut = 0;
    for (let seen = 0; cut <= bits; cut += 1) {
      seen += histogram[cut]!;
      if (seen >= k) break;
    }
    const picked: number[] = [];
    for (let slot = 0; slot < this.#used; slot += 1) if (distance[slot]! <= cut) picked.push(slot);
    picked.sort((a, b) => distance[a]! - distance[b]! || this.#ids[a]! - this.#ids[b]!);
    return picked.slice(0, k).map((slot) => this.#ids[slot]!);
  }
}
