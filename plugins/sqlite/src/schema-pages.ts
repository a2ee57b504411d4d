import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { TextDecoder } from 'node:util';

/**
 * The names of the tables an SQLite file's schema lists (`SELECT name FROM sqlite_schema WHERE type =
 * 'table'`, in the same order), read from the pages of the schema table alone: page 1 and the pages its
 * b-tree reaches, a few whatever the file's size. Opening a store checks its tables this way, so a store of
 * 1 GB is not read into memory at every start (nor a store over 2 GiB refused by the file read).
 *
 * The file's own pages only, nothing beside it (a WAL's pages are not read; see open.ts for when they
 * count). Undefined when the pages do not read as a schema table: a checkpoint writing them meanwhile, or a
 * damaged file. Never throws for what the file holds, and never reads a page twice (a cycle is damage).
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
/** The most pages a schema walk reads: a schema of thousands of tables takes far fewer. */
const MAX_SCHEMA_PAGES = 10_000;

class SchemaReader {
  readonly #fd: number;
  readonly #pageSize: number;
  readonly #usable: number;
  readonly #pages: number;
  readonly #decoder: TextDecoder;
  readonly #seen = new Set<number>();

  constructor(fd: number, size: number) {
    this.#fd = fd;
    const header = this.#read(0, 100);
    // 1 stands for 65536 (two bytes cannot hold it).
    const raw = header.readUInt16BE(16);
    this.#pageSize = raw === 1 ? 65536 : raw;
    if (this.#pageSize < 512 || this.#pageSize > 65536 || (this.#pageSize & (this.#pageSize - 1)) !== 0)
      damaged('page size');
    this.#usable = this.#pageSize - header[20]!;
    if (this.#usable < 480) damaged('reserved space');
    this.#pages = Math.floor(size / this.#pageSize);
    const encoding = header.readUInt32BE(56);
    this.#decoder = new TextDecoder(encoding === 2 ? 'utf-16le' : encoding === 3 ? 'utf-16be' : 'utf-8', {
      fatal: true,
    });
  }

  tables(): string[] {
    const names: string[] = [];
    this.#walk(1, names);
    return names;
  }

  #read(position: number, length: number): Buffer {
    const buffer = Buffer.alloc(length);
    if (readSync(this.#fd, buffer, 0, length, position) !== length) damaged('short read');
    return buffer;
  }

  #page(number: number): Buffer {
    if (!Number.isInteger(number) || number < 1 || number > this.#pages) damaged(`page ${number} out of range`);
    if (this.#seen.has(number) || this.#seen.size >= MAX_SCHEMA_PAGES) damaged(`page ${number} read twice`);
    this.#seen.add(number);
    return this.#read((number - 1) * this.#pageSize, this.#pageSize);
  }

  /** Every row of the table b-tree rooted at `number`, in rowid order. */
  #walk(number: number, names: string[]): void {
    const page = this.#page(number);
    // Page 1 starts with the file's 100-byte header.
    const at = number === 1 ? 100 : 0;
    const type = page[at];
    const cells = page.readUInt16BE(at + 3);
    const pointers = at + (type === INTERIOR_TABLE ? 12 : 8);
    if (type !== INTERIOR_TABLE && type !== LEAF_TABLE) damaged(`page ${number} is not a table page`);
    if (pointers + 2 * cells > this.#usable) damaged(`page ${number} has too many cells`);
    for (let i = 0; i < cells; i += 1) {
      const cell = page.readUInt16BE(pointers + 2 * i);
      if (cell < pointers + 2 * cells || cell + 4 > this.#usable) damaged(`cell ${i} of page ${number}`);
      if (type === INTERIOR_TABLE) this.#walk(page.readUInt32BE(cell), names);
      else {
        const name = this.#tableName(page, cell);
        if (name !== undefined) names.push(name);
      }
    }
    if (type === INTERIOR_TABLE) this.#walk(page.readUInt32BE(at + 8), names);
  }

  /** A leaf cell's row of sqlite_schema: its name when its type is 'table'. */
  #tableName(page: Buffer, cell: number): string | undefined {
    const [size, sizeBytes] = varint(page, cell, this.#usable);
    const [, rowidBytes] = varint(page, cell + sizeBytes, this.#usable);
    const record = this.#payload(page, cell + sizeBytes + rowidBytes, size);
    const [headerSize, headerBytes] = varint(record, 0, record.length);
    if (headerSize > record.length) damaged('a schema row header past its row');
    const columns: number[] = [];
    for (let at = headerBytes; at < headerSize && columns.length < 2;) {
      const [serial, bytes] = varint(record, at, headerSize);
      columns.push(serial);
      at += bytes;
    }
    if (columns.length < 2) damaged('a schema row without its name');
    let at = headerSize;
    const text = (serial: number): string => {
      if (serial < 13 || serial % 2 === 0) damaged('a schema column that is not text');
      const length = (serial - 13) / 2;
      if (at + length > record.length) damaged('a schema column past its row');
      const value = this.#decode(record.subarray(at, at + length));
      at += length;
      return value;
    };
    const type = text(columns[0]!);
    const name = text(columns[1]!);
    return type === 'table' ? name : undefined;
  }

  #decode(bytes: Buffer): string {
    try {
      return this.#decoder.decode(bytes);
    } catch {
      return damaged('text that does not decode');
    }
  }

  /** A cell's payload of `size` bytes from `at`: the part on the page, then its overflow pages in order. */
  #payload(page: Buffer, at: number, size: number): Buffer {
    const usable = this.#usable;
    // How much of a payload stays on a table leaf page (the file format's formulas for X, M and K).
    const most = usable - 35;
    const least = Math.floor(((usable - 12) * 32) / 255) - 23;
    const spill = least + ((size - least) % (usable - 4));
    const local = size <= most ? size : spill <= most ? spill : least;
    if (size > this.#pages * usable) damaged('a payload larger than the file');
    if (at + local > usable) damaged('a cell past its page');
    if (local === size) return page.subarray(at, at + size);
    if (at + local + 4 > usable) damaged('an overflow pointer past its page');
    const parts = [page.subarray(at, at + local)];
    let left = size - local;
    let next = page.readUInt32BE(at + local);
    while (left > 0) {
      const overflow = this.#page(next);
      const take = Math.min(left, usable - 4);
      parts.push(overflow.subarray(4, 4 + take));
      left -= take;
      next = overflow.readUInt32BE(0);
    }
    return Buffer.concat(parts, size);
  }
}

/**
 * The SQLite varint at `at` (1 to 9 bytes, big-endian, 7 bits a byte, all 8 of the ninth) and its length;
 * damage when it runs past `end` or is larger than a payload can be.
 */
function varint(bytes: Buffer, at: number, end: number): [number, number] {
  let value = 0;
  for (let i = 0; i < 9; i += 1) {
    if (at + i >= end) damaged('a number past its page');
    const byte = bytes[at + i]!;
    value = i === 8 ? value * 256 + byte : value * 128 + (byte & 0x7f);
    if (i === 8 || byte < 0x80) {
      // Lengths and rowids both pass through here; neither of a schema row comes near 2^53.
      if (value > Number.MAX_SAFE_INTEGER) damaged('a number too large');
      return [value, i + 1];
    }
  }
  return damaged('unreachable');
}
