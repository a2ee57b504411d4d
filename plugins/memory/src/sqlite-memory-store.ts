import {
  MemoryErrorCodes,
  MiraError,
  entityRef,
  memoryRef,
  normalizeToken,
  DEFAULT_PROPOSAL_TTL_MS,
  assertDecidable,
  assertNameFree,
  assertEntityNameFree,
  assertSlotUnchanged,
  formatIds,
  prepareProposal,
  proposalFromColumns,
  requireProposal,
  slotFactIds,
  supersedableSlot,
  supersedingMemory,
  toProposal,
  prepareMemory,
  prepareName,
  prepareNewName,
  rejectReason,
  slotOf,
  systemClock,
  writtenMemory,
  type Alias,
  type AcceptedProposal,
  type AliasAdded,
  type Clock,
  type Entity,
  type Memory,
  type MemoryLink,
  type MemorySlot,
  type MemoryStatus,
  type MemoryStore,
  type MemorySnapshot,
  type NewMemory,
  type NewProposal,
  type NewestMemories,
  type Payload,
  type Proposal,
  type ProposalColumns,
  type ProposalStatus,
  type PayloadInfo,
  type PreparedMemory,
  type SlotDecision,
  type SlotMemory,
  type SlotOutcome,
  type StoreInfo,
} from '@mira/core';
import { openDatabase, openDatabaseReadOnly, type SqliteDatabase, type UpgradeDone } from '@mira/sqlite';
import { MEMORY_SCHEMA, SCHEMA_VERSION } from './schema-v2.js';
import { sameSlot } from './slot.js';

/** How to open a {@link SqliteMemoryStore}. */
export interface SqliteMemoryStoreOptions {
  /** Source of creation timestamps; the system clock by default. */
  readonly clock?: Clock;
  /** How long a write waits for another process's lock, in ms (default 5000). */
  readonly busyTimeoutMs?: number;
  /** Open an existing file read-only (`mira mcp`): every write is refused. */
  readonly readOnly?: boolean;
  /** How long a proposal waits for the operator, in ms (default 7 days). */
  readonly proposalTtlMs?: number;
  /** Hears that a file of an earlier schema version was upgraded, and where its backup is. */
  readonly onUpgrade?: (done: UpgradeDone) => void;
}

interface EntityRow {
  id: number;
  entity_type: string;
  canonical_name: string;
  name_key: string;
  created_at: string;
}
interface AliasRow {
  id: number;
  entity_id: number;
  alias: string;
  alias_key: string;
  created_at: string;
}
interface MemoryRow {
  id: number;
  kind: string;
  summary: string;
  predicate: string | null;
  value: string | null;
  source_kind: string;
  source_label: string | null;
  confidence: number | null;
  status: MemoryStatus;
  created_at: string;
  superseded_by: number | null;
  superseded_at: string | null;
  supersedes: number | null;
}
interface LinkRow {
  entity_id: number;
  role: string;
  canonical_name: string;
}
const PROPOSAL_COLUMNS =
  'id, kind, entity_type, name, memory_id, value, slot_ids, evidence, utterance, decision, created_at, expires_at, decided_at, reason, result';
const MEMORY_COLUMNS =
  'id, kind, summary, predicate, value, source_kind, source_label, confidence, status, created_at, superseded_by, superseded_at';

interface PayloadRow {
  id: number;
  payload_kind: 'inline_text' | 'object_ref';
  media_type: string;
  text_body: string | null;
  object_ref: string | null;
  sha256: string | null;
  byte_size: number;
  created_at: string;
}

/**
 * The canonical, embedded persistent memory store on one SQLite file
 * (better-sqlite3). Statements are prepared once; every multi-row write is
 * one immediate transaction.
 *
 * @example
 * const store = SqliteMemoryStore.open('/var/lib/mira/memory.sqlite3');
 * const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada Lovelace' });
 * await store.close();
 */
export class SqliteMemoryStore implements MemoryStore {
  readonly backend = 'sqlite';
  readonly path: string;
  readonly #db: SqliteDatabase;
  readonly #clock: Clock;
  readonly #proposalTtlMs: number;
  readonly #s;
  #closed = false;

  private constructor(path: string, db: SqliteDatabase, clock: Clock, proposalTtlMs: number) {
    this.path = path;
    this.#db = db;
    this.#clock = clock;
    this.#proposalTtlMs = proposalTtlMs;
    this.#s = {
      insertEntity: db.prepare(
        'INSERT INTO entities (entity_type, canonical_name, name_key, created_at) VALUES (?, ?, ?, ?)',
      ),
      entityNameById: db.prepare('SELECT canonical_name FROM entities WHERE id = ?').pluck(),
      entityById: db.prepare('SELECT id, entity_type, canonical_name, name_key, created_at FROM entities WHERE id = ?'),
      aliasesOf: db.prepare(
        'SELECT id, entity_id, alias, alias_key, created_at FROM aliases WHERE entity_id = ? ORDER BY id',
      ),
      aliasOf: db.prepare('SELECT id FROM aliases WHERE entity_id = ? AND alias_key = ?'),
      insertAlias: db.prepare('INSERT INTO aliases (entity_id, alias, alias_key, created_at) VALUES (?, ?, ?, ?)'),
      entityIdsByKey: db
        .prepare(
          'SELECT id FROM entities WHERE name_key = ? UNION SELECT entity_id FROM aliases WHERE alias_key = ? ORDER BY 1',
        )
        .pluck(),
      insertMemory: db.prepare(
        "INSERT INTO memories (kind, summary, predicate, value, source_kind, source_label, confidence, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'active', ?)",
      ),
      insertLink: db.prepare('INSERT INTO memory_links (memory_id, entity_id, role) VALUES (?, ?, ?)'),
      insertPayload: db.prepare(
        "INSERT INTO payloads (memory_id, payload_kind, media_type, text_body, byte_size, created_at) VALUES (?, 'inline_text', 'text/plain', ?, ?, ?)",
      ),
      memoryById: db.prepare(
        `SELECT ${MEMORY_COLUMNS}, (SELECT s.id FROM memories s WHERE s.superseded_by = m.id) AS supersedes
         FROM memories m WHERE id = ?`,
      ),
      historyOf: db
        .prepare('SELECT DISTINCT memory_id FROM memory_links WHERE entity_id = ? ORDER BY memory_id')
        .pluck(),
      supersede: db.prepare(
        "UPDATE memories SET status = 'superseded', superseded_by = ?, superseded_at = ? WHERE id = ? AND status = 'active'",
      ),
      insertProposal: db.prepare(
        `INSERT INTO proposals (kind, entity_type, name, name_key, memory_id, value, slot_ids, evidence, utterance, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      proposalById: db.prepare(`SELECT ${PROPOSAL_COLUMNS} FROM proposals WHERE id = ?`),
      proposals: db.prepare(`SELECT ${PROPOSAL_COLUMNS} FROM proposals ORDER BY id`),
      // A decided proposal keeps its evidence, not the rest of what was said.
      decideProposal: db.prepare(
        "UPDATE proposals SET decision = ?, decided_at = ?, reason = ?, result = ?, utterance = evidence WHERE id = ? AND decision = 'pending'",
      ),
      eraseSpentUtterances: db.prepare(
        "UPDATE proposals SET utterance = evidence WHERE utterance <> evidence AND (decision <> 'pending' OR expires_at <= ?)",
      ),
      linksOf: db.prepare(
        'SELECT l.entity_id, l.role, e.canonical_name FROM memory_links l JOIN entities e ON e.id = l.entity_id WHERE l.memory_id = ? ORDER BY l.entity_id, l.role',
      ),
      payloadsOf: db.prepare(
        'SELECT id, payload_kind, media_type, text_body, object_ref, sha256, byte_size, created_at FROM payloads WHERE memory_id = ? ORDER BY id',
      ),
      // What a memory shows of its payloads: no body (recall and listings never load one).
      payloadInfoOf: db.prepare(
        'SELECT id, payload_kind, media_type, object_ref, sha256, byte_size, created_at FROM payloads WHERE memory_id = ? ORDER BY id',
      ),
      newestActive: db
        .prepare(
          `SELECT DISTINCT l.memory_id FROM memory_links l JOIN memories m ON m.id = l.memory_id
           WHERE l.entity_id = ? AND m.status = 'active' ORDER BY l.memory_id DESC LIMIT ?`,
        )
        .pluck(),
      countActive: db
        .prepare(
          `SELECT count(DISTINCT l.memory_id) FROM memory_links l JOIN memories m ON m.id = l.memory_id
           WHERE l.entity_id = ? AND m.status = 'active'`,
        )
        .pluck(),
      bySlot: db
        .prepare(
          `SELECT m.id FROM memory_links l JOIN memories m ON m.id = l.memory_id
           WHERE l.entity_id = ? AND l.role = ? AND m.predicate = ? AND m.status = 'active' ORDER BY m.id`,
        )
        .pluck(),
      // The slot an admission decides on: each memory with its links as JSON ([[entity_id, role], …]).
      slotMemories: db.prepare(
        `SELECT m.id, m.kind, m.predicate, m.value,
                (SELECT json_group_array(json_array(k.entity_id, k.role)) FROM memory_links k WHERE k.memory_id = m.id) AS links
         FROM memory_links l JOIN memories m ON m.id = l.memory_id
         WHERE l.entity_id = ? AND l.role = ? AND m.predicate = ? AND m.status = 'active' ORDER BY m.id`,
      ),
      entityIdsPage: db
        .prepare('SELECT id FROM entities WHERE (? IS NULL OR entity_type = ?) ORDER BY id LIMIT ? OFFSET ?')
        .pluck(),
      entityCount: db.prepare('SELECT count(*) FROM entities WHERE (? IS NULL OR entity_type = ?)').pluck(),
      revision: db.prepare('SELECT total_changes()').pluck(),
      counts: db.prepare(
        `SELECT (SELECT count(*) FROM entities) AS entities, (SELECT count(*) FROM aliases) AS aliases,
                (SELECT count(*) FROM memories) AS memories,
                (SELECT count(*) FROM memories WHERE status = 'active') AS active,
                (SELECT count(*) FROM memory_links) AS links, (SELECT count(*) FROM payloads) AS payloads`,
      ),
    };
  }

  /**
   * Opens or creates the store at `path` (the parent directory must exist).
   * Refuses, leaving the file unchanged, anything that is not a schema-v1
   * Mira database or a new/empty file.
   */
  static open(path: string, options: SqliteMemoryStoreOptions = {}): SqliteMemoryStore {
    const db = options.readOnly
      ? openDatabaseReadOnly(path, options.busyTimeoutMs ?? 5000, MEMORY_SCHEMA)
      : openDatabase(path, options.busyTimeoutMs ?? 5000, MEMORY_SCHEMA, options.onUpgrade);
    const store = new SqliteMemoryStore(
      path,
      db,
      options.clock ?? systemClock,
      options.proposalTtlMs ?? DEFAULT_PROPOSAL_TTL_MS,
    );
    // What was said beside the evidence of proposals decided or expired since: erased at open (rows of
    // earlier versions included), as every new proposal erases it for those that expired meanwhile.
    if (!options.readOnly) store.#s.eraseSpentUtterances.run(store.#now());
    return store;
  }

  #run<T>(fn: () => T): Promise<T> {
    if (this.#closed) return Promise.reject(new MiraError(MemoryErrorCodes.CLOSED, 'the memory store is closed'));
    try {
      return Promise.resolve(fn());
    } catch (error) {
      if (error instanceof MiraError) return Promise.reject(error);
      return Promise.reject(
        new MiraError(
          MemoryErrorCodes.BACKEND,
          `the memory database failed and nothing was written: ${(error as Error).message}`,
          { cause: error },
        ),
      );
    }
  }

  /**
   * The connection settings in force (journal mode, synchronous level, foreign keys, busy timeout), for
   * diagnostics.
   */
  settings(): { journalMode: string; synchronous: number; foreignKeys: boolean; busyTimeoutMs: number } {
    return {
      journalMode: this.#db.pragma('journal_mode', { simple: true }) as string,
      synchronous: this.#db.pragma('synchronous', { simple: true }) as number,
      foreignKeys: this.#db.pragma('foreign_keys', { simple: true }) === 1,
      busyTimeoutMs: this.#db.pragma('busy_timeout', { simple: true }) as number,
    };
  }

  #now(): string {
    return this.#clock.now().toISOString();
  }

  #entity(id: number): Entity | undefined {
    const row = this.#s.entityById.get(id) as EntityRow | undefined;
    if (!row) return undefined;
    const aliases = (this.#s.aliasesOf.all(id) as AliasRow[]).map((a): Alias => ({
      id: a.id,
      entityId: a.entity_id,
      alias: a.alias,
      aliasKey: a.alias_key,
      createdAt: a.created_at,
    }));
    return {
      id: row.id,
      ref: entityRef(row.id),
      entityType: row.entity_type,
      canonicalName: row.canonical_name,
      nameKey: row.name_key,
      createdAt: row.created_at,
      aliases,
    };
  }

  #requireEntity(id: number): Entity {
    const entity = this.#entity(id);
    if (!entity)
      throw new MiraError(
        MemoryErrorCodes.ENTITY_NOT_FOUND,
        `there is no entity ${entityRef(id)}; find one with "memory entity find"`,
      );
    return entity;
  }

  #memory(id: number): Memory | undefined {
    const row = this.#s.memoryById.get(id) as MemoryRow | undefined;
    if (!row) return undefined;
    const links = (this.#s.linksOf.all(id) as LinkRow[]).map((l): MemoryLink => ({
      entityId: l.entity_id,
      entityRef: entityRef(l.entity_id),
      entityName: l.canonical_name,
      role: l.role,
    }));
    const payloads = (this.#s.payloadInfoOf.all(id) as PayloadRow[]).map(toPayloadInfo);
    return {
      id: row.id,
      ref: memoryRef(row.id),
      kind: row.kind,
      summary: row.summary,
      predicate: row.predicate,
      value: row.value,
      source: { kind: row.source_kind, label: row.source_label },
      confidence: row.confidence,
      status: row.status,
      createdAt: row.created_at,
      supersededBy: row.superseded_by,
      supersededAt: row.superseded_at,
      supersedes: row.supersedes,
      links,
      payloads,
    };
  }

  #proposal(id: number): Proposal | undefined {
    const row = this.#s.proposalById.get(id) as ProposalColumns | undefined;
    return row && toProposal(proposalFromColumns(row), this.#clock.now());
  }

  info(): Promise<StoreInfo> {
    return this.#run(() => {
      const c = this.#s.counts.get() as Record<string, number>;
      return {
        backend: this.backend,
        location: this.path,
        schemaVersion: SCHEMA_VERSION,
        entities: c.entities!,
        aliases: c.aliases!,
        memories: c.memories!,
        activeMemories: c.active!,
        links: c.links!,
        payloads: c.payloads!,
      };
    });
  }

  /** Validates and writes an entity: what `createEntity` and an accepted entity proposal both do. */
  #insertEntity(input: { entityType: string; canonicalName: string }, now: string): number {
    const entityType = normalizeToken(input.entityType, 'entity type');
    const name = prepareNewName(input.canonicalName, 'canonical name');
    return Number(this.#s.insertEntity.run(entityType, name.display, name.key, now).lastInsertRowid);
  }

  createEntity(input: { entityType: string; canonicalName: string }): Promise<Entity> {
    return this.#run(() => this.#entity(this.#insertEntity(input, this.#now()))!);
  }

  addAlias(entityId: number, alias: string): Promise<AliasAdded> {
    return this.#run(() => {
      const name = prepareNewName(alias, 'alias');
      return this.#db
        .transaction((): AliasAdded => {
          const entity = this.#requireEntity(entityId);
          if (entity.nameKey === name.key || this.#s.aliasOf.get(entityId, name.key)) {
            throw new MiraError(
              MemoryErrorCodes.ALIAS_EXISTS,
              `${entity.ref} "${entity.canonicalName}" is already named "${name.display}" (same exact key); nothing was added`,
            );
          }
          const id = Number(this.#s.insertAlias.run(entityId, name.display, name.key, this.#now()).lastInsertRowid);
          const alsoNames = (this.#s.entityIdsByKey.all(name.key, name.key) as number[])
            .filter((e) => e !== entityId)
            .map((e) => this.#entity(e)!);
          const added = this.#entity(entityId)!;
          return { entity: added, alias: added.aliases.find((a) => a.id === id)!, alsoNames };
        })
        .immediate();
    });
  }

  getEntity(entityId: number): Promise<Entity | undefined> {
    return this.#run(() => this.#entity(entityId));
  }

  listEntities(
    options: { readonly entityType?: string | null; readonly offset?: number; readonly limit?: number } = {},
  ): Promise<{ entities: Entity[]; total: number }> {
    return this.#run(() => {
      const type = options.entityType ?? null;
      const limit = Math.min(Math.max(options.limit ?? 50, 1), 500);
      const offset = Math.max(options.offset ?? 0, 0);
      const ids = this.#s.entityIdsPage.all(type, type, limit, offset) as number[];
      return {
        entities: ids.map((id) => this.#entity(id)!),
        total: this.#s.entityCount.get(type, type) as number,
      };
    });
  }

  revision(): Promise<string> {
    // data_version moves when another connection commits; total_changes counts this connection's writes.
    return this.#run(
      () => `${this.#db.pragma('data_version', { simple: true }) as number}:${this.#s.revision.get() as number}`,
    );
  }

  findEntities(name: string): Promise<Entity[]> {
    return this.#run(() => {
      const { key } = prepareName(name);
      return (this.#s.entityIdsByKey.all(key, key) as number[]).map((id) => this.#entity(id)!);
    });
  }

  findEntityIds(name: string): Promise<number[]> {
    return this.#run(() => {
      const { key } = prepareName(name);
      return this.#s.entityIdsByKey.all(key, key) as number[];
    });
  }

  /** Writes a validated memory, its links and its payload; call inside a transaction. */
  #insertMemory(m: PreparedMemory): Memory {
    const links = m.links.map((link): MemoryLink => {
      const name = this.#s.entityNameById.get(link.entityId) as string | undefined;
      if (name === undefined) {
        throw new MiraError(
          MemoryErrorCodes.ENTITY_NOT_FOUND,
          `there is no entity ${entityRef(link.entityId)}; find one with "memory entity find"`,
        );
      }
      return { entityId: link.entityId, entityRef: entityRef(link.entityId), entityName: name, role: link.role };
    });
    const now = this.#now();
    const memoryId = Number(
      this.#s.insertMemory.run(m.kind, m.summary, m.predicate, m.value, m.sourceKind, m.sourceLabel, m.confidence, now)
        .lastInsertRowid,
    );
    for (const link of links) this.#s.insertLink.run(memoryId, link.entityId, link.role);
    const byteSize = Buffer.byteLength(m.payloadText, 'utf8');
    const payloadId = Number(this.#s.insertPayload.run(memoryId, m.payloadText, byteSize, now).lastInsertRowid);
    // Built from what was just written, in the order getMemory() returns, instead of reading it back.
    return writtenMemory(m, { id: memoryId, createdAt: now, links, payloadId, byteSize });
  }

  createMemory(input: NewMemory): Promise<Memory> {
    return this.#run(() => {
      const m = prepareMemory(input);
      return this.#db.transaction((): Memory => this.#insertMemory(m)).immediate();
    });
  }

  admitToSlot<R>(
    slot: MemorySlot,
    decide: (existing: readonly SlotMemory[]) => SlotDecision<R>,
  ): Promise<SlotOutcome<R>> {
    return this.#run(() => {
      // Read without the write lock (one statement sees one committed state): most decisions write nothing.
      const seen = this.#slotMemories(slot);
      const first = decide(seen);
      if (!('create' in first)) return { answer: first.answer };
      return this.#db
        .transaction((): SlotOutcome<R> => {
          // Under the write lock: what another process wrote since is decided on afresh.
          const now = this.#slotMemories(slot);
          const decision = sameSlot(now, seen) ? first : decide(now);
          if ('create' in decision) return { created: this.#insertMemory(prepareMemory(decision.create)) };
          return { answer: decision.answer };
        })
        .immediate();
    });
  }

  /** What an admission sees of a slot, in one statement. */
  #slotMemories(slot: MemorySlot): SlotMemory[] {
    return (this.#s.slotMemories.all(slot.entityId, slot.role, slot.predicate) as SlotRow[]).map(toSlotMemory);
  }

  getMemory(memoryId: number): Promise<Memory | undefined> {
    return this.#run(() => this.#memory(memoryId));
  }

  getPayloads(memoryId: number): Promise<Payload[]> {
    return this.#run(() =>
      (this.#s.payloadsOf.all(memoryId) as PayloadRow[]).map((row) => ({ ...toPayloadInfo(row), text: row.text_body })),
    );
  }

  listActiveMemories(entityId: number, options: { newest?: number } = {}): Promise<NewestMemories> {
    return this.#run(() => this.#newestActive(entityId, options.newest));
  }

  listActiveMemoriesOf(
    entityIds: readonly number[],
    options: { readonly newest?: number } = {},
  ): Promise<NewestMemories[]> {
    return this.#run(() => entityIds.map((id) => this.#newestActive(id, options.newest)));
  }

  #newestActive(entityId: number, newest: number | undefined): NewestMemories {
    const limit = newest ?? -1;
    const ids = (this.#s.newestActive.all(entityId, limit) as number[]).reverse();
    const total = limit < 0 ? ids.length : (this.#s.countActive.get(entityId) as number);
    return { memories: ids.map((id) => this.#memory(id)!), total };
  }

  findActiveBySlot(entityId: number, role: string, predicate: string): Promise<Memory[]> {
    return this.#run(() => this.#slot(entityId, role, predicate));
  }

  listMemoryHistory(entityId: number): Promise<Memory[]> {
    return this.#run(() => (this.#s.historyOf.all(entityId) as number[]).map((id) => this.#memory(id)!));
  }

  createProposal(input: NewProposal): Promise<Proposal> {
    return this.#run(() => {
      const p = prepareProposal(input, this.#clock.now(), this.#proposalTtlMs);
      return this.#db
        .transaction((): Proposal => {
          this.#s.eraseSpentUtterances.run(p.createdAt);
          let slotIds: number[] = [];
          if (p.kind === 'entity') {
            assertNameFree(p.name!, this.#s.entityIdsByKey.all(p.nameKey, p.nameKey) as number[]);
          } else {
            const { slot } = supersedableSlot(this.#memory(p.memoryId!), p.memoryId!);
            slotIds = slotFactIds(this.#slot(slot.entityId, slot.role, slot.predicate));
          }
          const id = Number(
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
          return this.#proposal(id)!;
        })
        .immediate();
    });
  }

  getProposal(proposalId: number): Promise<Proposal | undefined> {
    return this.#run(() => this.#proposal(proposalId));
  }

  listProposals(options: { readonly status?: ProposalStatus } = {}): Promise<Proposal[]> {
    return this.#run(() => {
      const now = this.#clock.now();
      const all = (this.#s.proposals.all() as ProposalColumns[]).map((row) =>
        toProposal(proposalFromColumns(row), now),
      );
      return options.status === undefined ? all : all.filter((p) => p.status === options.status);
    });
  }

  acceptProposal(proposalId: number): Promise<AcceptedProposal> {
    return this.#run(() =>
      this.#db
        .transaction((): AcceptedProposal => {
          const proposal = requireProposal(this.#proposal(proposalId), proposalId);
          assertDecidable(proposal, true);
          const now = this.#now();
          if (proposal.kind === 'entity') {
            const { key } = prepareName(proposal.name!);
            assertEntityNameFree(proposal, this.#s.entityIdsByKey.all(key, key) as number[]);
            const entityId = this.#insertEntity(
              { entityType: proposal.entityType!, canonicalName: proposal.name! },
              now,
            );
            this.#s.decideProposal.run('accepted', now, null, entityRef(entityId), proposalId);
            return { proposal: this.#proposal(proposalId)!, entity: this.#entity(entityId)! };
          }
          const old = this.#memory(proposal.memoryId!);
          const slot = old && slotOf(old);
          assertSlotUnchanged(
            proposal,
            old,
            slot ? slotFactIds(this.#slot(slot.entityId, slot.role, slot.predicate)) : [],
          );
          const created = this.#insertMemory(prepareMemory(supersedingMemory(old!, proposal)));
          this.#s.supersede.run(created.id, now, old!.id);
          this.#s.decideProposal.run('accepted', now, null, created.ref, proposalId);
          return {
            proposal: this.#proposal(proposalId)!,
            memory: this.#memory(created.id)!,
            superseded: this.#memory(old!.id)!,
          };
        })
        .immediate(),
    );
  }

  rejectProposal(proposalId: number, reason: string | null = null): Promise<Proposal> {
    return this.#run(() =>
      this.#db
        .transaction((): Proposal => {
          const proposal = requireProposal(this.#proposal(proposalId), proposalId);
          assertDecidable(proposal, false);
          this.#s.decideProposal.run('rejected', this.#now(), rejectReason(reason), null, proposalId);
          return this.#proposal(proposalId)!;
        })
        .immediate(),
    );
  }

  #slot(entityId: number, role: string, predicate: string): Memory[] {
    return (this.#s.bySlot.all(entityId, role, predicate) as number[]).map((id) => this.#memory(id)!);
  }

  exportSnapshot(): Promise<MemorySnapshot> {
    return this.#run(() =>
      this.#db
        .transaction((): MemorySnapshot => {
          const all = (sql: string) => this.#db.prepare(sql).all() as Array<Record<string, unknown>>;
          return {
            entities: all('SELECT id, entity_type, canonical_name, name_key, created_at FROM entities ORDER BY id').map(
              (r) => ({
                id: Number(r.id),
                entityType: String(r.entity_type),
                canonicalName: String(r.canonical_name),
                nameKey: String(r.name_key),
                createdAt: String(r.created_at),
              }),
            ),
            aliases: all('SELECT id, entity_id, alias, alias_key, created_at FROM aliases ORDER BY id').map((r) => ({
              id: Number(r.id),
              entityId: Number(r.entity_id),
              alias: String(r.alias),
              aliasKey: String(r.alias_key),
              createdAt: String(r.created_at),
            })),
            memories: all(`SELECT ${MEMORY_COLUMNS} FROM memories ORDER BY id`).map((r) => ({
              id: Number(r.id),
              kind: String(r.kind),
              summary: String(r.summary),
              predicate: r.predicate as string | null,
              value: r.value as string | null,
              sourceKind: String(r.source_kind),
              sourceLabel: r.source_label as string | null,
              confidence: r.confidence as number | null,
              status: r.status as MemoryStatus,
              createdAt: String(r.created_at),
              supersededBy: r.superseded_by as number | null,
              supersededAt: r.superseded_at as string | null,
            })),
            proposals: (
              this.#db.prepare(`SELECT ${PROPOSAL_COLUMNS} FROM proposals ORDER BY id`).all() as ProposalColumns[]
            ).map(proposalFromColumns),
            links: all('SELECT memory_id, entity_id, role FROM memory_links ORDER BY memory_id, entity_id, role').map(
              (r) => ({ memoryId: Number(r.memory_id), entityId: Number(r.entity_id), role: String(r.role) }),
            ),
            payloads: all(
              'SELECT id, memory_id, payload_kind, media_type, text_body, object_ref, sha256, byte_size, created_at FROM payloads ORDER BY id',
            ).map((r) => ({
              id: Number(r.id),
              memoryId: Number(r.memory_id),
              payloadKind: r.payload_kind as 'inline_text' | 'object_ref',
              mediaType: String(r.media_type),
              textBody: r.text_body as string | null,
              objectRef: r.object_ref as string | null,
              sha256: r.sha256 as string | null,
              byteSize: Number(r.byte_size),
              createdAt: String(r.created_at),
            })),
          };
        })
        .deferred(),
    );
  }

  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.#db.close();
    }
    return Promise.resolve();
  }
}

interface SlotRow {
  id: number;
  kind: string;
  predicate: string | null;
  value: string | null;
  links: string;
}

function toSlotMemory(row: SlotRow): SlotMemory {
  return {
    id: row.id,
    ref: memoryRef(row.id),
    kind: row.kind,
    predicate: row.predicate,
    value: row.value,
    links: (JSON.parse(row.links) as Array<[number, string]>).map(([entityId, role]) => ({ entityId, role })),
  };
}

function toPayloadInfo(row: PayloadRow): PayloadInfo {
  return {
    id: row.id,
    payloadKind: row.payload_kind,
    mediaType: row.media_type,
    byteSize: row.byte_size,
    objectRef: row.object_ref,
    sha256: row.sha256,
    createdAt: row.created_at,
  };
}
