import type { MemoryStore } from '@mira/memory-contract';
import type { NotesStore } from '@mira/plugin-notes';

/** What the server reads and writes through. */
export interface MindViewSources {
  notes(): NotesStore | undefined;
  memory(): MemoryStore | undefined;
  now(): Date;
  /** Where details of unexpected failures go (the runtime's log on stderr by default). */
  log?(message: string): void;
}

/** What a route reads and writes through. */
export interface RouteContext {
  /** The stores as they are now (undefined while one is disabled). */
  readonly sources: MindViewSources;
  /** The notes store. @throws MiraError MIRA_ERR_NOTES_DISABLED */
  notes(): NotesStore;
  /** The entity memory store. @throws MiraError MIRA_ERR_MEMORY_DISABLED */
  memory(): MemoryStore;
  now(): Date;
  /** Where details of unexpected failures go. */
  log(message: string): void;
}
