/**
 * The `memory pending`, `memory accept` and `memory reject` commands: what the model proposed, decided by the
 * operator.
 */
import { type CommandDefinition } from '@mira/core';
import { formatEntity, parseProposalRef, memoryRef, type Memory, type Proposal, whyStale } from '@mira/memory-contract';
import { formatMemoryLine, quote, type MemoryCommandContext } from './commands-kit.js';

/** A proposal on one line: `P2 supersede MEM1 prefers "tea" → "coffee"` or `P1 entity person "Carol"`. */
export function formatProposalLine(proposal: Proposal, replaced?: Memory): string {
  const what =
    proposal.kind === 'entity'
      ? `entity ${proposal.entityType} ${quote(proposal.name!)}`
      : `supersede ${memoryRef(proposal.memoryId!)}${replaced ? ` ${replaced.predicate} ${quote(replaced.value ?? '')}` : ''} → ${quote(proposal.value!)}`;
  return `${proposal.ref} ${what}`;
}

/** The operator deciding proposals. */
export function proposalCommands(ctx: MemoryCommandContext): CommandDefinition[] {
  return [
    {
      name: 'memory pending',
      summary: 'List the proposals from conversation that await your accept or reject',
      run: async (_input, out) => {
        const store = ctx.store();
        const all = await store.listProposals();
        const waiting = all.filter((p) => p.status === 'pending');
        const expired = all.filter((p) => p.status === 'expired');
        if (waiting.length === 0) out.print('no proposals await a decision');
        for (const proposal of waiting) {
          const replaced = proposal.memoryId === null ? undefined : await store.getMemory(proposal.memoryId);
          out.print(formatProposalLine(proposal, replaced));
          const stale = await whyStale(store, proposal, replaced);
          if (stale)
            out.print(`  stale: ${stale}; it can no longer be accepted (memory reject ${proposal.ref} clears it)`);
          out.print(`  evidence: ${quote(proposal.evidence)}`);
          out.print(`  said: ${quote(proposal.utterance)}`);
          out.print(`  proposed ${proposal.createdAt}; expires ${proposal.expiresAt}`);
        }
        if (expired.length > 0) {
          out.print(
            `${expired.length} expired without a decision and can no longer be accepted: ${expired.map((p) => p.ref).join(', ')} (memory reject P<n> clears one)`,
          );
        }
      },
    },
    {
      name: 'memory accept',
      summary: 'Apply a pending proposal: create the entity, or supersede the memory with the new value',
      usage: 'P<n>',
      args: { min: 1, max: 1 },
      run: async (input, out) => {
        const accepted = await ctx.store().acceptProposal(parseProposalRef(input.args[0]!));
        if ('entity' in accepted) {
          out.print(formatEntity(accepted.entity));
          // As "memory entity add" says: another entity may have got the name since the proposal.
          const others = (await ctx.store().findEntities(accepted.entity.canonicalName)).filter(
            (e) => e.id !== accepted.entity.id,
          );
          if (others.length > 0)
            out.print(
              `note: the name also names ${others.map((e) => e.ref).join(', ')}; lookups by it are now ambiguous`,
            );
        } else {
          out.print(formatMemoryLine(accepted.memory));
          out.print(
            `${accepted.superseded.ref} superseded by ${accepted.memory.ref} (history: memory history ${accepted.memory.ref})`,
          );
        }
        out.print(`${accepted.proposal.ref} accepted`);
      },
    },
    {
      name: 'memory reject',
      summary: 'Refuse a pending proposal, with a reason if you like; nothing is applied',
      usage: 'P<n> ["reason"]',
      args: { min: 1, max: 2 },
      run: async (input, out) => {
        const rejected = await ctx.store().rejectProposal(parseProposalRef(input.args[0]!), input.args[1] ?? null);
        out.print(`${rejected.ref} rejected${rejected.reason === null ? '' : `: ${rejected.reason}`}`);
      },
    },
  ];
}
