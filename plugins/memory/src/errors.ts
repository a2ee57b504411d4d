import { CoreErrorCodes, defineErrors } from '@mira/core';

/**
 * The memory plugin's wordings of core's codes, for the rules every store shares (a proposal's
 * kind and expiry, a reject's reason). The fleet store's own codes are in {@link FleetErrors}.
 */
export const MemoryRuleErrors = defineErrors('@mira/plugin-memory', {
  TEXT_EMPTY: {
    code: CoreErrorCodes.TEXT_EMPTY,
    borrowed: true,
    situations: { proposalField: '{what} is empty' },
  },
  CONFIG_INVALID: {
    code: CoreErrorCodes.CONFIG_INVALID,
    borrowed: true,
    situations: { proposalExpiry: "a proposal's expiry must be positive, not {ttlMs}" },
  },
  TOKEN_INVALID: {
    code: CoreErrorCodes.TOKEN_INVALID,
    borrowed: true,
    situations: { proposalKind: 'a proposal is "entity" or "supersede", not "{kind}"' },
  },
});
