import { CoreErrorCodes, defineErrors } from '@mira/core';

/** The errors of `@mira/plugin-attention`: follow-ups and their durations. */
export const AttentionErrors = defineErrors('@mira/plugin-attention', {
  DURATION: {
    code: 'MIRA_ERR_ATTENTION_DURATION',
    message: 'a follow-up duration is malformed or longer than 7 days',
    template: '"{text}" is not a duration from 1s to 7 days; write e.g. 90s, 5m or 1h30m',
    fix: 'write it like 90s, 5m or 1h30m',
  },
  FOLLOWUP_EMPTY: {
    code: 'MIRA_ERR_ATTENTION_FOLLOWUP_EMPTY',
    message: 'the follow-up text is empty',
    template: 'the follow-up text is empty; say what to follow up on',
    fix: 'say what to follow up on',
  },
  FOLLOWUP_NOT_FOUND: {
    code: 'MIRA_ERR_ATTENTION_FOLLOWUP_NOT_FOUND',
    message: 'there is no pending follow-up with that reference',
    template: 'there is no pending follow-up {ref}; see "followup list"',
    fix: 'list the pending follow-ups with followup list and use a reference it shows',
  },
  CONFIG_INVALID: {
    code: CoreErrorCodes.CONFIG_INVALID,
    borrowed: true,
    situations: {
      noSensor: {
        message: '[attention] monitor {monitor}: no plugin provides a sensor "{sensor}"; sensors: {sensors}',
        fix: "set the monitor's sensor to one the message lists, or add the plugin that provides it to [profile] plugins",
      },
      noField: {
        message: '[attention] monitor {monitor}: sensor {sensor} has no field "{field}"; its fields: {fields}',
        fix: "set the monitor's field to one of the fields the message lists",
      },
    },
  },
});

/** The codes of `@mira/plugin-attention` by key. */
export const AttentionErrorCodes = AttentionErrors.codes;
