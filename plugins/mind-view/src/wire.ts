/**
 * The JSON the Mind view's API answers with, declared once: the page (`assets/*.js`, type-checked with
 * `checkJs`) reads every answer through these types, importing them with a JSDoc `@import` tag from
 * `../src/wire.js`. Field names are the API's (snake_case), not the stores'. Types only: nothing here runs.
 * @module
 */

/** An error answer's body (any status of 400 or more): the code, the message and the catalogue's "what to do". */
export interface ApiError {
  readonly code: string;
  readonly message: string;
  readonly fix?: string;
  /** An internal error's ID, the key to its details on the runtime's stderr. */
  readonly id?: string;
}

/** The body of every answer with a status of 400 or more. */
export interface ErrorAnswer {
  readonly error: ApiError;
}

/** One note. */
export interface NoteJson {
  readonly id: number;
  readonly scope: string;
  readonly content: string;
  /** In insertion order; empty shows as `unlabeled`. */
  readonly labels: readonly string[];
  readonly private_key: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  /** How long ago it was written, in words (`3 days ago`). */
  readonly age: string;
}

/** A note in a scope's list or a search: a global note on another scope's page is read-only there. */
export interface ShownNote extends NoteJson {
  readonly read_only: boolean;
}

/** A label and how many notes carry it (`unlabeled` for notes without). */
export interface LabelCount {
  readonly label: string;
  readonly count: number;
}

/** A scope whose keyed calls are refused after too many wrong keys (the key guard). */
export interface Lockout {
  readonly scope: string;
  /** Whose keyed calls are refused: keys the operator typed, the model's own keys, autonomous episodes, MCP clients. */
  readonly origin: 'operator' | 'model' | 'autonomous' | 'mcp';
  readonly misses: number;
  /** ISO-8601. */
  readonly until: string;
}

/** `GET /api/scopes`. */
export interface ScopesAnswer {
  readonly scopes: readonly string[];
  readonly counts: ReadonlyArray<{ readonly scope: string; readonly notes: number; readonly keyed: number }>;
  /** The global scope's name. */
  readonly global: string;
  /** The console session's scope: where the page opens unless the address names another. */
  readonly session: string;
  readonly lockouts: readonly Lockout[];
}

/** `POST /api/scopes`. */
export interface ScopeCreated {
  readonly scope: string;
}

/** `POST /api/scopes/:scope/unlock`. */
export interface UnlockAnswer {
  readonly scope: string;
  /** How many wrong keys were forgotten. */
  readonly forgotten: number;
}

/** What a scope holds, for the count line and the label chips. */
export interface BrowseCounts {
  readonly total: number;
  readonly matching: number;
  readonly labels: readonly LabelCount[];
}

/** `GET /api/notes`: one page of a scope's notes. */
export interface NotesPage {
  readonly scope: string;
  readonly notes: readonly ShownNote[];
  /** The next page's cursor (`?after=`), null on the last. */
  readonly next: string | null;
  /** Null on a later page asked for without `counts=1`: the first page's still hold. */
  readonly counts: BrowseCounts | null;
  /** No note holds every word of the filter: the notes holding some of them, most first. */
  readonly partial: boolean;
}

/** `GET /api/notes/search`. */
export interface SearchAnswer {
  readonly mode: 'hybrid' | 'full-text';
  /** Why the search is full text only, when it is. */
  readonly why?: string;
  readonly hits: readonly ShownNote[];
}

/** Two notes of nearly the same text. */
export interface DuplicatePair {
  readonly a: NoteJson;
  readonly b: NoteJson;
  readonly similarity: number;
}

/** `GET /api/notes/duplicates`. */
export interface DuplicatesAnswer {
  readonly pairs: readonly DuplicatePair[];
}

/**
 * A line of `GET /api/notes/duplicates?stream=1`: the scan's progress (work units, not notes), then its
 * answer or its error, each line one JSON object.
 */
export type DuplicatesLine =
  { readonly progress: { readonly done: number; readonly total: number } } | DuplicatesAnswer | ErrorAnswer;

/** `GET /api/notes/labels`: what a duplicates scan can be narrowed to (each label with its count). */
export interface LabelCountsAnswer {
  readonly total: number;
  readonly labels: readonly LabelCount[];
}

/** `POST /api/notes/combine`: the note kept. */
export interface CombineAnswer {
  readonly note: NoteJson;
}

/** `PATCH /api/notes/:id`: the note as saved, and what an over-long text lost (empty when nothing). */
export interface EditAnswer {
  readonly note: NoteJson;
  readonly cut: string;
}

/** `DELETE /api/notes/:id`. */
export interface DeleteAnswer {
  readonly deleted: number;
}

/** `GET /api/notes/export`: the export file, as `notes export` writes it. */
export interface NotesExportJson {
  readonly format: 'mira-notes';
  readonly version: 1;
  readonly scope: string;
  readonly exported_at: string;
  readonly notes: ReadonlyArray<{
    readonly content: string;
    readonly labels: readonly string[];
    readonly private_key: string | null;
    readonly created_at: string;
    readonly updated_at: string;
  }>;
}

/** `POST /api/notes/import`. */
export interface ImportAnswer {
  readonly added: number;
  readonly skipped: number;
  readonly trimmed: number;
}

/** An entity. */
export interface EntityJson {
  /** `ENT<n>`. */
  readonly id: string;
  readonly entity_type: string;
  readonly canonical_name: string;
  readonly aliases: readonly string[];
  readonly created_at: string;
}

/** A memory. */
export interface MemoryJson {
  /** `MEM<n>`. */
  readonly id: string;
  readonly kind: string;
  readonly summary: string;
  readonly predicate: string | null;
  readonly value: string | null;
  readonly source_kind: string;
  readonly source_label: string | null;
  readonly confidence: number | null;
  readonly status: string;
  readonly created_at: string;
  readonly superseded_by: string | null;
  readonly supersedes: string | null;
  readonly links: ReadonlyArray<{ readonly entity: string; readonly name: string; readonly role: string }>;
  readonly payloads: ReadonlyArray<{ readonly media_type: string; readonly byte_size: number; readonly kind: string }>;
  /** Whether it has a snapshot's image (`GET /api/memories/MEM<n>/image`). */
  readonly image: boolean;
}

/** `GET /api/entities?name=`: the exact matches. */
export interface EntitiesAnswer {
  readonly entities: readonly EntityJson[];
}

/** `GET /api/entities?offset=&limit=&type=`: a page of entities in ID order. */
export interface EntityPage extends EntitiesAnswer {
  readonly total: number;
  readonly offset: number;
  readonly limit: number;
}

/** `POST /api/entities`, `POST /api/entities/:ref/aliases`. */
export interface EntityAnswer {
  readonly entity: EntityJson;
  /** After an alias: other entities the alias also names. */
  readonly also_names?: readonly string[];
}

/** `GET /api/entities/:ref/memories`: its active memories, newest first. */
export interface EntityMemories {
  readonly entity: EntityJson;
  readonly memories: readonly MemoryJson[];
}

/** `POST /api/places`: the place, its pose memory and the pose in words. */
export interface PlaceAnswer {
  readonly entity: EntityJson;
  readonly memory: MemoryJson;
  readonly pose: string;
}

/** `POST /api/memories`, `GET /api/memories/:ref`. */
export interface MemoryAnswer {
  readonly memory: MemoryJson;
}

/** A proposal. */
export interface ProposalJson {
  /** `P<n>`. */
  readonly id: string;
  readonly kind: 'entity' | 'supersede';
  readonly status: 'pending' | 'accepted' | 'rejected' | 'expired';
  readonly entity_type: string | null;
  readonly name: string | null;
  /** `MEM<n>` a supersede replaces. */
  readonly memory_id: string | null;
  readonly value: string | null;
  /** The memory a supersede would replace, when it still exists. */
  readonly replaces?: MemoryJson;
  readonly evidence: string;
  readonly utterance: string;
  readonly created_at: string;
  readonly expires_at: string;
  readonly decided_at: string | null;
  readonly reason: string | null;
  readonly result: string | null;
}

/** A proposal in the Pending tab, with why it can no longer be accepted (null when it can). */
export interface PendingProposal extends ProposalJson {
  readonly stale: string | null;
}

/** `GET /api/proposals`: what awaits the operator, and what expired undecided. */
export interface ProposalsAnswer {
  readonly proposals: readonly PendingProposal[];
}

/** `POST /api/proposals/:ref/accept|reject`: the proposal as decided and what an accept made. */
export interface DecisionAnswer {
  readonly proposal: ProposalJson;
  readonly entity?: EntityJson;
  readonly memory?: MemoryJson;
  readonly superseded?: MemoryJson;
}

/** The data of an `event: change` on `GET /api/events`: which stores changed. */
export interface ChangeEvent {
  readonly notes: boolean;
  readonly memory: boolean;
}
