import { expect } from 'chai';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteMemoryStore } from '@mira/plugin-memory';
import { SqliteNotesStore } from '@mira/plugin-notes';
import { schemaTableNames } from '../plugins/sqlite/src/schema-pages.js';

/** What SQLite itself lists, in its own order. */
function sqliteTables(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[];
  } finally {
    db.close();
  }
}

/** A deterministic generator, so a failing damage case can be replayed. */
function rng(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

describe('schema pages: the tables of a store read from its schema pages alone', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-schema-pages-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A file made by SQLite with `setup` run on it before the tables. */
  function made(name: string, setup: string, tables: number, sql: (i: number) => string): string {
    const path = join(dir, name);
    const db = new Database(path);
    db.exec(setup);
    db.transaction(() => {
      for (let i = 0; i < tables; i += 1) db.exec(sql(i));
    })();
    db.close();
    return path;
  }

  const cases: Array<[string, string, number, (i: number) => string]> = [
    ['one table', '', 1, () => 'CREATE TABLE a (x)'],
    [
      'tables, views, indexes and triggers',
      '',
      40,
      (i) =>
        [
          `CREATE TABLE t${i} (x INTEGER PRIMARY KEY AUTOINCREMENT, y TEXT)`,
          `CREATE INDEX i${i} ON t${i} (y)`,
          `CREATE VIEW v${i} AS SELECT y FROM t${i}`,
          `CREATE TRIGGER g${i} AFTER INSERT ON t${i} BEGIN SELECT 1; END`,
        ].join(';'),
    ],
    // 600 rows of the schema at 512 bytes a page: interior pages two levels deep.
    [
      'a schema over many pages of 512 bytes',
      'PRAGMA page_size = 512',
      600,
      (i) => `CREATE TABLE table_${i} (x, y, z)`,
    ],
    ['pages of 65,536 bytes', 'PRAGMA page_size = 65536', 300, (i) => `CREATE TABLE t${i} (x)`],
    // A row longer than a page keeps the rest on overflow pages, its name among them when the SQL is first.
    [
      'rows on overflow pages (long names and statements)',
      'PRAGMA page_size = 1024',
      30,
      (i) =>
        `CREATE TABLE "${'n'.repeat(900)}${i}" (${Array.from({ length: 200 }, (_, c) => `column_${c} TEXT`).join(', ')})`,
    ],
    [
      'names in other scripts, UTF-16le',
      "PRAGMA encoding = 'UTF-16le'",
      20,
      (i) => `CREATE TABLE "메모_${i}_記憶_🧠" (x)`,
    ],
    ['UTF-16be', "PRAGMA encoding = 'UTF-16be'", 20, (i) => `CREATE TABLE "Ünïcödé_${i}" (x)`],
    ['auto-vacuum (pointer-map pages)', 'PRAGMA auto_vacuum = FULL', 200, (i) => `CREATE TABLE t${i} (x)`],
    ['a WAL-mode file, checkpointed', 'PRAGMA journal_mode = WAL', 50, (i) => `CREATE TABLE t${i} (x)`],
  ];
  for (const [what, setup, tables, sql] of cases) {
    it(`lists what SQLite lists, in its order: ${what}`, () => {
      const path = made('file.sqlite3', setup, tables, sql);
      const expected = sqliteTables(path);
      expect(expected.length).to.be.at.least(tables > 1 ? tables : 1);
      expect(schemaTableNames(path)).to.deep.equal(expected);
    });
  }

  it('lists what SQLite lists after tables were dropped (free pages) and the schema changed again', () => {
    const path = made('file.sqlite3', 'PRAGMA page_size = 512', 300, (i) => `CREATE TABLE t${i} (x)`);
    const db = new Database(path);
    for (let i = 0; i < 300; i += 3) db.exec(`DROP TABLE t${i}`);
    db.exec('CREATE TABLE later (x); ALTER TABLE t1 RENAME TO renamed; INSERT INTO t2 VALUES (randomblob(5000))');
    db.close();
    expect(schemaTableNames(path)).to.deep.equal(sqliteTables(path));
  });

  it("lists the stores' own files as SQLite does", async () => {
    const memory = join(dir, 'memory.sqlite3');
    await SqliteMemoryStore.open(memory).close();
    const notes = join(dir, 'notes.sqlite3');
    SqliteNotesStore.open(notes).close();
    for (const path of [memory, notes]) expect(schemaTableNames(path)).to.deep.equal(sqliteTables(path));
  });

  it('opens a store file over 2 GiB, reading its schema pages and not an image of the file', async () => {
    const path = join(dir, 'memory.sqlite3');
    const store = SqliteMemoryStore.open(path);
    await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
    await store.close();
    // Sparse: no disk is used for the zeros; reading the file whole is refused above 2 GiB.
    truncateSync(path, 3 * 1024 ** 3);
    expect(() => readFileSync(path)).to.throw(/greater than 2 GiB/);
    const again = SqliteMemoryStore.open(path);
    try {
      expect((await again.findEntities('Ada')).map((e) => e.canonicalName)).to.deep.equal(['Ada']);
    } finally {
      await again.close();
    }
    expect(statSync(path).size).to.equal(3 * 1024 ** 3);
  });

  it("reads only each row's type and name: a view of 6 MB of SQL on 512-byte pages costs a few pages", () => {
    const path = made(
      'file.sqlite3',
      'PRAGMA page_size = 512',
      1,
      () => `CREATE TABLE a (x); CREATE VIEW v AS SELECT '${'z'.repeat(6_000_000)}' AS c; CREATE TABLE b (x)`,
    );
    expect(statSync(path).size).to.be.above(6_000_000);
    expect(schemaTableNames(path)).to.deep.equal(sqliteTables(path)).and.deep.equal(['a', 'b']);
  });

  it('returns names as SQLite does: a leading byte-order mark kept, bytes that are not UTF-8 replaced', () => {
    for (const encoding of ['UTF-8', 'UTF-16le', 'UTF-16be']) {
      const path = made(
        `bom-${encoding}.sqlite3`,
        `PRAGMA encoding = '${encoding}'`,
        1,
        () => 'CREATE TABLE "\uFEFFx" (a); CREATE TABLE y (a)',
      );
      expect(schemaTableNames(path), encoding).to.deep.equal(sqliteTables(path)).and.deep.equal(['\uFEFFx', 'y']);
    }
    const path = made('bytes.sqlite3', '', 1, () => 'CREATE TABLE a (x); CREATE TABLE b (x)');
    const db = new Database(path);
    db.unsafeMode(true);
    db.pragma('writable_schema = ON');
    // The name, its table's name and its SQL alike, as SQLite requires of a schema row.
    const sql = `${Buffer.from('CREATE TABLE "b').toString('hex')}ff${Buffer.from('" (x)').toString('hex')}`;
    db.exec(
      `UPDATE sqlite_schema SET name = CAST(x'62ff' AS TEXT), tbl_name = CAST(x'62ff' AS TEXT), sql = CAST(x'${sql}' AS TEXT) WHERE name = 'b'`,
    );
    db.close();
    expect(schemaTableNames(path)).to.deep.equal(sqliteTables(path)).and.deep.equal(['a', 'b\uFFFD']);
  });

  it("reads a schema row of any rowid (a negative one is nine bytes) in SQLite's order", () => {
    const path = made('file.sqlite3', '', 1, () => 'CREATE TABLE a (x); CREATE TABLE b (x)');
    const db = new Database(path);
    db.unsafeMode(true);
    db.pragma('writable_schema = ON');
    db.exec("UPDATE sqlite_schema SET rowid = -5 WHERE name = 'b'");
    db.close();
    expect(schemaTableNames(path)).to.deep.equal(sqliteTables(path)).and.deep.equal(['b', 'a']);
  });

  it('counts pages as SQLite does: a last page cut short is read, a file shorter than its header says is damage', () => {
    const short = made(
      'short.sqlite3',
      'PRAGMA page_size = 512',
      1,
      () => `CREATE TABLE a (x); CREATE TABLE b (x DEFAULT '${'q'.repeat(3000)}')`,
    );
    const image = readFileSync(short);
    let end = image.length;
    while (end > 0 && image[end - 1] === 0) end -= 1;
    expect(end).to.be.below(image.length);
    truncateSync(short, end);
    expect(schemaTableNames(short)).to.deep.equal(sqliteTables(short)).and.deep.equal(['a', 'b']);
    const cut = made(
      'cut.sqlite3',
      'PRAGMA page_size = 512',
      1,
      () => 'CREATE TABLE a (x); INSERT INTO a VALUES (randomblob(20000))',
    );
    truncateSync(cut, 512 * 4);
    expect(() => sqliteTables(cut)).to.throw(/malformed/);
    expect(schemaTableNames(cut)).to.equal(undefined);
  });

  it('sees a b-tree deeper than SQLite reads as damage, not a stack overflow', () => {
    const base = made('base.sqlite3', 'PRAGMA page_size = 512', 1, () => 'CREATE TABLE a (x)');
    const header = readFileSync(base).subarray(0, 100);
    // 9,000 interior pages without cells, each the right-most child of the one before, then a leaf.
    const pages = 9000;
    const image = Buffer.alloc(512 * pages);
    header.copy(image, 0);
    image.writeUInt32BE(pages, 28);
    for (let page = 1; page < pages; page += 1) {
      const at = (page - 1) * 512 + (page === 1 ? 100 : 0);
      image[at] = 0x05;
      image.writeUInt16BE(512, at + 5);
      image.writeUInt32BE(page + 1, at + 8);
    }
    image[(pages - 1) * 512] = 0x0d;
    const path = join(dir, 'deep.sqlite3');
    writeFileSync(path, image);
    expect(() => sqliteTables(path)).to.throw(/malformed/);
    expect(schemaTableNames(path)).to.equal(undefined);
  });

  it('holds at most a page and a name: a row claiming 650 MB over 9,990 overflow pages is damage at once', () => {
    const base = made('base.sqlite3', 'PRAGMA page_size = 65536', 1, () => 'CREATE TABLE a (x)');
    const usable = 65536;
    const least = Math.floor(((usable - 12) * 32) / 255) - 23;
    const chain = 9990;
    const claimed = least + chain * (usable - 4);
    const varint = (value: number) => {
      const out: number[] = [];
      do {
        out.unshift(value & 0x7f);
        value = Math.floor(value / 128);
      } while (value > 0);
      return Buffer.from(out.map((byte, i) => (i < out.length - 1 ? byte | 0x80 : byte)));
    };
    // Page 1: one leaf cell whose payload (zeros: no record) claims the chain; every overflow page points
    // at the next. Sparse: the file takes a few pages of disk.
    const page = Buffer.alloc(usable);
    readFileSync(base).copy(page, 0, 0, 100);
    page.writeUInt32BE(0, 28);
    page[100] = 0x0d;
    page.writeUInt16BE(1, 103);
    page.writeUInt16BE(1000, 105);
    page.writeUInt16BE(1000, 108);
    const cell = Buffer.concat([varint(claimed), varint(1)]);
    cell.copy(page, 1000);
    page.writeUInt32BE(2, 1000 + cell.length + least);
    const path = join(dir, 'claims.sqlite3');
    const fd = openSync(path, 'w');
    try {
      writeSync(fd, page, 0, usable, 0);
      const next = Buffer.alloc(4);
      for (let number = 2; number < chain + 2; number += 1) {
        next.writeUInt32BE(number + 1, 0);
        writeSync(fd, next, 0, 4, (number - 1) * usable);
      }
      writeSync(fd, Buffer.alloc(1), 0, 1, usable * (chain + 2) - 1);
    } finally {
      closeSync(fd);
    }
    const peak = process.resourceUsage().maxRSS;
    expect(schemaTableNames(path)).to.equal(undefined);
    // Reading the claimed payload whole took 1.3 GB at its peak; a row's type and name take a page.
    expect(process.resourceUsage().maxRSS - peak).to.be.below(256 * 1024);
  });

  it('says the pages do not read as a schema (undefined) for damage, and never throws or loops', () => {
    const path = made('file.sqlite3', 'PRAGMA page_size = 512', 400, (i) => `CREATE TABLE table_${i} (x, y)`);
    const image = readFileSync(path);
    const pageSize = 512;
    const schemaPages = Math.min(Math.floor(image.length / pageSize), 40);
    const random = rng(7);
    let unreadable = 0;
    for (let round = 0; round < 300; round += 1) {
      const copy = join(dir, `damaged-${round}.sqlite3`);
      const bytes = Buffer.from(image);
      // A few bytes of the schema's pages changed, past the file header's page size and encoding.
      for (let k = 0; k < 1 + Math.floor(random() * 6); k += 1) {
        const at = 100 + Math.floor(random() * (schemaPages * pageSize - 100));
        bytes[at] = Math.floor(random() * 256);
      }
      const fd = openSync(copy, 'w');
      writeSync(fd, bytes);
      closeSync(fd);
      const found = schemaTableNames(copy);
      if (found === undefined) unreadable += 1;
      else expect(found).to.be.an('array');
      rmSync(copy);
    }
    // Damage to the b-tree's structure is seen as damage, not read as some other list.
    expect(unreadable).to.be.above(0);
  });

  it('sees a page that points back at itself, and a file cut short, as damage', () => {
    const path = made('file.sqlite3', 'PRAGMA page_size = 512', 400, (i) => `CREATE TABLE table_${i} (x, y)`);
    const image = readFileSync(path);
    // Page 1 is an interior page here: its right-most child pointer (bytes 108-111) made page 1 itself.
    expect(image[100]).to.equal(0x05);
    const cycle = Buffer.from(image);
    cycle.writeUInt32BE(1, 108);
    const looped = join(dir, 'looped.sqlite3');
    const fd = openSync(looped, 'w');
    writeSync(fd, cycle);
    closeSync(fd);
    expect(schemaTableNames(looped)).to.equal(undefined);
    truncateSync(path, 512 * 3);
    expect(schemaTableNames(path)).to.equal(undefined);
  });
});
