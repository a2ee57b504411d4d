/**
 * The SQLite store's objects: content-addressed files beside the database, as the persistent-memory
 * specification's companion layout has them (`data/memory.sqlite3`, `data/objects/…`):
 * `objects/sha256/ab/cdef…` (the digest's first two hex digits, then the rest). A file is written
 * whole or not at all (a temporary file, fsync'd, renamed into place, the directory fsync'd), readable
 * by its owner only (0600, directories 0700), and never rewritten: the same bytes have the same name.
 * `objects/DATABASE` names the database the directory belongs to, so a second database in the same
 * directory can never collect the first one's objects; it too is written whole or not at all.
 *
 * The directory may hold files that are not Mira's: only what Mira can prove its own is removed (a
 * temporary file named `.mira-tmp-…` with a random suffix, a regular file of this user; an object file
 * named by its digest — in a directory without Mira's marker, only one of this user whose bytes hash to
 * that digest, and likewise an earlier build's `tmp/<digest>.<suffix>`), and only regular files are read,
 * each opened without blocking (a FIFO there would otherwise hold the runtime).
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  readdirSync,
  renameSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { MemoryErrors, SHA256_HEX, sha256Hex, type ObjectUsage, type PreparedObject } from '@mira/memory-contract';

/** What writes a file's bytes: `fs.writeSync` (a test passes one that fails as a full disk does). */
export type WriteSeam = (fd: number, bytes: Uint8Array, offset: number) => number;

/** The prefix of Mira's temporary files, then what they become and a random suffix of 12 hex digits. */
const TMP_PREFIX = '.mira-tmp-';
const OWN_TMP = /^\.mira-tmp-(DATABASE|[0-9a-f]{62})-[0-9a-f]{12}$/;
/** Temporary files earlier builds left in `objects/tmp/`: `<sha256>.<12 hex digits>`. */
const OWN_LEGACY_TMP = /^[0-9a-f]{64}\.[0-9a-f]{12}$/;

/** A regular file's bytes, opened without blocking: anything else (a FIFO, a device) is refused. */
export function readRegularFile(path: string): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      throw Object.assign(new Error(`${path} is not a regular file; it was not read`), { code: 'ENOTREGULAR' });
    }
    const bytes = Buffer.alloc(stats.size);
    for (let at = 0; at < bytes.length;) {
      const read = readSync(fd, bytes, at, bytes.length - at, at);
      if (read === 0) return bytes.subarray(0, at);
      at += read;
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/** True for a regular file of this user (not a link, FIFO or directory): what Mira may have made. */
function ownRegularFile(path: string): boolean {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  return stats !== undefined && stats.isFile() && (process.getuid === undefined || stats.uid === process.getuid());
}

/** The objects of one SQLite memory database. */
export class ObjectFiles {
  /** `objects/` beside the database. */
  readonly root: string;
  readonly #database: string;
  readonly #write: WriteSeam;

  constructor(databasePath: string, write: WriteSeam = (fd, bytes, offset) => writeSync(fd, bytes, offset)) {
    this.root = join(dirname(databasePath), 'objects');
    this.#database = basename(databasePath);
    this.#write = write;
  }

  /**
   * Writes `bytes` to a new temporary file of Mira's in `dir` (0600), fsync'd; on failure it is removed.
   * Its path is returned for the caller to move into place.
   */
  #writeTemporary(dir: string, what: string, bytes: Uint8Array): string {
    const tmp = join(dir, `${TMP_PREFIX}${what}-${randomBytes(6).toString('hex')}`);
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      for (let at = 0; at < bytes.length;) at += this.#write(fd, bytes, at);
      fsyncSync(fd);
    } catch (error) {
      closeSync(fd);
      unlinkSync(tmp);
      throw error;
    }
    closeSync(fd);
    return tmp;
  }

  /** Where the object with this digest lies. */
  pathOf(sha256: string): string {
    return join(this.root, 'sha256', sha256.slice(0, 2), sha256.slice(2));
  }

  /**
   * The database this directory belongs to: claimed by the first one to store an object here, with a
   * marker written whole (a temporary file linked into place), so a failed write leaves no marker. An
   * empty marker (what an earlier build left when its write failed) names no database and is claimed.
   */
  #claim(): void {
    const marker = join(this.root, 'DATABASE');
    const found = lstatSync(marker, { throwIfNoEntry: false });
    if (found && !(found.isFile() && found.size === 0)) {
      this.#assertOwn(marker);
      return;
    }
    mkdirSync(this.root, { recursive: true, mode: 0o700 });
    const tmp = this.#writeTemporary(this.root, 'DATABASE', Buffer.from(`${this.#database}\n`));
    try {
      // An empty marker is replaced; otherwise the link fails if another process claimed it meanwhile.
      if (found) renameSync(tmp, marker);
      else linkSync(tmp, marker);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      if (existsSync(tmp)) unlinkSync(tmp);
    }
    this.#assertOwn(marker);
  }

  #assertOwn(marker = join(this.root, 'DATABASE')): void {
    const owner = readRegularFile(marker).toString('utf8').trim();
    if (owner !== this.#database)
      throw MemoryErrors.error('OBJECTS_SHARED', { root: this.root, owner, database: this.#database });
  }

  /**
   * Stores the object unless a file of its digest is there already with those bytes (a damaged one is
   * replaced: the bytes in hand are the right ones; a sound one is touched, so its age starts again).
   */
  put(object: PreparedObject): void {
    const target = this.pathOf(object.sha256);
    if (existsSync(target) && sha256Hex(readRegularFile(target)) === object.sha256) {
      // Young again: a collection in another process must not take it before the new rows commit.
      const now = new Date();
      utimesSync(target, now, now);
      return;
    }
    this.#claim();
    const dir = dirname(target);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Beside its target: the rename stays in one directory, and the name says whose it is.
    const tmp = this.#writeTemporary(dir, object.sha256.slice(2), object.bytes);
    try {
      renameSync(tmp, target);
    } catch (error) {
      unlinkSync(tmp);
      throw error;
    }
    const dirFd = openSync(dir, 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  }

  /** The bytes of an object as they lie (not yet verified), or undefined when there is no such file. */
  get(sha256: string): { bytes: Buffer; where: string } | undefined {
    const where = this.pathOf(sha256);
    try {
      return { bytes: readRegularFile(where), where };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Every stored object: its digest, size and age. */
  *#files(): Generator<{ sha256: string; path: string; size: number; mtimeMs: number }> {
    const top = join(this.root, 'sha256');
    if (!existsSync(top)) return;
    for (const prefix of readdirSync(top)) {
      if (!/^[0-9a-f]{2}$/.test(prefix)) continue;
      for (const rest of readdirSync(join(top, prefix))) {
        const sha256 = prefix + rest;
        if (!SHA256_HEX.test(sha256)) continue;
        const path = join(top, prefix, rest);
        const stats = lstatSync(path, { throwIfNoEntry: false });
        if (!stats?.isFile()) continue;
        yield { sha256, path, size: stats.size, mtimeMs: stats.mtimeMs };
      }
    }
  }

  usage(): ObjectUsage {
    let objects = 0;
    let bytes = 0;
    for (const file of this.#files()) {
      objects += 1;
      bytes += file.size;
    }
    return { objects, bytes };
  }

  /**
   * Removes the objects not in `referenced` (and unfinished temporary files) older than `graceMs`.
   * Refuses a directory another database claimed.
   */
  collect(referenced: ReadonlySet<string>, graceMs: number, nowMs: number): ObjectUsage {
    if (!existsSync(this.root)) return { objects: 0, bytes: 0 };
    const marker = lstatSync(join(this.root, 'DATABASE'), { throwIfNoEntry: false });
    const claimed = marker !== undefined && !(marker.isFile() && marker.size === 0);
    if (claimed) this.#assertOwn();
    // Without Mira's marker the directory may be another program's that merely uses names like Mira's: a
    // file there is taken as Mira's only when it is this user's and its bytes hash to the digest it names.
    const proven = (path: string, sha256: string) =>
      claimed || (ownRegularFile(path) && sha256Hex(readRegularFile(path)) === sha256);
    let objects = 0;
    let bytes = 0;
    for (const file of [...this.#files()]) {
      if (referenced.has(file.sha256) || nowMs - file.mtimeMs < graceMs) continue;
      if (!proven(file.path, file.sha256)) continue;
      unlinkSync(file.path);
      objects += 1;
      bytes += file.size;
    }
    // Unfinished temporary files: only those Mira named, of this user, past the grace period.
    const top = join(this.root, 'sha256');
    const places: [string, RegExp][] = [
      [this.root, OWN_TMP],
      [join(this.root, 'tmp'), OWN_LEGACY_TMP],
      ...(existsSync(top)
        ? readdirSync(top)
            .filter((prefix) => /^[0-9a-f]{2}$/.test(prefix))
            .map((prefix): [string, RegExp] => [join(top, prefix), OWN_TMP])
        : []),
    ];
    for (const [dir, own] of places) {
      if (!lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()) continue;
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (!own.test(name) || !ownRegularFile(path)) continue;
        // An earlier build's name says only a digest: unmarked, its bytes must be that digest's.
        if (own === OWN_LEGACY_TMP && !proven(path, name.slice(0, 64))) continue;
        if (nowMs - lstatSync(path).mtimeMs >= graceMs) unlinkSync(path);
      }
    }
    return { objects, bytes };
  }
}
