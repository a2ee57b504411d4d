import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '@mira/core';

/**
 * Who gave a keyed call its key: the operator (a key the operator typed in the current utterance of an
 * operator episode), the model in an operator episode (any other key there: the model's own guess), autonomous
 * episodes (attention, initiative, goal, temporal, monitor), or another agent over MCP (`mira mcp`).
 */
export type KeyOrigin = 'operator' | 'model' | 'autonomous' | 'mcp';
/** Every origin, in the order lockouts are listed. */
export const KEY_ORIGINS: readonly KeyOrigin[] = ['operator', 'model', 'autonomous', 'mcp'];

/**
 * How many keyed calls that found nothing (a wrong key) an origin takes in a scope within a sliding window
 * before its keyed calls there are refused until the window has passed (`[notes] key_miss_limit`,
 * `[notes] key_miss_window_minutes`).
 */
export interface KeyGuardLimits {
  readonly misses: number;
  readonly windowMs: number;
}
/** 5 wrong keys per 15 minutes per scope and origin. */
export const DEFAULT_KEY_GUARD: KeyGuardLimits = { misses: 5, windowMs: 15 * 60_000 };

/**
 * Keyed calls of one origin refused in a scope: how many of that origin's misses the window holds, and when it
 * lets one go. The other origins are not refused: no origin's misses lock another.
 */
export interface KeyLockout {
  readonly scope: string;
  readonly origin: KeyOrigin;
  readonly misses: number;
  readonly until: Date;
}

/** One line of the guard file: a miss (with its origin) or the operator's unlock of a scope. */
interface GuardRecord {
  readonly at: number;
  readonly scope: string;
  readonly origin?: KeyOrigin;
  readonly unlock?: true;
}

/** The guard file is rewritten with only the records still in the window once it grows past this. */
const COMPACT_BYTES = 64 * 1024;
const GUARD_FILE = 'misses';
/** Temporary files of a compaction: named so the guard can tell its own from anything else. */
const TEMP_PREFIX = `${GUARD_FILE}.compact-`;

/**
 * Bounds key guessing per scope and per origin, across processes and restarts, without writing to the
 * notes file: misses go to a small file of the guard's own, `<notes file>.key-guard/misses` (the
 * directory 0700, the file 0600), one JSON line appended per miss (a single `O_APPEND` write, so
 * processes sharing it lose none), rewritten atomically (a temporary file renamed over it) when it grows.
 * `mira mcp`, which opens the notes file read-only, counts its misses there too, so restarting it does not
 * give a client a fresh budget.
 *
 * Whose misses lock whom: a miss counts against its own origin alone. The model's guesses — in operator
 * episodes as in autonomous ones — and an MCP client's never lock a key the operator typed, so the model
 * cannot turn the lockout against the operator; the operator's own typed misses lock only the operator's
 * typed keys (the operator reads every note at the console anyway).
 */
export class KeyGuard {
  readonly #dir: string;
  readonly #file: string;
  readonly #limits: KeyGuardLimits;
  readonly #clock: Clock;
  readonly #log: (message: string) => void;
  /** Misses counted in this process and not yet appended (they are, just after the call that made them answered). */
  #pending: GuardRecord[] = [];
  #flushing: NodeJS.Immediate | undefined;
  /** The file as last read: its inode, how many bytes were read, and the records in them. */
  #cache: { ino: number; size: number; records: GuardRecord[] } = { ino: -1, size: 0, records: [] };

  constructor(storePath: string, limits: KeyGuardLimits, clock: Clock, log: (message: string) => void) {
    this.#dir = `${storePath}.key-guard`;
    this.#file = join(this.#dir, GUARD_FILE);
    this.#limits = limits;
    this.#clock = clock;
    this.#log = log;
  }

  /** Where misses are kept. */
  get file(): string {
    return this.#file;
  }

  /** The lockout of `origin`'s keyed calls in `scope`, if the misses that count against it reached the limit. */
  lockout(scope: string, origin: KeyOrigin): KeyLockout | undefined {
    const now = this.#clock.now().getTime();
    return this.#lockoutOf(this.#records(now), scope, now, origin);
  }

  /** Every scope and origin locked now, by scope, then in the order of {@link KEY_ORIGINS}. */
  lockouts(): KeyLockout[] {
    const now = this.#clock.now().getTime();
    const records = this.#records(now);
    const scopes = [...new Set(records.map((r) => r.scope))].sort();
    return scopes.flatMap((scope) =>
      KEY_ORIGINS.flatMap((origin) => this.#lockoutOf(records, scope, now, origin) ?? []),
    );
  }

  /**
   * Counts a keyed call of `origin` in `scope` that found nothing: at once in this process, and in the
   * file right after the call answered, so that a wrong key's answer takes no longer than no key's.
   */
  recordMiss(scope: string, origin: KeyOrigin): void {
    this.#pending.push({ at: this.#clock.now().getTime(), scope, origin });
    this.#flushing ??= setImmediate(() => this.flush());
  }

  /** The operator ends a scope's lockouts, every origin's: its misses are forgotten. Returns how many there were. */
  clear(scope: string): number {
    const now = this.#clock.now().getTime();
    const held = this.#records(now).filter((r) => r.scope === scope).length;
    this.#pending = this.#pending.filter((r) => r.scope !== scope);
    this.#append([{ at: now, scope, unlock: true }]);
    return held;
  }

  /** Writes the misses not yet in the file (closing the store does; so does the next turn of the event loop). */
  flush(): void {
    clearImmediate(this.#flushing);
    this.#flushing = undefined;
    if (this.#pending.length === 0) return;
    if (this.#append(this.#pending)) this.#pending = [];
  }

  /**
   * The misses in the window that ends at `now` that no later unlock of their scope forgot, the pending
   * ones included, oldest first. "Later" is the file's order (appends are), not the clock's: an unlock in
   * the same millisecond as a miss still follows it.
   */
  #records(now: number): GuardRecord[] {
    const since = now - this.#limits.windowMs;
    let kept: GuardRecord[] = [];
    for (const r of [...this.#read(), ...this.#pending]) {
      if (r.unlock) kept = kept.filter((k) => k.scope !== r.scope);
      else if (r.at > since) kept.push(r);
    }
    return kept.sort((a, b) => a.at - b.at);
  }

  #lockoutOf(records: readonly GuardRecord[], scope: string, now: number, origin: KeyOrigin): KeyLockout | undefined {
    const misses = records.filter((r) => r.scope === scope && r.origin === origin).map((r) => r.at);
    if (misses.length < this.#limits.misses) return undefined;
    // Open again when the oldest of the newest `limit` misses leaves the window.
    const until = new Date(misses[misses.length - this.#limits.misses]! + this.#limits.windowMs);
    if (until.getTime() <= now) return undefined;
    return { scope, origin, misses: misses.length, until };
  }

  /**
   * The file's records. Appends are read alone (the file only grows between compactions, which give it a
   * new inode), so a keyed call costs a `stat` and the bytes written since the last.
   */
  #read(): GuardRecord[] {
    let fd: number;
    try {
      fd = openSync(this.#file, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.#failed('read', error);
      this.#cache = { ino: -1, size: 0, records: [] };
      return [];
    }
    try {
      const { ino, size } = fstatSync(fd);
      const cache = ino === this.#cache.ino && size >= this.#cache.size ? this.#cache : { ino, size: 0, records: [] };
      if (size === cache.size) return cache.records;
      const bytes = Buffer.alloc(size - cache.size);
      const got = readSync(fd, bytes, 0, bytes.length, cache.size);
      // Up to the last whole line: a torn last line (a write in progress) is read with the next.
      const whole = bytes.subarray(0, bytes.subarray(0, got).lastIndexOf(0x0a) + 1);
      const records = [...cache.records];
      for (const line of whole.toString('utf8').split('\n')) {
        const record = parseRecord(line);
        if (record) records.push(record);
      }
      this.#cache = { ino, size: cache.size + whole.length, records };
      return records;
    } catch (error) {
      this.#failed('read', error);
      return this.#cache.records;
    } finally {
      closeSync(fd);
    }
  }

  /** Appends records in one write; compacts the file first when it has grown. False when it could not. */
  #append(records: readonly GuardRecord[]): boolean {
    try {
      this.#ensureDir();
      this.#compactIfLarge();
      const fd = openSync(
        this.#file,
        constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
        0o600,
      );
      try {
        this.#ownerOnly(fd, this.#file, 0o600);
        writeSync(fd, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
      } finally {
        closeSync(fd);
      }
      return true;
    } catch (error) {
      // Still counted in this process; written with the next miss.
      this.#failed('record a wrong key in', error);
      return false;
    }
  }

  /** Makes the guard's own directory (0700); anything else at its path is refused, never changed. */
  #ensureDir(): void {
    try {
      mkdirSync(this.#dir, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const stat = lstatSync(this.#dir);
      if (!stat.isDirectory()) throw new Error(`${this.#dir} exists and is not a directory; it was left as it is`);
      const fd = openSync(this.#dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
      try {
        this.#ownerOnly(fd, this.#dir, 0o700);
      } finally {
        closeSync(fd);
      }
    }
  }

  /** Tightens a guard file or directory that group or others can reach (one made before, or by hand), saying so. */
  #ownerOnly(fd: number, path: string, mode: number): void {
    const stats = fstatSync(fd);
    const was = stats.mode & 0o777;
    // Another user's (a `mira mcp` run by someone else on a file it may write): theirs to change, and the
    // miss is still written.
    if ((was & 0o077) === 0 || (process.getuid !== undefined && stats.uid !== process.getuid())) return;
    fchmodSync(fd, mode);
    this.#log(
      `notes: made owner-only (chmod ${mode.toString(8)}) what group or others could read: ${path} (was ${was.toString(8).padStart(4, '0')})`,
    );
  }

  /** Rewrites a grown file with only the records still in the window: a temporary file renamed over it. */
  #compactIfLarge(): void {
    let size: number;
    try {
      size = lstatSync(this.#file).size;
    } catch {
      return;
    }
    if (size < COMPACT_BYTES) return;
    const now = this.#clock.now().getTime();
    const since = now - this.#limits.windowMs;
    // Unlocks are kept while misses they forgot may still be in the window.
    const kept = this.#read().filter((r) => r.at > since);
    const temp = join(this.#dir, `${TEMP_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
    try {
      const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
      try {
        writeSync(fd, kept.map((r) => `${JSON.stringify(r)}\n`).join(''));
      } finally {
        closeSync(fd);
      }
      renameSync(temp, this.#file);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }

  #failed(what: string, error: unknown): void {
    this.#log(`notes: could not ${what} the key guard's file ${this.#file}: ${(error as Error).message}`);
  }
}

/** A record from one line of the file; a torn or foreign line is skipped. */
function parseRecord(line: string): GuardRecord | undefined {
  if (line === '') return undefined;
  try {
    const value = JSON.parse(line) as Partial<GuardRecord>;
    if (typeof value.at !== 'number' || typeof value.scope !== 'string') return undefined;
    if (value.unlock === true) return { at: value.at, scope: value.scope, unlock: true };
    if (!KEY_ORIGINS.includes(value.origin as KeyOrigin)) return undefined;
    return { at: value.at, scope: value.scope, origin: value.origin! };
  } catch {
    return undefined;
  }
}
