import {
  objectRef,
  type Entity,
  type Memory,
  type MemorySlot,
  type NewestMemories,
  type ObjectUsage,
  type Payload,
  type PreparedMemory,
  type PreparedObject,
  type ProposalRow,
  type Recalled,
  type SlotMemory,
} from '@mira/memory-contract';
import type { SqliteDatabase } from '@mira/sqlite';
import type { ObjectFiles } from './object-files.js';
import type { PreparedProposal } from './rules.js';
import {
  entityFromColumns,
  formatIds,
  memoryFromColumns,
  payloadInfoFromColumns,
  proposalFromColumns,
  slotMemoryFromColumns,
  type AliasColumns,
  type EntityColumns,
  type LinkColumns,
  type MemoryColumns,
  type PayloadColumns,
  type ProposalColumns,
} from './rows.js';
import { soleId } from './slot.js';
import { KEY_RANGE_LIMIT, prepareStatements, type PreparedStatements } from './sqlite-prepared.js';
import type { MemoryStatements, StoreCounts } from './statements.js';

/**
 * Compares two strings in code-point order, which is UTF-8's byte order (SQLite's BINARY collation):
 * JavaScript's `<` compares UTF-16 units, which puts a character past U+FFFF (a surrogate pair) before
 * U+E000–U+FFFF.
 */
export function compareBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return inCodePointOrder(x) - inCodePointOrder(y);
  }
  return a.length - b.length;
}

/** A UTF-16 unit moved so that surrogates sort after U+E000–U+FFFF. */
const inCodePointOrder = (unit: number) => (unit < 0xd800 ? unit : unit <= 0xdfff ? unit + 0x2000 : unit - 0x800);

/**
 * The SQLite dialect of the store's statements (better-sqlite3): each prepared once, each answered
 * synchronously, so a whole script runs inside one better-sqlite3 transaction.
 */
export class SqliteStatements implements MemoryStatements {
  readonly #db: SqliteDatabase;
  readonly #objects: ObjectFiles;
  readonly #readOnly: boolean;
  readonly #s: PreparedStatements;

  constructor(db: SqliteDatabase, objects: ObjectFiles, readOnly: boolean) {
    this.#db = db;
    this.#objects = objects;
    this.#readOnly = readOnly;
    this.#s = prepareStatements(db);
  }

  #entity(id: number): Entity | undefined {
    const row = this.#s.entityById.get(id) as EntityColumns | undefined;
    return row && entityFromColumns(row, this.#s.aliasesOf.all(id) as AliasColumns[]);
  }

  #memory(id: number): Memory | undefined {
    const row = this.#s.memoryById.get(id) as MemoryColumns | undefined;
    return (
      row &&
      memoryFromColumns(
        row,
        this.#s.linksOf.all(id) as LinkColumns[],
        this.#s.payloadInfoOf.all(id) as PayloadColumns[],
      )
    );
  }

  entities(ids: readonly number[]): Entity[] {
    return ids.flatMap((id) => this.#entity(id) ?? []);
  }

  entityIdsByKey(key: string): number[] {
    return this.#s.entityIdsByKey.all(key, key) as number[];
  }

  entitiesByKey(key: string): Entity[] {
    return this.entities(this.entityIdsByKey(key));
  }

  entityIdsByKeys(keys: readonly string[]): number[][] {
    if (keys.length < 2) return keys.map((key) => this.entityIdsByKey(key));
    const [low, high] = keyRange(keys);
    const rows = this.#s.keysBetween.all(low, high, low, high) as Array<[key: string, id: number]>;
    return rows.length > KEY_RANGE_LIMIT ? this.#entityIdsKeyByKey(keys) : idsOfKeys(keys, rows);
  }

  /** {@link entityIdsByKeys} with each key looked up (a range too wide to read). */
  #entityIdsKeyByKey(keys: readonly string[]): number[][] {
    const list = JSON.stringify(keys);
    const ids = keys.map((): number[] => []);
    for (const { i, id } of this.#s.entityIdsByKeys.all(list, list) as Array<{ i: number; id: number }>)
      ids[i]!.push(id);
    return ids;
  }

  namedSlot(
    keys: readonly string[],
    role: string,
    predicate: string,
  ): { ids: number[][]; slot: { entityId: number; memories: SlotMemory[] } | undefined } {
    const [low, high] = keyRange(keys);
    const [name] = keys;
    const rows = this.#s.namedSlot.all(name, name, low, high, low, high, role, predicate) as NamedSlotRow[];
    const named: Array<[key: string, id: number]> = [];
    const memories: SlotMemory[] = [];
    for (const row of rows)
      if (row[0] === 0) named.push([row[1], row[2]]);
      else
        memories.push(
          slotMemoryFromColumns({
            id: row[1],
            kind: row[2],
            predicate,
            value: row[3],
            links: JSON.parse(row[4]) as Array<[number, string]>,
          }),
        );
    if (named.length > KEY_RANGE_LIMIT) {
      // A range too wide to read whole: the names are looked up key by key, and the slot of the entity they
      // find is read on its own.
      const ids = this.#entityIdsKeyByKey(keys);
      const entityId = soleId(ids[0]!);
      const slot =
        entityId === undefined ? undefined : { entityId, memories: this.slotMemories({ entityId, role, predicate }) };
      return { ids, slot };
    }
    const ids = idsOfKeys(keys, named);
    const entityId = soleId(ids[0]!);
    memories.sort((a, b) => a.id - b.id);
    return { ids, slot: entityId === undefined ? undefined : { entityId, memories } };
  }

  entityPage(entityType: string | null, limit: number, offset: number): { entities: Entity[]; total: number } {
    const ids = this.#s.entityIdsPage.all(entityType, entityType, limit, offset) as number[];
    return { entities: this.entities(ids), total: this.#s.entityCount.get(entityType, entityType) as number };
  }

  entityNames(ids: readonly number[]): Array<string | undefined> {
    return ids.map((id) => this.#s.entityNameById.get(id) as string | undefined);
  }

  memories(ids: readonly number[]): Memory[] {
    return ids.flatMap((id) => this.#memory(id) ?? []);
  }

  slot(slot: MemorySlot): Memory[] {
    return this.memories(this.#s.bySlot.all(slot.entityId, slot.role, slot.predicate) as number[]);
  }

  slotMemories(slot: MemorySlot): SlotMemory[] {
    const { predicate } = slot;
    return (this.#s.slotMemories.all(slot.entityId, slot.role, predicate) as SlotRow[]).map(
      ([id, kind, value, links]) =>
        slotMemoryFromColumns({ id, kind, predicate, value, links: JSON.parse(links) as Array<[number, string]> }),
    );
  }

  newestActive(entityIds: readonly number[], newest: number | undefined): NewestMemories[] {
    const limit = newest ?? -1;
    return entityIds.map((entityId) => {
      const ids = (this.#s.newestActive.all(entityId, limit) as number[]).reverse();
      const total = limit < 0 ? ids.length : (this.#s.countActive.get(entityId) as number);
      return { memories: this.memories(ids), total };
    });
  }

  recallByKey(key: string, entities: number, newest: number): Recalled {
    // Synchronous statements on one connection: nothing is written between the two reads.
    const found = this.entitiesByKey(key);
    const shown = found.slice(0, entities).map((e) => e.id);
    return { entities: found, newest: this.newestActive(shown, newest) };
  }

  history(entityId: number): Memory[] {
    return this.memories(this.#s.historyOf.all(entityId) as number[]);
  }

  payloads(memoryId: number): Payload[] {
    return (this.#s.payloadsOf.all(memoryId) as Array<PayloadColumns & { text_body: string | null }>).map((row) => ({
      ...payloadInfoFromColumns(row),
      text: row.text_body,
    }));
  }

  proposal(id: number): ProposalRow | undefined {
    const row = this.#s.proposalById.get(id) as ProposalColumns | undefined;
    return row && proposalFromColumns(row);
  }

  proposals(): ProposalRow[] {
    return (this.#s.proposals.all() as ProposalColumns[]).map(proposalFromColumns);
  }

  counts(): StoreCounts {
    return this.#s.counts.get() as StoreCounts;
  }

  revision(): string {
    // data_version moves when another connection commits; total_changes counts this connection's writes.
    return `${this.#db.pragma('data_version', { simple: true }) as number}:${this.#s.revision.get() as number}`;
  }

  // A write transaction holds the database's only write lock (BEGIN IMMEDIATE): nothing else to lock.
  lockSlot(): void {}
  lockProposal(): void {}

  insertEntity(entityType: string, name: { display: string; key: string }, now: string): number {
    return Number(this.#s.insertEntity.run(entityType, name.display, name.key, now).lastInsertRowid);
  }

  insertAlias(entityId: number, name: { display: string; key: string }, now: string): number {
    return Number(this.#s.insertAlias.run(entityId, name.display, name.key, now).lastInsertRowid);
  }

  insertMemory(m: PreparedMemory, byteSize: number, now: string): { memoryId: number; payloadId: number } {
    const memoryId = Number(
      this.#s.insertMemory.run(m.kind, m.summary, m.predicate, m.value, m.sourceKind, m.sourceLabel, m.confidence, now)
        .lastInsertRowid,
    );
    for (const link of m.links) this.#s.insertLink.run(memoryId, link.entityId, link.role);
    const payloadId = Number(this.#s.insertPayload.run(memoryId, m.payloadText, byteSize, now).lastInsertRowid);
    return { memoryId, payloadId };
  }

  insertObjectPayload(memoryId: number, object: PreparedObject, now: string): number {
    return Number(
      this.#s.insertObjectPayload.run(
        memoryId,
        object.mediaType,
        objectRef(object.sha256),
        object.sha256,
        object.bytes.length,
        now,
      ).lastInsertRowid,
    );
  }

  putObject(object: PreparedObject): void {
    // A read-only store writes nothing, not even a file beside the database.
    if (this.#readOnly) throw new TypeError('attempt to write a readonly database');
    this.#objects.put(object);
  }

  objectBytes(sha256: string): { bytes: Buffer; where: string } | undefined {
    return this.#objects.get(sha256);
  }

  objectUsage(): ObjectUsage {
    return this.#objects.usage();
  }

  collectObjects(graceMs: number): ObjectUsage {
    if (this.#readOnly) throw new TypeError('attempt to write a readonly database');
    // Digests read after the files are listed would miss nothing: a write stores its file first.
    const referenced = new Set(this.#s.objectDigests.all() as string[]);
    // Object files age by the file system's clock, whatever clock the memories are stamped with.
    return this.#objects.collect(referenced, graceMs, Date.now());
  }

  /** No one-statement admission here: the algorithm's write transaction is as short. */
  // Stryker disable next-line BlockStatement: equivalent, an empty body returns undefined too
  admitWrite(): undefined {
    return undefined;
  }

  supersede(oldId: number, newId: number, now: string): void {
    this.#s.supersede.run(newId, now, oldId);
  }

  insertProposal(p: PreparedProposal, slotIds: readonly number[]): number {
    return Number(
      this.#s.insertProposal.run(
        p.kind,
        p.entityType,
        p.name,
        p.nameKey,
        p.memoryId,
        p.value,
        formatIds(slotIds),
        p.evidence,
        p.utterance,
        p.createdAt,
        p.expiresAt,
      ).lastInsertRowid,
    );
  }

  decideProposal(
    id: number,
    decision: 'accepted' | 'rejected',
    now: string,
    reason: string | null,
    result: string | null,
  ): void {
    this.#s.decideProposal.run(decision, now, reason, result, id);
  }

  eraseSpentUtterances(now: string): void {
    this.#s.eraseSpentUtterances.run(now);
  }
}

/** The least and the greatest of `keys` in the indexes' byte order. */
function keyRange(keys: readonly string[]): [low: string, high: string] {
  let low = keys[0]!;
  let high = low;
  for (const key of keys) {
    if (compareBytes(key, low) < 0) low = key;
    if (compareBytes(key, high) > 0) high = key;
  }
  return [low, high];
}

/** The IDs of each of `keys`, ascending, from the keys and IDs a range read found. */
function idsOfKeys(keys: readonly string[], rows: ReadonlyArray<readonly [key: string, id: number]>): number[][] {
  const ids = keys.map((): number[] => []);
  for (const [key, id] of rows)
    for (let i = keys.indexOf(key); i !== -1; i = keys.indexOf(key, i + 1)) if (!ids[i]!.includes(id)) ids[i]!.push(id);
  for (const list of ids) list.sort((a, b) => a - b);
  return ids;
}

/** A row of the named slot statement: a name's key and entity, or a slot memory. */
type NamedSlotRow =
  [0, key: string, id: number, null, null] | [1, id: number, kind: string, value: string | null, links: string];

/** A row of the slot statement: ID, kind, value, links as JSON. */
type SlotRow = [id: number, kind: string, value: string | null, links: string];
