import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { isMiraError, type MiraError } from '@mira/core';
import { SqliteMemoryStore } from '@mira/plugin-memory';
import { SqliteErrorCodes } from '@mira/sqlite';

const require = createRequire(import.meta.url);
const DRIVER = JSON.stringify(require.resolve('better-sqlite3'));
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Every file in `dir` with its digest: what must not change. */
const state = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((name) => [name, sha256(join(dir, name))]),
  );

/** Runs `script` in a child process with `D` (better-sqlite3) and `db` open on `path`, then kills it. */
function killedWriter(path: string, script: string): void {
  const run = spawnSync(process.execPath, [
    '-e',
    `const D = require(${DRIVER}); const db = new D(${JSON.stringify(path)}); ${script}; process.kill(process.pid, 'SIGKILL');`,
  ]);
  expect(run.signal, run.stderr.toString()).to.equal('SIGKILL');
}

/** Another application's database whose writer was killed with a committed transaction in its -wal. */
function foreignWal(dir: string): string {
  const other = join(dir, 'other.db');
  const db = new Database(other);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE photos (id INTEGER PRIMARY KEY, data BLOB)');
  db.close();
  killedWriter(
    other,
    "db.pragma('wal_autocheckpoint = 0'); db.exec('INSERT INTO photos (data) VALUES (randomblob(9000))')",
  );
  expect(existsSync(`${other}-wal`)).to.equal(true);
  return `${other}-wal`;
}

/** Another application's rollback-mode database killed in a transaction that had spilled to it: a hot journal. */
function foreignJournal(dir: string): string {
  const other = join(dir, 'other.db');
  const db = new Database(other);
  db.exec('CREATE TABLE photos (id INTEGER PRIMARY KEY, data BLOB)');
  db.prepare(
    'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) INSERT INTO photos (data) SELECT randomblob(3000) FROM n',
  ).run();
  db.close();
  killedWriter(
    other,
    "db.pragma('cache_size = 2'); db.exec('BEGIN'); db.exec('UPDATE photos SET data = randomblob(3000)')",
  );
  expect(readFileSync(`${other}-journal`).subarray(0, 8).toString('hex')).to.equal('d9d505f920a163d7');
  return `${other}-journal`;
}

function openError(path: string): MiraError {
  try {
    SqliteMemoryStore.open(path).close();
  } catch (error) {
    if (isMiraError(error)) return error;
    throw error;
  }
  throw new Error(`expected the memory store to refuse ${path}`);
}

describe('SQLite side files: only the database’s own are applied or deleted', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-side-'));
    path = join(dir, 'memory.sqlite3');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const refusals: { what: string; make: () => void; side: string }[] = [
    {
      what: 'another database’s orphan -wal beside a Mira store',
      make: () => {
        SqliteMemoryStore.open(path).close();
        copyFileSync(foreignWal(dir), `${path}-wal`);
      },
      side: '-wal',
    },
    {
      what: 'another database’s hot -journal beside a Mira store',
      make: () => {
        SqliteMemoryStore.open(path).close();
        copyFileSync(foreignJournal(dir), `${path}-journal`);
      },
      side: '-journal',
    },
    {
      what: 'another database’s orphan -wal where the store would be created',
      make: () => void copyFileSync(foreignWal(dir), `${path}-wal`),
      side: '-wal',
    },
    {
      what: 'another database’s hot -journal where the store would be created',
      make: () => void copyFileSync(foreignJournal(dir), `${path}-journal`),
      side: '-journal',
    },
    {
      what: 'a -shm with no database beside it (SQLite would reset it, then delete it at close)',
      make: () => writeFileSync(`${path}-shm`, randomBytes(32768)),
      side: '-shm',
    },
    {
      what: 'a -shm beside an empty file',
      make: () => {
        writeFileSync(path, '');
        writeFileSync(`${path}-shm`, randomBytes(32768));
      },
      side: '-shm',
    },
    {
      what: 'a -wal of random bytes beside a Mira store',
      make: () => {
        SqliteMemoryStore.open(path).close();
        writeFileSync(`${path}-wal`, randomBytes(4096 + 32));
      },
      side: '-wal',
    },
  ];

  for (const c of refusals) {
    it(`refuses ${c.what}, naming it, and changes no file`, () => {
      c.make();
      const before = state(dir);
      const error = openError(path);
      expect(error.code, error.message).to.equal(SqliteErrorCodes.FOREIGN_SIDE_FILE);
      expect(error.message).to.contain(`${path}${c.side}`).and.to.contain('Move');
      expect(state(dir)).to.deep.equal(before);
      // Read-only (mira mcp) refuses it the same way.
      const readOnly = (() => {
        try {
          SqliteMemoryStore.open(path, { readOnly: true }).close();
        } catch (e) {
          return e as MiraError;
        }
        return undefined;
      })();
      if (existsSync(path)) expect(readOnly?.code).to.equal(SqliteErrorCodes.FOREIGN_SIDE_FILE);
      expect(state(dir)).to.deep.equal(before);
    });
  }

  it('refuses a look-alike stamped with Mira’s application ID and version, and changes no file', () => {
    SqliteMemoryStore.open(path).close();
    const real = new Database(path, { readonly: true });
    const [id, version] = [
      real.pragma('application_id', { simple: true }),
      real.pragma('user_version', { simple: true }),
    ];
    real.close();
    rmSync(path);
    const fake = new Database(path);
    fake.exec('CREATE TABLE photos (id INTEGER PRIMARY KEY)');
    fake.pragma(`application_id = ${id}`);
    fake.pragma(`user_version = ${version}`);
    fake.close();
    const before = state(dir);
    const error = openError(path);
    expect(error.code, error.message).to.equal('MIRA_ERR_STORE_NOT_MIRA');
    expect(error.message).to.contain('lacks its tables');
    expect(state(dir)).to.deep.equal(before);
  });

  it('reads the schema as SQLite would when a killed writer left a hot journal mid-change, naming the journal', () => {
    SqliteMemoryStore.open(path).close();
    const db = new Database(path);
    db.pragma('journal_mode = DELETE');
    db.close();
    // A rollback-mode writer drops one of the store's tables, spills its pages into the file, and is killed.
    killedWriter(
      path,
      "db.pragma('cache_size = 1'); db.exec('PRAGMA foreign_keys = OFF; BEGIN; DROP TABLE payloads; CREATE TABLE filler (x)'); const put = db.prepare('INSERT INTO filler VALUES (randomblob(4000))'); for (let i = 0; i < 200; i += 1) put.run()",
    );
    expect(existsSync(`${path}-journal`)).to.equal(true);
    const before = state(dir);
    const error = openError(path);
    // Not "lacks its tables": the file's own pages lack one, but its journal would restore it, so the
    // journal is what decides (and this one cannot be proven the file's own).
    expect(error.code, error.message).to.equal(SqliteErrorCodes.FOREIGN_SIDE_FILE);
    expect(error.message).to.contain(`${path}-journal`);
    expect(state(dir)).to.deep.equal(before);
  });

  for (const [what, script] of [
    [
      'a schema change (page 1 in the log)',
      "db.pragma('wal_autocheckpoint = 0'); db.exec('CREATE TABLE probe (x); INSERT INTO probe VALUES (42)')",
    ],
    [
      'a row only (no page 1 in the log)',
      "db.pragma('wal_autocheckpoint = 0'); db.exec('INSERT INTO probe VALUES (42)')",
    ],
  ] as const) {
    it(`opens its own store with the -wal a killed writer left after ${what}, and keeps the write`, () => {
      SqliteMemoryStore.open(path).close();
      if (what.startsWith('a row')) {
        const db = new Database(path);
        db.exec('CREATE TABLE probe (x)');
        db.close();
      }
      killedWriter(path, script);
      expect(readFileSync(`${path}-wal`).length).to.be.above(32);
      SqliteMemoryStore.open(path).close();
      const db = new Database(path, { readonly: true });
      expect(db.prepare('SELECT x FROM probe').pluck().all()).to.deep.equal([42]);
      db.close();
    });
  }

  it('opens a store whose -wal a running writer holds', () => {
    SqliteMemoryStore.open(path).close();
    const writer = new Database(path);
    try {
      writer.pragma('wal_autocheckpoint = 0');
      writer.exec('CREATE TABLE probe (x); INSERT INTO probe VALUES (7)');
      SqliteMemoryStore.open(path).close();
      expect(writer.prepare('SELECT x FROM probe').pluck().all()).to.deep.equal([7]);
    } finally {
      writer.close();
    }
  });
});
