// Object payloads (snapshots) on SQLite: writing a 200 KB image as a memory's object payload, beside the
// same work done bare — the file written whole (a temporary file, fsync'd, renamed, the directory fsync'd)
// and the memory, its link and its two payload rows inserted in one fsync'd transaction; reading it back,
// beside a bare read of the payload row and the file with the same SHA-256 check. And recall with 10,000
// snapshots stored, beside recall of the same entities holding text memories only: objects must cost
// recall nothing (it never loads them). The variants run call by call, the order alternating.
// Targets: write and read ≤ 1.5× bare; recall with snapshots ≈ 1.0× without.
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { ManualClock, type EpisodeInfo } from '@mira/core';
import type { MemoryStore } from '@mira/memory-contract';
import { SqliteMemoryStore } from '@mira/plugin-memory';
import { recallMemoryTool } from '@mira/plugin-memory-tools';
import { markdownTable, writeResults } from './lib/report.js';
import { fmt, loadAverage, timeInterleaved, type InterleavedLatency } from './lib/stats.js';

export interface ObjectsBenchOptions {
  /** Snapshots written and read, each timed once per variant. */
  readonly writes: number;
  /** Snapshots stored before recall is timed (10,000 in a full run). */
  readonly stored: number;
  /** Recalls timed per variant. */
  readonly recalls: number;
  readonly log: (m: string) => void;
}

const SNAPSHOT_BYTES = 200 * 1024;
const PNG_SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex');
/** A PNG-signed image of `size` bytes, unique per `seed` (the same bytes would be stored once). */
const image = (size: number, seed: number): Buffer => {
  const bytes = randomBytes(size);
  PNG_SIGNATURE.copy(bytes);
  bytes.writeUInt32BE(seed, 8);
  return bytes;
};

/** The same work as the store's write, with nothing around it: the file whole, then the rows. */
function bareWriter(dir: string) {
  const db = new Database(join(dir, 'bare.sqlite3'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`CREATE TABLE memories (id INTEGER PRIMARY KEY, kind TEXT, summary TEXT, source_kind TEXT, created_at TEXT);
    CREATE TABLE memory_links (memory_id INTEGER, entity_id INTEGER, role TEXT, PRIMARY KEY (memory_id, entity_id, role)) WITHOUT ROWID;
    CREATE TABLE payloads (id INTEGER PRIMARY KEY, memory_id INTEGER, payload_kind TEXT, media_type TEXT, text_body TEXT,
      object_ref TEXT, sha256 TEXT, byte_size INTEGER, created_at TEXT);
    CREATE INDEX payloads_by_memory ON payloads (memory_id);`);
  const insertMemory = db.prepare(
    "INSERT INTO memories (kind, summary, source_kind, created_at) VALUES ('observation', ?, 'sensor_observation', ?)",
  );
  const insertLink = db.prepare("INSERT INTO memory_links VALUES (?, 1, 'subject')");
  const insertText = db.prepare(
    "INSERT INTO payloads (memory_id, payload_kind, media_type, text_body, byte_size, created_at) VALUES (?, 'inline_text', 'text/plain', ?, ?, ?)",
  );
  const insertObject = db.prepare(
    "INSERT INTO payloads (memory_id, payload_kind, media_type, object_ref, sha256, byte_size, created_at) VALUES (?, 'object_ref', 'image/png', ?, ?, ?, ?)",
  );
  const payloadOf = db.prepare("SELECT sha256 FROM payloads WHERE memory_id = ? AND payload_kind = 'object_ref'");
  const rows = db.transaction((summary: string, sha: string, size: number) => {
    const now = new Date().toISOString();
    const id = insertMemory.run(summary, now).lastInsertRowid;
    insertLink.run(id);
    insertText.run(id, summary, Buffer.byteLength(summary), now);
    insertObject.run(id, `sha256:${sha}`, sha, size, now);
    return Number(id);
  });
  const pathOf = (sha: string) => join(dir, 'bare-objects', sha.slice(0, 2), sha.slice(2));
  return {
    write(bytes: Buffer): number {
      const sha = createHash('sha256').update(bytes).digest('hex');
      const target = pathOf(sha);
      mkdirSync(dirname(target), { recursive: true });
      const tmp = `${target}.tmp`;
      const fd = openSync(tmp, 'w', 0o600);
      for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
      fsyncSync(fd);
      closeSync(fd);
      renameSync(tmp, target);
      const dirFd = openSync(dirname(target), 'r');
      fsyncSync(dirFd);
      closeSync(dirFd);
      return rows.immediate('a snapshot', sha, bytes.length);
    },
    read(id: number): Buffer {
      const { sha256 } = payloadOf.get(id) as { sha256: string };
      const bytes = readFileSync(pathOf(sha256));
      if (createHash('sha256').update(bytes).digest('hex') !== sha256) throw new Error('corrupt');
      return bytes;
    },
    close: () => db.close(),
  };
}

/** A store of `entities` entities, each with 10 memories: observations with a 5 KB image, or text only. */
async function seeded(path: string, entities: number, total: number, withImages: boolean): Promise<MemoryStore> {
  const store = SqliteMemoryStore.open(path, { clock: new ManualClock('2026-06-01T08:00:00.000Z') });
  for (let e = 1; e <= entities; e += 1) await store.createEntity({ entityType: 'thing', canonicalName: `Shelf ${e}` });
  for (let i = 0; i < total; i += 1) {
    const entityId = 1 + (i % entities);
    await store.createMemory({
      kind: 'observation',
      summary: `shelf ${entityId}, view ${i}`,
      links: [{ entityId, role: 'subject' }],
      sourceKind: 'sensor_observation',
      sourceLabel: 'camera_front at 2026-06-01T08:00:00.000Z, (1, 2, 90°) in map',
      ...(withImages ? { object: { bytes: image(5 * 1024, i), mediaType: 'image/png' } } : {}),
    });
  }
  return store;
}

export async function objectsBench(options: ObjectsBenchOptions): Promise<void> {
  const { log } = options;
  const dir = mkdtempSync(join(tmpdir(), 'mira-bench-objects-'));
  try {
    // Writes and reads of 200 KB snapshots.
    mkdirSync(join(dir, 'store'));
    const store = SqliteMemoryStore.open(join(dir, 'store', 'memory.sqlite3'));
    await store.createEntity({ entityType: 'thing', canonicalName: 'Shelf' });
    const bare = bareWriter(dir);
    const images = Array.from({ length: options.writes }, (_, i) => image(SNAPSHOT_BYTES, i));
    const storeIds: number[] = [];
    const bareIds: number[] = [];
    log(`objects: ${options.writes} snapshots of ${SNAPSHOT_BYTES / 1024} KB, written call by call…`);
    const warmup = Math.min(10, Math.floor(options.writes / 5));
    const wrote = await timeInterleaved(
      images.map((bytes, i) => ({ bytes, i })),
      {
        'store.createMemory()': async ({ bytes }: { bytes: Buffer }) => {
          const memory = await store.createMemory({
            kind: 'observation',
            summary: 'a snapshot',
            links: [{ entityId: 1, role: 'subject' }],
            sourceKind: 'sensor_observation',
            object: { bytes, mediaType: 'image/png' },
          });
          storeIds.push(memory.id);
        },
        bare: ({ bytes }: { bytes: Buffer }) => bareIds.push(bare.write(bytes)),
      },
      warmup,
    );
    log('objects: read back, verified, call by call…');
    const read = await timeInterleaved(
      storeIds.map((id, i) => ({ id, bare: bareIds[i]! })),
      {
        'store.readObject()': async ({ id }: { id: number }) => {
          if ((await store.readObject(id))!.bytes.length !== SNAPSHOT_BYTES) throw new Error('short read');
        },
        bare: ({ bare: id }: { bare: number }) => {
          if (bare.read(id).length !== SNAPSHOT_BYTES) throw new Error('short read');
        },
      },
      warmup,
    );
    await store.close();
    bare.close();

    // Recall beside the same memories without images.
    const entities = Math.max(1, Math.floor(options.stored / 10));
    log(`objects: ${options.stored} snapshots over ${entities} entities, and the same memories as text only…`);
    // Each store in a directory of its own: a directory's objects belong to one database.
    mkdirSync(join(dir, 'images'));
    mkdirSync(join(dir, 'text'));
    const withImages = await seeded(join(dir, 'images', 'memory.sqlite3'), entities, options.stored, true);
    const textOnly = await seeded(join(dir, 'text', 'memory.sqlite3'), entities, options.stored, false);
    const stored = await withImages.objectUsage();
    const episode = (): { episode: EpisodeInfo } => ({
      episode: { id: 1, origin: 'operator', startedAt: new Date() },
    });
    const recallIn = (s: MemoryStore) =>
      recallMemoryTool(
        () => s,
        () => {},
      );
    const names = Array.from({ length: options.recalls }, (_, i) => `Shelf ${1 + ((i * 7919) % entities)}`);
    const recalled = await timeInterleaved(
      names,
      {
        'recall, 10 snapshots each': async (name: string) => {
          if (!(await recallIn(withImages).run({ query: name }, episode())).content.includes('view'))
            throw new Error('no memories recalled');
        },
        'recall, text only': async (name: string) => {
          if (!(await recallIn(textOnly).run({ query: name }, episode())).content.includes('view'))
            throw new Error('no memories recalled');
        },
      },
      Math.min(20, Math.floor(options.recalls / 5)),
    );
    await withImages.close();
    await textOnly.close();

    const row = (what: string, m: Record<string, InterleavedLatency>, a: string, b: string, baseline: string) => ({
      measurement: what,
      'p50 µs': fmt(m[a]!.p50),
      'p99 µs': fmt(m[a]!.p99),
      baseline,
      'baseline p50 µs': fmt(m[b]!.p50),
      'baseline p99 µs': fmt(m[b]!.p99),
      'ratio p50': fmt(m[a]!.p50 / m[b]!.p50, 2),
      'ratio p99': fmt(m[a]!.p99 / m[b]!.p99, 2),
    });
    const rows = [
      row(
        `write a ${SNAPSHOT_BYTES / 1024} KB snapshot (file + memory, fsync'd)`,
        wrote,
        'store.createMemory()',
        'bare',
        'file written whole + bare insert',
      ),
      row('read it back, SHA-256 verified', read, 'store.readObject()', 'bare', 'row + file + SHA-256, bare'),
      row(
        `recall_memory with ${options.stored} snapshots stored (${stored.objects} objects, ${(stored.bytes / 1024 / 1024).toFixed(1)} MB)`,
        recalled,
        'recall, 10 snapshots each',
        'recall, text only',
        'the same memories as text only',
      ),
    ];
    const md = `# Object payloads (snapshots)

Writing a ${SNAPSHOT_BYTES / 1024} KB image as a memory's object payload on SQLite (the file written whole
and fsync'd, then the memory, its link and its payload rows in one fsync'd transaction), beside the same
work done bare; reading it back with its SHA-256 verified, beside a bare read of the row and the file with
the same check; and \`recall_memory\` on a store holding ${options.stored} snapshots (10 per entity, 5 KB
each), beside the same memories without images: recall never loads an object. Each pair runs call by
call, the order alternating. Targets: write and read ≤ 1.5× bare; recall unchanged (≈ 1.0×).
Load average (1 / 5 / 15 min): ${loadAverage()}.

${markdownTable(rows)}
`;
    writeResults('objects', md, { writes: wrote, reads: read, recall: recalled, stored });
    process.stdout.write(`${md}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
