// Size: the store contract's domain types, one declaration each with its documentation; no code.
import type { EntityRef, MemoryRef, ProposalRef } from './ids.js';

/** A durable thing memories are about: a person, a place, the robot itself. */
export interface Entity {
  readonly id: number;
  readonly ref: EntityRef;
  /** A token, e.g. `person`, `robot`, `place`. */
  readonly entityType: string;
  /** Display form of the canonical name. */
  readonly canonicalName: string;
  /** The exact identity key of the canonical name. */
  readonly nameKey: string;
  /** ISO-8601 UTC. */
  readonly createdAt: string;
  /** In alias-ID order. */
  readonly aliases: readonly Alias[];
}

/** Another exact name of an entity. */
export interface Alias {
  readonly id: number;
  readonly entityId: number;
  /** Display form. */
  readonly alias: string;
  readonly aliasKey: string;
  readonly createdAt: string;
}

/**
 * A memory's status; only `active` memories are listed, found and recalled. `superseded`: the operator
 * accepted a newer memory in its place (see {@link Memory.supersededBy}); it stays for its history.
 */
export type MemoryStatus = 'active' | 'inactive' | 'superseded';

/** Who or what stated a memory. */
export interface MemorySource {
  /** A token, e.g. `operator_statement`, `console`. */
  readonly kind: string;
  readonly label: string | null;
}

/** One entity a memory is about, under a role. */
export interface MemoryLink {
  readonly entityId: number;
  readonly entityRef: EntityRef;
  /** The entity's canonical name, resolved for display. */
  readonly entityName: string;
  /** A token, e.g. `subject`, `object`, `owner`. */
  readonly role: string;
}

/** Payload metadata, without the body. */
export interface PayloadInfo {
  readonly id: number;
  /** `inline_text` now; `object_ref` is reserved for a later object store. */
  readonly payloadKind: 'inline_text' | 'object_ref';
  readonly mediaType: string;
  readonly byteSize: number;
  /** Opaque reference, for `object_ref` payloads only. */
  readonly objectRef: string | null;
  /** Hex SHA-256 of the object, for `object_ref` payloads only. */
  readonly sha256: string | null;
  readonly createdAt: string;
}

/** A payload with its inline body. */
export interface Payload extends PayloadInfo {
  readonly text: string | null;
}

/** A durable memory with its links and payload metadata. */
export interface Memory {
  readonly id: number;
  readonly ref: MemoryRef;
  /** A token, e.g. `fact`, `preference`, `relationship`, `observation`. */
  readonly kind: string;
  readonly summary: string;
  readonly predicate: string | null;
  readonly value: string | null;
  readonly source: MemorySource;
  readonly confidence: number | null;
  readonly status: MemoryStatus;
  readonly createdAt: string;
  /** The memory that replaced this one (status `superseded`), else null. */
  readonly supersededBy: number | null;
  /** When it was replaced, else null. */
  readonly supersededAt: string | null;
  /** The memory this one replaced, else null. */
  readonly supersedes: number | null;
  /** In entity-ID order, then role. */
  readonly links: readonly MemoryLink[];
  readonly payloads: readonly PayloadInfo[];
}

/** What a new memory is made of. The store validates and normalises it. */
export interface NewMemory {
  readonly kind: string;
  readonly summary: string;
  readonly links?: ReadonlyArray<{ readonly entityId: number; readonly role: string }>;
  readonly predicate?: string | null;
  readonly value?: string | null;
  readonly sourceKind: string;
  readonly sourceLabel?: string | null;
  readonly confidence?: number | null;
  /** Body of the one inline `text/plain` payload; the summary when absent. */
  readonly payloadText?: string;
  /** An object payload besides it (an image): kept once by its SHA-256, whatever refers to it. */
  readonly object?: NewObject;
}

/** Bytes to keep as an object payload, and what they are. */
export interface NewObject {
  readonly bytes: Uint8Array;
  /** One of {@link OBJECT_MEDIA_TYPES}. */
  readonly mediaType: string;
}

/** An object payload read back: its bytes, their digest verified on this read. */
export interface StoredObject {
  readonly sha256: string;
  readonly mediaType: string;
  readonly bytes: Buffer;
}

/** What an object store holds (or what a collection removed). */
export interface ObjectUsage {
  readonly objects: number;
  readonly bytes: number;
}

/** The result of adding an alias. */
export interface AliasAdded {
  readonly entity: Entity;
  readonly alias: Alias;
  /** Other entities whose name or alias has the same key. */
  readonly alsoNames: readonly Entity[];
}

/** Sizes and identity of a store, for `memory persistent`. */
export interface StoreInfo {
  readonly backend: string;
  /** Where the data lives (a file path for SQLite). */
  readonly location: string;
  readonly schemaVersion: number;
  readonly entities: number;
  readonly aliases: number;
  readonly memories: number;
  readonly activeMemories: number;
  readonly links: number;
  readonly payloads: number;
}

/** One page of an entity's newest active memories. */
export interface NewestMemories {
  /** Ascending ID order. */
  readonly memories: readonly Memory[];
  /** How many active memories the entity has in all. */
  readonly total: number;
}

/** What recall shows of a name: every entity it names, and the newest active memories of the first few. */
export interface Recalled {
  /** Every entity {@link MemoryStore.findEntities} finds, in entity-ID order. */
  readonly entities: Entity[];
  /** The newest active memories of each of the first `entities` of them (see {@link MemoryStore.recall}). */
  readonly newest: NewestMemories[];
}

/** A slot: the active memories linked to `entityId` under `role` with the normalised `predicate`. */
export interface MemorySlot {
  readonly entityId: number;
  readonly role: string;
  readonly predicate: string;
}

/**
 * What an admission sees of each memory in its slot: what decides (kind, value, links), nothing it does
 * not need (no payloads, no names), so a slot is read in one statement.
 */
export interface SlotMemory {
  readonly id: number;
  readonly ref: MemoryRef;
  readonly kind: string;
  readonly predicate: string | null;
  readonly value: string | null;
  /** Every entity the memory links, and under which role (in no particular order). */
  readonly links: ReadonlyArray<{ readonly entityId: number; readonly role: string }>;
}

/**
 * A slot's memories as one read found them ({@link MemoryStore.findNamedSlot}), for
 * {@link MemoryStore.admitToSlot} to decide on without reading them again.
 */
export interface SlotRead {
  readonly slot: MemorySlot;
  readonly memories: readonly SlotMemory[];
}

/** What {@link MemoryStore.findNamedSlot} found. */
export interface NamedSlot {
  /** The IDs of the entities of each name, as {@link MemoryStore.findEntityIdsOfEach} answers. */
  readonly ids: number[][];
  /** The slot of the first name's entity when exactly one entity has that name; undefined otherwise. */
  readonly read: SlotRead | undefined;
}

/** What an admission decides from the slot: write this memory, or answer without writing. */
export type SlotDecision<R> = { readonly create: NewMemory } | { readonly answer: R };

/** What {@link MemoryStore.admitToSlot} did. */
export type SlotOutcome<R> = { readonly created: Memory } | { readonly answer: R };

/** Every row of a memory space, IDs included: what `mira memory copy` moves from one store to another. */
export interface MemorySnapshot {
  readonly entities: ReadonlyArray<{
    readonly id: number;
    readonly entityType: string;
    readonly canonicalName: string;
    readonly nameKey: string;
    readonly createdAt: string;
  }>;
  readonly aliases: ReadonlyArray<{
    readonly id: number;
    readonly entityId: number;
    readonly alias: string;
    readonly aliasKey: string;
    readonly createdAt: string;
  }>;
  readonly memories: ReadonlyArray<{
    readonly id: number;
    readonly kind: string;
    readonly summary: string;
    readonly predicate: string | null;
    readonly value: string | null;
    readonly sourceKind: string;
    readonly sourceLabel: string | null;
    readonly confidence: number | null;
    readonly status: MemoryStatus;
    readonly createdAt: string;
    readonly supersededBy?: number | null;
    readonly supersededAt?: string | null;
  }>;
  readonly links: ReadonlyArray<{ readonly memoryId: number; readonly entityId: number; readonly role: string }>;
  readonly payloads: ReadonlyArray<{
    readonly id: number;
    readonly memoryId: number;
    readonly payloadKind: 'inline_text' | 'object_ref';
    readonly mediaType: string;
    readonly textBody: string | null;
    readonly objectRef: string | null;
    readonly sha256: string | null;
    readonly byteSize: number;
    readonly createdAt: string;
  }>;
  /** Pending and decided proposals (stores from before proposals have none). */
  readonly proposals?: ReadonlyArray<ProposalRow>;
  /**
   * The bytes of an object the payloads refer to, their digest verified (read one at a time, when the
   * copy writes them: a robot's snapshots need not fit in memory at once).
   */
  readonly readObject?: (sha256: string) => Promise<Buffer>;
}

/** What a proposal asks for: a new entity, or a new value in place of an active fact or preference. */
export type ProposalKind = 'entity' | 'supersede';
/** `expired`: still undecided after its expiry time; it can no longer be accepted. */
export type ProposalStatus = 'pending' | 'accepted' | 'rejected' | 'expired';

/** A proposal as stored (every column), for snapshots. */
export interface ProposalRow {
  readonly id: number;
  readonly kind: ProposalKind;
  /** entity: the type and name to create. */
  readonly entityType: string | null;
  readonly name: string | null;
  /** supersede: the memory to replace, the new value and the new memory's summary (the evidence). */
  readonly memoryId: number | null;
  readonly value: string | null;
  /** supersede: the slot's active memory IDs when proposed; an accept needs them unchanged. */
  readonly slotIds: readonly number[];
  /** The clause of the operator's words the proposal rests on. */
  readonly evidence: string;
  /** The whole operator utterance it came from. */
  readonly utterance: string;
  /** `pending`, `accepted` or `rejected` as stored (expiry is decided when read). */
  readonly decision: 'pending' | 'accepted' | 'rejected';
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly decidedAt: string | null;
  /** The operator's reason for a reject, if given. */
  readonly reason: string | null;
  /** What an accept created: `ENT<n>` or `MEM<n>`. */
  readonly result: string | null;
}

/** A proposal as the console, the Mind view and the model see it. */
export interface Proposal extends ProposalRow {
  readonly ref: ProposalRef;
  readonly status: ProposalStatus;
}

/** What a proposal is made of; the tools have checked it against the operator's words. */
export interface NewProposal {
  readonly kind: ProposalKind;
  readonly entityType?: string | null;
  readonly name?: string | null;
  readonly memoryId?: number | null;
  readonly value?: string | null;
  readonly evidence: string;
  readonly utterance: string;
  /** How long it stays acceptable, in ms; the store's setting (7 days by default) when absent. */
  readonly ttlMs?: number;
}

/** What an accept did. */
export type AcceptedProposal =
  | { readonly proposal: Proposal; readonly entity: Entity }
  | { readonly proposal: Proposal; readonly memory: Memory; readonly superseded: Memory };

/**
 * The persistent memory store. Async so a networked backend fits; domain
 * objects in, domain objects out; errors are `MiraError`s with
 * {@link MemoryErrorCodes} or core text codes. Nothing here updates or
 * deletes a memory.
 */
export interface MemoryStore {
  readonly backend: string;
  info(): Promise<StoreInfo>;
  /** @throws MiraError on a bad token or name. */
  createEntity(input: { readonly entityType: string; readonly canonicalName: string }): Promise<Entity>;
  /** @throws MiraError MIRA_ERR_MEMORY_ENTITY_NOT_FOUND, MIRA_ERR_MEMORY_ALIAS_EXISTS */
  addAlias(entityId: number, alias: string): Promise<AliasAdded>;
  getEntity(entityId: number): Promise<Entity | undefined>;
  /** Every entity whose canonical name or alias has exactly the key of `name`, in entity-ID order. */
  findEntities(name: string): Promise<Entity[]>;
  /** The IDs {@link MemoryStore.findEntities} would return, without loading the entities. */
  findEntityIds(name: string): Promise<number[]>;
  /**
   * {@link MemoryStore.findEntityIds} for each of `names`, in their order, in one call (one round trip to
   * a server): what admission asks for the longer names a name may begin.
   */
  findEntityIdsOfEach(names: readonly string[]): Promise<number[][]>;
  /**
   * {@link MemoryStore.findEntityIdsOfEach} for `names` and, when exactly one entity has the first of
   * them, that entity's slot under `role` and `predicate` as {@link MemoryStore.admitToSlot} reads it, in
   * one read (one statement; one round trip to a server): what admission asks for its subject. (SQLite
   * reads names more than one range read apart key by key, and the slot beside them: a few statements.)
   */
  findNamedSlot(names: readonly string[], role: string, predicate: string): Promise<NamedSlot>;
  /** A page of entities in ID order, optionally of one type (exact), with how many there are in all. */
  listEntities(options?: {
    readonly entityType?: string | null;
    readonly offset?: number;
    readonly limit?: number;
  }): Promise<{ readonly entities: Entity[]; readonly total: number }>;
  /**
   * A token that changes whenever anything in the store changes, through this connection or another
   * process's: cheap enough to poll (the Mind view's live updates do).
   */
  revision(): Promise<string>;
  /**
   * Creates a memory, its links, its one inline `text/plain` payload and (with `object`) an object
   * payload in one transaction; the object's bytes are stored first, once per digest.
   * @throws MiraError MIRA_ERR_MEMORY_OBJECT_INVALID for an empty, oversized or unknown object
   */
  createMemory(input: NewMemory): Promise<Memory>;
  getMemory(memoryId: number): Promise<Memory | undefined>;
  /** The inline payload bodies of a memory (object payloads with `text` null: see {@link readObject}). */
  getPayloads(memoryId: number): Promise<Payload[]>;
  /**
   * The bytes of a memory's object payload, their SHA-256 verified on this read; undefined when the
   * memory has none. Nothing else (recall, listings) ever loads an object.
   * @throws MiraError MIRA_ERR_MEMORY_NOT_FOUND, MIRA_ERR_MEMORY_OBJECT_MISSING, MIRA_ERR_MEMORY_OBJECT_CORRUPT
   */
  readObject(memoryId: number): Promise<StoredObject | undefined>;
  /** How many objects the object store holds, and their bytes. */
  objectUsage(): Promise<ObjectUsage>;
  /**
   * Removes the objects no payload refers to (left by a write that failed after its object was stored)
   * that are older than `graceMs` (a write in progress stores its object first), and says what it removed.
   */
  collectObjects(graceMs?: number): Promise<ObjectUsage>;
  /** Active memories linked to an entity, ascending ID; `newest` keeps only the newest that many. */
  listActiveMemories(entityId: number, options?: { readonly newest?: number }): Promise<NewestMemories>;
  /**
   * {@link listActiveMemories} for several entities at once, in the order of `entityIds` (what recall
   * shows): a networked store reads them all in one round trip.
   */
  listActiveMemoriesOf(entityIds: readonly number[], options?: { readonly newest?: number }): Promise<NewestMemories[]>;
  /**
   * {@link findEntities} of `name` and {@link listActiveMemoriesOf} its first `options.entities` entities
   * with `options.newest` memories each, in one read (one statement, one round trip to a server): what
   * recall shows.
   */
  recall(name: string, options: { readonly entities: number; readonly newest: number }): Promise<Recalled>;
  /**
   * Active memories linked to `entityId` under `role` with the given
   * normalised predicate, ascending ID (for duplicate and conflict checks).
   */
  findActiveBySlot(entityId: number, role: string, predicate: string): Promise<Memory[]>;
  /**
   * Admission: reads the slot's active memories, asks `decide`, and writes the memory it returns (or
   * answers without writing), so that nothing is written into a slot that changed after it was read. The
   * slot is read without the write lock, and an answer (a duplicate, a conflict) is given from that read;
   * only a write takes the lock (SQLite: BEGIN IMMEDIATE; PostgreSQL: the slot's advisory lock), reads
   * the slot again under it, and asks `decide` once more if it changed. So two processes admitting into
   * one slot at once are decided one after the other. `decide` is synchronous, pure, and must not call
   * the store (it may be called twice); an error it throws writes nothing. With `seen`, a read of this
   * same slot ({@link MemoryStore.findNamedSlot}), the first decision is made on it instead of a new read
   * (a read of another slot is not used).
   */
  admitToSlot<R>(
    slot: MemorySlot,
    decide: (existing: readonly SlotMemory[]) => SlotDecision<R>,
    seen?: SlotRead,
  ): Promise<SlotOutcome<R>>;
  /**
   * Stores a pending proposal (it changes nothing else). An entity proposal for a name that already
   * names an entity is refused with MIRA_ERR_MEMORY_ENTITY_EXISTS; a supersede of a memory that is not
   * an active fact or preference with MIRA_ERR_MEMORY_NOT_SUPERSEDABLE.
   */
  createProposal(input: NewProposal): Promise<Proposal>;
  getProposal(proposalId: number): Promise<Proposal | undefined>;
  /** Proposals in ID order, optionally only those with one status. */
  listProposals(options?: { readonly status?: ProposalStatus }): Promise<Proposal[]>;
  /**
   * Applies a pending proposal in one transaction: creates the entity exactly as `createEntity`, or marks
   * the old memory superseded and creates the new one (`operator_statement` provenance). Refused, with
   * nothing changed, when it is not pending (MIRA_ERR_MEMORY_PROPOSAL_DECIDED), expired
   * (MIRA_ERR_MEMORY_PROPOSAL_EXPIRED) or its slot changed since (MIRA_ERR_MEMORY_PROPOSAL_STALE).
   */
  acceptProposal(proposalId: number): Promise<AcceptedProposal>;
  /** Marks a pending (or expired) proposal rejected, with the operator's reason if given. */
  rejectProposal(proposalId: number, reason?: string | null): Promise<Proposal>;
  /** Every memory linked to an entity, whatever its status, ascending ID. */
  listMemoryHistory(entityId: number): Promise<Memory[]>;
  /** Every row, IDs included (stores that can be copied from). */
  exportSnapshot?(): Promise<MemorySnapshot>;
  /**
   * Writes a snapshot into this store, keeping its IDs, in one transaction; refused unless the store
   * is empty (stores that can be copied into). `onProgress` hears rows written of the total.
   */
  importSnapshot?(
    snapshot: MemorySnapshot,
    onProgress?: (done: number, total: number) => void,
  ): Promise<{ readonly entities: number; readonly aliases: number; readonly memories: number }>;
  /** Safe to call twice. */
  close(): Promise<void>;
}
