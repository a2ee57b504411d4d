import Database from 'better-sqlite3';
import { normalizeKey } from '@mira/core';

/**
 * The same reads as the store, written as bare better-sqlite3 prepared
 * statements: the ceiling the store is compared against.
 */
export function bareReader(path: string) {
  const db = new Database(path, { readonly: true });
  const ids = db
    .prepare(
      'SELECT id FROM entities WHERE name_key = ? UNION SELECT entity_id FROM aliases WHERE alias_key = ? ORDER BY 1',
    )
    .pluck();
  const entity = db.prepare('SELECT id, entity_type, canonical_name, name_key, created_at FROM entities WHERE id = ?');
  const aliases = db.prepare(
    'SELECT id, entity_id, alias, alias_key, created_at FROM aliases WHERE entity_id = ? ORDER BY id',
  );
  const newest = db
    .prepare(
      "SELECT DISTINCT l.memory_id FROM memory_links l JOIN memories m ON m.id = l.memory_id WHERE l.entity_id = ? AND m.status = 'active' ORDER BY l.memory_id DESC LIMIT ?",
    )
    .pluck();
  const count = db
    .prepare(
      "SELECT count(DISTINCT l.memory_id) FROM memory_links l JOIN memories m ON m.id = l.memory_id WHERE l.entity_id = ? AND m.status = 'active'",
    )
    .pluck();
  const memory = db.prepare(
    'SELECT id, kind, summary, predicate, value, source_kind, source_label, confidence, status, created_at FROM memories WHERE id = ?',
  );
  const links = db.prepare(
    'SELECT l.entity_id, l.role, e.canonical_name FROM memory_links l JOIN entities e ON e.id = l.entity_id WHERE l.memory_id = ? ORDER BY l.entity_id, l.role',
  );
  const payloads = db.prepare(
    'SELECT id, payload_kind, media_type, object_ref, sha256, byte_size, created_at FROM payloads WHERE memory_id = ? ORDER BY id',
  );
  const memoryWithParts = (id: number) => ({ row: memory.get(id), links: links.all(id), payloads: payloads.all(id) });
  return {
    db,
    /** Exact lookup by name or alias, entities with their aliases. */
    find(name: string) {
      const key = normalizeKey(name);
      return (ids.all(key, key) as number[]).map((id) => ({ row: entity.get(id), aliases: aliases.all(id) }));
    },
    /** An entity's active memories (or the newest `limit`), with links and payload metadata. */
    list(entityId: number, limit = -1) {
      const memoryIds = (newest.all(entityId, limit) as number[]).reverse();
      const total = limit < 0 ? memoryIds.length : (count.get(entityId) as number);
      return { total, memories: memoryIds.map(memoryWithParts) };
    },
    close: () => db.close(),
  };
}
