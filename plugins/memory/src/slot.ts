import type { MemorySlot, SlotMemory } from '@mira/memory-contract';

/**
 * Whether two reads of a slot found the same memories: the same IDs in the same order. A memory's kind,
 * value and links never change once written, so the same IDs are the same slot, and a decision made on
 * the first read holds for the second.
 */
export function sameSlot(a: readonly SlotMemory[], b: readonly SlotMemory[]): boolean {
  return a.length === b.length && a.every((m, i) => m.id === b[i]!.id);
}

/** Whether two slots are one: the same entity, role and predicate. */
export function sameSlotKey(a: MemorySlot, b: MemorySlot): boolean {
  return a.entityId === b.entityId && a.role === b.role && a.predicate === b.predicate;
}

/** The one ID of `ids`, or undefined when there is none or more than one: the entity a name's slot read reads. */
export function soleId(ids: readonly number[]): number | undefined {
  return ids.length === 1 ? ids[0] : undefined;
}
