import type { Application } from './application.js';
import { formatAge as age } from './format-age.js';
import { CORE_NAME, type Kernel } from './kernel.js';


/** Registers core's own console commands: help, quit, memory, memory clear, sensors, plugins. */
export function registerCoreCommands(kernel: Kernel, app: Application): void {
  const { console: commands, workingMemory, services } = kernel;
  const add = (command: Parameters<typeof commands.register>[0]) => commands.register(command, CORE_NAME);
  add({
    name: 'help',
    summary: 'List the commands, or describe the commands under a name',
    usage: '[<command> ...]',
    args: { min: 0, max: 8 },
    run: (input, out) => {
      for (const line of commands.help(input.args)) out.print(line);
    },
  });
  add({
    name: 'quit',
    summary: 'Stop the robot runtime in order and leave the console',
    run: (_input, out) => {
      out.print('stopping…');
      commands.requestQuit();
    },
  });
  add({
    name: 'memory',
    summary: 'Print the volatile working memory (recent conversation of this session)',
    run: (_input, out) => {
      const entries = workingMemory.entries();
      out.print(`working memory: ${entries.length} of at most ${workingMemory.limit} entries (volatile; lost when the runtime stops)`);
      if (entries.length === 0) out.print('(empty)');
      for (const entry of entries) out.print(`${entry.at.toISOString()} ${entry.speaker}: ${entry.text}`);
    },
  });
  add({
    name: 'memory clear',
    summary: 'Clear the volatile working memory (persistent memory is not touched)',
    run: (_input, out) => {
      const count = workingMemory.entries().length;
      workingMemory.clear();
      out.print(`working memory cleared (${count} entries removed)`);
    },
  });
  add({
    name: 'sensors',
    summary: 'List the sensors with their latest value and its age',
    run: (_input, out) => {
      const sensors = kernel.sensors.values();
      if (sensors.length === 0) out.print('no sensors in this profile');
      const now = services.clock.monotonic();
      for (const sensor of sensors) {
        const reading = kernel.latestReading(sensor.id);
        if (!reading) {
          out.print(`${sensor.id} (${sensor.kind}, ${sensor.unit}): no reading yet`);
          continue;
        }
        const ms = now - reading.monotonic;
        const stale = sensor.staleAfterMs !== undefined && ms > sensor.staleAfterMs ? ' STALE' : '';
        out.print(`${sensor.id} (${sensor.kind}, ${sensor.unit}): ${JSON.stringify(reading.value)} ${age(ms)} ago${stale}`);
      }
    },
  });
  add({
    name: 'stop',
    summary: 'Emergency stop: zero velocity on every drive now (runs even while an episode is running)',
    run: async (_input, out) => {
      const count = await kernel.emergencyStop();
      out.print(count === 0 ? 'emergency stop: no drives in this profile' : `emergency stop: zero velocity sent to ${count} drive${count === 1 ? '' : 's'}`);
    },
  });
  add({
    name: 'plugins',
    summary: 'List the loaded plugins in the order they were applied',
    run: (_input, out) => {
      for (const { plugin, specifier } of app.plugins) out.print(`${plugin.name} ${plugin.version} (${specifier})`);
      if (app.plugins.length === 0) out.print('no plugins in this profile');
    },
  });
}
