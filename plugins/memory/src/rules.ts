import { CoreErrors, longerThan, normalizeDisplay, normalizeToken } from '@mira/core';
import {
  MAX_SUMMARY_LENGTH,
  MAX_UTTERANCE_LENGTH,
  MAX_VALUE_LENGTH,
  MemoryErrors,
  OPERATOR_STATEMENT_SOURCE,
  entityRef,
  memoryRef,
  prepareNewName,
  proposalRef,
  type Memory,
  type MemoryLink,
  type NewMemory,
  type NewProposal,
  type PreparedMemory,
  type Proposal,
  type ProposalRow,
} from '@mira/memory-contract';
import { MemoryRuleErrors } from './errors.js';

// The rules both stores' one algorithm (algorithm.ts) decides by, each worded once.

/** A new proposal, validated and normalised, as stores write it. */
export interface PreparedProposal {
  readonly kind: 'entity' | 'supersede';
  readonly entityType: string | null;
  readonly name: string | null;
  readonly nameKey: string | null;
  readonly memoryId: number | null;
  readonly value: string | null;
  readonly evidence: string;
  readonly utterance: string;
  readonly createdAt: string;
  readonly expiresAt: string;
}

function text(input: string | null | undefined, max: number, what: string): string {
  const display = normalizeDisplay(input ?? '', what);
  if (display === '') throw MemoryRuleErrors.error('TEXT_EMPTY.proposalField', { what });
  if (longerThan(display, max)) throw CoreErrors.error('TEXT_TOO_LONG.field', { what, max });
  return display;
}

/** Validates a {@link NewProposal} the way every store does. @throws MiraError */
export function prepareProposal(input: NewProposal, now: Date, defaultTtlMs: number): PreparedProposal {
  const ttlMs = input.ttlMs ?? defaultTtlMs;
  if (!(Number.isFinite(ttlMs) && ttlMs > 0)) throw MemoryRuleErrors.error('CONFIG_INVALID.proposalExpiry', { ttlMs });
  const common = {
    evidence: text(input.evidence, MAX_SUMMARY_LENGTH, 'evidence'),
    utterance: text(input.utterance, MAX_UTTERANCE_LENGTH, 'utterance'),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + ttlMs).toISOString(),
  };
  if (input.kind === 'entity') {
    const name = prepareNewName(input.name ?? '', 'name');
    return {
      kind: 'entity',
      entityType: normalizeToken(input.entityType ?? '', 'entity type'),
      name: name.display,
      nameKey: name.key,
      memoryId: null,
      value: null,
      ...common,
    };
  }
  if (input.kind !== 'supersede')
    throw MemoryRuleErrors.error('TOKEN_INVALID.proposalKind', { kind: String(input.kind) });
  if (!Number.isSafeInteger(input.memoryId) || input.memoryId! < 1)
    throw MemoryErrors.error('INVALID_ID.memoryId', { memoryId: String(input.memoryId) });
  return {
    kind: 'supersede',
    entityType: null,
    name: null,
    nameKey: null,
    memoryId: input.memoryId!,
    value: text(input.value, MAX_VALUE_LENGTH, 'value'),
    ...common,
  };
}

/** A stored row as the console and the model see it: `expired` once its time has passed undecided. */
export function toProposal(row: ProposalRow, now: Date): Proposal {
  const expired = row.decision === 'pending' && now.toISOString() >= row.expiresAt;
  const status = expired ? 'expired' : row.decision;
  // What was said beyond the evidence serves the decision only: once decided or expired it is not shown
  // (and the stores erase it).
  const utterance = status === 'pending' ? row.utterance : row.evidence;
  return { ...row, utterance, ref: proposalRef(row.id), status };
}

/** Refuses an entity proposal for a name that already names entities (`ids`), as both stores word it. */
export function assertNameFree(name: string, ids: readonly number[]): void {
  if (ids.length > 0) {
    throw MemoryErrors.error('ENTITY_EXISTS', { name, holders: ids.map((id) => entityRef(id)).join(', ') });
  }
}

/** The proposal, or MIRA_ERR_MEMORY_PROPOSAL_NOT_FOUND. */
export function requireProposal(proposal: Proposal | undefined, id: number): Proposal {
  if (!proposal) throw MemoryErrors.error('PROPOSAL_NOT_FOUND', { ref: proposalRef(id) });
  return proposal;
}

/** Refuses to decide a proposal that is decided already, or to accept one that expired. */
export function assertDecidable(proposal: Proposal, accepting: boolean): void {
  if (proposal.decision !== 'pending') {
    throw MemoryErrors.error('PROPOSAL_DECIDED', {
      ref: proposal.ref,
      decision: proposal.decision,
      result: proposal.result ? ` (${proposal.result})` : '',
    });
  }
  if (accepting && proposal.status === 'expired') {
    throw MemoryErrors.error('PROPOSAL_EXPIRED', { ref: proposal.ref, expiresAt: proposal.expiresAt });
  }
}

/** The IDs of the facts and preferences among a slot's active memories, ascending. */
export function slotFactIds(memories: readonly Memory[]): number[] {
  return memories
    .filter((m) => m.kind === 'fact' || m.kind === 'preference')
    .map((m) => m.id)
    .sort((a, b) => a - b);
}

/** Refuses an accept when the slot is no longer what it was when proposed. */
export function assertSlotUnchanged(proposal: Proposal, old: Memory | undefined, nowIds: readonly number[]): void {
  const same = nowIds.length === proposal.slotIds.length && nowIds.every((id, i) => id === proposal.slotIds[i]);
  if (!old || old.status !== 'active' || !same) {
    throw MemoryErrors.error('PROPOSAL_STALE.superseded', {
      ref: proposal.ref,
      replaced: memoryRef(proposal.memoryId!),
      change: old && old.status !== 'active' ? `is ${old.status} now` : 'has changed its slot',
    });
  }
}

/**
 * Refuses to accept an entity proposal whose name is taken since it was made (an entity named so, or
 * with it as an alias): a second entity of that name would make every later mention ambiguous.
 */
export function assertEntityNameFree(proposal: Proposal, holders: readonly number[]): void {
  if (holders.length === 0) return;
  throw MemoryErrors.error('PROPOSAL_STALE.nameTaken', {
    ref: proposal.ref,
    name: String(proposal.name),
    holders: holders.map(entityRef).join(', '),
    change: holders.length === 1 ? 'has' : 'have',
  });
}

/** The memory an accepted supersede creates: the old one's kind, links and predicate, the new value. */
export function supersedingMemory(old: Memory, proposal: Proposal): NewMemory {
  return {
    kind: old.kind,
    summary: proposal.evidence,
    predicate: old.predicate,
    value: proposal.value,
    links: old.links.map((l) => ({ entityId: l.entityId, role: l.role })),
    sourceKind: OPERATOR_STATEMENT_SOURCE,
    sourceLabel: null,
    confidence: null,
    payloadText: proposal.evidence,
  };
}

/** The operator's reason for a reject, in display form; empty means none. @throws MiraError */
export function rejectReason(reason: string | null | undefined): string | null {
  if (reason == null) return null;
  const display = normalizeDisplay(reason, 'reason');
  if (longerThan(display, MAX_VALUE_LENGTH))
    throw CoreErrors.error('TEXT_TOO_LONG.field', { what: 'reason', max: MAX_VALUE_LENGTH });
  return display === '' ? null : display;
}

/**
 * The memory a store has just written from `m`: what `getMemory` would return, built without reading
 * it back (links sorted as stores return them; one inline text/plain payload).
 */
export function writtenMemory(
  m: PreparedMemory,
  written: {
    id: number;
    createdAt: string;
    links: MemoryLink[];
    payloadId: number;
    byteSize: number;
    supersedes?: number | null;
  },
): Memory {
  const links = [...written.links].sort(
    (a, b) => a.entityId - b.entityId || (a.role < b.role ? -1 : a.role > b.role ? 1 : 0),
  );
  return {
    id: written.id,
    ref: memoryRef(written.id),
    kind: m.kind,
    summary: m.summary,
    predicate: m.predicate,
    value: m.value,
    source: { kind: m.sourceKind, label: m.sourceLabel },
    confidence: m.confidence,
    status: 'active',
    createdAt: written.createdAt,
    supersededBy: null,
    supersededAt: null,
    supersedes: written.supersedes ?? null,
    links,
    payloads: [
      {
        id: written.payloadId,
        payloadKind: 'inline_text',
        mediaType: 'text/plain',
        byteSize: written.byteSize,
        objectRef: null,
        sha256: null,
        createdAt: written.createdAt,
      },
    ],
  };
}
