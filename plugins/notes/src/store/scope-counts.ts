/**
 * The Mind view's counts kept as notes change: per scope and key, how many notes there are, how many have
 * no label, and how many have each label, in one small table that triggers keep in step with every write
 * (this process's, another process's, an import's, a scope move). A page's counts then read a few rows
 * for the viewer's scopes and key instead of passing over every note in view, so the first page costs
 * the same at 1,000 notes and at 100,000.
 *
 * Made at a writable open (see upgrades.ts) from the notes as they are; a file opened read-only without it
 * is counted by passing over its notes, as before.
 *
 * Deletions: a note's labels go before the note (store/rows.ts), or after it by the foreign key's cascade,
 * which SQLite runs once the note's row is gone. So a label's row counts down only while its note is
 * there, and the note's own trigger runs BEFORE its row goes, counting down the labels it still has. A
 * label counts only while its note is there, as the pass over the notes counts it: labels written before
 * their note (by a writer with foreign keys off) count when the note comes, and a note given another ID
 * takes the labels of that ID.
 *
 * Not kept by other writers: `REPLACE` on `notes` or `note_labels` (SQLite fires no delete trigger for the
 * rows it replaces unless `recursive_triggers` is on); Mira never writes them so.
 *
 * The cost, on top of a note's own write: 2–4 small statements per note and per label. Saving a note (fsynced)
 * measured +3 % at p50, deleting one +5 %; an import of 20,000 notes 1.0–1.2 s against 0.95–1.2 s without,
 * once it writes the full-text rows after the notes (transfer.ts says why).
 */

/** The table. */
export const COUNTS_TABLE = 'note_counts';
/** What a row counts (`what`): every note, the notes without a label, the notes with `label`. */
export const COUNT_ALL = 0;
export const COUNT_UNLABELED = 1;
export const COUNT_LABEL = 2;
/** How the counts are kept; a file whose counts were kept otherwise (or has none) gets them rebuilt at open. */
export const COUNTS_VERSION = 'scope-key-label-2';
/** The `meta` key that holds {@link COUNTS_VERSION}. */
export const COUNTS_META = 'scope_counts';

/**
 * Whether a scope is counted: not the staging scopes of imports under way (`~import-…`, see transfer.ts),
 * which no viewer can name. An import then writes its notes without touching the counts, and counts them
 * once, as it moves them into their scope.
 */
const COUNTED = (scope: string) => `substr(${scope}, 1, 1) <> '~'`;
/** A note's key as the table keeps it: '' for a note without one (a key's digest is never empty). */
const KEY = (row: 'new' | 'old' | 'n') => `coalesce(${row}.key_digest, '')`;
/** Adds `rows` (a SELECT or VALUES of scope, key, what, label, change) to the counts. */
const add = (rows: string) =>
  `INSERT INTO ${COUNTS_TABLE} (scope, key_digest, what, label, n) ${rows}
   ON CONFLICT (scope, key_digest, what, label) DO UPDATE SET n = n + excluded.n;`;
/** The note's label changes (`change` per label) for a note `row` (new or old), its labels as they are now. */
const labelsOf = (row: 'new' | 'old', change: number) =>
  add(
    `SELECT ${row}.scope, ${KEY(row)}, ${COUNT_LABEL}, l.label, ${change} FROM note_labels l WHERE l.note_id = ${row}.id`,
  );
/** The unlabeled count's change for a note `row` that has no label now. */
const ifUnlabeled = (row: 'new' | 'old', change: number) =>
  add(`SELECT ${row}.scope, ${KEY(row)}, ${COUNT_UNLABELED}, '', ${change}
       WHERE NOT EXISTS (SELECT 1 FROM note_labels l WHERE l.note_id = ${row}.id)`);
/**
 * A label row's changes (`change`) while its note is there: the label's count, and the unlabeled count (the
 * other way) when `unlabeled` holds.
 */
const labelRow = (row: 'new' | 'old', change: number, unlabeled: string) =>
  add(`SELECT n.scope, ${KEY('n')}, ${COUNT_LABEL}, ${row}.label, ${change} FROM notes n
       WHERE n.id = ${row}.note_id AND ${COUNTED('n.scope')}`) +
  add(`SELECT n.scope, ${KEY('n')}, ${COUNT_UNLABELED}, '', ${-change} FROM notes n
       WHERE n.id = ${row}.note_id AND ${COUNTED('n.scope')} AND ${unlabeled}`);
/** Whether the note of label row `row` has exactly `count` labels now. */
const labelsNow = (row: 'new' | 'old', count: number) =>
  `(SELECT count(*) FROM note_labels l WHERE l.note_id = ${row}.note_id) = ${count}`;

/** A note `row` (new or old) counted in (`change` 1) or out (-1): all notes, no label or each label it has now. */
const noteCounts = (row: 'new' | 'old', change: number) =>
  add(`VALUES (${row}.scope, ${KEY(row)}, ${COUNT_ALL}, '', ${change})`) +
  ifUnlabeled(row, change) +
  labelsOf(row, change);

/** Whether a note's update moves it in the counts: another ID, scope or key. */
const MOVED = '(old.id IS NOT new.id OR old.scope IS NOT new.scope OR old.key_digest IS NOT new.key_digest)';

/** The table and its triggers. */
export const COUNTS_DDL = `
CREATE TABLE ${COUNTS_TABLE} (
  scope      TEXT    NOT NULL,
  key_digest TEXT    NOT NULL,
  what       INTEGER NOT NULL,
  label      TEXT    NOT NULL,
  n          INTEGER NOT NULL,
  PRIMARY KEY (scope, key_digest, what, label)
) WITHOUT ROWID;
CREATE TRIGGER note_counts_note_insert AFTER INSERT ON notes WHEN ${COUNTED('new.scope')} BEGIN
  ${noteCounts('new', 1)}
END;
CREATE TRIGGER note_counts_note_delete BEFORE DELETE ON notes WHEN ${COUNTED('old.scope')} BEGIN
  ${noteCounts('old', -1)}
END;
CREATE TRIGGER note_counts_note_move_out AFTER UPDATE OF id, scope, key_digest ON notes
WHEN ${MOVED} AND ${COUNTED('old.scope')} BEGIN
  ${noteCounts('old', -1)}
END;
CREATE TRIGGER note_counts_note_move_in AFTER UPDATE OF id, scope, key_digest ON notes
WHEN ${MOVED} AND ${COUNTED('new.scope')} BEGIN
  ${noteCounts('new', 1)}
END;
CREATE TRIGGER note_counts_label_insert AFTER INSERT ON note_labels BEGIN
  ${labelRow('new', 1, labelsNow('new', 1))}
END;
CREATE TRIGGER note_counts_label_delete AFTER DELETE ON note_labels BEGIN
  ${labelRow('old', -1, labelsNow('old', 0))}
END;
CREATE TRIGGER note_counts_label_update AFTER UPDATE OF note_id, label ON note_labels BEGIN
  ${labelRow('old', -1, labelsNow('old', 0))}
  ${labelRow('new', 1, `old.note_id <> new.note_id AND ${labelsNow('new', 1)}`)}
END;
`;

/** The triggers' names (a file keeps its counts only while it has every one). */
export const COUNTS_TRIGGERS = [
  'note_counts_note_insert',
  'note_counts_note_delete',
  'note_counts_note_move_out',
  'note_counts_note_move_in',
  'note_counts_label_insert',
  'note_counts_label_delete',
  'note_counts_label_update',
];

/** The triggers of the counts, today's or those of counts kept otherwise: dropped with the table at a rebuild. */
export const COUNTS_OLD_TRIGGERS = `SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'note\\_counts\\_%' ESCAPE '\\'`;

/** Fills the table from the notes as they are (after {@link COUNTS_DDL}). */
export const COUNTS_FILL = `
INSERT INTO ${COUNTS_TABLE} (scope, key_digest, what, label, n)
  SELECT scope, ${KEY('n')}, ${COUNT_ALL}, '', count(*) FROM notes n WHERE ${COUNTED('n.scope')} GROUP BY 1, 2;
INSERT INTO ${COUNTS_TABLE} (scope, key_digest, what, label, n)
  SELECT scope, ${KEY('n')}, ${COUNT_UNLABELED}, '', count(*) FROM notes n
  WHERE ${COUNTED('n.scope')} AND NOT EXISTS (SELECT 1 FROM note_labels l WHERE l.note_id = n.id) GROUP BY 1, 2;
INSERT INTO ${COUNTS_TABLE} (scope, key_digest, what, label, n)
  SELECT n.scope, ${KEY('n')}, ${COUNT_LABEL}, l.label, count(*) FROM note_labels l JOIN notes n ON n.id = l.note_id
  WHERE ${COUNTED('n.scope')} GROUP BY 1, 2, 4;
`;

/**
 * A viewer's counts from the table: parameters as {@link VISIBLE}'s (scopes as JSON, 1 when keys are
 * ignored (operator), the key's digest). Rows (what, label, n): n may be zero (a count that came back down),
 * and a count with no row is zero.
 */
export const COUNTS_FOR_VIEWER = `SELECT what, label, sum(n) AS n FROM ${COUNTS_TABLE}
  WHERE scope IN (SELECT value FROM json_each(?)) AND (? OR key_digest = '' OR key_digest = ?)
  GROUP BY what, label`;
