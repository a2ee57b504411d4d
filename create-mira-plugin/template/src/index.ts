import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { __CORE_IMPORTS__ } from '@mira/core';
// [command]
import { PluginErrors } from './errors.js';
// [/command]

export { PluginErrors } from './errors.js';

/** The package name: what a profile lists in `[profile] plugins`. */
export const PLUGIN_NAME = '__NAME__';

/** The schema of this plugin's settings: the runtime checks the `[__SECTION__]` table with it and fills defaults. */
const CONFIG_SCHEMA = {
  type: 'object',
  properties: {
    // [tool]
    greeting: {
      type: 'string',
      minLength: 1,
      maxLength: 40,
      default: 'Hello',
      description: 'The word the greeting starts with.',
    },
    // [/tool]
    // [sensor]
    sample_every_ms: {
      type: 'integer',
      minimum: 10,
      maximum: 3_600_000,
      default: 1000,
      description: 'How often the counter sensor publishes a reading (ms).',
    },
    // [/sensor]
  },
  additionalProperties: false,
} as const satisfies JSONSchema;

/** This plugin's settings, derived from {@link CONFIG_SCHEMA} (one source: the two cannot drift). */
export type Config = FromSchema<typeof CONFIG_SCHEMA, { keepDefaultedPropertiesOptional: false }>;

export default definePlugin<Config>({
  name: PLUGIN_NAME,
  version: '0.1.0',
  configSection: '__SECTION__',
  configSchema: CONFIG_SCHEMA,
  // Stopped with the hardware, after cognition and attention: it owns what start() begins.
  stopPhase: 'hardware',
  setup(kernel, config) {
    // Everything that changes lives here, one per runtime: nothing at module level.
    // [sensor]
    let count = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    const reading = (): SensorReading => ({
      sensorId: '__SENSOR__',
      value: count,
      at: kernel.clock.now(),
      monotonic: kernel.clock.monotonic(),
    });

    // A sensor: its readings reach the model's grounding, `sensors` on the console and read_sensor.
    kernel.sensors.register({
      id: '__SENSOR__',
      kind: 'counter',
      unit: 'ticks',
      description: 'Counts the ticks of the __SECTION__ plugin since start.',
      staleAfterMs: config.sample_every_ms * 3,
      read: async () => reading(),
    });
    // [/sensor]
    // [tool]

    // A tool: a strict schema (every property required, an optional one nullable, nothing else); its
    // arguments' type is derived from the schema by defineTool.
    kernel.tools.register(
      defineTool({
        name: '__TOOL__',
        description: 'Greets a person by name. Use it when the operator asks you to greet someone.',
        kind: 'acquisition',
        origins: ['operator'],
        parameters: {
          type: 'object',
          properties: {
            name: {
              type: 'string',
              minLength: 1,
              maxLength: 80,
              description: 'Who to greet, as the operator wrote it.',
            },
            excited: { type: ['boolean', 'null'], description: 'true for an exclamation mark; null for the default.' },
          },
          required: ['name', 'excited'],
          additionalProperties: false,
        },
        // A result holds `content` (what the model reads: JSON) and `display` (the console's line).
        run: async (args) => {
          const text = `${config.greeting}, ${args.name.trim()}${args.excited ? '!' : '.'}`;
          return { content: JSON.stringify({ status: 'ok', greeting: text }), display: text };
        },
      }),
    );
    // [/tool]
    // [command]

    // A console command, with a stable error code for bad input.
    let startedAt: number | undefined;
    kernel.commands.register({
      name: '__SECTION__ uptime',
      summary: 'Print how long the __SECTION__ plugin has been running',
      run: (_input, out) => {
        if (startedAt === undefined) throw PluginErrors.error('NOT_STARTED');
        out.print(`up ${Math.floor((kernel.clock.monotonic() - startedAt) / 1000)} s`);
      },
    });
    // [/command]

    return {
      start() {
        // [command]
        startedAt = kernel.clock.monotonic();
        // [/command]
        // [sensor]
        kernel.sensors.publish(reading());
        timer = setInterval(() => {
          count += 1;
          kernel.sensors.publish(reading());
        }, config.sample_every_ms);
        timer.unref();
        // [/sensor]
      },
      stop() {
        // [command]
        startedAt = undefined;
        // [/command]
        // [sensor]
        clearInterval(timer);
        timer = undefined;
        // [/sensor]
      },
    };
  },
});
