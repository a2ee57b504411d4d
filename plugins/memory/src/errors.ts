import { CoreErrorCodes, defineErrors } from '@mira/core';

/**
 * The memory plugin's wordings of core's codes, for the rules every store shares (a proposal's
 * kind and expiry, a reject's reason). The fleet store's own codes are in {@link FleetErrors}.
 */
export const MemoryRuleErrors = defineErrors('@mira/plugin-memory', {
  TEXT_EMPTY: {
    code: CoreErrorCodes.TEXT_EMPTY,
    borrowed: true,
    situations: {
      proposalField: { message: '{what} is empty', fix: 'give the proposal that field as text; it cannot be blank' },
    },
  },
  CONFIG_INVALID: {
    code: CoreErrorCodes.CONFIG_INVALID,
    borrowed: true,
    situations: {
      proposalExpiry: {
        message: "a proposal's expiry must be positive, not {ttlMs}",
        fix: 'set [memory] proposal_expiry_days to a number above 0',
      },
    },
  },
  TOKEN_INVALID: {
    code: CoreErrorCodes.TOKEN_INVALID,
    borrowed: true,
    situations: {
      proposalKind: {
        message: 'a proposal is "entity" or "supersede", not "{kind}"',
        fix: 'propose with propose_entity or propose_supersede; no other kind is kept',
      },
    },
  },
});
