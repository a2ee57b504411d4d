import { defineErrors } from '@mira/core';

/** The errors of `@mira/plugin-attention`: follow-ups and their durations. */
export const AttentionErrors = defineErrors('@mira/plugin-attention', {
  DURATION: {
    code: 'MIRA_ERR_ATTENTION_DURATION',
    message: 'a follow-up duration is malformed or longer than 7 days',
    fix: 'write it like 90s, 5m or 1h30m',
  },
  FOLLOWUP_EMPTY: {
    code: 'MIRA_ERR_ATTENTION_FOLLOWUP_EMPTY',
    message: 'the follow-up text is empty',
    fix: 'say what to follow up on',
  },
  FOLLOWUP_NOT_FOUND: {
    code: 'MIRA_ERR_ATTENTION_FOLLOWUP_NOT_FOUND',
    message: 'there is no pending follow-up with that reference',
    fix: 'list them with followup list',
  },
});

/** The codes of `@mira/plugin-attention` by key. */
export const AttentionErrorCodes = AttentionErrors.codes;
