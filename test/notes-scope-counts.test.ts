import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { DIRECT_IMPORT_MAX, SqliteNotesStore, type LabelCount, type Viewer } from '@mira/plugin-notes';

/**
 * The Mind view's counts, kept by triggers in the notes file (plugins/notes/src/store/scope-counts.ts),
 * against counts taken here from the notes themselves: after every kind of write the store makes, and
 * writes by another connection to the same file (a cascade delete, a scope move, labels changed in place).
 */

type Counts = { total: number; labels: LabelCount[] };

const viewers: Viewer[] = [
  { scopes: ['default'], key: null, operator: true },
  { scopes: ['default', 'work', 'global', 'attic'], key: null, operator: true },
  { scopes: ['default'], key: null, operator: false },
  { scopes: ['default', 'global'], key: 'k1', operator: false },
  { scopes: ['work'], key: 'k2', operator: false },
];

/** The counts a viewer should see, from the notes and labels as the file holds them. */
function expected(db: Database.Database, viewer: Viewer): Counts {
  const notes = (
    db.prepare('SELECT id, scope, private_key FROM notes').all() as Array<{
      id: number;
      scope: string;
      private_key: string | null;
    }>
  ).filter(
    (n) =>
      viewer.scopes.includes(n.scope) && (viewer.operator || n.private_key === null || n.private_key === viewer.key),
  );
  const byLabel = new Map<string, number>();
  const labelsOf = db.prepare('SELECT label FROM note_labels WHERE note_id = ?').pluck();
  let unlabeled = 0;
  for (const note of notes) {
    const labels = labelsOf.all(note.id) as string[];
    if (labels.length === 0) unlabeled += 1;
    for (const label of labels) byLabel.set(label, (byLabel.get(label) ?? 0) + 1);
  }
  const labels = [...byLabel].map(([label, count]) => ({ label, count }));
  if (unlabeled > 0) labels.push({ label: 'unlabeled', count: unlabeled });
  labels.sort((a, b) => b.count - a.count || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  return { total: notes.length, labels };
}

/** Notes and keyed notes per scope the viewer can name, by name, from the notes as the file holds them. */
function expectedByScope(db: Database.Database): Array<{ scope: string; notes: number; keyed: number }> {
  const scopes = db.prepare("SELECT name FROM scopes WHERE name NOT LIKE '~%' ORDER BY name").pluck().all() as string[];
  const notes = db.prepare('SELECT scope, key_digest FROM notes').all() as Array<{
    scope: string;
    key_digest: string | null;
  }>;
  return scopes.map((scope) => ({
    scope,
    notes: notes.filter((n) => n.scope === scope).length,
    keyed: notes.filter((n) => n.scope === scope && n.key_digest !== null).length,
  }));
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('notes: the counts the file keeps for the Mind view', () => {
  let dir: string;
  let path: string;
  const open = (readOnly = false) => SqliteNotesStore.open(path, { log: () => {}, readOnly });
  const rows = (db: Database.Database) =>
    db.prepare('SELECT scope, key_digest, what, label, n FROM note_counts WHERE n <> 0 ORDER BY 1, 2, 3, 4').all();
  /** The table's rows as the notes make them: per scope and key, every note, those without a label, each label. */
  const recount = (db: Database.Database) => {
    const counted = new Map<string, number>();
    const bump = (...key: unknown[]) => counted.set(JSON.stringify(key), (counted.get(JSON.stringify(key)) ?? 0) + 1);
    const labelsOf = db.prepare('SELECT label FROM note_labels WHERE note_id = ?').pluck();
    // Not the staging scopes of imports under way, which no viewer can name.
    for (const note of db.prepare("SELECT id, scope, key_digest FROM notes WHERE scope NOT LIKE '~%'").all() as Array<{
      id: number;
      scope: string;
      key_digest: string | null;
    }>) {
      const key = note.key_digest ?? '';
      const labels = labelsOf.all(note.id) as string[];
      bump(note.scope, key, 0, '');
      if (labels.length === 0) bump(note.scope, key, 1, '');
      for (const label of labels) bump(note.scope, key, 2, label);
    }
    return [...counted]
      .map(([key, n]) => {
        const [scope, key_digest, what, label] = JSON.parse(key) as [string, string, number, string];
        return { scope, key_digest, what, label, n };
      })
      .sort((a, b) => {
        for (const k of ['scope', 'key_digest', 'what', 'label'] as const)
          if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
        return 0;
      });
  };
  const expectCounts = (store: SqliteNotesStore, db: Database.Database, when: string) => {
    expect(rows(db), `${when}: the kept rows`).to.deep.equal(recount(db));
    expect(store.countsByScope(), `${when}: notes per scope`).to.deep.equal(expectedByScope(db));
    for (const viewer of viewers) {
      const want = expected(db, viewer);
      expect(store.labelCounts(viewer), `${when}: ${JSON.stringify(viewer)}`).to.deep.equal(want);
      expect(store.browse(viewer, { limit: 1 }).counts, `${when}: page of ${JSON.stringify(viewer)}`).to.deep.include({
        total: want.total,
        labels: want.labels.slice(0, 10),
      });
    }
  };

  /** Runs `check` with the store open on the file and another connection to it, and closes both. */
  const withBoth = async (check: (store: SqliteNotesStore, db: Database.Database) => Promise<void>) => {
    const store = open();
    const db = new Database(path);
    try {
      await check(store, db);
    } finally {
      store.close();
      db.close();
    }
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-notes-counts-'));
    path = join(dir, 'notes.sqlite3');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('match the notes after saves, edits, deletions, combines and an import, and writes by another connection', async () => {
    const store = open();
    const other = new Database(path);
    other.pragma('foreign_keys = ON');
    other.pragma('busy_timeout = 5000');
    const random = rng(7);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const scopes = ['default', 'work', 'global'];
    const labelSets = [null, 'a', 'b', 'a, b', 'c, a', 'unlabeled'];
    const keys = [null, null, 'k1', 'k2'];
    const ids = () => other.prepare("SELECT id FROM notes WHERE scope NOT LIKE '~%'").pluck().all() as number[];
    const everything: Viewer = { scopes: [...scopes, 'attic'], key: null, operator: true };
    try {
      await store.save('default', 'keyed one', 'a', 'k1');
      await store.save('work', 'keyed two', null, 'k2');
      const digests = new Map(
        other.prepare('SELECT private_key, key_digest FROM notes').raw().all() as Array<[string, string]>,
      );
      for (let step = 0; step < 240; step += 1) {
        const roll = random();
        const existing = ids();
        if (existing.length < 5 || roll < 0.35) {
          await store.save(pick(scopes), `note ${step} ${pick(['tea', 'dock', 'keys'])}`, pick(labelSets), pick(keys));
        } else if (roll < 0.5) {
          await store.update(pick(existing), everything, undefined, `edited ${step}`, pick(labelSets));
        } else if (roll < 0.58) {
          store.delete(pick(existing), everything, undefined);
        } else if (roll < 0.66) {
          // Another connection deletes a note and lets the foreign key remove its labels.
          other.prepare('DELETE FROM notes WHERE id = ?').run(pick(existing));
        } else if (roll < 0.74) {
          // Moves a note to another scope, or makes it keyed or plain, in place.
          const id = pick(existing);
          if (random() < 0.5) other.prepare('UPDATE notes SET scope = ? WHERE id = ?').run(pick(scopes), id);
          else {
            const key = pick(keys);
            other
              .prepare('UPDATE notes SET private_key = ?, key_digest = ? WHERE id = ?')
              .run(key, key === null ? null : digests.get(key), id);
          }
        } else if (roll < 0.82) {
          // Labels added, renamed and removed one row at a time.
          const id = pick(existing);
          const label = pick(['a', 'b', 'c', 'd']);
          const has = other.prepare('SELECT label FROM note_labels WHERE note_id = ?').pluck().all(id) as string[];
          if (has.length === 0 || random() < 0.4) {
            if (!has.includes(label))
              other.prepare('INSERT INTO note_labels (note_id, label, position) VALUES (?, ?, ?)').run(id, label, 9);
          } else if (random() < 0.35) {
            if (!has.includes(label))
              other.prepare('UPDATE note_labels SET label = ? WHERE note_id = ? AND label = ?').run(label, id, has[0]);
          } else if (random() < 0.5) {
            // The label goes to another note (unless that one has it already).
            const to = pick(existing);
            const taken = other.prepare('SELECT 1 FROM note_labels WHERE note_id = ? AND label = ?').get(to, has[0]);
            if (!taken)
              other.prepare('UPDATE note_labels SET note_id = ? WHERE note_id = ? AND label = ?').run(to, id, has[0]);
          } else other.prepare('DELETE FROM note_labels WHERE note_id = ? AND label = ?').run(id, has[0]);
        } else if (roll < 0.88) {
          const [keep, drop] = [pick(existing), pick(existing)];
          try {
            store.combine(keep, drop, everything);
          } catch {
            // Two notes of different scopes or keys, or one note twice: refused, nothing changed.
          }
        } else if (roll < 0.9) {
          const exported = await store.exportScope(pick(scopes));
          await store.importNotes(exported, pick(['work', 'attic']));
        } else if (roll < 0.95) {
          // An import's staging scope, as transfer.ts writes it: uncounted until its notes move into a scope.
          other.prepare("INSERT OR IGNORE INTO scopes (name, created_at) VALUES ('~import-t', 'x')").run();
          const staged = other.prepare("SELECT id FROM notes WHERE scope = '~import-t'").pluck().all() as number[];
          if (staged.length === 0 || random() < 0.5) {
            const id = other
              .prepare("INSERT INTO notes (scope, content, created_at, updated_at) VALUES ('~import-t', ?, 'x', 'x')")
              .run(`staged ${step}`).lastInsertRowid;
            other
              .prepare('INSERT INTO note_labels (note_id, label, position) VALUES (?, ?, 0)')
              .run(id, pick(['a', 'e']));
          } else if (random() < 0.6)
            other.prepare('UPDATE notes SET scope = ? WHERE id = ?').run(pick(scopes), staged[0]);
          else other.prepare('DELETE FROM notes WHERE id = ?').run(staged[0]);
        } else {
          // A transaction another connection rolls back changes no count.
          try {
            other
              .transaction(() => {
                other.prepare('DELETE FROM notes WHERE id = ?').run(pick(existing));
                throw new Error('rolled back');
              })
              .immediate();
          } catch {
            // as intended
          }
        }
        if (step % 8 === 7) expectCounts(store, other, `step ${step}`);
      }
      expectCounts(store, other, 'the end');
      expect(ids().length).to.be.greaterThan(20);
      expect(expected(other, everything).labels.map((l) => l.label)).to.include.members(['a', 'b', 'unlabeled']);
    } finally {
      other.close();
      store.close();
    }
  });

  it('are made at a writable open for a file without them, and counted from the notes when opened read-only', async () => {
    const made = open();
    await made.save('default', 'one', 'a, b', null);
    await made.save('default', 'two', null, 'k1');
    await made.save('work', 'three', 'b', null);
    made.close();
    const db = new Database(path);
    const kept = rows(db);
    expect(kept).to.have.length.greaterThan(0);
    // A file from before: no table, no triggers, no mark.
    db.exec(`DROP TRIGGER note_counts_note_insert; DROP TRIGGER note_counts_note_delete;
      DROP TRIGGER note_counts_note_move_out; DROP TRIGGER note_counts_note_move_in; DROP TRIGGER note_counts_label_insert;
      DROP TRIGGER note_counts_label_delete; DROP TRIGGER note_counts_label_update; DROP TABLE note_counts;
      DELETE FROM meta WHERE key = 'scope_counts';`);
    // Written meanwhile by a Mira of before, which keeps no counts.
    db.prepare("INSERT INTO notes (scope, content, created_at, updated_at) VALUES ('default', 'four', ?, ?)").run(
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T00:00:00.000Z',
    );
    // And an import it left under way (its staging scope is not counted).
    db.exec(`INSERT INTO scopes (name, created_at) VALUES ('~import-z', 'x');
      INSERT INTO notes (scope, content, created_at, updated_at) VALUES ('~import-z', 'staged', 'x', 'x');`);
    const readOnly = open(true);
    try {
      expect(readOnly.labelCounts(viewers[0]!)).to.deep.equal(expected(db, viewers[0]!));
      expect(readOnly.labelCounts(viewers[0]!).total).to.equal(3);
      expect(readOnly.countsByScope()).to.deep.equal(expectedByScope(db));
    } finally {
      readOnly.close();
    }
    expect(db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'note_counts'").get()).to.equal(undefined);
    const upgraded = open();
    try {
      expect(db.prepare("SELECT value FROM meta WHERE key = 'scope_counts'").pluck().get()).to.be.a('string');
      expectCounts(upgraded, db, 'after the upgrade');
      await upgraded.save('default', 'five', 'a', null);
      expectCounts(upgraded, db, 'after a save');
    } finally {
      upgraded.close();
      db.close();
    }
  });

  it('are made again when the file keeps them otherwise', async () => {
    const made = open();
    await made.save('default', 'one', 'a', null);
    made.close();
    const db = new Database(path);
    db.exec("UPDATE note_counts SET n = n + 40; UPDATE meta SET value = 'an older way' WHERE key = 'scope_counts'");
    const store = open();
    try {
      expect(store.labelCounts(viewers[0]!)).to.deep.equal({ total: 1, labels: [{ label: 'a', count: 1 }] });
    } finally {
      store.close();
      db.close();
    }
  });
  it('are what the page reads: a kept count changed by hand shows, and the pass over the notes is not made', async () => {
    await withBoth(async (store, db) => {
      await store.save('default', 'one', 'a', null);
      await store.save('default', 'two', null, null);
      db.prepare("UPDATE note_counts SET n = n + 40 WHERE scope = 'default' AND what = 0").run();
      db.prepare("UPDATE note_counts SET n = n + 5 WHERE scope = 'default' AND what = 2 AND label = 'a'").run();
      expect(store.labelCounts(viewers[0]!)).to.deep.equal({
        total: 42,
        labels: [
          { label: 'a', count: 6 },
          { label: 'unlabeled', count: 1 },
        ],
      });
      expect(store.browse(viewers[0]!).counts).to.deep.include({ total: 42 });
      expect(store.countsByScope().find((c) => c.scope === 'default')).to.deep.equal({
        scope: 'default',
        notes: 42,
        keyed: 0,
      });
    });
  });

  it('are not read once another process removes them or keeps them otherwise while the store is open', async () => {
    const store = open();
    const db = new Database(path);
    try {
      await store.save('default', 'one', 'a', null);
      expect(store.labelCounts(viewers[0]!).total).to.equal(1);
      db.exec('DROP TRIGGER note_counts_label_insert');
      await store.save('default', 'two', 'b', null);
      // Without every trigger the counts are not trusted: the page counts the notes.
      expect(store.labelCounts(viewers[0]!)).to.deep.equal(expected(db, viewers[0]!));
      for (const trigger of [
        'note_insert',
        'note_delete',
        'note_move_out',
        'note_move_in',
        'label_delete',
        'label_update',
      ])
        db.exec(`DROP TRIGGER note_counts_${trigger}`);
      db.exec("DROP TABLE note_counts; UPDATE meta SET value = 'another way' WHERE key = 'scope_counts'");
      await store.save('default', 'three', null, null);
      expect(store.labelCounts(viewers[0]!)).to.deep.equal(expected(db, viewers[0]!));
      expect(store.countsByScope()).to.deep.equal(expectedByScope(db));
      expect(store.labelCounts(viewers[0]!).total).to.equal(3);
    } finally {
      store.close();
    }
    // Counts kept otherwise, with a trigger of their own: the next writable open makes them again, and drops it.
    db.exec(`CREATE TABLE note_counts (x); CREATE TRIGGER note_counts_other AFTER INSERT ON notes BEGIN
      INSERT INTO note_counts VALUES (1); END`);
    const reopened = open();
    try {
      expectCounts(reopened, db, 'reopened');
      expect(db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'trigger'").pluck().get()).to.equal(7);
    } finally {
      reopened.close();
      db.close();
    }
  });

  it('count labels written before their note, and a note given another ID, as the notes are', async () => {
    await withBoth(async (store, db) => {
      // A writer with foreign keys off (the sqlite3 shell's default).
      db.pragma('foreign_keys = OFF');
      db.prepare("INSERT INTO note_labels (note_id, label, position) VALUES (500, 'early', 0)").run();
      db.prepare(
        "INSERT INTO notes (id, scope, content, created_at, updated_at) VALUES (500, 'default', 'late', 'x', 'x')",
      ).run();
      await store.save('default', 'plain', null, null);
      const labelled = (await store.save('default', 'labelled', 'kept', null)).note;
      db.prepare('UPDATE notes SET id = 900 WHERE id = ?').run(labelled.id);
      expectCounts(store, db, 'after the writes');
      expect(store.labelCounts(viewers[0]!).labels).to.deep.include({ label: 'early', count: 1 });
    });
  });

  it('count an import of more than one transaction once, in its scope, and never its staging scope', async () => {
    await withBoth(async (store, db) => {
      const labels = ['a', 'b, c', null];
      for (let i = 0; i < DIRECT_IMPORT_MAX + 50; i += 1)
        await store.save('default', `note ${i}`, labels[i % 3]!, i % 7 === 0 ? 'k1' : null);
      const exported = await store.exportScope('default');
      const result = await store.importNotes(exported, 'work');
      expect(result.added).to.equal(DIRECT_IMPORT_MAX + 50);
      // Not even at zero: a staging scope's notes were never counted, so nothing was taken off when they moved.
      expect(db.prepare("SELECT count(*) FROM note_counts WHERE scope LIKE '~%'").pluck().get()).to.equal(0);
      expectCounts(store, db, 'after the import');
      const work: Viewer = { scopes: ['work'], key: null, operator: true };
      expect(store.labelCounts(work)).to.deep.equal(expected(db, work));
      expect(store.labelCounts(work).total).to.equal(DIRECT_IMPORT_MAX + 50);
    });
  });
});
