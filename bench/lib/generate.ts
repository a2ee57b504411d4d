import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { terminalProgress } from '@mira/core';
import { normalizeKey } from '@mira/core';
import { SCHEMA_V2, SCHEMA_VERSION } from '@mira/plugin-memory';
import { MIRA_APPLICATION_IDS } from '@mira/sqlite';
import { rng } from './stats.js';

/** Where generated databases are cached (ignored by git). */
export const CACHE_DIR = fileURLToPath(new URL('../cache/', import.meta.url));

/** A generated benchmark database. */
export interface Generated {
  readonly path: string;
  readonly entities: number;
  readonly memories: number;
  /** Every fifth entity has the alias `Nick <n>`. */
  readonly aliasEvery: number;
}

/** The memories table's DDL as a store file has it (the mark of the current schema). */
const MEMORIES_SQL = (() => {
  const db = new Database(':memory:');
  db.exec(SCHEMA_V2);
  const sql = db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'memories'").pluck().get() as string;
  db.close();
  return sql;
})();

export const entityName = (i: number) => `Entity ${String(i).padStart(6, '0')}`;
export const aliasName = (i: number) => `Nick ${String(i).padStart(6, '0')}`;

/**
 * Builds (or reuses from the cache) a database in the store's current schema (the same DDL, user_version
 * and application ID a new store file gets) with `entities`
 * entities and `memories` memories, each with a subject link, 30% with a
 * second link, and one inline payload, written with bare statements.
 */
export function generate(entities: number, memories: number, log: (m: string) => void = () => {}): Generated {
  mkdirSync(CACHE_DIR, { recursive: true });
  const path = join(CACHE_DIR, `memory-${entities}e-${memories}m.sqlite3`);
  const aliasEvery = 5;
  if (existsSync(path)) {
    const db = new Database(path, { readonly: true });
    // A cached file from an older generator (another schema stamped with this version) is rebuilt.
    const ok =
      db.pragma('user_version', { simple: true }) === SCHEMA_VERSION &&
      db.pragma('application_id', { simple: true }) === MIRA_APPLICATION_IDS.memory &&
      db.prepare('SELECT count(*) FROM sqlite_schema WHERE sql = ?').pluck().get(MEMORIES_SQL) === 1 &&
      (db.prepare('SELECT count(*) FROM memories').pluck().get() as number) === memories;
    db.close();
    if (ok) return { path, entities, memories, aliasEvery };
  }
  const tmp = `${path}.building`;
  rmSync(tmp, { force: true });
  log(`generating ${entities} entities and ${memories} memories into ${path} (cached for later runs)…`);
  const started = Date.now();
  const db = new Database(tmp);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(SCHEMA_V2);
  const created = '2026-01-01T00:00:00.000Z';
  const insertEntity = db.prepare(
    'INSERT INTO entities (id, entity_type, canonical_name, name_key, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const insertAlias = db.prepare('INSERT INTO aliases (entity_id, alias, alias_key, created_at) VALUES (?, ?, ?, ?)');
  const insertMemory = db.prepare(
    "INSERT INTO memories (id, kind, summary, predicate, value, source_kind, status, created_at) VALUES (?, 'fact', ?, ?, ?, 'console', 'active', ?)",
  );
  const insertLink = db.prepare('INSERT INTO memory_links (memory_id, entity_id, role) VALUES (?, ?, ?)');
  const insertPayload = db.prepare(
    "INSERT INTO payloads (memory_id, payload_kind, media_type, text_body, byte_size, created_at) VALUES (?, 'inline_text', 'text/plain', ?, ?, ?)",
  );
  db.transaction(() => {
    for (let i = 1; i <= entities; i += 1) {
      const name = entityName(i);
      insertEntity.run(i, 'person', name, normalizeKey(name), created);
      if (i % aliasEvery === 0) insertAlias.run(i, aliasName(i), normalizeKey(aliasName(i)), created);
    }
  })();
  const random = rng(42);
  const chunk = 50_000;
  const bar = terminalProgress(process.stderr, 'generating memories', memories);
  for (let start = 1; start <= memories; start += chunk) {
    db.transaction(() => {
      for (let id = start; id < Math.min(start + chunk, memories + 1); id += 1) {
        const subject = 1 + Math.floor(random() * entities);
        const summary = `${entityName(subject)} was seen near dock ${id % 97} carrying item ${id}`;
        insertMemory.run(id, summary, `p${id % 50}`, `dock ${id % 97}`, created);
        insertLink.run(id, subject, 'subject');
        if (random() < 0.3) {
          const other = 1 + Math.floor(random() * entities);
          if (other !== subject) insertLink.run(id, other, 'object');
        }
        insertPayload.run(id, summary, Buffer.byteLength(summary), created);
      }
    })();
    bar.update(Math.min(start + chunk - 1, memories));
  }
  bar.stop();
  db.pragma(`user_version = ${SCHEMA_VERSION}`);
  db.pragma(`application_id = ${MIRA_APPLICATION_IDS.memory}`);
  db.pragma('journal_mode = WAL');
  db.close();
  renameSync(tmp, path);
  log(`generated in ${((Date.now() - started) / 1000).toFixed(0)} s, ${(statSync(path).size / 1e6).toFixed(0)} MB`);
  return { path, entities, memories, aliasEvery };
}
