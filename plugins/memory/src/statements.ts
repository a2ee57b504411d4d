import type {
  Entity,
  Memory,
  MemorySlot,
  NewestMemories,
  ObjectUsage,
  Payload,
  PreparedMemory,
  PreparedObject,
  ProposalRow,
  Recalled,
  SlotMemory,
  StoreInfo,
} from '@mira/memory-contract';
import type { PreparedProposal } from './rules.js';

/** How many rows of each kind a memory space holds: the counts of {@link StoreInfo}. */
export type StoreCounts = Pick<
  StoreInfo,
  'entities' | 'aliases' | 'memories' | 'activeMemories' | 'links' | 'payloads'
>;

/** What a one-statement admission wrote, or the entity it found missing (then it wrote nothing). */
export type AdmitWritten =
  | { readonly memoryId: number; readonly payloadId: number; readonly linkNames: readonly string[] }
  | { readonly missingEntity: number };

/**
 * The dialect port: every statement the store's algorithm ({@link ScriptedMemoryStore}) needs, by name,
 * answering domain values. A dialect holds only its SQL, its row shapes and how it hydrates them; it
 * decides nothing — which rows may be written, and when, is the algorithm's. Entity and memory lists
 * come back in the order asked for (or ascending ID), existing rows only.
 *
 * SQLite answers synchronously ({@link MemoryStatements}); PostgreSQL answers the same statements as
 * promises ({@link AsyncStatements}).
 */
export interface MemoryStatements {
  // Reads.
  /** The entities of `ids` that exist, in that order, each with its aliases. */
  entities(ids: readonly number[]): Entity[];
  /** The IDs of the entities whose canonical name or an alias has exactly `key`, ascending. */
  entityIdsByKey(key: string): number[];
  /** {@link entityIdsByKey} for each key, in their order, in one statement. */
  entityIdsByKeys(keys: readonly string[]): number[][];
  /** The entities {@link entityIdsByKey} names, ascending. */
  entitiesByKey(key: string): Entity[];
  /** A page of entities in ID order, of one type or all, and how many there are in all. */
  entityPage(entityType: string | null, limit: number, offset: number): { entities: Entity[]; total: number };
  /** The canonical name of each entity of `ids`, in that order; undefined where there is none. */
  entityNames(ids: readonly number[]): Array<string | undefined>;
  /** The memories of `ids` that exist, in that order, with links and payload metadata (no body). */
  memories(ids: readonly number[]): Memory[];
  /** The active memories of a slot, ascending ID. */
  slot(slot: MemorySlot): Memory[];
  /** What an admission decides on: the slot's active memories with kind, value and links only. */
  slotMemories(slot: MemorySlot): SlotMemory[];
  /**
   * {@link entityIdsByKeys} for `keys` and, when exactly one entity has the first key, its
   * {@link slotMemories} under `role` and `predicate` (else undefined), in one statement.
   */
  namedSlot(
    keys: readonly string[],
    role: string,
    predicate: string,
  ): { ids: number[][]; slot: { entityId: number; memories: SlotMemory[] } | undefined };
  /** The newest `newest` (all when undefined) active memories of each entity, in the order of `entityIds`. */
  newestActive(entityIds: readonly number[], newest: number | undefined): NewestMemories[];
  /**
   * {@link entitiesByKey} of `key` and {@link newestActive} of the first `entities` of them, in one
   * statement where the dialect can (a networked store: one round trip).
   */
  recallByKey(key: string, entities: number, newest: number): Recalled;
  /** Every memory linked to an entity, whatever its status, ascending ID. */
  history(entityId: number): Memory[];
  /** A memory's payloads with their bodies. */
  payloads(memoryId: number): Payload[];
  proposal(id: number): ProposalRow | undefined;
  /** Every proposal, ascending ID. */
  proposals(): ProposalRow[];
  counts(): StoreCounts;
  /** Moves with every committed write, from any connection. */
  revision(): string;

  // Objects, outside any transaction: an object is stored before the rows that refer to it.
  /** Stores an object's bytes under its digest unless they are there already (atomically: whole or not at all). */
  putObject(object: PreparedObject, now: string): void;
  /** An object's bytes as stored (not yet verified) and where they lie; undefined when absent. */
  objectBytes(sha256: string): { bytes: Buffer; where: string } | undefined;
  /** How many objects are stored, and their bytes. */
  objectUsage(): ObjectUsage;
  /** Removes the objects no payload refers to that are older than `graceMs`; what it removed. */
  collectObjects(graceMs: number): ObjectUsage;

  // Locks (inside a write transaction; a no-op where the transaction already holds the only write lock).
  /** Admissions and accepts into one slot wait here for each other until the transaction ends. */
  lockSlot(slot: MemorySlot): void;
  /** A second decision on the proposal waits here until the transaction ends. */
  lockProposal(id: number): void;

  // Writes (inside a write transaction, except `admitWrite`).
  insertEntity(entityType: string, name: { display: string; key: string }, now: string): number;
  insertAlias(entityId: number, name: { display: string; key: string }, now: string): number;
  /** The memory, its links (checked to exist by the caller) and its inline payload. */
  insertMemory(m: PreparedMemory, byteSize: number, now: string): { memoryId: number; payloadId: number };
  /** The payload row of a stored object, for memory `memoryId`. */
  insertObjectPayload(memoryId: number, object: PreparedObject, now: string): number;
  /**
   * Writes `m` in one statement if the slot's active memories are still `seenIds`, under the slot's lock,
   * outside any transaction of the caller; undefined when the slot changed or the dialect has no such
   * statement (nothing written: the algorithm decides again under {@link lockSlot}).
   */
  admitWrite(
    slot: MemorySlot,
    seenIds: readonly number[],
    m: PreparedMemory,
    byteSize: number,
    now: string,
  ): AdmitWritten | undefined;
  /** Marks an active memory superseded by another. */
  supersede(oldId: number, newId: number, now: string): void;
  insertProposal(p: PreparedProposal, slotIds: readonly number[]): number;
  decideProposal(
    id: number,
    decision: 'accepted' | 'rejected',
    now: string,
    reason: string | null,
    result: string | null,
  ): void;
  /** Keeps only the evidence of proposals decided, or expired by `now`. */
  eraseSpentUtterances(now: string): void;
}
