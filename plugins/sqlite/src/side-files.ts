/**
 * Proof that a `-wal` or `-journal` beside a database is that database's own, before SQLite opens it: at
 * open SQLite applies an orphan write-ahead log to the database (and deletes it at close) and rolls a
 * hot journal back into it (and deletes it), whatever database the side file came from. Nothing in
 * either file names its database, so the proof is built from what ties them to it:
 *
 * - a `-wal` that a live SQLite connection holds open on this very file (its `-shm` is locked) is that
 *   connection's;
 * - an orphan `-wal` must be a well-formed log (header and frame checksums, the database's page size); one
 *   with no committed transaction changes nothing and is taken as it is; otherwise a page-1
 *   image in it must carry this store's application ID; and the database as the log makes it, built in a
 *   private copy, must still be this store's file (application ID, schema version, its tables) and pass
 *   `PRAGMA quick_check` (another database's pages break its b-trees);
 * - a `-journal` must be a well-formed journal of the database's page size that holds the original of
 *   page 1 (every write transaction in rollback mode journals it) with this store's application ID (or
 *   none, for a file an upgrade was marking) and a change counter equal to, or one below, the database's.
 *
 * A side file without its database (a `-shm` included) is never the store's. What cannot be proven is
 * refused, named, and left as it is.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import './uri-names.js'; // before any connection: SQLite reads URI names
import { SqliteErrors } from './errors.js';

const WAL_HEADER = 32;
const WAL_FRAME_HEADER = 24;
const JOURNAL_MAGIC = Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]);
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const NO_DATABASE = 'there is no database beside it';

/** What a side-file check needs to know of the store. */
export interface SideFileOwner {
  /** The store's application ID. */
  readonly applicationId: number;
  /** Schema versions an ID-less file of this store may have (those with an upgrade). */
  readonly unmarkedVersions: readonly number[];
  /** Schema versions a file marked with the ID may have (the current one and those with an upgrade). */
  readonly versions: readonly number[];
  /** The current schema version and the tables it has. */
  readonly version: number;
  readonly tables: readonly string[];
}

/** The page size a database header names (1 stands for 65536). */
function pageSizeOf(header: Buffer): number {
  const size = header.readUInt16BE(16);
  return size === 1 ? 65536 : size;
}

/** SQLite's WAL checksum over `data` (a multiple of 8 bytes), continuing from `s`. */
function walChecksum(data: Buffer, bigEndian: boolean, s: [number, number]): [number, number] {
  let [s0, s1] = s;
  for (let i = 0; i < data.length; i += 8) {
    const x0 = bigEndian ? data.readUInt32BE(i) : data.readUInt32LE(i);
    const x1 = bigEndian ? data.readUInt32BE(i + 4) : data.readUInt32LE(i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}

/** A write-ahead log read as SQLite's recovery reads it: its committed frames, or why it is not one. */
export function readWal(wal: Buffer): { pageSize: number; frames: number; pageOne?: Buffer } | { why: string } {
  if (wal.length < WAL_HEADER) return { why: 'shorter than a write-ahead log header' };
  const magic = wal.readUInt32BE(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return { why: 'no write-ahead log magic number' };
  if (wal.readUInt32BE(4) !== 3007000) return { why: 'an unknown write-ahead log version' };
  const bigEndian = (magic & 1) === 1;
  const pageSize = wal.readUInt32BE(8);
  let sum = walChecksum(wal.subarray(0, 24), bigEndian, [0, 0]);
  if (sum[0] !== wal.readUInt32BE(24) || sum[1] !== wal.readUInt32BE(28))
    return { why: 'its header checksum is wrong' };
  const salts = wal.subarray(16, 24);
  let frames = 0;
  let pageOne: Buffer | undefined;
  let pending: Buffer | undefined;
  for (let at = WAL_HEADER; at + WAL_FRAME_HEADER + pageSize <= wal.length; at += WAL_FRAME_HEADER + pageSize) {
    const header = wal.subarray(at, at + WAL_FRAME_HEADER);
    const page = wal.subarray(at + WAL_FRAME_HEADER, at + WAL_FRAME_HEADER + pageSize);
    if (!header.subarray(8, 16).equals(salts)) break;
    sum = walChecksum(page, bigEndian, walChecksum(header.subarray(0, 8), bigEndian, sum));
    if (sum[0] !== header.readUInt32BE(16) || sum[1] !== header.readUInt32BE(20)) break;
    if (header.readUInt32BE(0) === 1) pending = page;
    // Only frames up to the last commit count, as in SQLite's recovery.
    if (header.readUInt32BE(4) !== 0) {
      frames = (at - WAL_HEADER) / (WAL_FRAME_HEADER + pageSize) + 1;
      if (pending) pageOne = pending;
    }
  }
  return { pageSize, frames, ...(pageOne && { pageOne }) };
}

/**
 * True when a process holds a POSIX lock on `file` (Linux's `/proc/locks`): SQLite keeps one on the
 * `-shm` of a database it has open in WAL mode. Undefined where that cannot be read.
 */
function lockedByAProcess(file: string): boolean | undefined {
  let locks: string;
  try {
    locks = readFileSync('/proc/locks', 'utf8');
  } catch {
    return undefined;
  }
  let stats: { dev: bigint; ino: bigint };
  try {
    stats = statSync(file, { bigint: true });
  } catch (error) {
    // Removed since it was seen: the last connection closed, and nobody holds it.
    if (vanished(error)) return false;
    throw error;
  }
  const { dev, ino } = stats;
  // glibc's major()/minor() of a dev_t; /proc/locks prints them in hex.
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
  const minor = (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
  const id = `${major.toString(16).padStart(2, '0')}:${minor.toString(16).padStart(2, '0')}:${ino}`;
  return locks.split('\n').some((line) => line.split(/\s+/).includes(id));
}

/** Why an orphan `-wal` is not the database's own, or undefined when it is. */
function whyWalIsForeign(path: string, header: Buffer, owner: SideFileOwner): string | undefined {
  const side = `${path}-wal`;
  const wal = readWal(readFileSync(side));
  if ('why' in wal) return wal.why;
  if (wal.pageSize !== pageSizeOf(header))
    return `its pages are ${wal.pageSize} bytes, the database's ${pageSizeOf(header)}`;
  // No committed transaction: SQLite applies nothing of it (a writer killed inside its first one leaves this).
  if (wal.frames === 0) return undefined;
  if (
    wal.pageOne &&
    !(wal.pageOne.subarray(0, 16).equals(SQLITE_MAGIC) && wal.pageOne.readInt32BE(68) === owner.applicationId)
  )
    return 'the database header it holds is not this store’s';
  // The database as the log makes it, in a private copy: what SQLite would make of the file itself.
  const dir = mkdtempSync(join(tmpdir(), 'mira-wal-proof-'));
  try {
    const copy = join(dir, basename(path));
    copyFileSync(path, copy);
    copyFileSync(side, `${copy}-wal`);
    let db: Database.Database | undefined;
    try {
      db = new Database(copy, { fileMustExist: true });
      const applicationId = db.pragma('application_id', { simple: true }) as number;
      const version = db.pragma('user_version', { simple: true }) as number;
      const marked = applicationId === owner.applicationId && owner.versions.includes(version);
      if (!marked && !(applicationId === 0 && owner.unmarkedVersions.includes(version)))
        return 'with it applied, the database would no longer be this store’s';
      const tables = new Set(db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all());
      if (version === owner.version && !owner.tables.every((table) => tables.has(table)))
        return 'with it applied, the database would lack this store’s tables';
      const check = db.pragma('quick_check', { simple: true });
      if (check !== 'ok') return `with it applied, the database would be damaged (${String(check)})`;
    } catch (error) {
      return `with it applied, the database cannot be read (${(error as Error).message})`;
    } finally {
      db?.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return undefined;
}

/** Why a `-journal` is not the database's own, or undefined when it is. */
function whyJournalIsForeign(path: string, header: Buffer, owner: SideFileOwner): string | undefined {
  const journal = readFileSync(`${path}-journal`);
  if (journal.length < 28 || !journal.subarray(0, 8).equals(JOURNAL_MAGIC)) return 'no rollback journal header';
  const pageSize = journal.readUInt32BE(24);
  const sectorSize = journal.readUInt32BE(20);
  if (pageSize !== pageSizeOf(header)) return `its pages are ${pageSize} bytes, the database's ${pageSizeOf(header)}`;
  if (sectorSize < 32 || sectorSize > 65536) return 'an impossible sector size in its header';
  const record = 4 + pageSize + 4;
  for (let at = sectorSize; at + record <= journal.length; at += record) {
    if (journal.readUInt32BE(at) !== 1) continue;
    const pageOne = journal.subarray(at + 4, at + 4 + pageSize);
    if (!pageOne.subarray(0, 16).equals(SQLITE_MAGIC)) return 'the page 1 it holds is not an SQLite header';
    const applicationId = pageOne.readInt32BE(68);
    const version = pageOne.readInt32BE(60);
    const unmarked = applicationId === 0 && owner.unmarkedVersions.includes(version);
    if (!(applicationId === owner.applicationId && owner.versions.includes(version)) && !unmarked)
      return 'the database header it holds is not this store’s';
    const counter = header.readUInt32BE(24);
    const journalled = pageOne.readUInt32BE(24);
    if (counter !== journalled && counter !== (journalled + 1) >>> 0)
      return `it holds change ${journalled} of a database, this one is at change ${counter}`;
    return undefined;
  }
  return 'it holds no page 1, so nothing ties it to this database';
}

/**
 * Refuses, naming it, a `-wal` or `-journal` beside `path` that cannot be proven the database's own
 * (see the module's description). `header` is the database's first 100 bytes, or undefined when there
 * is no database yet. Reads only; changes nothing.
 */
export function assertSideFilesOwn(path: string, header: Buffer | undefined, owner: SideFileOwner): void {
  // A -shm beside no database is another's: SQLite would reset it at open and delete it at close.
  if (header === undefined && existsSync(`${path}-shm`)) {
    const side = `${path}-shm`;
    throw SqliteErrors.error('FOREIGN_SIDE_FILE', { side, path, what: 'shared-memory index', why: NO_DATABASE });
  }
  for (const suffix of ['-journal', '-wal'] as const) {
    const side = `${path}${suffix}`;
    if (!existsSync(side)) continue;
    const what = suffix === '-wal' ? 'write-ahead log' : 'rollback journal';
    let why: string | undefined;
    try {
      why = whySideFileIsForeign(path, suffix, header, owner);
    } catch (error) {
      // Another process's last connection closed meanwhile and SQLite removed its side files: what is
      // gone has nothing left to apply.
      if (vanished(error) && !existsSync(side)) continue;
      throw error;
    }
    if (why !== undefined) throw SqliteErrors.error('FOREIGN_SIDE_FILE', { side, path, what, why });
  }
}

/** Why the side file is not the database's own, or undefined when it is (or has nothing to apply). */
function whySideFileIsForeign(
  path: string,
  suffix: '-journal' | '-wal',
  header: Buffer | undefined,
  owner: SideFileOwner,
): string | undefined {
  if (header === undefined) return NO_DATABASE;
  if (suffix === '-journal') return whyJournalIsForeign(path, header, owner);
  if (statSync(`${path}-wal`).size === 0) return undefined; // empty: nothing in it to apply
  // A log that a running connection holds (its -shm is locked) is that connection's, on this file.
  if (existsSync(`${path}-shm`) && lockedByAProcess(`${path}-shm`)) return undefined;
  return whyWalIsForeign(path, header, owner);
}

const vanished = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';
