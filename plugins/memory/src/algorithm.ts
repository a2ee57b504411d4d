import type { MiraError } from '@mira/core';
import { normalizeToken, type Clock } from '@mira/core';
import {
  DEFAULT_MAX_OBJECT_BYTES,
  DEFAULT_OBJECT_GRACE_MS,
  MemoryErrors,
  entityRef,
  memoryRef,
  objectRef,
  prepareObject,
  verifiedObject,
  prepareMemory,
  prepareName,
  prepareNewName,
  slotOf,
  supersedableSlot,
  type AcceptedProposal,
  type AliasAdded,
  type Entity,
  type Memory,
  type MemoryLink,
  type MemorySlot,
  type MemoryStore,
  type NamedSlot,
  type NewMemory,
  type NewProposal,
  type NewestMemories,
  type ObjectUsage,
  type Payload,
  type PreparedMemory,
  type PreparedObject,
  type Proposal,
  type ProposalStatus,
  type Recalled,
  type SlotDecision,
  type SlotMemory,
  type SlotOutcome,
  type SlotRead,
  type StoreInfo,
  type StoredObject,
} from '@mira/memory-contract';
import {
  assertDecidable,
  assertEntityNameFree,
  assertNameFree,
  assertSlotUnchanged,
  prepareProposal,
  rejectReason,
  requireProposal,
  slotFactIds,
  supersedingMemory,
  toProposal,
  writtenMemory,
} from './rules.js';
import { statement, transaction, type Script } from './script.js';
import { sameSlot, sameSlotKey } from './slot.js';

/**
 * The one algorithm of every memory store: admission against a slot, proposals and their acceptance,
 * supersession, history and reads, written once as {@link Script}s over the dialect port
 * ({@link MemoryStatements}). A store (SQLite, PostgreSQL) holds only its connections, its dialect's SQL
 * and its error mapping: it runs these scripts with {@link ScriptedMemoryStore.execute}.
 */
export abstract class ScriptedMemoryStore implements MemoryStore {
  abstract readonly backend: string;
  /** Where the memory lives, for `memory persistent` (never a password). */
  abstract readonly location: string;
  readonly #clock: Clock;
  readonly #proposalTtlMs: number;
  readonly #schemaVersion: number;

  protected constructor(clock: Clock, proposalTtlMs: number, schemaVersion: number) {
    this.#clock = clock;
    this.#proposalTtlMs = proposalTtlMs;
    this.#schemaVersion = schemaVersion;
  }

  /**
   * Runs a script: its statements in this store's dialect, its transactions as this store's. A closed
   * store refuses with MIRA_ERR_MEMORY_CLOSED; a driver's failure becomes a Mira error saying `what`
   * was being done and that nothing was written.
   */
  protected abstract execute<T>(what: string, script: Script<T>): Promise<T>;

  abstract close(): Promise<void>;

  /** The store's clock, as stored timestamps are written. */
  protected now(): string {
    return this.#clock.now().toISOString();
  }

  info(): Promise<StoreInfo> {
    return this.execute('reading memory counts', this.#info());
  }

  *#info(): Script<StoreInfo> {
    const counts = yield* statement('counts');
    return { backend: this.backend, location: this.location, schemaVersion: this.#schemaVersion, ...counts };
  }

  /** Validates and writes an entity: what `createEntity` and an accepted entity proposal both do. */
  *#insertEntity(input: { entityType: string; canonicalName: string }, now: string): Script<number> {
    const entityType = normalizeToken(input.entityType, 'entity type');
    const name = prepareNewName(input.canonicalName, 'canonical name');
    return yield* statement('insertEntity', entityType, name, now);
  }

  createEntity(input: { entityType: string; canonicalName: string }): Promise<Entity> {
    return this.execute(
      'creating an entity',
      transaction(() => this.#createEntity(input)),
    );
  }

  *#createEntity(input: { entityType: string; canonicalName: string }): Script<Entity> {
    const id = yield* this.#insertEntity(input, this.now());
    return (yield* statement('entities', [id]))[0]!;
  }

  addAlias(entityId: number, alias: string): Promise<AliasAdded> {
    return this.execute('adding an alias', this.#addAlias(entityId, alias));
  }

  *#addAlias(entityId: number, alias: string): Script<AliasAdded> {
    const name = prepareNewName(alias, 'alias');
    const now = this.now();
    return yield* transaction(function* (): Script<AliasAdded> {
      const [entity] = yield* statement('entities', [entityId]);
      if (!entity) throw entityNotFound(entityId);
      if (entity.nameKey === name.key || entity.aliases.some((a) => a.aliasKey === name.key)) {
        throw MemoryErrors.error('ALIAS_EXISTS', {
          ref: entity.ref,
          canonicalName: entity.canonicalName,
          display: name.display,
        });
      }
      const id = yield* statement('insertAlias', entityId, name, now);
      const others = (yield* statement('entityIdsByKey', name.key)).filter((e) => e !== entityId);
      const [added, ...alsoNames] = yield* statement('entities', [entityId, ...others]);
      return { entity: added!, alias: added!.aliases.find((a) => a.id === id)!, alsoNames };
    });
  }

  getEntity(entityId: number): Promise<Entity | undefined> {
    return this.execute('reading an entity', first(statement('entities', [entityId])));
  }

  listEntities(
    options: { readonly entityType?: string | null; readonly offset?: number; readonly limit?: number } = {},
  ): Promise<{ entities: Entity[]; total: number }> {
    const limit = Math.min(Math.max(options.limit ?? 50, 1), 500);
    const offset = Math.max(options.offset ?? 0, 0);
    return this.execute('listing entities', statement('entityPage', options.entityType ?? null, limit, offset));
  }

  revision(): Promise<string> {
    return this.execute('reading the memory revision', statement('revision'));
  }

  findEntities(name: string): Promise<Entity[]> {
    return this.execute(
      'finding entities',
      byName(name, (key) => statement('entitiesByKey', key)),
    );
  }

  findEntityIds(name: string): Promise<number[]> {
    return this.execute(
      'finding entities',
      byName(name, (key) => statement('entityIdsByKey', key)),
    );
  }

  findEntityIdsOfEach(names: readonly string[]): Promise<number[][]> {
    return this.execute(
      'finding entities',
      (function* () {
        if (names.length === 0) return [];
        return yield* statement(
          'entityIdsByKeys',
          names.map((name) => prepareName(name).key),
        );
      })(),
    );
  }

  findNamedSlot(names: readonly string[], role: string, predicate: string): Promise<NamedSlot> {
    return this.execute('finding entities', this.#findNamedSlot(names, role, predicate));
  }

  *#findNamedSlot(names: readonly string[], role: string, predicate: string): Script<NamedSlot> {
    const token = normalizeToken(role, 'role');
    const slotPredicate = normalizeToken(predicate, 'predicate');
    if (names.length === 0) return { ids: [], read: undefined };
    const found = yield* statement(
      'namedSlot',
      names.map((name) => prepareName(name).key),
      token,
      slotPredicate,
    );
    const read = found.slot && {
      slot: { entityId: found.slot.entityId, role: token, predicate: slotPredicate },
      memories: found.slot.memories,
    };
    return { ids: found.ids, read };
  }

  /**
   * Writes a validated memory, its links and its payload (and, with `object`, the payload row of an
   * object already stored); inside a write transaction.
   */
  *#insertMemory(m: PreparedMemory, object: PreparedObject | null = null): Script<Memory> {
    const names = yield* statement(
      'entityNames',
      m.links.map((l) => l.entityId),
    );
    const links = namedLinks(m, names);
    const now = this.now();
    const byteSize = Buffer.byteLength(m.payloadText, 'utf8');
    const { memoryId, payloadId } = yield* statement('insertMemory', m, byteSize, now);
    // Built from what was just written, in the order getMemory() returns, instead of reading it back.
    const memory = writtenMemory(m, { id: memoryId, createdAt: now, links, payloadId, byteSize });
    if (!object) return memory;
    const objectPayloadId = yield* statement('insertObjectPayload', memoryId, object, now);
    return {
      ...memory,
      payloads: [
        ...memory.payloads,
        {
          id: objectPayloadId,
          payloadKind: 'object_ref',
          mediaType: object.mediaType,
          byteSize: object.bytes.length,
          objectRef: objectRef(object.sha256),
          sha256: object.sha256,
          createdAt: now,
        },
      ],
    };
  }

  createMemory(input: NewMemory): Promise<Memory> {
    return this.execute('writing a memory', this.#createMemory(input));
  }

  *#createMemory(input: NewMemory): Script<Memory> {
    const m = prepareMemory(input);
    const object = input.object === undefined ? null : prepareObject(input.object, this.maxObjectBytes);
    // The object first, outside the transaction: rows never refer to bytes that are not there. A
    // transaction that then fails leaves an object no payload refers to, which collectObjects removes.
    if (object) yield* statement('putObject', object, this.now());
    return yield* transaction(() => this.#insertMemory(m, object));
  }

  /** The largest object a memory may keep (`[memory] max_object_bytes`). */
  protected maxObjectBytes = DEFAULT_MAX_OBJECT_BYTES;

  readObject(memoryId: number): Promise<StoredObject | undefined> {
    return this.execute('reading an object', this.#readObject(memoryId));
  }

  *#readObject(memoryId: number): Script<StoredObject | undefined> {
    const [memory] = yield* statement('memories', [memoryId]);
    if (!memory) throw MemoryErrors.error('MEMORY_NOT_FOUND', { ref: memoryRef(memoryId) });
    const payload = memory.payloads.find((p) => p.payloadKind === 'object_ref');
    if (!payload?.sha256) return undefined;
    const found = yield* statement('objectBytes', payload.sha256);
    if (!found)
      throw MemoryErrors.error('OBJECT_MISSING.objectStore', {
        ref: memory.ref,
        sha256: payload.sha256,
        location: this.location,
      });
    return {
      sha256: payload.sha256,
      mediaType: payload.mediaType,
      bytes: verifiedObject(found.bytes, payload.sha256, found.where),
    };
  }

  objectUsage(): Promise<ObjectUsage> {
    return this.execute('measuring the object store', statement('objectUsage'));
  }

  collectObjects(graceMs = DEFAULT_OBJECT_GRACE_MS): Promise<ObjectUsage> {
    return this.execute('collecting objects', statement('collectObjects', graceMs));
  }

  admitToSlot<R>(
    slot: MemorySlot,
    decide: (existing: readonly SlotMemory[]) => SlotDecision<R>,
    read?: SlotRead,
  ): Promise<SlotOutcome<R>> {
    return this.execute('admitting a memory', this.#admit(slot, decide, read));
  }

  *#admit<R>(
    slot: MemorySlot,
    decide: (existing: readonly SlotMemory[]) => SlotDecision<R>,
    read: SlotRead | undefined,
  ): Script<SlotOutcome<R>> {
    // Read without a lock or a transaction (one statement sees one committed state): most decisions
    // write nothing, and they hold no other writer up. A read of this slot made with its subject's name
    // (findNamedSlot) is that read.
    const seen = read && sameSlotKey(read.slot, slot) ? read.memories : yield* statement('slotMemories', slot);
    const first = decide(seen);
    if (!('create' in first)) return { answer: first.answer };
    const m = prepareMemory(first.create);
    // A dialect that can write in one statement if the slot is still what was read does so.
    const now = this.now();
    const byteSize = Buffer.byteLength(m.payloadText, 'utf8');
    const written = yield* statement(
      'admitWrite',
      slot,
      seen.map((s) => s.id),
      m,
      byteSize,
      now,
    );
    if (written && 'missingEntity' in written) throw entityNotFound(written.missingEntity);
    if (written) {
      const links = namedLinks(m, written.linkNames);
      return {
        created: writtenMemory(m, {
          id: written.memoryId,
          createdAt: now,
          links,
          payloadId: written.payloadId,
          byteSize,
        }),
      };
    }
    // Under the slot's lock: what another writer wrote since the read is decided on afresh, and writers
    // into one slot at once each decide on what the one before wrote.
    return yield* transaction(() => this.#admitLocked(slot, seen, m, decide));
  }

  /** The locked half of an admission: `prepared` is the first decision's memory, written if the slot held still. */
  *#admitLocked<R>(
    slot: MemorySlot,
    seen: readonly SlotMemory[],
    prepared: PreparedMemory,
    decide: (existing: readonly SlotMemory[]) => SlotDecision<R>,
  ): Script<SlotOutcome<R>> {
    yield* statement('lockSlot', slot);
    const current = yield* statement('slotMemories', slot);
    if (sameSlot(current, seen)) return { created: yield* this.#insertMemory(prepared) };
    const decision = decide(current);
    if ('create' in decision) return { created: yield* this.#insertMemory(prepareMemory(decision.create)) };
    return { answer: decision.answer };
  }

  getMemory(memoryId: number): Promise<Memory | undefined> {
    return this.execute('reading a memory', first(statement('memories', [memoryId])));
  }

  getPayloads(memoryId: number): Promise<Payload[]> {
    return this.execute('reading payloads', statement('payloads', memoryId));
  }

  listActiveMemories(entityId: number, options: { readonly newest?: number } = {}): Promise<NewestMemories> {
    return this.execute('listing memories', only(statement('newestActive', [entityId], options.newest)));
  }

  listActiveMemoriesOf(
    entityIds: readonly number[],
    options: { readonly newest?: number } = {},
  ): Promise<NewestMemories[]> {
    return this.execute('listing memories', statement('newestActive', entityIds, options.newest));
  }

  recall(name: string, options: { readonly entities: number; readonly newest: number }): Promise<Recalled> {
    return this.execute(
      'recalling',
      byName(name, (key) => statement('recallByKey', key, options.entities, options.newest)),
    );
  }

  findActiveBySlot(entityId: number, role: string, predicate: string): Promise<Memory[]> {
    return this.execute('reading a slot', statement('slot', { entityId, role, predicate }));
  }

  listMemoryHistory(entityId: number): Promise<Memory[]> {
    return this.execute('reading memory history', statement('history', entityId));
  }

  *#proposal(id: number): Script<Proposal | undefined> {
    const row = yield* statement('proposal', id);
    return row && toProposal(row, this.#clock.now());
  }

  createProposal(input: NewProposal): Promise<Proposal> {
    return this.execute('writing a proposal', this.#createProposal(input));
  }

  *#createProposal(input: NewProposal): Script<Proposal> {
    const p = prepareProposal(input, this.#clock.now(), this.#proposalTtlMs);
    return yield* transaction(() => this.#writeProposal(p));
  }

  *#writeProposal(p: ReturnType<typeof prepareProposal>): Script<Proposal> {
    yield* statement('eraseSpentUtterances', p.createdAt);
    let slotIds: number[] = [];
    if (p.kind === 'entity') {
      assertNameFree(p.name!, yield* statement('entityIdsByKey', p.nameKey!));
    } else {
      const [memory] = yield* statement('memories', [p.memoryId!]);
      const { slot } = supersedableSlot(memory, p.memoryId!);
      slotIds = slotFactIds(yield* statement('slot', slot));
    }
    const id = yield* statement('insertProposal', p, slotIds);
    return (yield* this.#proposal(id))!;
  }

  getProposal(proposalId: number): Promise<Proposal | undefined> {
    return this.execute('reading a proposal', this.#proposal(proposalId));
  }

  listProposals(options: { readonly status?: ProposalStatus } = {}): Promise<Proposal[]> {
    return this.execute('listing proposals', this.#proposals(options.status));
  }

  *#proposals(status: ProposalStatus | undefined): Script<Proposal[]> {
    const now = this.#clock.now();
    const all = (yield* statement('proposals')).map((row) => toProposal(row, now));
    return status === undefined ? all : all.filter((p) => p.status === status);
  }

  acceptProposal(proposalId: number): Promise<AcceptedProposal> {
    return this.execute(
      'accepting a proposal',
      transaction(() => this.#accept(proposalId)),
    );
  }

  *#accept(proposalId: number): Script<AcceptedProposal> {
    // A second accept of the proposal waits here, then finds it decided.
    yield* statement('lockProposal', proposalId);
    const proposal = requireProposal(yield* this.#proposal(proposalId), proposalId);
    assertDecidable(proposal, true);
    const now = this.now();
    if (proposal.kind === 'entity') {
      assertEntityNameFree(proposal, yield* statement('entityIdsByKey', prepareName(proposal.name!).key));
      const entityId = yield* this.#insertEntity(
        { entityType: proposal.entityType!, canonicalName: proposal.name! },
        now,
      );
      yield* statement('decideProposal', proposalId, 'accepted', now, null, entityRef(entityId));
      const [entity] = yield* statement('entities', [entityId]);
      return { proposal: (yield* this.#proposal(proposalId))!, entity: entity! };
    }
    const [before] = yield* statement('memories', [proposal.memoryId!]);
    const slot = before && slotOf(before);
    // The slot's lock, then the memory again: an admission into the slot meanwhile is seen.
    if (slot) yield* statement('lockSlot', slot);
    // No slot (no such memory): stale, as below.
    const old = slot ? (yield* statement('memories', [proposal.memoryId!]))[0] : undefined;
    assertSlotUnchanged(proposal, old, slot ? slotFactIds(yield* statement('slot', slot)) : []);
    const created = yield* this.#insertMemory(prepareMemory(supersedingMemory(old!, proposal)));
    yield* statement('supersede', old!.id, created.id, now);
    yield* statement('decideProposal', proposalId, 'accepted', now, null, created.ref);
    const [memory, superseded] = yield* statement('memories', [created.id, old!.id]);
    return { proposal: (yield* this.#proposal(proposalId))!, memory: memory!, superseded: superseded! };
  }

  rejectProposal(proposalId: number, reason: string | null = null): Promise<Proposal> {
    return this.execute(
      'rejecting a proposal',
      transaction(() => this.#reject(proposalId, reason)),
    );
  }

  *#reject(proposalId: number, reason: string | null): Script<Proposal> {
    yield* statement('lockProposal', proposalId);
    const proposal = requireProposal(yield* this.#proposal(proposalId), proposalId);
    assertDecidable(proposal, false);
    yield* statement('decideProposal', proposalId, 'rejected', this.now(), rejectReason(reason), null);
    return (yield* this.#proposal(proposalId))!;
  }
}

/**
 * The links of `m` with their entities' canonical names (`names[i]` for link i, as a statement read them);
 * a link whose entity has no name is to an entity that does not exist.
 */
function namedLinks(m: PreparedMemory, names: ReadonlyArray<string | undefined>): MemoryLink[] {
  return m.links.map((link, i): MemoryLink => {
    const name = names[i];
    if (name === undefined) throw entityNotFound(link.entityId);
    return { entityId: link.entityId, entityRef: entityRef(link.entityId), entityName: name, role: link.role };
  });
}

/** MIRA_ERR_MEMORY_ENTITY_NOT_FOUND for an entity ID, worded once. */
function entityNotFound(id: number): MiraError {
  return MemoryErrors.error('ENTITY_NOT_FOUND', { ref: entityRef(id) });
}

/** The first item of what `script` returns. */
function* first<T>(script: Script<readonly T[]>): Script<T | undefined> {
  return (yield* script)[0];
}

/** The one item of what `script` returns. */
function* only<T>(script: Script<readonly T[]>): Script<T> {
  return (yield* script)[0]!;
}

/** `lookup` of the exact key of `name` (validated when the script runs). */
function* byName<T>(name: string, lookup: (key: string) => Script<T>): Script<T> {
  return yield* lookup(prepareName(name).key);
}
