import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { TextDecoder } from 'node:util';

/**
 * The names of the tables an SQLite file's schema lists (`SELECT name FROM sqlite_schema WHERE type =
 * 'table'`, in the same order), read from the pages of the schema table alone: page 1 and the pages its
 * b-tree reaches, a few whatever the file's size; of each row only its type and name (a view's or an
 * index's SQL is never read). Opening a store checks its tables this way, so a store of 1 GB is not read
 * into memory at every start (nor a store over 2 GiB refused by the file read).
 *
 * The file's own pages only, nothing beside it (a WAL's pages are not read; see open.ts for when they
 * count), read as SQLite reads them: the header's page count when valid, a last page cut short as zeros,
 * text undecoded bytes and all. Undefined when the pages do not read as a schema table: a checkpoint
 * writing them meanwhile, or what SQLite calls a malformed file (a page out of range, a b-tree deeper than
 * 20). Never throws for what the file holds, never reads a page twice (a cycle is damage), and holds at
 * most a page and a name in memory at a time.
 * Format: https://www.sqlite.org/fileformat2.html (b-tree pages, cells, overflow, records).
 */
export function schemaTableNames(path: string): string[] | undefined {
  const fd = openSync(path, 'r');
  try {
    return new SchemaReader(fd, fstatSync(fd).size).tables();
  } catch (error) {
    if (error instanceof Damaged) return undefined;
    throw error;
  } finally {
    closeSync(fd);
  }
}

/** The pages do not read as a schema table. */
class Damaged extends Error {}

const damaged = (why: string): never => {
  throw new Damaged(why);
};

/** B-tree page types (first byte of a page's b-tree header). */
const INTERIOR_TABLE = 0x05;
const LEAF_TABLE = 0x0d;
/** The deepest b-tree SQLite reads (`BTCURSOR_MAX_DEPTH`): a deeper one is damage. */
const MAX_DEPTH = 20;
/** The most b-tree pages a schema walk reads: a schema of thousands of tables takes far fewer. */
const MAX_SCHEMA_PAGES = 10_000;
/** The longest type or name read: the memory one row may take (a store's names are a few bytes). */
const MAX_NAME_BYTES = 65_536;

class SchemaReader {
  readonly #fd: number;
  readonly #pageSize: number;
  readonly #usable: number;
  readonly #pages: number;
  readonly #decode: (bytes: Buffer) => string;
  readonly #seen = new Set<number>();
  #treePages = 0;

  constructor(fd: number, size: number) {
    this.#fd = fd;
    const header = Buffer.alloc(100);
    if (readSync(fd, header, 0, 100, 0) !== 100) damaged('short header');
    // 1 stands for 65536 (two bytes cannot hold it).
    const raw = header.readUInt16BE(16);
    this.#pageSize = raw === 1 ? 65536 : raw;
    if (this.#pageSize < 512 || this.#pageSize > 65536 || (this.#pageSize & (this.#pageSize - 1)) !== 0)
      damaged('page size');
    this.#usable = this.#pageSize - header[20]!;
    if (this.#usable < 480) damaged('reserved space');
    // As SQLite counts them: a last page cut short still counts (read as zeros past the end), and the
    // header's count decides when it is valid (written by the same change as the change counter).
    const inFile = Math.ceil(size / this.#pageSize);
    const counted = header.readUInt32BE(28);
    const valid = counted > 0 && header.readUInt32BE(24) === header.readUInt32BE(92);
    if (valid && counted > inFile) damaged('the header counts more pages than the file holds');
    this.#pages = valid ? counted : inFile;
    // Text encoding as SQLite reads it: the low two bits, 0 for UTF-8 as 1 is.
    const encoding = header.readUInt32BE(56) & 3;
    const decoder = new TextDecoder(encoding === 1 || encoding === 0 ? 'utf-8' : 'utf-16le', { ignoreBOM: true });
    // UTF-16be as its bytes swapped into UTF-16le (a Node build without full ICU has no UTF-16be decoder).
    this.#decode =
      encoding === 3
        ? (bytes) => decoder.decode(Buffer.from(bytes.subarray(0, bytes.length - (bytes.length % 2))).swap16())
        : (bytes) => decoder.decode(bytes);
  }

  tables(): string[] {
    const names: string[] = [];
    this.#walk(1, names, 0);
    return names;
  }

  /** Page `number`, read once: a page met twice is a cycle (a valid file never shares one). */
  #page(number: number): Buffer {
    if (!Number.isInteger(number) || number < 1 || number > this.#pages) damaged(`page ${number} out of range`);
    if (this.#seen.has(number)) damaged(`page ${number} read twice`);
    this.#seen.add(number);
    const page = Buffer.alloc(this.#pageSize);
    // A short read leaves zeros, as SQLite reads a last page cut short.
    readSync(this.#fd, page, 0, this.#pageSize, (number - 1) * this.#pageSize);
    return page;
  }

  /** Every row of the table b-tree rooted at `number`, in rowid order. */
  #walk(number: number, names: string[], depth: number): void {
    if (depth >= MAX_DEPTH) damaged('a b-tree deeper than SQLite reads');
    if (++this.#treePages > MAX_SCHEMA_PAGES) damaged('more schema pages than any schema has');
    const page = this.#page(number);
    // Page 1 starts with the file's 100-byte header.
    const at = number === 1 ? 100 : 0;
    const type = page[at];
    if (type !== INTERIOR_TABLE && type !== LEAF_TABLE) damaged(`page ${number} is not a table page`);
    const cells = page.readUInt16BE(at + 3);
    const pointers = at + (type === INTERIOR_TABLE ? 12 : 8);
    if (pointers + 2 * cells > this.#usable) damaged(`page ${number} has too many cells`);
    for (let i = 0; i < cells; i += 1) {
      const cell = page.readUInt16BE(pointers + 2 * i);
      if (cell < pointers + 2 * cells || cell + 4 > this.#usable) damaged(`cell ${i} of page ${number}`);
      if (type === INTERIOR_TABLE) this.#walk(page.readUInt32BE(cell), names, depth + 1);
      else {
        const name = this.#tableName(page, cell);
        if (name !== undefined) names.push(name);
      }
    }
    if (type === INTERIOR_TABLE) this.#walk(page.readUInt32BE(at + 8), names, depth + 1);
  }

  /** A leaf cell's row of sqlite_schema: its name when its type is 'table'. */
  #tableName(page: Buffer, cell: number): string | undefined {
    const [size, sizeBytes] = varint(page, cell, this.#usable);
    // The rowid's value is never needed, only where it ends (a negative one takes nine bytes).
    const rowidBytes = varintLength(page, cell + sizeBytes, this.#usable);
    const payload = this.#payload(page, cell + sizeBytes + rowidBytes, size);
    const [headerSize, headerBytes] = varint(payload.first(Math.min(size, 9)), 0, Math.min(size, 9));
    if (headerSize > size || headerSize > MAX_NAME_BYTES) damaged('a schema row header past its row');
    const header = payload.first(headerSize);
    const columns: number[] = [];
    for (let at = headerBytes; at < headerSize && columns.length < 2;) {
      const [serial, bytes] = varint(header, at, headerSize);
      columns.push(serial);
      at += bytes;
    }
    if (columns.length < 2) damaged('a schema row without its name');
    const lengths = columns.map((serial) => {
      if (serial < 13 || serial % 2 === 0) damaged('a schema column that is not text');
      const length = (serial - 13) / 2;
      if (length > MAX_NAME_BYTES) damaged('a schema name longer than any name');
      return length;
    });
    const [typeLength, nameLength] = lengths as [number, number];
    const end = headerSize + typeLength + nameLength;
    if (end > size) damaged('a schema column past its row');
    // Only as much of the row as its type and name: a view's or a trigger's long SQL is never read.
    const row = payload.first(end);
    if (this.#decode(row.subarray(headerSize, headerSize + typeLength)) !== 'table') return undefined;
    return this.#decode(row.subarray(headerSize + typeLength, end));
  }

  /**
   * A cell's payload of `size` bytes from `at`, read as far as asked: the part on the page, then its
   * overflow pages in order, each read only when the bytes asked for reach it.
   */
  #payload(page: Buffer, at: number, size: number): { first: (length: number) => Buffer } {
    const usable = this.#usable;
    // How much of a payload stays on a table leaf page (the file format's formulas for X, M and K).
    const most = usable - 35;
    const least = Math.floor(((usable - 12) * 32) / 255) - 23;
    const spill = least + ((size - least) % (usable - 4));
    const local = size <= most ? size : spill <= most ? spill : least;
    if (at + local > usable) damaged('a cell past its page');
    if (local < size && at + local + 4 > usable) damaged('an overflow pointer past its page');
    const parts = [Buffer.from(page.subarray(at, at + local))];
    let held = local;
    let next = local < size ? page.readUInt32BE(at + local) : 0;
    return {
      first: (length: number) => {
        while (held < length) {
          const overflow = this.#page(next);
          const take = Math.min(size - held, usable - 4);
          // Copied: the rest of the page is not kept.
          parts.push(Buffer.from(overflow.subarray(4, 4 + take)));
          held += take;
          next = overflow.readUInt32BE(0);
        }
        return parts.length === 1 ? parts[0]!.subarray(0, length) : Buffer.concat(parts).subarray(0, length);
      },
    };
  }
}

/**
 * The SQLite varint at `at` (1 to 9 bytes, big-endian, 7 bits a byte, all 8 of the ninth) and its length;
 * damage when it runs past `end` or is larger than a length in a file can be.
 */
function varint(bytes: Buffer, at: number, end: number): [number, number] {
  const length = varintLength(bytes, at, end);
  let value = 0;
  for (let i = 0; i < length; i += 1) {
    const byte = bytes[at + i]!;
    value = i === 8 ? value * 256 + byte : value * 128 + (byte & 0x7f);
  }
  // Lengths pass through here; none in a file of at most 2^32 pages of 64 KiB comes near 2^53.
  if (value > Number.MAX_SAFE_INTEGER) damaged('a number too large');
  return [value, length];
}

/** How many bytes the varint at `at` takes; damage when it runs past `end`. */
function varintLength(bytes: Buffer, at: number, end: number): number {
  for (let i = 0; i < 9; i += 1) {
    if (at + i >= end) damaged('a number past its page');
    if (i === 8 || bytes[at + i]! < 0x80) return i + 1;
  }
  return damaged('unreachable');
}
