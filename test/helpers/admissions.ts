import type { NewMemory } from '@mira/memory-contract';

/**
 * The memory an admission into Ada's `prefers` slot creates when the operator said "Ada prefers tea": the
 * write the store tests of both dialects ask of `admitToSlot`.
 */
export function adaPrefersTea(adaId: number): NewMemory {
  return {
    kind: 'preference',
    summary: 'Ada prefers tea',
    predicate: 'prefers',
    value: 'tea',
    sourceKind: 'operator_statement',
    links: [{ entityId: adaId, role: 'subject' }],
  };
}
