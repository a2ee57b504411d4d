import type { Clock } from '@mira/core';
import type { Embedder } from '../embedder.js';
import type { KeyGuardLimits } from '../key-guard.js';

/**
 * The cosine similarity below which a vector neighbour is not a match, unless configured
 * (`[notes.embedding] min_similarity`): without a floor every query has ten nearest notes,
 * "zebra quantum" included. Unrelated texts score about 0–0.2 with common embedding models.
 */
export const DEFAULT_MIN_SIMILARITY = 0.3;

/** How `SqliteNotesStore.open` opens a notes file. */
export interface SqliteNotesStoreOptions {
  clock?: Clock;
  embedder?: Embedder;
  busyTimeoutMs?: number;
  log?: (message: string) => void;
  /** Called once when this open created the notes file (a new file, or an empty one). */
  onCreated?: () => void;
  /** Cosine similarity below which a vector neighbour is not a match (default {@link DEFAULT_MIN_SIMILARITY}). */
  minSimilarity?: number;
  /** Open an existing file read-only (`mira mcp`): nothing is upgraded or written. */
  readOnly?: boolean;
  /** Wrong keys a scope takes per window (default {@link DEFAULT_KEY_GUARD}). */
  keyGuard?: KeyGuardLimits;
}
