import type { Embedder } from './embedder.js';
import type { KeyLockout, KeyOrigin } from './key-guard.js';
import type { NotesExport, PreparedExport } from './transfer-format.js';

/**
 * The notes store's contract: what the tools, the console commands and the Mind view use, and what
 * `kernel.stores.get(NOTES_STORE)` gives. `SqliteNotesStore` (notes-store.ts) implements it;
 * test/conformance/notes-store-contract.ts holds the promises every implementation keeps.
 *
 * It lives in this package, not in a package of its own as `@mira/memory-contract` does: there is one
 * implementation, and every caller of the contract (the tools, the commands, the Mind view) needs the
 * plugin anyway for its errors, text rules and export reader. The file imports types only, none of the
 * implementation (the layering check holds it so), so it can move out as it is if a second implementation
 * appears elsewhere.
 */

/** The shared scope every session reads and only the operator writes. */
export const GLOBAL_SCOPE = 'global';

/** The label a note without labels is listed under. */
export const UNLABELED = 'unlabeled';

/** One note. */
export interface Note {
  readonly id: number;
  readonly scope: string;
  readonly content: string;
  /** Labels in insertion order; empty shows as `unlabeled`. */
  readonly labels: readonly string[];
  /** Plaintext key; only the operator's views show it. */
  readonly privateKey: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * Who is looking. A model call sees notes in `scopes` that are unkeyed or
 * whose key it passes; the operator sees every note in `scopes`.
 */
export interface Viewer {
  readonly scopes: readonly string[];
  readonly key: string | null;
  readonly operator: boolean;
}

/** One search hit with its fused score. */
export interface SearchHit {
  readonly note: Note;
  readonly score: number;
}

/** A search's hits, and whether vectors took part (`why` not, when they did not). */
export interface SearchResult {
  readonly hits: SearchHit[];
  readonly mode: 'hybrid' | 'full-text';
  readonly why?: string;
}

/** How a page of notes is ordered: newest or oldest first, longest or shortest, or by first label. */
export type BrowseSort = 'newest' | 'oldest' | 'longest' | 'shortest' | 'label';
/** Every {@link BrowseSort}. */
export const BROWSE_SORTS: readonly BrowseSort[] = ['newest', 'oldest', 'longest', 'shortest', 'label'];
/** The most notes one page holds. */
export const MAX_BROWSE_PAGE = 500;

/** What a page of {@link NotesStore.browse} asks for. */
export interface BrowseOptions {
  readonly sort?: BrowseSort;
  /** Notes with this label (the first of a comma list); `unlabeled`: those without; null or absent: any. */
  readonly label?: string | null;
  /**
   * Words that must all be in a note's folded text, labels or key (see {@link foldForFilter}), function and
   * question words left out; when no note holds them all, any one of them, most first (see BrowsePage.partial).
   */
  readonly filter?: string;
  /** The `next` of the page before; absent or null for the first page. */
  readonly after?: string | null;
  /** Notes per page, 1 to {@link MAX_BROWSE_PAGE} (default 100; out of range is clamped). */
  readonly limit?: number;
  /** Whether to count (default true); a later page can leave it to the first page's counts. */
  readonly counts?: boolean;
}

/** One page of the notes a viewer may see, as the Mind view shows them. */
export interface BrowsePage {
  readonly notes: Note[];
  /** The cursor of the next page, or null on the last. */
  readonly next: string | null;
  /** The counts, unless a later page was asked for without them (they are the first page's). */
  readonly counts: BrowseCounts | null;
  /**
   * Whether no note in view holds every word of the filter, so the list holds the notes holding any of them,
   * most words first (then the sort): a typed question still finds the note that answers most of it.
   */
  readonly partial: boolean;
}

/** A label and how many notes carry it. */
export interface LabelCount {
  label: string;
  count: number;
}

/** What a scope holds, for the page's count line and label chips. */
export interface BrowseCounts {
  /** Every note the viewer may see. */
  readonly total: number;
  /** The notes that pass the label and the filter. */
  readonly matching: number;
  /** The ten most common labels among every note the viewer may see (`unlabeled` for notes without). */
  readonly labels: LabelCount[];
}

/** Text as the browse filter compares it: compatibility forms, no accents, lower case (`Café` ~ `cafe`). */
export const foldForFilter = (text: string): string => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/** Two near-identical notes and how alike they are. */
export interface DuplicatePair {
  a: Note;
  b: Note;
  similarity: number;
}

/** What a duplicates scan is narrowed to, and how it reports and stops. */
export interface DuplicatesOptions {
  /** Only notes with this label (`unlabeled`: those without); null or absent: every note. */
  readonly label?: string | null;
  /** The scan's work units done and in all, from 0 to the total, never backwards. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Stops the scan: it then rejects with MIRA_ERR_NOTES_STOPPED and changes nothing. */
  readonly signal?: AbortSignal;
}

/** The embedder the stored vectors came from, and whether the configured one differs. */
export interface EmbeddingState {
  stored: string | undefined;
  dimension: number | undefined;
  configured: string | undefined;
  mismatch: boolean;
}

/** Notes per scope. */
export interface ScopeCounts {
  scope: string;
  notes: number;
  keyed: number;
}

/**
 * Note memory: short labelled notes in scopes, private keys that gate what a model call sees, full-text
 * (and, with an embedder, vector) search, paged browsing, near-duplicates, export and import.
 *
 * What a viewer may not see does not exist for it: reading, changing or deleting a note out of sight
 * fails as for an ID that was never used (MIRA_ERR_NOTES_NOT_FOUND), so a call learns nothing of it.
 * Errors are `MiraError`s with the codes of `NotesErrors`.
 */
export interface NotesStore {
  /** Where the store keeps its notes, as shown to the operator (`notes status`). */
  readonly path: string;
  /** The embedder new and edited notes are embedded with, if one is configured. */
  readonly embedder: Embedder | undefined;
  /** The scope the runtime's session reads and writes now (`default` unless the plugin says otherwise). */
  sessionScope(): string;

  /** Creates a scope if it does not exist. @throws MIRA_ERR_NOTES_SCOPE_INVALID for a malformed name */
  ensureScope(name: string): void;
  /** Every scope, by name. */
  scopes(): string[];
  /** Notes (and keyed notes) per scope, by name. */
  countsByScope(): ScopeCounts[];

  /**
   * Saves a note in `scope` (created if need be), trimmed at a word boundary when over the cap (`cut` is
   * what was cut), with its labels (comma-separated) and key, stamped now (or `createdAt`). An embedder
   * failure still saves the note, without a vector, and says why in `embeddingError`.
   */
  save(
    scope: string,
    text: string,
    labelText: string | null,
    key: string | null,
    createdAt?: string,
  ): Promise<{ note: Note; cut: string; embeddingError?: string }>;
  /** A note the viewer may see, or undefined. */
  get(id: number, viewer: Viewer): Note | undefined;
  /**
   * Replaces a note's text (and labels, unless `labelText` is null), keeping its creation time. With
   * `writableScope`, a note in another scope the viewer sees (the global overlay) is refused.
   */
  update(
    id: number,
    viewer: Viewer,
    writableScope: string | undefined,
    text: string,
    labelText: string | null,
  ): Promise<{ note: Note; cut: string }>;
  /** Deletes a note; returns it as it was. `writableScope` as for {@link update}. */
  delete(id: number, viewer: Viewer, writableScope: string | undefined): Note;

  /** The newest notes the viewer may see (by creation time, then ID), optionally with a label. */
  recent(viewer: Viewer, count: number, label?: string | null): Note[];
  /** How many notes the viewer may see. */
  count(viewer: Viewer): number;
  /** Labels of the notes the viewer may see, most common first (ties by label). */
  labels(viewer: Viewer): LabelCount[];
  /**
   * How many notes the viewer sees and every label with its count, `unlabeled` included, most common
   * first: what a duplicates scan can be narrowed to.
   */
  labelCounts(viewer: Viewer): { total: number; labels: LabelCount[] };
  /**
   * One page of the notes the viewer may see, sorted (ties: newer ID first; `oldest`: older ID first),
   * with a label and a filter; `next` continues where the page ended, however the notes change between
   * pages. @throws MIRA_ERR_NOTES_BROWSE_INVALID for an unknown sort, a malformed cursor or an over-long filter
   */
  browse(viewer: Viewer, options?: BrowseOptions): BrowsePage;
  /**
   * The notes the viewer may see that match `query` (its words; the last one also as a prefix), best first,
   * at most `limit`, optionally with a label; with an embedder, vector neighbours are fused in. A key no
   * note in view carries searches as no key. @throws MIRA_ERR_NOTES_QUERY_TOO_LONG
   */
  search(viewer: Viewer, query: string, label?: string | null, limit?: number): Promise<SearchResult>;
  /**
   * Near-identical pairs among the notes the viewer sees, any number of them, without holding the event
   * loop long. @throws MIRA_ERR_NOTES_STOPPED once `options.signal` is aborted
   */
  duplicates(viewer: Viewer, options?: DuplicatesOptions): Promise<DuplicatePair[]>;
  /**
   * Combines two near-identical notes of one scope and one key: `keep` gains `drop`'s labels, `drop` is
   * deleted. @throws MIRA_ERR_NOTES_COMBINE_INVALID, MIRA_ERR_NOTES_COMBINE_SCOPES, MIRA_ERR_NOTES_KEY_MISMATCH
   */
  combine(keep: number, drop: number, viewer: Viewer, writableScope?: string): Note;

  /** Every note of one scope, keys included (the operator's backup). */
  exportScope(scope: string): Promise<NotesExport>;
  /** {@link exportScope} as the JSON text of an export file (`indent` 2 as `notes export` writes it). */
  exportText(scope: string, indent?: 0 | 2): Promise<{ text: string; count: number }>;
  /**
   * Imports an export (into `scope`, by default the export's own), all or nothing; a note the scope holds
   * already (same text, key and creation time) is skipped.
   */
  importNotes(
    data: NotesExport | PreparedExport,
    scope?: string,
    onProgress?: (embedded: number, total: number) => void,
  ): Promise<{ added: number; skipped: number; trimmed: number }>;

  /** Embeds every note again with the configured embedder; returns how many. */
  reembed(batch?: number, onProgress?: (done: number, total: number) => void): Promise<number>;
  /** The embedder the stored vectors came from, and whether the configured one differs. */
  embeddingState(): EmbeddingState;

  /**
   * Whether any note in the viewer's scopes carries the viewer's key. A key none carries is a miss, and the
   * call goes on as if no key were given.
   */
  keyKnown(viewer: Viewer): boolean;
  /** The lockout of `origin`'s keyed calls in `scope`, if its wrong keys reached the limit. */
  keyLockout(scope: string, origin?: KeyOrigin): KeyLockout | undefined;
  /** Every scope and origin locked now. */
  keyLockouts(): KeyLockout[];
  /** Counts a keyed call of `origin` in `scope` that found nothing. */
  recordKeyMiss(scope: string, origin?: KeyOrigin): void;
  /** The operator ends a scope's lockouts, every origin's; returns how many misses there were. */
  clearKeyMisses(scope: string): number;

  /** A token that changes whenever a note, label or scope changes, here or in another process. */
  revision(): string;
  /** Closes the store; closing again does nothing. */
  close(): void;
}
