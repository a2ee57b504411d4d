/** What the `memory …` console commands share: their context, and how they print memories and sizes. */
import type { Memory, MemoryStore, SnapshotSensors } from '@mira/memory-contract';

/** Where the commands find the store; `undefined` when persistent memory is disabled. */
export interface MemoryCommandContext {
  readonly enabled: boolean;
  readonly databasePath: string | undefined;
  /** Whether this runtime created the store (it was not there, or was an empty file, when it opened). */
  createdNow?(): boolean;
  store(): MemoryStore;
  /** The profile's sensors: `memory place add --here` reads the robot's pose from a `pose` sensor. */
  readonly sensors?: SnapshotSensors;
  /** The runtime's monotonic clock (ms), for a reading's age. */
  monotonic?(): number;
  /** A path the operator typed, as the runtime resolves it (`memory snapshot save`). */
  resolvePath?(path: string): string;
  /** Files no command may write over: the stores' databases and their side files. */
  protectedFiles?(): readonly string[];
}

/** The `source_kind` of memories written from the console. */
export const CONSOLE_SOURCE_KIND = 'console';

export const quote = (text: string) => JSON.stringify(text);

/** `MEM3 fact "Ada wrote the first program" [ENT1 subject]` */
export function formatMemoryLine(memory: Memory): string {
  const links = memory.links.map((l) => `${l.entityRef} ${l.role}`).join(', ');
  const slot = memory.predicate ? ` ${memory.predicate}=${memory.value === null ? '∅' : quote(memory.value)}` : '';
  return `${memory.ref} ${memory.kind} ${quote(memory.summary)}${slot}${links ? ` [${links}]` : ''}`;
}

/** A size for people: bytes, KB or MB (powers of 1024). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function single(options: ReadonlyMap<string, readonly string[]>, name: string): string | undefined {
  return options.get(name)?.[0];
}
