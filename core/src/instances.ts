import type { PluginInstance } from './plugin.js';

/**
 * Each application's plugin instances by plugin name. Internal: the testing
 * kit reads it (`TestRuntime.instance`); plugins never see other instances.
 */
export const pluginInstances = new WeakMap<object, ReadonlyMap<string, PluginInstance>>();
