import { rejectedResult } from './cognition/engine.js';
import { formatAge } from './format-age.js';
import { definePlugin, type PluginKernel } from './plugin.js';
import { DEFAULT_READ_TIMEOUT_MS } from './sensors.js';
import { CORE_NAME, EPISODE_ORIGINS } from './types.js';
import { defineTool } from './tools.js';

export { CORE_NAME } from './types.js';

function registerCommands(kernel: PluginKernel): void {
  const { commands, workingMemory, clock } = kernel;
  commands.register({
    name: 'help',
    summary: 'List the commands, or describe the commands under a name',
    usage: '[<command> ...]',
    args: { min: 0, max: 8 },
    run: (input, out) => {
      for (const line of commands.help(input.args)) out.print(line);
    },
  });
  commands.register({
    name: 'quit',
    summary: 'Stop the robot runtime in order and leave the console',
    run: (_input, out) => {
      out.print('stopping…');
      kernel.runtime.requestQuit();
    },
  });
  commands.register({
    name: 'memory',
    summary: 'Print the volatile working memory (recent conversation of this session)',
    run: (_input, out) => {
      const entries = workingMemory.entries();
      out.print(
        `working memory: ${entries.length} of at most ${workingMemory.limit} entries (volatile; lost when the runtime stops)`,
      );
      if (entries.length === 0) out.print('(empty)');
      for (const entry of entries) out.print(`${entry.at.toISOString()} ${entry.speaker}: ${entry.text}`);
    },
  });
  commands.register({
    name: 'memory clear',
    summary: 'Clear the volatile working memory (persistent memory is not touched)',
    run: (_input, out) => {
      const count = workingMemory.entries().length;
      workingMemory.clear();
      out.print(`working memory cleared (${count} entries removed)`);
    },
  });
  commands.register({
    name: 'sensors',
    summary: 'List the sensors with their latest value and its age',
    run: (_input, out) => {
      const sensors = kernel.sensors.list();
      if (sensors.length === 0) out.print('no sensors in this profile');
      const now = clock.monotonic();
      for (const sensor of sensors) {
        const reading = kernel.sensors.latest(sensor.id);
        if (!reading) {
          out.print(`${sensor.id} (${sensor.kind}, ${sensor.unit}): no reading yet`);
          continue;
        }
        const ms = now - reading.monotonic;
        const stale = sensor.staleAfterMs !== undefined && ms > sensor.staleAfterMs ? ' STALE' : '';
        out.print(
          `${sensor.id} (${sensor.kind}, ${sensor.unit}): ${JSON.stringify(reading.value)} ${formatAge(ms)} ago${stale}`,
        );
      }
    },
  });
  commands.register({
    name: 'stop',
    summary: 'Emergency stop: zero velocity on every drive now (runs even while an episode is running)',
    run: async (_input, out) => {
      const reports = await kernel.hardware.emergencyStop();
      if (reports.length === 0) return out.print('emergency stop: no drives in this profile');
      const sent = reports.filter((r) => r.delivered).length;
      if (sent > 0) {
        const of = sent === reports.length ? '' : ` of ${reports.length}`;
        out.print(`emergency stop: zero velocity sent to ${sent}${of} drive${reports.length === 1 ? '' : 's'}`);
      }
      for (const report of reports) {
        if (report.delivered && report.detail) out.print(`  ${report.detail}`);
        if (!report.delivered) out.print(`emergency stop: ${report.detail ?? `not delivered by ${report.owner}`}`);
      }
    },
  });
  commands.register({
    name: 'plugins',
    summary: 'List the loaded plugins in the order they were applied',
    run: (_input, out) => {
      const plugins = kernel.runtime.plugins();
      for (const { name, version, specifier } of plugins) out.print(`${name} ${version} (${specifier})`);
      if (plugins.length === 0) out.print('no plugins in this profile');
    },
  });
}

/**
 * Registers `read_sensor(sensor_id)`, an acquisition tool for fresh
 * perception: it asks the transport for a new reading within the sensor's
 * timeout and says plainly when none came. Only when the profile has sensors.
 */
function registerReadSensor(kernel: PluginKernel): void {
  const sensors = kernel.sensors.list();
  if (sensors.length === 0) return;
  kernel.tools.register(
    defineTool({
      name: 'read_sensor',
      description:
        'Take a fresh reading from one sensor now (current state of the world needs fresh perception, not memory).',
      kind: 'acquisition',
      origins: EPISODE_ORIGINS,
      parameters: {
        type: 'object',
        properties: {
          sensor_id: { type: 'string', enum: sensors.map((s) => s.id), description: 'Which sensor to read.' },
        },
        required: ['sensor_id'],
        additionalProperties: false,
      },
      run: async ({ sensor_id }) => {
        const sensor = sensors.find((s) => s.id === sensor_id)!;
        if (!sensor.read)
          return rejectedResult(
            'not_readable',
            `sensor ${sensor_id} only streams; use the latest reading in the grounding`,
          );
        const timeout = sensor.readTimeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
        const reading = await sensor.read(timeout);
        if (!reading) {
          return {
            content: JSON.stringify({
              status: 'no_reading',
              sensor_id,
              error: `no fresh reading from ${sensor_id} came within ${timeout} ms; the sensor or its link may be down`,
            }),
            display: `no reading ${sensor_id} within ${timeout} ms`,
          };
        }
        return {
          content: JSON.stringify({
            status: 'fresh',
            sensor_id,
            unit: sensor.unit,
            value: reading.value,
            at: reading.at.toISOString(),
          }),
          display: `fresh ${sensor_id} ${JSON.stringify(reading.value)}`,
        };
      },
    }),
  );
}

/**
 * Registers `list_sensors()` for other agents (`mira mcp`): every sensor with its kind, unit and
 * latest reading (none when the robot is not connected, as under `mira mcp`). Only with sensors.
 */
function registerListSensors(kernel: PluginKernel): void {
  const sensors = kernel.sensors.list();
  if (sensors.length === 0) return;
  kernel.tools.registerForAgents({
    name: 'list_sensors',
    description: "The robot's sensors: id, kind, unit, what it is, and the latest reading with its time.",
    kind: 'acquisition',
    origins: EPISODE_ORIGINS,
    parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
    run: async () => {
      const now = kernel.clock.now().getTime();
      const list = sensors.map((sensor) => {
        const latest = kernel.sensors.latest(sensor.id);
        return {
          sensor_id: sensor.id,
          kind: sensor.kind,
          unit: sensor.unit,
          description: sensor.description ?? null,
          latest: latest
            ? { value: latest.value, at: latest.at.toISOString(), age_ms: now - latest.at.getTime() }
            : null,
        };
      });
      return { content: JSON.stringify({ status: 'listed', sensors: list }), display: `${list.length} sensors` };
    },
  });
}

/**
 * Core's own plugin: the console commands `help`, `quit`, `memory`,
 * `memory clear`, `sensors`, `stop`, `plugins`, and the `read_sensor` tool,
 * registered through the same facade a third-party plugin uses. The
 * application sets it up after the profile's plugins, so it sees their sensors.
 */
export const corePlugin = definePlugin({
  name: CORE_NAME,
  version: '0.1.0',
  setup(kernel) {
    registerCommands(kernel);
    registerReadSensor(kernel);
    registerListSensors(kernel);
  },
});
