/**
 * The SQLite store's objects: content-addressed files beside the database, as the persistent-memory
 * specification's companion layout has them (`data/memory.sqlite3`, `data/objects/…`):
 * `objects/sha256/ab/cdef…` (the digest's first two hex digits, then the rest). A file is written
 * whole or not at all (a temporary file, fsync'd, renamed into place, the directory fsync'd), readable
 * by its owner only (0600, directories 0700), and never rewritten: the same bytes have the same name.
 * `objects/DATABASE` names the database the directory belongs to, so a second database in the same
 * directory can never collect the first one's objects.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { MemoryErrors, SHA256_HEX, sha256Hex, type ObjectUsage, type PreparedObject } from '@mira/core';

/** The objects of one SQLite memory database. */
export class ObjectFiles {
  /** `objects/` beside the database. */
  readonly root: string;
  readonly #database: string;

  constructor(databasePath: string) {
    this.root = join(dirname(databasePath), 'objects');
    this.#database = basename(databasePath);
  }

  /** Where the object with this digest lies. */
  pathOf(sha256: string): string {
    return join(this.root, 'sha256', sha256.slice(0, 2), sha256.slice(2));
  }

  /** The database this directory belongs to: claimed by the first one to store an object here. */
  #claim(): void {
    const marker = join(this.root, 'DATABASE');
    if (!existsSync(marker)) {
      mkdirSync(this.root, { recursive: true, mode: 0o700 });
      writeFileSync(marker, `${this.#database}\n`, { mode: 0o600, flag: 'wx' });
      return;
    }
    this.#assertOwn(marker);
  }

  #assertOwn(marker = join(this.root, 'DATABASE')): void {
    const owner = readFileSync(marker, 'utf8').trim();
    if (owner !== this.#database)
      throw MemoryErrors.error('OBJECTS_SHARED', { root: this.root, owner, database: this.#database });
  }

  /**
   * Stores the object unless a file of its digest is there already with those bytes (a damaged one is
   * replaced: the bytes in hand are the right ones; a sound one is touched, so its age starts again).
   */
  put(object: PreparedObject): void {
    const target = this.pathOf(object.sha256);
    if (existsSync(target) && sha256Hex(readFileSync(target)) === object.sha256) {
      // Young again: a collection in another process must not take it before the new rows commit.
      const now = new Date();
      utimesSync(target, now, now);
      return;
    }
    this.#claim();
    const dir = dirname(target);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmpDir = join(this.root, 'tmp');
    mkdirSync(tmpDir, { recursive: true, mode: 0o700 });
    const tmp = join(tmpDir, `${object.sha256}.${randomBytes(6).toString('hex')}`);
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      for (let at = 0; at < object.bytes.length;) at += writeSync(fd, object.bytes, at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
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
      return { bytes: readFileSync(where), where };
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
        const { size, mtimeMs } = statSync(path);
        yield { sha256, path, size, mtimeMs };
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
    if (existsSync(join(this.root, 'DATABASE'))) this.#assertOwn();
    let objects = 0;
    let bytes = 0;
    for (const file of [...this.#files()]) {
      if (referenced.has(file.sha256) || nowMs - file.mtimeMs < graceMs) continue;
      unlinkSync(file.path);
      objects += 1;
      bytes += file.size;
    }
    const tmpDir = join(this.root, 'tmp');
    if (existsSync(tmpDir)) {
      for (const name of readdirSync(tmpDir)) {
        const path = join(tmpDir, name);
        if (nowMs - statSync(path).mtimeMs >= graceMs) unlinkSync(path);
      }
    }
    return { objects, bytes };
  }
}
