/**
 * `@mira/plugin-attention`: monitors declared in the profile start `monitor`
 * episodes when a sensor crosses a threshold (with hysteresis); temporal
 * follow-ups start `temporal` episodes when due. Both use the episode engine
 * with their origin, so `remember` is never offered to them.
 *
 * @packageDocumentation
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import {
  definePlugin,
  formatAge,
  toMiraError,
  type EpisodeOrigin,
  type MiraPlugin,
  type PluginInstance,
} from '@mira/core';
import { parseDuration } from './duration.js';
import { AttentionErrors } from './errors.js';
import { FollowupQueue } from './followups.js';
import { MonitorState } from './monitors.js';
import { configValidator } from './config-validator.generated.js';

export { MAX_DELAY_MS, parseDuration } from './duration.js';
export { AttentionErrorCodes, AttentionErrors } from './errors.js';
export { FollowupQueue, type Followup } from './followups.js';
export { MonitorState, monitoredValue, type Crossing, type MonitorConfig } from './monitors.js';

/** The plugin's name. */
export const PLUGIN_NAME = '@mira/plugin-attention';

/**
 * The `[attention]` table's schema: the runtime validates the table with it and fills the defaults, the
 * configuration reference is generated from it, and {@link AttentionConfig} is derived from it (each
 * monitor must fit {@link MonitorConfig}, the type the monitors work with: the type-check says when not).
 */
const CONFIG_SCHEMA = {
  type: 'object',
  properties: {
    tick_ms: {
      type: 'integer',
      minimum: 0,
      maximum: 60000,
      default: 250,
      description: 'how often due follow-ups are checked, in real milliseconds (0: only on tick())',
    },
    monitors: {
      type: 'array',
      default: [],
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,63}$', description: "the monitor's name" },
          sensor: { type: 'string', description: 'the sensor it watches' },
          field: { type: 'string', description: 'the field of an object value, e.g. percent' },
          below: { type: 'number', description: 'trigger when the value falls below this' },
          clear_above: { type: 'number', description: 're-arm once it rises above this (default: below)' },
          above: { type: 'number', description: 'trigger when the value rises above this' },
          clear_below: { type: 'number', description: 're-arm once it falls below this (default: above)' },
          message: { type: 'string', minLength: 1, description: 'what the episode is told' },
        },
        required: ['id', 'sensor', 'message'],
        anyOf: [{ required: ['below'] }, { required: ['above'] }],
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
} as const satisfies JSONSchema;

/** The `[attention]` table as `setup` receives it (defaults filled in): derived from {@link CONFIG_SCHEMA}. */
export type AttentionConfig = FromSchema<typeof CONFIG_SCHEMA, { keepDefaultedPropertiesOptional: false }>;

/** One runtime's attention: its monitors' state, follow-up queue and timer. */
export interface AttentionInstance extends PluginInstance {
  /** Checks due follow-ups now (tests drive it with a manual clock). */
  tick(): Promise<void>;
}

/** The attention plugin: each runtime gets its own monitors, follow-ups and timer. */
export const attentionPlugin: MiraPlugin<AttentionConfig, AttentionInstance> = definePlugin({
  name: PLUGIN_NAME,
  version: '0.1.0',
  configSection: 'attention',
  stopPhase: 'attention',
  configSchema: CONFIG_SCHEMA,
  configValidator,
  setup(k, config) {
    const queue = new FollowupQueue(k.clock);
    const running = new Set<Promise<void>>();
    let timer: ReturnType<typeof setInterval> | undefined;
    let stopped = false;

    const episode = (origin: EpisodeOrigin, trigger: string) => {
      if (stopped || !k.cognition.configured) return;
      const run = k.cognition
        .run({ origin, trigger, out: k.output })
        .then(() => undefined)
        .catch((error) => {
          const failure = toMiraError(error);
          k.output.print(`error: ${failure.code}: ${failure.detail}`);
        });
      running.add(run);
      void run.finally(() => running.delete(run));
    };

    const tick = async () => {
      if (stopped) return;
      for (const due of queue.takeDue()) {
        k.output.print(`[followup ${due.ref}] due: ${due.text}`);
        episode('temporal', `Follow-up due (${due.ref}), scheduled by the operator: ${due.text}`);
      }
    };

    // Once every plugin has registered its sensors: a monitor on a sensor or field nobody provides would
    // never fire, so it fails start-up (and mira check), naming it.
    k.hooks.ready.tap(PLUGIN_NAME, () => {
      const sensors = k.sensors.list();
      for (const monitor of config.monitors) {
        const sensor = sensors.find((s) => s.id === monitor.sensor);
        if (!sensor) {
          throw AttentionErrors.error('CONFIG_INVALID.noSensor', {
            monitor: monitor.id,
            sensor: monitor.sensor,
            sensors: sensors.map((s) => s.id).join(', ') || 'none',
          });
        }
        if (monitor.field !== undefined && sensor.fields && !sensor.fields.includes(monitor.field)) {
          throw AttentionErrors.error('CONFIG_INVALID.noField', {
            monitor: monitor.id,
            sensor: sensor.id,
            field: monitor.field,
            fields: sensor.fields.join(', '),
          });
        }
      }
    });
    for (const monitor of config.monitors) {
      const state = new MonitorState(monitor);
      k.hooks.sensorReading.for(monitor.sensor).tap(PLUGIN_NAME, (reading) => {
        const crossing = state.observe(reading);
        if (!crossing) return;
        k.output.print(`[monitor ${monitor.id}] ${crossing.description}`);
        episode('monitor', `${monitor.message} (${crossing.description})`);
      });
    }
    k.commands.register({
      name: 'followup add',
      summary: 'Schedule a follow-up: a temporal episode when it is due',
      usage: '<duration> "<text>"',
      details: 'Durations: 90s, 5m, 1h30m (at most 7 days). Follow-ups last for this session only.',
      args: { min: 2, max: 2 },
      run: (input, out) => {
        const item = queue.add(parseDuration(input.args[0]!), input.args[1]!);
        out.print(
          `${item.ref} due in ${formatAge(item.dueAt - k.clock.monotonic())} at ${item.dueWall.toISOString()}: ${JSON.stringify(item.text)}`,
        );
      },
    });
    k.commands.register({
      name: 'followup list',
      summary: 'List pending follow-ups, soonest first',
      run: (_input, out) => {
        const items = queue.list();
        if (items.length === 0) out.print('no pending follow-ups');
        for (const item of items)
          out.print(
            `${item.ref} due in ${formatAge(Math.max(0, item.dueAt - k.clock.monotonic()))} at ${item.dueWall.toISOString()}: ${JSON.stringify(item.text)}`,
          );
      },
    });
    k.commands.register({
      name: 'followup cancel',
      summary: 'Cancel a pending follow-up',
      usage: 'F<n>',
      args: { min: 1, max: 1 },
      run: (input, out) => {
        const item = queue.cancel(input.args[0]!);
        out.print(`${item.ref} cancelled`);
      },
    });
    // Follow-ups are temporal work: they stop in the temporal phase, after attention.
    k.hooks.stop.for('temporal').tapPromise(PLUGIN_NAME, async () => {
      if (timer) clearInterval(timer);
      timer = undefined;
      queue.clear();
    });
    return {
      tick,
      start() {
        stopped = false;
        if (config.tick_ms > 0) {
          timer = setInterval(() => void tick(), config.tick_ms);
          timer.unref?.();
        }
      },
      async stop() {
        stopped = true;
        await Promise.allSettled([...running]);
      },
    };
  },
});

export default attentionPlugin;
