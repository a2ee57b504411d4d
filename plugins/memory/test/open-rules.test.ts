import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { MiraError } from '@mira/core';
import { SCHEMA_VERSION, SqliteMemoryStore } from '@mira/plugin-memory';

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

function openError(path: string): MiraError {
  try {
    SqliteMemoryStore.open(path).close();
  } catch (error) {
    return error as MiraError;
  }
  throw new Error('expected open to fail');
}

describe('SqliteMemoryStore.open()', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-open-'));
    path = join(dir, 'memory.sqlite3');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gives a new file the current schema and user_version, WAL, synchronous FULL, foreign keys and a busy timeout', async () => {
    const store = SqliteMemoryStore.open(path, { busyTimeoutMs: 1234 });
    await store.close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).to.equal(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).to.equal('wal');
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all();
    expect(tables).to.deep.equal(['aliases', 'entities', 'memories', 'memory_links', 'payloads', 'proposals']);
    db.close();
    // Connection-level settings, read through a store's own connection (synchronous 2 = FULL).
    const again = SqliteMemoryStore.open(path, { busyTimeoutMs: 1234 });
    expect(again.settings()).to.deep.equal({
      journalMode: 'wal',
      synchronous: 2,
      foreignKeys: true,
      busyTimeoutMs: 1234,
    });
    await again.close();
  });

  it('initialises an existing empty file', async () => {
    writeFileSync(path, '');
    const store = SqliteMemoryStore.open(path);
    expect((await store.info()).schemaVersion).to.equal(SCHEMA_VERSION);
    await store.close();
  });

  it('initialises an SQLite file with no tables and user_version 0', async () => {
    const db = new Database(path);
    db.pragma('page_size = 4096');
    db.exec('VACUUM');
    db.close();
    const store = SqliteMemoryStore.open(path);
    expect((await store.info()).schemaVersion).to.equal(SCHEMA_VERSION);
    await store.close();
  });

  const refusals: Array<[string, (p: string) => void, string]> = [
    [
      'an unversioned non-empty database',
      (p) => {
        const db = new Database(p);
        db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('keep me')");
        db.close();
      },
      'MIRA_ERR_STORE_UNVERSIONED',
    ],
    [
      'a database of another schema version',
      (p) => {
        const db = new Database(p);
        db.exec('CREATE TABLE entities (id INTEGER PRIMARY KEY)');
        db.pragma('user_version = 9');
        db.close();
      },
      'MIRA_ERR_STORE_UNSUPPORTED_VERSION',
    ],
    [
      'a text file',
      (p) => writeFileSync(p, 'these are my notes, not a database\n'.repeat(10)),
      'MIRA_ERR_STORE_NOT_SQLITE',
    ],
    ['a short binary file', (p) => writeFileSync(p, Buffer.from([0, 1, 2, 3])), 'MIRA_ERR_STORE_NOT_SQLITE'],
    [
      'a file with an SQLite header and garbage after it',
      (p) => writeFileSync(p, Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(4096, 0xab)])),
      'MIRA_ERR_STORE_NOT_SQLITE',
    ],
  ];
  for (const [what, make, code] of refusals) {
    it(`refuses ${what} with ${code} and leaves it byte-for-byte unchanged`, () => {
      make(path);
      const before = sha256(path);
      const error = openError(path);
      expect(error.code).to.equal(code);
      expect(error.message).to.contain(path);
      expect(sha256(path)).to.equal(before);
      expect(existsSync(`${path}-wal`)).to.equal(false);
    });
  }

  it('refuses a directory', () => {
    expect(openError(dir).code).to.equal('MIRA_ERR_STORE_OPEN_FAILED');
  });
});

describe('SqliteMemoryStore#createMemory() atomicity', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-atomic-'));
    path = join(dir, 'memory.sqlite3');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const counts = () => {
    const db = new Database(path, { readonly: true });
    const row = db
      .prepare(
        'SELECT (SELECT count(*) FROM memories) m, (SELECT count(*) FROM memory_links) l, (SELECT count(*) FROM payloads) p',
      )
      .get();
    db.close();
    return row;
  };

  // Real failures in the middle of the transaction, injected with SQLite triggers on the real file.
  for (const [where, trigger] of [
    [
      'the payload insert',
      "CREATE TRIGGER fail_payload BEFORE INSERT ON payloads BEGIN SELECT RAISE(ABORT, 'disk full (injected)'); END",
    ],
    [
      'the second link insert',
      "CREATE TRIGGER fail_link BEFORE INSERT ON memory_links WHEN NEW.role = 'object' BEGIN SELECT RAISE(ABORT, 'injected'); END",
    ],
  ] as const) {
    it(`rolls back the memory, links and payload when ${where} fails`, async () => {
      const store = SqliteMemoryStore.open(path);
      const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
      const tea = await store.createEntity({ entityType: 'drink', canonicalName: 'Tea' });
      await store.close();
      const db = new Database(path);
      db.exec(trigger);
      db.close();
      const reopened = SqliteMemoryStore.open(path);
      let code: string | undefined;
      try {
        await reopened.createMemory({
          kind: 'fact',
          summary: 'Ada likes tea',
          sourceKind: 'console',
          links: [
            { entityId: ada.id, role: 'subject' },
            { entityId: tea.id, role: 'object' },
          ],
        });
      } catch (error) {
        code = (error as MiraError).code;
      }
      expect(code).to.equal('MIRA_ERR_MEMORY_BACKEND');
      await reopened.close();
      expect(counts()).to.deep.equal({ m: 0, l: 0, p: 0 });
    });
  }

  it('enforces foreign keys in the schema itself', () => {
    SqliteMemoryStore.open(path).close();
    const db = new Database(path);
    db.pragma('foreign_keys = ON');
    expect(() =>
      db.prepare("INSERT INTO memory_links (memory_id, entity_id, role) VALUES (1, 1, 'subject')").run(),
    ).to.throw(/FOREIGN KEY/);
    expect(() =>
      db
        .prepare(
          "INSERT INTO memories (kind, summary, source_kind, confidence, created_at) VALUES ('fact', 's', 'console', 1.5, '2026-01-01T00:00:00.000Z')",
        )
        .run(),
    ).to.throw(/CHECK/);
    expect(() =>
      db
        .prepare(
          "INSERT INTO memories (kind, summary, source_kind, status, created_at) VALUES ('fact', 's', 'console', 'deleted', '2026-01-01T00:00:00.000Z')",
        )
        .run(),
    ).to.throw(/CHECK/);
    const payload = db.prepare(
      "INSERT INTO payloads (memory_id, payload_kind, media_type, text_body, object_ref, sha256, byte_size, created_at) VALUES (?, ?, 'image/png', ?, ?, ?, 10, '2026-01-01T00:00:00.000Z')",
    );
    db.prepare(
      "INSERT INTO memories (kind, summary, source_kind, created_at) VALUES ('fact', 's', 'console', '2026-01-01T00:00:00.000Z')",
    ).run();
    // An object reference is reserved: it needs a 64-hex SHA-256 and no inline body.
    expect(() => payload.run(1, 'object_ref', null, 'objects/ab/cd', 'not-a-digest')).to.throw(/CHECK/);
    expect(() => payload.run(1, 'object_ref', 'body', 'objects/ab/cd', 'a'.repeat(64))).to.throw(/CHECK/);
    expect(() => payload.run(1, 'inline_text', null, null, null)).to.throw(/CHECK/);
    expect(() => payload.run(1, 'object_ref', null, 'objects/ab/cd', 'a'.repeat(64))).not.to.throw();
    db.close();
  });
});
