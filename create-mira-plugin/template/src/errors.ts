import { defineErrors } from '@mira/core';

/**
 * This plugin's failures, each with a stable code, what it means, and its wording with what to do
 * (`situations`, each with its own fix, where one code is raised in several ways).
 * The console shows the fix to the person at the terminal; docs can be generated from the entries.
 */
export const PluginErrors = defineErrors('__NAME__', {
  NOT_STARTED: {
    code: '__CODE_PREFIX___ERR_NOT_STARTED',
    message: 'the __SECTION__ plugin has not started yet',
    fix: 'wait until the robot has started, then try again',
    template: 'the __SECTION__ plugin is not running',
  },
});
