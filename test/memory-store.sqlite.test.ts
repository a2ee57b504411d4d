import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { ManualClock } from '@mira/core';
import { SqliteMemoryStore } from '@mira/plugin-memory';
import type { SlotMemory } from '@mira/memory-contract';
import { describeMemoryStoreContract, objectFile, rejection } from './conformance/memory-store-contract.js';
import { adaPrefersTea } from './helpers/admissions.js';

describeMemoryStoreContract('SqliteMemoryStore on a real file', async (clock) => {
  const dir = mkdtempSync(join(tmpdir(), 'mira-store-'));
  const path = join(dir, 'memory.sqlite3');
  let current = SqliteMemoryStore.open(path, { clock });
  return {
    store: current,
    reopen: async () => {
      await current.close();
      current = SqliteMemoryStore.open(path, { clock });
      return current;
    },
    dispose: async () => {
      await current.close();
      rmSync(dir, { recursive: true, force: true });
    },
    // Another connection puts a view in the table's place whose body column fails when it is read
    // (json() of malformed text); SQLite computes a view's column only when a query reads it.
    makeBodiesUnreadable: async () => {
      const other = new Database(path);
      other.exec(`ALTER TABLE payloads RENAME TO payloads_kept;
        CREATE VIEW payloads AS SELECT id, memory_id, payload_kind, media_type, json('unreadable body') AS text_body,
          object_ref, sha256, byte_size, created_at FROM payloads_kept;`);
      other.close();
    },
    corruptObject: async (sha256) => {
      const file = objectFile(dir, sha256);
      const bytes = readFileSync(file);
      bytes[bytes.length - 1] ^= 0xff;
      writeFileSync(file, bytes);
    },
    removeObject: async (sha256) => rmSync(objectFile(dir, sha256)),
    ageObjects: async (ms) => {
      const top = join(dir, 'objects', 'sha256');
      for (const prefix of readdirSync(top))
        for (const name of readdirSync(join(top, prefix))) {
          const file = join(top, prefix, name);
          const then = (statSync(file).mtimeMs - ms) / 1000;
          utimesSync(file, then, then);
        }
    },
    storedUtterances: async () => {
      const other = new Database(path, { readonly: true });
      try {
        const rows = other.prepare('SELECT id, utterance FROM proposals').all() as Array<{
          id: number;
          utterance: string;
        }>;
        return Object.fromEntries(rows.map((r) => [r.id, r.utterance]));
      } finally {
        other.close();
      }
    },
  };
});

describe('SqliteMemoryStore beside other connections', function () {
  this.timeout(20_000);
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-store-'));
    path = join(dir, 'memory.sqlite3');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('answers MIRA_ERR_MEMORY_BACKEND, writing nothing, while another process holds the write lock too long', async () => {
    const store = SqliteMemoryStore.open(path, { busyTimeoutMs: 50 });
    const other = new Database(path);
    try {
      other.prepare('BEGIN IMMEDIATE').run();
      const error = await rejection(store.createEntity({ entityType: 'person', canonicalName: 'Ada' }));
      expect(error.code).to.equal('MIRA_ERR_MEMORY_BACKEND');
      expect(error.message).to.match(
        /^MIRA_ERR_MEMORY_BACKEND: the memory database failed and nothing was written: database is locked$/,
      );
      other.prepare('ROLLBACK').run();
      expect((await store.createEntity({ entityType: 'person', canonicalName: 'Ada' })).ref).to.equal('ENT1');
    } finally {
      other.close();
      await store.close();
    }
  });

  it('answers an admission that writes nothing while another process holds the write lock', async () => {
    const store = SqliteMemoryStore.open(path, { busyTimeoutMs: 50 });
    const other = new Database(path);
    try {
      const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
      const slot = { entityId: ada.id, role: 'subject', predicate: 'prefers' };
      other.prepare('BEGIN IMMEDIATE').run();
      // A duplicate or a conflict is decided on a read: it neither waits for the lock nor fails on it.
      expect(await store.admitToSlot(slot, (existing) => ({ answer: existing.length }))).to.deep.equal({ answer: 0 });
      // A write needs the lock, and says so when it cannot have it.
      const error = await rejection(
        store.admitToSlot(slot, () => ({
          create: adaPrefersTea(ada.id),
        })),
      );
      expect(error.code).to.equal('MIRA_ERR_MEMORY_BACKEND');
      other.prepare('ROLLBACK').run();
      expect((await store.info()).memories).to.equal(0);
    } finally {
      other.close();
      await store.close();
    }
  });

  it('decides again, under the write lock, on a slot another process wrote into after it was read', async () => {
    const store = SqliteMemoryStore.open(path);
    const other = new Database(path);
    try {
      const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
      const slot = { entityId: ada.id, role: 'subject', predicate: 'prefers' };
      const seen: Array<Array<[number, string | null]>> = [];
      const outcome = await store.admitToSlot(slot, (existing) => {
        seen.push(existing.map((m) => [m.id, m.value]));
        if (seen.length === 1) {
          // Another process admits "coffee" between this read and the write lock.
          other.exec(`INSERT INTO memories (kind, summary, predicate, value, source_kind, status, created_at)
            VALUES ('preference', 'Ada prefers coffee', 'prefers', 'coffee', 'console', 'active', '2026-01-01T00:00:00.000Z');
            INSERT INTO memory_links (memory_id, entity_id, role) VALUES (last_insert_rowid(), ${ada.id}, 'subject');`);
        }
        if (existing.some((m) => m.value !== 'tea')) return { answer: 'conflict' };
        return {
          create: adaPrefersTea(ada.id),
        };
      });
      expect(outcome).to.deep.equal({ answer: 'conflict' });
      expect(seen).to.deep.equal([[], [[1, 'coffee']]]);
      expect((await store.findActiveBySlot(ada.id, 'subject', 'prefers')).map((m) => m.value)).to.deep.equal([
        'coffee',
      ]);
    } finally {
      other.close();
      await store.close();
    }
  });

  it('sees another connection’s writes in its revision', async () => {
    const a = SqliteMemoryStore.open(path);
    const b = SqliteMemoryStore.open(path);
    try {
      const before = await a.revision();
      await b.createEntity({ entityType: 'person', canonicalName: 'Ada' });
      const after = await a.revision();
      expect(after).not.to.equal(before);
      expect(after).to.match(/^\d+:\d+$/);
      expect(await a.revision()).to.equal(after);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('refuses every write when opened read-only, and reads what is there and what the console writes', async () => {
    const writer = SqliteMemoryStore.open(path);
    await writer.createEntity({ entityType: 'person', canonicalName: 'Ada' });
    const reader = SqliteMemoryStore.open(path, { readOnly: true });
    try {
      expect((await reader.findEntities('ada')).map((e) => e.ref)).to.deep.equal(['ENT1']);
      const error = await rejection(reader.createEntity({ entityType: 'person', canonicalName: 'Bob' }));
      expect(error.code).to.equal('MIRA_ERR_MEMORY_BACKEND');
      expect(error.message).to.match(/readonly|read-only|query_only/i);
      await writer.createEntity({ entityType: 'person', canonicalName: 'Bob' });
      expect((await reader.findEntities('bob')).map((e) => e.ref)).to.deep.equal(['ENT2']);
    } finally {
      await reader.close();
      await writer.close();
    }
  });

  it('opens read-only without a writer from the file as it is, creating nothing, and follows the writer once it starts', async () => {
    const writer = SqliteMemoryStore.open(path);
    await writer.createEntity({ entityType: 'person', canonicalName: 'Ada' });
    await writer.close();
    const listing = () =>
      readdirSync(dirname(path))
        .map((f) => `${f} ${(statSync(join(dirname(path), f)).mode & 0o777).toString(8)}`)
        .sort();
    const digest = () => createHash('sha256').update(readFileSync(path)).digest('hex');
    const before = [listing(), digest()];
    const reader = SqliteMemoryStore.open(path, { readOnly: true });
    try {
      expect((await reader.findEntities('Ada')).map((e) => e.canonicalName)).to.deep.equal(['Ada']);
      expect([listing(), digest()]).to.deep.equal(before);
      expect((await rejection(reader.createEntity({ entityType: 'person', canonicalName: 'Bo' }))).code).to.equal(
        'MIRA_ERR_MEMORY_BACKEND',
      );
      // The writer starts: its commits are read from then on.
      const again = SqliteMemoryStore.open(path);
      try {
        await again.createEntity({ entityType: 'person', canonicalName: 'Grace' });
        expect((await reader.findEntities('Grace')).map((e) => e.canonicalName)).to.deep.equal(['Grace']);
        await again.createEntity({ entityType: 'person', canonicalName: 'Grace Hopper' });
        expect((await reader.findEntities('Grace Hopper')).map((e) => e.canonicalName)).to.deep.equal(['Grace Hopper']);
      } finally {
        await again.close();
      }
    } finally {
      await reader.close();
    }
  });

  it('reads a slot alike from the image and, once the writer starts, from the live file', async () => {
    const writer = SqliteMemoryStore.open(path);
    const ada = await writer.createEntity({ entityType: 'person', canonicalName: 'Ada' });
    const tea = await writer.createMemory({
      kind: 'preference',
      summary: 'Ada prefers tea',
      predicate: 'prefers',
      value: 'tea',
      sourceKind: 'operator_statement',
      links: [{ entityId: ada.id, role: 'subject' }],
      payloadText: 'Ada prefers tea',
    });
    await writer.close();
    const reader = SqliteMemoryStore.open(path, { readOnly: true });
    const slot = { entityId: ada.id, role: 'subject', predicate: 'prefers' };
    const seen = async () =>
      (await reader.admitToSlot(slot, (existing) => ({ answer: existing }))) as { answer: SlotMemory[] };
    const expected = [
      {
        id: tea.id,
        ref: tea.ref,
        kind: 'preference',
        predicate: 'prefers',
        value: 'tea',
        links: [{ entityId: ada.id, role: 'subject' }],
      },
    ];
    try {
      expect((await seen()).answer).to.deep.equal(expected);
      // The writer starts: the reader's statements are prepared again on the live file, rows read alike.
      const again = SqliteMemoryStore.open(path);
      try {
        await again.createEntity({ entityType: 'person', canonicalName: 'Grace' });
        expect((await reader.findEntities('Grace')).map((e) => e.canonicalName)).to.deep.equal(['Grace']);
        expect((await seen()).answer).to.deep.equal(expected);
      } finally {
        await again.close();
      }
    } finally {
      await reader.close();
    }
  });

  it('reads the file again when a writer ran and stopped while it read from an image, creating nothing', async () => {
    SqliteMemoryStore.open(path).close();
    const reader = SqliteMemoryStore.open(path, { readOnly: true });
    try {
      expect(await reader.findEntities('Ada')).to.deep.equal([]);
      // A console runs, writes and stops with no read in between: its close leaves the file checkpointed.
      const writer = SqliteMemoryStore.open(path);
      await writer.createEntity({ entityType: 'person', canonicalName: 'Ada' });
      await writer.close();
      const listing = readdirSync(dirname(path)).sort();
      expect((await reader.findEntities('Ada')).map((e) => e.canonicalName)).to.deep.equal(['Ada']);
      expect(readdirSync(dirname(path)).sort()).to.deep.equal(listing);
    } finally {
      await reader.close();
    }
  });

  it('exports every row with its IDs', async () => {
    const clock = new ManualClock('2026-03-01T12:00:00.000Z');
    const store = SqliteMemoryStore.open(path, { clock });
    try {
      const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
      await store.addAlias(ada.id, 'Countess');
      const tea = await store.createMemory({
        kind: 'preference',
        summary: 'Ada prefers tea',
        predicate: 'prefers',
        value: 'tea',
        sourceKind: 'console',
        sourceLabel: 'log',
        confidence: 0.5,
        links: [{ entityId: ada.id, role: 'subject' }],
      });
      const p = await store.createProposal({
        kind: 'supersede',
        memoryId: tea.id,
        value: 'cocoa',
        evidence: 'Ada prefers cocoa',
        utterance: 'Ada prefers cocoa now',
      });
      clock.advance(1000);
      await store.acceptProposal(p.id);
      const at = '2026-03-01T12:00:00.000Z';
      const later = '2026-03-01T12:00:01.000Z';
      const { readObject, ...rows } = await store.exportSnapshot();
      expect(readObject).to.be.a('function');
      expect(rows).to.deep.equal({
        entities: [{ id: 1, entityType: 'person', canonicalName: 'Ada', nameKey: 'ada', createdAt: at }],
        aliases: [{ id: 1, entityId: 1, alias: 'Countess', aliasKey: 'countess', createdAt: at }],
        memories: [
          {
            id: 1,
            kind: 'preference',
            summary: 'Ada prefers tea',
            predicate: 'prefers',
            value: 'tea',
            sourceKind: 'console',
            sourceLabel: 'log',
            confidence: 0.5,
            status: 'superseded',
            createdAt: at,
            supersededBy: 2,
            supersededAt: later,
          },
          {
            id: 2,
            kind: 'preference',
            summary: 'Ada prefers cocoa',
            predicate: 'prefers',
            value: 'cocoa',
            sourceKind: 'operator_statement',
            sourceLabel: null,
            confidence: null,
            status: 'active',
            createdAt: later,
            supersededBy: null,
            supersededAt: null,
          },
        ],
        links: [
          { memoryId: 1, entityId: 1, role: 'subject' },
          { memoryId: 2, entityId: 1, role: 'subject' },
        ],
        payloads: [
          {
            id: 1,
            memoryId: 1,
            payloadKind: 'inline_text',
            mediaType: 'text/plain',
            textBody: 'Ada prefers tea',
            objectRef: null,
            sha256: null,
            byteSize: 15,
            createdAt: at,
          },
          {
            id: 2,
            memoryId: 2,
            payloadKind: 'inline_text',
            mediaType: 'text/plain',
            textBody: 'Ada prefers cocoa',
            objectRef: null,
            sha256: null,
            byteSize: 17,
            createdAt: later,
          },
        ],
        proposals: [
          {
            id: 1,
            kind: 'supersede',
            entityType: null,
            name: null,
            memoryId: 1,
            value: 'cocoa',
            slotIds: [1],
            evidence: 'Ada prefers cocoa',
            // Decided: what was said beyond the evidence is gone.
            utterance: 'Ada prefers cocoa',
            decision: 'accepted',
            createdAt: at,
            expiresAt: '2026-03-08T12:00:00.000Z',
            decidedAt: later,
            reason: null,
            result: 'MEM2',
          },
        ],
      });
    } finally {
      await store.close();
    }
  });
});

describe('SqliteMemoryStore failures', () => {
  let dir: string;
  let store: SqliteMemoryStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-store-'));
    store = SqliteMemoryStore.open(join(dir, 'memory.sqlite3'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says which backend it is', async () => {
    expect(store.backend).to.equal('sqlite');
    expect((await store.info()).backend).to.equal('sqlite');
  });

  it('keeps the driver error as the cause of a backend failure', async () => {
    const path = join(dir, 'busy.sqlite3');
    const busy = SqliteMemoryStore.open(path, { busyTimeoutMs: 20 });
    const other = new Database(path);
    try {
      other.prepare('BEGIN IMMEDIATE').run();
      const error = await rejection(busy.createEntity({ entityType: 'person', canonicalName: 'Ada' }));
      expect((error.cause as { code?: string }).code).to.equal('SQLITE_BUSY');
    } finally {
      other.prepare('ROLLBACK').run();
      other.close();
      await busy.close();
    }
  });
});
