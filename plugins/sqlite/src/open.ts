import {
  accessSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  writeSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import './uri-names.js'; // before any connection: SQLite reads URI names
import { MiraError } from '@mira/core';
import type { SqliteDatabase } from './driver.js';
import { SqliteErrors } from './errors.js';
import { FollowingDatabase, writerRunning } from './following.js';
import { assertLinkToStore, createOwnerOnly, storeFileBehind, tightenStoreFiles } from './owner-only.js';
import { assertSideFilesOwn, readWal, type SideFileOwner } from './side-files.js';
import { schemaTableNames } from './schema-pages.js';

/**
 * The `PRAGMA application_id` Mira writes into each kind of file it creates
 * (`MirM`, `MirN` in ASCII), so a file is known as Mira's, and of which kind,
 * before anything is written to it.
 */
export const MIRA_APPLICATION_IDS = Object.freeze({ memory: 0x4d69724d, notes: 0x4d69724e });

/** A kind of Mira SQLite file. */
export type MiraStoreKind = keyof typeof MIRA_APPLICATION_IDS;

/** What a Mira SQLite file holds and how to name its setting in messages. */
export interface StoreSchema {
  readonly kind: MiraStoreKind;
  readonly version: number;
  /** DDL run once, in the same transaction that sets `user_version` and `application_id`. */
  readonly ddl: string;
  /** The tables the schema creates: how a file from before application IDs is recognised. */
  readonly tables: readonly string[];
  /** The manifest key that names the file, e.g. `[memory] database_path`. */
  readonly setting: string;
  /** What the file holds, e.g. `Mira memory database`. */
  readonly what: string;
  /** How files of earlier versions become this one; a version without an upgrade is refused. */
  readonly upgrades?: readonly SchemaUpgrade[];
}

/**
 * One step from an earlier schema version to the current one. It runs once, in the transaction that
 * sets the new version, with foreign keys off (checked before commit), after a backup of the file.
 */
export interface SchemaUpgrade {
  readonly from: number;
  /**
   * That version's DDL exactly as Mira ran it: a file is upgraded only when its schema objects are, one
   * for one, what this DDL creates; anything else is refused as not recognised.
   */
  readonly fromDdl: string;
  readonly run: (db: SqliteDatabase) => void;
}

/** What an upgrade did, for the log. */
export interface UpgradeDone {
  readonly from: number;
  readonly to: number;
  /** The copy of the file as it was before the upgrade. */
  readonly backupPath: string;
}

/** What is at a database path before it is opened for writing. */
export type Inspection =
  | { readonly state: 'new' }
  /** `adopt`: a file Mira created before application IDs; it gets the ID once. */
  | { readonly state: 'current'; readonly adopt: boolean }
  /** A recognised file of an earlier version, with an upgrade to this one. */
  | { readonly state: 'upgrade'; readonly from: number };

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const HEADER_SIZE = 100;

interface Found {
  readonly applicationId: number;
  readonly userVersion: number;
  /** Table names (without SQLite's own), when the schema was read. */
  readonly tables?: readonly string[];
  /** Every schema object (tables, indexes, triggers, views), when the schema was read. */
  readonly objects?: number;
  /** Every schema object's type, name and SQL, sorted: what an upgrade compares with its `fromDdl`. */
  readonly shape?: string;
}

const SHAPE_SQL = 'SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name';

/** A schema's objects as one comparable string. */
function shapeOf(db: Database.Database): string {
  return JSON.stringify(db.prepare(SHAPE_SQL).raw().all());
}

const expectedShapes = new Map<string, string>();
/** What running `ddl` on an empty database creates (computed once per DDL). */
function shapeOfDdl(ddl: string): string {
  let shape = expectedShapes.get(ddl);
  if (shape === undefined) {
    const db = new Database(':memory:');
    try {
      db.exec(ddl);
      shape = shapeOf(db);
    } finally {
      db.close();
    }
    expectedShapes.set(ddl, shape);
  }
  return shape;
}

function readHeader(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const header = Buffer.alloc(HEADER_SIZE);
    const read = readSync(fd, header, 0, HEADER_SIZE, 0);
    return header.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** True when the 100-byte header is one SQLite itself would write (magic, page size, fixed fractions). */
function isSqliteHeader(header: Buffer): boolean {
  if (header.length < HEADER_SIZE || !header.subarray(0, 16).equals(SQLITE_MAGIC)) return false;
  const pageSize = header.readUInt16BE(16);
  const validPageSize = pageSize === 1 || (pageSize >= 512 && pageSize <= 32768 && (pageSize & (pageSize - 1)) === 0);
  const validFormat = [1, 2].includes(header[18]!) && [1, 2].includes(header[19]!);
  return validPageSize && validFormat && header[21] === 64 && header[22] === 32 && header[23] === 32;
}

const hex = (id: number) => `0x${(id >>> 0).toString(16).padStart(8, '0')}`;

function notSqlite(path: string, schema: StoreSchema, detail?: string, cause?: unknown): MiraError {
  return SqliteErrors.error(
    'NOT_SQLITE',
    { path, detail: detail ? ` (${detail})` : '', setting: schema.setting },
    { cause },
  );
}

/**
 * Reads the application ID, user version and tables through SQLite without
 * touching anything beside the database: a WAL-mode file, or one with a side
 * file beside it, is read from a private copy (with its `-wal` and `-journal`),
 * because opening it in place, even read-only, creates `-wal` and `-shm` next
 * to it, rewrites the `-shm`, or rolls back and deletes a journal.
 */
function readSchema(path: string, wal: boolean, schema: StoreSchema): Found {
  let copyDir: string | undefined;
  let source = path;
  const sides = ['-wal', '-journal'].filter((side) => existsSync(`${path}${side}`));
  if (wal || sides.length > 0) {
    copyDir = mkdtempSync(join(tmpdir(), 'mira-inspect-'));
    source = join(copyDir, basename(path));
    copyFileSync(path, source);
    for (const side of sides) copyFileSync(`${path}${side}`, `${source}${side}`);
  }
  let db: Database.Database | undefined;
  try {
    // The private copy may be written (a hot journal rolled back, as SQLite does before reading); the
    // file itself is only ever opened read-only.
    db = new Database(source, { readonly: copyDir === undefined, fileMustExist: true });
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
      )
      .pluck()
      .all() as string[];
    return {
      applicationId: db.pragma('application_id', { simple: true }) as number,
      userVersion: db.pragma('user_version', { simple: true }) as number,
      tables,
      objects: db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get() as number,
      shape: shapeOf(db),
    };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT')
      throw notSqlite(path, schema, (error as Error).message, error);
    throw SqliteErrors.error(
      'STORE_OPEN_FAILED.unreadableSqlite',
      { path, reason: (error as Error).message },
      { cause: error },
    );
  } finally {
    db?.close();
    if (copyDir) rmSync(copyDir, { recursive: true, force: true });
  }
}

/** Decides from what was found; `undefined` means the schema must be read first. */
function classify(path: string, schema: StoreSchema, found: Found): Inspection | undefined {
  const ours = MIRA_APPLICATION_IDS[schema.kind];
  const { applicationId, userVersion } = found;
  const upgrade = schema.upgrades?.find((u) => u.from === userVersion);
  if (upgrade && (applicationId === ours || applicationId === 0)) {
    if (found.shape === undefined) return undefined;
    if (found.shape === shapeOfDdl(upgrade.fromDdl)) return { state: 'upgrade', from: upgrade.from };
    if (applicationId === ours) {
      throw SqliteErrors.error('NOT_MIRA.markedButDifferent', {
        path,
        what: schema.what,
        userVersion,
        found: (found.tables ?? []).join(', '),
        setting: schema.setting,
      });
    }
    // Not marked as Mira's and not what that version made: described below like any other foreign file.
  }
  const unrecognisedUpgrade = upgrade !== undefined && found.shape !== undefined;
  if (applicationId === ours) {
    if (userVersion === schema.version) return { state: 'current', adopt: false };
    throw SqliteErrors.error('UNSUPPORTED_VERSION.newer', {
      path,
      what: schema.what,
      userVersion,
      version: schema.version,
    });
  }
  const otherKind = (Object.keys(MIRA_APPLICATION_IDS) as MiraStoreKind[]).find(
    (kind) => MIRA_APPLICATION_IDS[kind] === applicationId,
  );
  if (otherKind) {
    throw SqliteErrors.error('NOT_MIRA.otherStore', { path, otherKind, what: schema.what, setting: schema.setting });
  }
  if (applicationId !== 0) {
    throw SqliteErrors.error('NOT_MIRA.otherApplication', {
      path,
      what: schema.what,
      applicationId: hex(applicationId),
      setting: schema.setting,
    });
  }
  if (found.tables === undefined) return undefined;
  const tables = found.tables;
  if (userVersion === 0 && found.objects === 0) return { state: 'new' };
  if (userVersion === 0) {
    throw SqliteErrors.error('UNVERSIONED.tablesWithoutVersion', {
      path,
      tables: tables.join(', ') || 'none',
      what: schema.what,
      setting: schema.setting,
    });
  }
  const missing = schema.tables.filter((table) => !tables.includes(table));
  // Adopted only when it is exactly what Mira creates (every table and index with its SQL): a file that
  // merely has Mira's table names and version is someone else's, and stays untouched.
  if (userVersion === schema.version && missing.length === 0 && found.shape === shapeOfDdl(schema.ddl))
    return { state: 'current', adopt: true };
  if (!unrecognisedUpgrade && userVersion !== schema.version && tables.some((table) => schema.tables.includes(table))) {
    throw SqliteErrors.error('UNSUPPORTED_VERSION.newer', {
      path,
      what: schema.what,
      userVersion,
      version: schema.version,
    });
  }
  throw SqliteErrors.error('NOT_MIRA.foreignTables', {
    path,
    what: schema.what,
    tables: tables.join(', ') || '(none)',
    userVersion,
    setting: schema.setting,
  });
}

/**
 * Decides, without writing a byte or creating a file beside it, whether a
 * path may be opened: a missing or empty file, or an SQLite file with no
 * schema objects, is new; a file with this store's application ID and schema
 * version is current; a schema-v1 file with this store's tables and no
 * application ID (written before Mira marked its files) is current and
 * adopted; anything else is refused with a distinct code and left unchanged.
 */
export function inspectDatabase(path: string, schema: StoreSchema): Inspection {
  let size: number;
  try {
    const stats = statSync(path);
    if (!stats.isFile()) throw SqliteErrors.error('STORE_OPEN_FAILED.notFile', { path, setting: schema.setting });
    size = stats.size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'new' };
    throw error instanceof MiraError
      ? error
      : SqliteErrors.error('STORE_OPEN_FAILED.stat', { path, reason: (error as Error).message }, { cause: error });
  }
  if (size === 0) return { state: 'new' };
  let header: Buffer;
  try {
    header = readHeader(path);
  } catch (error) {
    throw SqliteErrors.error(
      'STORE_OPEN_FAILED.unreadable',
      { path, reason: (error as Error).message },
      { cause: error },
    );
  }
  if (!isSqliteHeader(header)) throw notSqlite(path, schema);
  const fromHeader: Found = { applicationId: header.readInt32BE(68), userVersion: header.readInt32BE(60) };
  const quick = classify(path, schema, fromHeader);
  if (quick?.state === 'current' && !quick.adopt) assertOwnTables(path, schema, fromHeader);
  if (quick) return quick;
  // The header says no application ID; the schema (and a WAL not yet checkpointed) has the last word.
  return classify(path, schema, readSchema(path, header[18] === 2, schema))!;
}

/**
 * Refuses a file marked with this store's application ID and version that lacks the store's tables: a
 * look-alike, which opening would change (its journal mode, the store's own additions).
 */
function assertOwnTables(path: string, schema: StoreSchema, found: Found): void {
  const complete = (tables: readonly string[] | undefined) =>
    tables !== undefined && schema.tables.every((table) => tables.includes(table));
  // Read from the schema's pages alone: a store of any size costs a few pages here, not an image of it.
  let tables: readonly string[] | undefined = schemaTableNames(path);
  // What is not in the file yet may be in its log (a store just created, not yet checkpointed), and a hot
  // rollback journal may hold what a crashed writer had half written: read as SQLite would, in a copy.
  if (!complete(tables) && (existsSync(`${path}-wal`) || existsSync(`${path}-journal`)))
    tables = readSchema(path, true, schema).tables;
  if (complete(tables)) return;
  throw SqliteErrors.error('NOT_MIRA.markedWithoutTables', {
    path,
    what: schema.what,
    applicationId: hex(found.applicationId),
    userVersion: found.userVersion,
    missing: schema.tables.filter((table) => !tables?.includes(table)).join(', '),
    setting: schema.setting,
  });
}

/** Who may own the side files of a store of `schema`. */
function sideFileOwner(schema: StoreSchema): SideFileOwner {
  const earlier = (schema.upgrades ?? []).map((upgrade) => upgrade.from);
  return {
    applicationId: MIRA_APPLICATION_IDS[schema.kind],
    versions: [schema.version, ...earlier],
    unmarkedVersions: [schema.version, ...earlier],
    version: schema.version,
    tables: schema.tables,
  };
}

/** The database's header when it is an SQLite file, else undefined (no database yet). */
function databaseHeader(path: string): Buffer | undefined {
  if (!existsSync(path)) return undefined;
  const header = readHeader(path);
  return isSqliteHeader(header) ? header : undefined;
}

/** Refuses a file or directory this process cannot write: a store there could keep nothing. */
function assertWritable(path: string, schema: StoreSchema): void {
  for (const [target, what] of [
    [dirname(path), 'its directory'],
    [path, 'the file'],
  ] as const) {
    if (target === path && !existsSync(path)) continue;
    try {
      accessSync(target, constants.W_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS') continue;
      throw SqliteErrors.error(
        'READ_ONLY.permissions',
        { path, what, code, store: schema.what, setting: schema.setting },
        { cause: error },
      );
    }
  }
}

/** What {@link openDatabase} tells its caller. */
export interface OpenHooks {
  /** Hears that a file of an earlier schema version was upgraded, and where its backup is. */
  readonly onUpgrade?: (done: UpgradeDone) => void;
  /** Called once when this open created the store (a new file, or an empty one). */
  readonly onCreated?: () => void;
  /** Where a line for the operator goes (a file made owner-only); `mira: <line>` on stderr by default. */
  readonly log?: (line: string) => void;
}

/**
 * Opens an existing Mira database read-only (for `mira mcp`): nothing is created, marked or written,
 * and the connection refuses writes. A file that is missing, new, foreign or of another version is
 * refused as {@link openDatabase} would refuse it.
 */
export function openDatabaseReadOnly(path: string, busyTimeoutMs: number, schema: StoreSchema): SqliteDatabase {
  const inspection = inspectDatabase(path, schema);
  assertSideFilesOwn(path, databaseHeader(path), sideFileOwner(schema));
  if (inspection.state === 'upgrade') {
    throw SqliteErrors.error('STORE_OPEN_FAILED.needsUpgrade', {
      path,
      what: schema.what,
      from: inspection.from,
      version: schema.version,
    });
  }
  if (inspection.state !== 'current') {
    throw SqliteErrors.error('STORE_OPEN_FAILED.noStoreYet', { path, what: schema.what });
  }
  // SQLite reads a WAL file only with its -wal and -shm beside it, and creates them when they are missing
  // (even read-only): without the console that keeps them, the file is read as an image in memory
  // (nothing beside it is created), which follows the console once it starts.
  const wal = readHeader(path)[18] === 2;
  let db: SqliteDatabase;
  try {
    if (wal && !writerRunning(path)) {
      const log = existsSync(`${path}-wal`) ? readWal(readFileSync(`${path}-wal`)) : undefined;
      if (log && !('why' in log) && log.frames > 0) {
        throw SqliteErrors.error('STORE_OPEN_FAILED.logNotApplied', { path, what: schema.what });
      }
      db = new FollowingDatabase(path, busyTimeoutMs);
    } else db = new Database(path, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
  } catch (error) {
    if (error instanceof MiraError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ERR_FS_FILE_TOO_LARGE') {
      const setting = process.env['SQLITE_USE_URI'] ?? 'unset';
      throw SqliteErrors.error('STORE_OPEN_FAILED.imageTooLarge', { path, setting }, { cause: error });
    }
    throw SqliteErrors.error(
      'STORE_OPEN_FAILED.cannotOpenReadOnly',
      { path, reason: (error as Error).message },
      { cause: error },
    );
  }
  try {
    db.pragma('query_only = ON');
    const applicationId = db.pragma('application_id', { simple: true }) as number;
    const userVersion = db.pragma('user_version', { simple: true }) as number;
    const ours = MIRA_APPLICATION_IDS[schema.kind];
    if (userVersion !== schema.version || (applicationId !== ours && applicationId !== 0)) {
      throw SqliteErrors.error('NOT_MIRA.unreadableBuild', { path, what: schema.what });
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Opens (creating when new) a Mira database: WAL journal, synchronous FULL,
 * foreign keys on, and a busy timeout so a second process waits. Nothing that
 * can write runs before {@link inspectDatabase} has proven the file new or
 * this store's; a symbolic link is followed only to an existing store of this
 * kind, and the files are made owner-only (0600) before SQLite opens them.
 */
export function openDatabase(
  path: string,
  busyTimeoutMs: number,
  schema: StoreSchema,
  hooks: OpenHooks = {},
): SqliteDatabase {
  // Behind a link, the store is its target's (SQLite keeps the side files there too).
  const file = storeFileBehind(path, schema.setting);
  const inspection = assertLinkToStore(path, file, schema.what, schema.setting, () => inspectDatabase(file, schema));
  path = file;
  assertSideFilesOwn(path, databaseHeader(path), sideFileOwner(schema));
  assertWritable(path, schema);
  const ours = MIRA_APPLICATION_IDS[schema.kind];
  let db: Database.Database;
  try {
    // A new file is created owner-only (0600) before SQLite opens it, an existing one made so; SQLite gives
    // the -wal and -shm it creates the database file's mode.
    if (inspection.state === 'new') createOwnerOnly(path);
    const say = hooks.log ?? ((line: string) => process.stderr.write(`mira: ${line}\n`));
    tightenStoreFiles(path, (line) => say(`${schema.kind}: ${line}`));
    db = new Database(path, { timeout: busyTimeoutMs });
  } catch (error) {
    if (error instanceof MiraError) throw error;
    throw SqliteErrors.error(
      'STORE_OPEN_FAILED.cannotOpen',
      { path, reason: (error as Error).message },
      { cause: error },
    );
  }
  try {
    if (inspection.state === 'upgrade') {
      // Upgraded in the file's own journal mode, so that its backup is the file exactly as it was; WAL after.
      db.pragma('synchronous = FULL');
      const done = upgradeDatabase(db, path, schema);
      db.pragma('journal_mode = WAL');
      db.pragma('foreign_keys = ON');
      if (done) hooks.onUpgrade?.(done);
      return db;
    }
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    let marked = false;
    let created = false;
    db.transaction(() => {
      // Another process may have created or marked the file since we looked.
      const found = {
        applicationId: db.pragma('application_id', { simple: true }) as number,
        userVersion: db.pragma('user_version', { simple: true }) as number,
        objects: db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get() as number,
      };
      if (found.applicationId === ours && found.userVersion === schema.version) return;
      if (
        inspection.state === 'current' &&
        inspection.adopt &&
        found.applicationId === 0 &&
        found.userVersion === schema.version
      ) {
        db.pragma(`application_id = ${ours}`);
        marked = true;
        return;
      }
      if (inspection.state === 'new' && found.applicationId === 0 && found.userVersion === 0 && found.objects === 0) {
        db.exec(schema.ddl);
        db.pragma(`user_version = ${schema.version}`);
        db.pragma(`application_id = ${ours}`);
        marked = true;
        created = true;
        return;
      }
      throw SqliteErrors.error('UNVERSIONED.changedWhileOpening', { path });
    }).immediate();
    // The mark is in the log until a checkpoint: copied into the file now, its header names the store, and
    // every later inspection (`mira mcp` beside this console, say) reads it there instead of recovering the
    // log from a private copy of the file (30-90 ms of `mira mcp`'s start-up beside a new store's console).
    if (marked) db.pragma('wal_checkpoint(PASSIVE)');
    if (created) hooks.onCreated?.();
    return db;
  } catch (error) {
    db.close();
    if (error instanceof MiraError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_READONLY' || code === 'SQLITE_CANTOPEN') {
      throw SqliteErrors.error(
        'READ_ONLY.notWritable',
        { path, reason: (error as Error).message, what: schema.what },
        { cause: error },
      );
    }
    throw SqliteErrors.error(
      'STORE_OPEN_FAILED.cannotPrepare',
      { path, reason: (error as Error).message },
      { cause: error },
    );
  }
}

/** Makes a new directory entry (the backup's) durable. */
function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A path beside `path` that does not exist yet: `<path>.v1.bak`, then `<path>.v1.bak.2`, … */
function backupPathFor(path: string, from: number): string {
  const base = `${path}.v${from}.bak`;
  for (let n = 1; ; n += 1) {
    const candidate = n === 1 ? base : `${base}.${n}`;
    if (!existsSync(candidate)) return candidate;
  }
}

/**
 * Upgrades a recognised file of an earlier version in one immediate transaction: checks again, under
 * the write lock, that the file is still that version and shape (another process may have upgraded it
 * meanwhile: then there is nothing to do), writes a backup of the database as it is, byte for byte,
 * beside it (fsynced), runs the upgrade with foreign keys off, checks them, and sets the version.
 */
function upgradeDatabase(db: Database.Database, path: string, schema: StoreSchema): UpgradeDone | undefined {
  const ours = MIRA_APPLICATION_IDS[schema.kind];
  db.pragma('foreign_keys = OFF');
  try {
    return db
      .transaction((): UpgradeDone | undefined => {
        const applicationId = db.pragma('application_id', { simple: true }) as number;
        const userVersion = db.pragma('user_version', { simple: true }) as number;
        if (applicationId === ours && userVersion === schema.version) return undefined;
        const upgrade = schema.upgrades?.find((u) => u.from === userVersion);
        if (
          !upgrade ||
          (applicationId !== ours && applicationId !== 0) ||
          shapeOf(db) !== shapeOfDdl(upgrade.fromDdl)
        ) {
          throw SqliteErrors.error('UNVERSIONED.changedWhileOpening', { path });
        }
        // The file as it is, under the write lock and before anything is written: in rollback-journal mode
        // its bytes on disk; in WAL mode the database as its WAL makes it (the main file alone lacks it).
        const wal = (db.pragma('journal_mode', { simple: true }) as string) === 'wal';
        const image = wal ? db.serialize() : readFileSync(path);
        upgrade.run(db);
        const broken = db.pragma('foreign_key_check') as unknown[];
        if (broken.length > 0) {
          // Refused before anything is kept: no backup, and the next start refuses the same way.
          throw SqliteErrors.error('STORE_OPEN_FAILED.brokenReferences', {
            path,
            from: upgrade.from,
            count: broken.length,
            setting: schema.setting,
          });
        }
        const backupPath = backupPathFor(path, upgrade.from);
        const fd = openSync(backupPath, 'wx', 0o600);
        try {
          writeSync(fd, image);
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
        fsyncDirectory(dirname(path));
        db.pragma(`user_version = ${schema.version}`);
        db.pragma(`application_id = ${ours}`);
        return { from: upgrade.from, to: schema.version, backupPath };
      })
      .immediate();
  } finally {
    db.pragma('foreign_keys = ON');
  }
}
