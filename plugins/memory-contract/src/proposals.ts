import { MemoryErrors } from './errors.js';
import { entityRef, memoryRef } from './ids.js';
import type { Memory, MemorySlot, MemoryStore, Proposal } from './types.js';

/** How long a proposal waits for the operator by default: 7 days. */
export const DEFAULT_PROPOSAL_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Longest operator utterance kept with a proposal, in characters. */
export const MAX_UTTERANCE_LENGTH = 8000;

/** The slot a fact or preference lives in: its subject, under `subject`, with its predicate. */
export function slotOf(memory: Memory): MemorySlot | undefined {
  const subject = memory.links.find((l) => l.role === 'subject');
  if (!subject || memory.predicate === null) return undefined;
  return { entityId: subject.entityId, role: 'subject', predicate: memory.predicate };
}

/** The memory a supersede may replace: an active fact or preference with a subject and predicate. */
export function supersedableSlot(memory: Memory | undefined, id: number): { memory: Memory; slot: MemorySlot } {
  if (!memory) throw MemoryErrors.error('MEMORY_NOT_FOUND', { ref: memoryRef(id) });
  const slot = slotOf(memory);
  if (memory.status !== 'active' || (memory.kind !== 'fact' && memory.kind !== 'preference') || !slot) {
    throw MemoryErrors.error('NOT_SUPERSEDABLE', {
      ref: memory.ref,
      state: memory.status === 'active' ? `a ${memory.kind}` : memory.status,
    });
  }
  return { memory, slot };
}

/**
 * Why a pending proposal can no longer be accepted as it stands — its name is an entity's now, or the
 * memory it would replace is no longer active — or undefined. An accept refuses it
 * (`MIRA_ERR_MEMORY_PROPOSAL_STALE`), changing nothing; listings say so beforehand.
 */
export async function whyStale(store: MemoryStore, proposal: Proposal, replaced?: Memory): Promise<string | undefined> {
  if (proposal.status !== 'pending') return undefined;
  if (proposal.kind === 'entity') {
    const ids = await store.findEntityIds(proposal.name!);
    if (ids.length === 0) return undefined;
    return `${ids.map((id) => entityRef(id)).join(', ')} ${ids.length > 1 ? 'have' : 'has'} this name now`;
  }
  const memory = replaced ?? (await store.getMemory(proposal.memoryId!));
  if (!memory) return `${memoryRef(proposal.memoryId!)} no longer exists`;
  if (memory.status !== 'active') return `${memory.ref} is ${memory.status} now`;
  return undefined;
}
