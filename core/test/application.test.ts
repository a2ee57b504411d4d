import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MiraError } from '@mira/core';
import {
  Application,
  CoreErrors,
  ManualClock,
  type MiraPlugin,
  type PluginInstance,
  storeKey,
  type PluginKernel,
  type StopPhase,
} from '@mira/core';
import { createTestRuntime, writeManifest } from '@mira/core/testing';

async function bootError(
  plugins: MiraPlugin<any>[],
  tables: Record<string, Record<string, unknown>> = {},
): Promise<MiraError> {
  try {
    const rt = await createTestRuntime({ plugins, tables });
    await rt.dispose();
  } catch (error) {
    return error as MiraError;
  }
  throw new Error('expected boot to fail');
}

type RecorderOptions = Pick<MiraPlugin<any>, 'dependencies' | 'stopPhase'> & PluginInstance;

/** A plugin that records its setup, start and stop; `start`/`stop` in `extra` replace the recording ones. */
function recorder(events: string[], name: string, extra: RecorderOptions = {}): MiraPlugin<any> {
  const { start, stop, ...definition } = extra;
  return {
    name,
    version: '1.0.0',
    ...definition,
    setup: () => {
      events.push(`apply ${name}`);
      return {
        start:
          start ??
          (() => {
            events.push(`start ${name}`);
          }),
        stop:
          stop ??
          (() => {
            events.push(`stop ${name}`);
          }),
      };
    },
  };
}

describe('Application', () => {
  describe('boot order', () => {
    it('orders plugins by dependencies, breaking ties by manifest order', async () => {
      const events: string[] = [];
      const rt = await createTestRuntime({
        plugins: [
          recorder(events, 'c', { dependencies: ['b'] }),
          recorder(events, 'a'),
          recorder(events, 'b', { dependencies: ['a'] }),
          recorder(events, 'd'),
        ],
      });
      expect(rt.app.pluginOrder).to.deep.equal(['a', 'b', 'c', 'd']);
      expect(events).to.deep.equal([
        'apply a',
        'apply b',
        'apply c',
        'apply d',
        'start a',
        'start b',
        'start c',
        'start d',
      ]);
      await rt.dispose();
    });

    it('fails naming the plugin when a dependency is missing', async () => {
      const error = await bootError([recorder([], 'needy', { dependencies: ['@mira/plugin-absent'] })]);
      expect(error.code).to.equal('MIRA_ERR_PLUGIN_DEPENDENCY_MISSING');
      expect(error.message).to.contain('needy').and.to.contain('@mira/plugin-absent').and.to.contain('profile.toml');
    });

    it('fails naming the plugins of a dependency cycle', async () => {
      const error = await bootError([
        recorder([], 'x', { dependencies: ['y'] }),
        recorder([], 'y', { dependencies: ['x'] }),
        recorder([], 'z'),
      ]);
      expect(error.code).to.equal('MIRA_ERR_PLUGIN_DEPENDENCY_CYCLE');
      expect(error.message).to.contain('x, y').and.not.to.contain('z,');
    });
  });

  describe('config validation', () => {
    const configured: MiraPlugin<{ enabled: boolean; speed: number }> = {
      name: '@acme/plugin-wheels',
      version: '1.0.0',
      configSection: 'wheels',
      configSchema: {
        type: 'object',
        properties: {
          enabled: { type: 'boolean', default: false },
          speed: { type: 'number', default: 0.5, maximum: 2 },
        },
        additionalProperties: false,
      },
      setup: (_kernel, config) => {
        seenConfig = config;
      },
    };
    let seenConfig: unknown;

    it('validates a section with ajv, applying defaults', async () => {
      const rt = await createTestRuntime({ plugins: [configured], tables: { wheels: { enabled: true } } });
      expect(seenConfig).to.deep.equal({ enabled: true, speed: 0.5 });
      await rt.dispose();
    });

    it('names the manifest file, the plugin and the JSON path of a wrong type', async () => {
      const error = await bootError([configured], { wheels: { enabled: 'yes' } });
      expect(error.code).to.equal('MIRA_ERR_CONFIG_INVALID');
      expect(error.message).to.match(
        /profile\.toml: plugin @acme\/plugin-wheels: \[wheels\] \/wheels\/enabled: must be boolean/,
      );
    });

    it('names an unknown key inside a section', async () => {
      const error = await bootError([configured], { wheels: { enabld: true } });
      expect(error.code).to.equal('MIRA_ERR_CONFIG_INVALID');
      expect(error.message).to.contain('/wheels/enabld: unknown key');
    });

    it('refuses a table that no loaded plugin claims', async () => {
      const error = await bootError([configured], { wheels: {}, lidar: { rate: 10 } });
      expect(error.code).to.equal('MIRA_ERR_CONFIG_UNKNOWN_TABLE');
      expect(error.message).to.contain('[lidar]');
    });
  });

  describe('registration', () => {
    const strictParams = {
      type: 'object',
      properties: { q: { type: 'string' } },
      required: ['q'],
      additionalProperties: false,
    };
    const toolPlugin = (name: string, parameters: Record<string, unknown> = strictParams): MiraPlugin => ({
      name,
      version: '1.0.0',
      setup: (kernel: PluginKernel) =>
        kernel.tools.register({
          name: 'lookup',
          description: 'x',
          kind: 'acquisition',
          origins: ['operator'],
          parameters,
          run: async () => ({ content: '{}', display: 'ok' }),
        }),
    });

    it('refuses a duplicate tool naming both plugins', async () => {
      const error = await bootError([toolPlugin('first'), toolPlugin('second')]);
      expect(error.code).to.equal('MIRA_ERR_DUPLICATE_REGISTRATION');
      expect(error.message).to.contain('second').and.to.contain('first').and.to.contain('"lookup"');
    });

    it('refuses a duplicate console command naming both plugins', async () => {
      const cmd = (name: string): MiraPlugin => ({
        name,
        version: '1',
        setup: (k: PluginKernel) => k.commands.register({ name: 'memory', summary: 'x', run: () => {} }),
      });
      const error = await bootError([cmd('@acme/plugin-memory-clone')]);
      expect(error.code).to.equal('MIRA_ERR_DUPLICATE_REGISTRATION');
      expect(error.message).to.contain('@acme/plugin-memory-clone').and.to.contain('@mira/core');
    });

    it('refuses a tool schema with a property missing from required', async () => {
      const error = await bootError([
        toolPlugin('loose', {
          type: 'object',
          properties: { q: { type: 'string' } },
          required: [],
          additionalProperties: false,
        }),
      ]);
      expect(error.code).to.equal('MIRA_ERR_TOOL_SCHEMA_NOT_STRICT');
      expect(error.message).to.contain('/properties/q');
    });

    it('refuses a tool schema whose additionalProperties is not false, also when nested', async () => {
      const nested = {
        type: 'object',
        properties: { where: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
        required: ['where'],
        additionalProperties: false,
      };
      const error = await bootError([toolPlugin('nested', nested)]);
      expect(error.code).to.equal('MIRA_ERR_TOOL_SCHEMA_NOT_STRICT');
      expect(error.message).to.contain('/properties/where');
    });

    it('freezes the hooks object', async () => {
      const rt = await createTestRuntime();
      expect(Object.isFrozen(rt.app.kernel.hooks)).to.equal(true);
      await rt.dispose();
    });

    it('publishes sensor readings on the HookMap keyed by sensor id and keeps the latest', async () => {
      const clock = new ManualClock();
      const got: unknown[] = [];
      const plugin: MiraPlugin = {
        name: 'sensor-plugin',
        version: '1',
        setup: (k) => {
          k.sensors.register({ id: 'battery', kind: 'battery', unit: 'percent', staleAfterMs: 5000 });
          k.hooks.sensorReading.for('battery').tap('sensor-plugin', (r) => {
            got.push(r.value);
          });
        },
      };
      const rt = await createTestRuntime({ plugins: [plugin], clock });
      const kernel = rt.app.kernel;
      kernel.publishReading({ sensorId: 'battery', value: 80, at: clock.now(), monotonic: clock.monotonic() });
      kernel.publishReading({ sensorId: 'battery', value: 79, at: clock.now(), monotonic: clock.monotonic() });
      expect(got).to.deep.equal([80, 79]);
      clock.advance(2000);
      expect((await rt.run('sensors')).output).to.deep.equal(['battery (battery, percent): 79 2.0s ago']);
      clock.advance(4000);
      expect((await rt.run('sensors')).output[0]).to.match(/79 6\.0s ago STALE$/);
      await rt.dispose();
    });
  });

  describe('start', () => {
    it('fails a start() that hangs past [profile] start_timeout_ms, naming the plugin, and stops what started', async () => {
      const events: string[] = [];
      const hung = recorder(events, 'hung-driver', { start: () => new Promise<void>(() => undefined) });
      const error = await bootError([recorder(events, 'first'), hung], { profile: { start_timeout_ms: 200 } });
      expect(error.code).to.equal('MIRA_ERR_PLUGIN_START_TIMEOUT');
      expect(error.detail).to.match(
        /: plugin hung-driver: start\(\) did not finish within 200 ms; the robot was not started\. Check what it waits for \(a device, a server, a bridge\), or raise \[profile\] start_timeout_ms$/,
      );
      expect(events).to.deep.equal(['apply first', 'apply hung-driver', 'start first', 'stop first']);
    });

    it('refuses a start_timeout_ms that is not a whole number of milliseconds from 100 to 600000', async () => {
      for (const value of [0, 99, 600_001, 1.5, 'fast']) {
        const error = await bootError([recorder([], 'p')], { profile: { start_timeout_ms: value } });
        expect(error.message, String(value)).to.contain(
          '[profile] start_timeout_ms must be an integer from 100 to 600000',
        );
      }
    });
  });

  describe('taps without a name', () => {
    it('are named after their plugin, a bare function, empty options or options without a name alike', async () => {
      const seen: string[] = [];
      const tapper: MiraPlugin<any> = {
        name: 'tapper',
        version: '1.0.0',
        setup: (kernel) => {
          const hooks = kernel.hooks as unknown as Record<string, { tap: (...a: unknown[]) => void }>;
          hooks.registerTool!.tap((tool: { name: string }) => seen.push(`bare ${tool.name}`));
          hooks.registerTool!.tap({ stage: 5 }, (tool: { name: string }) => seen.push(`staged ${tool.name}`));
          hooks.registerTool!.tap('', (tool: { name: string }) => seen.push(`empty ${tool.name}`));
          kernel.hooks.stop.for('service').tapPromise({ name: '' } as never, async () => void seen.push('stopped'));
          kernel.tools.register({
            name: 'noop',
            description: 'Does nothing',
            kind: 'acquisition',
            origins: ['operator'],
            parameters: { type: 'object', properties: {}, additionalProperties: false },
            run: async () => ({ content: '{}', display: 'ok' }),
          });
        },
      };
      const rt = await createTestRuntime({ plugins: [tapper] });
      expect(seen).to.deep.equal(['bare noop', 'empty noop', 'staged noop']);
      expect(rt.app.kernel.hooks.registerTool.taps.map((t) => t.name)).to.include.members(['tapper']);
      expect(
        new Set(rt.app.kernel.hooks.registerTool.taps.filter((t) => t.name === 'tapper').map((t) => t.stage ?? 0)),
      ).to.deep.equal(new Set([0, 5]));
      await rt.dispose();
      expect(seen.at(-1)).to.equal('stopped');
    });
  });

  describe('the testing kit is as strict as an episode', () => {
    it('refuses a call from an origin the tool is not offered, or with arguments off its schema, without running it', async () => {
      let runs = 0;
      const strict: MiraPlugin<any> = {
        name: 'strict',
        version: '1.0.0',
        setup: (kernel) =>
          kernel.tools.register({
            name: 'count',
            description: 'Counts',
            kind: 'effect',
            origins: ['operator'],
            parameters: {
              type: 'object',
              properties: { n: { type: 'integer', minimum: 1 } },
              required: ['n'],
              additionalProperties: false,
            },
            run: async () => {
              runs += 1;
              return { content: '{"status":"ok"}', display: 'ok' };
            },
          }),
      };
      const rt = await createTestRuntime({ plugins: [strict] });
      try {
        const refused = (result: { content: string }) => JSON.parse(result.content) as Record<string, unknown>;
        expect(refused(await rt.callTool('count', { n: 1 }, { origin: 'monitor' }))).to.deep.equal({
          status: 'rejected',
          reason: 'tool_not_available',
          error: 'no tool "count" is offered in monitor episodes; nothing was done',
        });
        expect(refused(await rt.callTool('count', { n: 0 }))).to.deep.equal({
          status: 'rejected',
          reason: 'invalid_tool_arguments',
          error: 'arguments do not match the schema at /n: must be >= 1',
        });
        expect(refused(await rt.callTool('count', { n: 2, extra: true }))).to.deep.include({
          reason: 'invalid_tool_arguments',
        });
        expect(runs).to.equal(0);
        expect(refused(await rt.callTool('count', { n: 2 }))).to.deep.equal({ status: 'ok' });
        expect(runs).to.equal(1);
      } finally {
        await rt.dispose();
      }
    });
  });

  describe('stores by typed key', () => {
    interface Notebook {
      pages: number;
      close(): void;
    }
    const NOTEBOOK = storeKey<Notebook>('notebook');
    const owner = (key = NOTEBOOK) => ({
      name: 'store-owner',
      version: '1',
      setup: (k: PluginKernel) => k.stores.register({ key, open: async () => ({ pages: 3, close: () => undefined }) }),
    });

    it('looks a store up by the key it was registered under, typed by it', async () => {
      const rt = await createTestRuntime({ plugins: [owner()] });
      try {
        const notebook: Notebook = rt.app.kernel.store(NOTEBOOK);
        expect(notebook.pages).to.equal(3);
      } finally {
        await rt.dispose();
      }
    });

    it('says why a key finds no store: none registered, or not open yet', async () => {
      const rt = await createTestRuntime({ plugins: [owner()] });
      try {
        expect(() => rt.app.kernel.store(storeKey('absent')))
          .to.throw(/store "absent" is not available: no plugin in this profile registers it/)
          .with.property('code', 'MIRA_ERR_STORE_NOT_AVAILABLE');
      } finally {
        await rt.dispose();
      }
    });

    it('refuses a registration without a key, saying how to make one', async () => {
      const bad = {
        name: 'store-owner',
        version: '1',
        setup: (k: PluginKernel) =>
          k.stores.register({ name: 'notebook', open: async () => ({ close() {} }) } as never),
      };
      let error: unknown;
      try {
        await createTestRuntime({ plugins: [bad] });
      } catch (e) {
        error = e;
      }
      expect(String((error as Error)?.message)).to.include(
        'registered a store without a key (storeKey<T>(name)) or open()',
      );
    });
  });

  describe('shutdown', () => {
    it('stops in phases cognition → attention → temporal → hardware → service, then closes stores once', async () => {
      const events: string[] = [];
      const phases: StopPhase[] = ['service', 'hardware', 'temporal', 'attention', 'cognition'];
      const plugins = phases.map((phase) => recorder(events, phase, { stopPhase: phase }));
      let closes = 0;
      plugins.push({
        name: 'store-owner',
        version: '1',
        setup: (k) =>
          k.stores.register({
            key: storeKey('notebook'),
            open: async () => {
              events.push('open notebook');
              return {
                close: () => {
                  closes += 1;
                  events.push('close notebook');
                },
              };
            },
          }),
      });
      const rt = await createTestRuntime({ plugins });
      await Promise.all([rt.stop(), rt.stop()]);
      await rt.stop();
      const stops = events.filter((e) => e.startsWith('stop') || e.startsWith('close'));
      expect(stops).to.deep.equal([
        'stop cognition',
        'stop attention',
        'stop temporal',
        'stop hardware',
        'stop service',
        'close notebook',
      ]);
      expect(events.indexOf('open notebook')).to.be.lessThan(events.indexOf('start service'));
      expect(closes).to.equal(1);
      await rt.dispose();
      expect(closes).to.equal(1);
    });

    it('reports a failing stop and still stops the rest', async () => {
      const events: string[] = [];
      const rt = await createTestRuntime({
        plugins: [
          recorder(events, 'eyes', { stopPhase: 'hardware' }),
          recorder(events, 'mind', {
            stopPhase: 'cognition',
            stop: () => {
              throw new Error('socket already gone');
            },
          }),
          recorder(events, 'ears', { stopPhase: 'attention' }),
        ],
      });
      await rt.stop();
      expect(events.filter((e) => e.startsWith('stop'))).to.deep.equal(['stop ears', 'stop eyes']);
      expect(rt.logs.join('\n')).to.match(
        /MIRA_ERR_PLUGIN_STOP_FAILED: plugin mind failed to stop: socket already gone/,
      );
      await rt.dispose();
    });

    it('stops later plugins first within a phase', async () => {
      const events: string[] = [];
      const rt = await createTestRuntime({
        plugins: [recorder(events, 'base'), recorder(events, 'top', { dependencies: ['base'] })],
      });
      await rt.stop();
      expect(events.filter((e) => e.startsWith('stop'))).to.deep.equal(['stop top', 'stop base']);
      await rt.dispose();
    });

    it('names the plugin whose start failed and stops the ones that started', async () => {
      const events: string[] = [];
      let error: MiraError | undefined;
      try {
        await createTestRuntime({
          plugins: [
            recorder(events, 'ok'),
            recorder(events, 'bad', {
              start: () => {
                throw new Error('port busy');
              },
            }),
          ],
        });
      } catch (e) {
        error = e as MiraError;
      }
      expect(error?.code).to.equal('MIRA_ERR_PLUGIN_START_FAILED');
      expect(error?.message).to.contain('plugin bad failed in start: port busy');
      expect(events).to.include('stop ok').and.not.to.include('stop bad');
    });
  });

  describe('working memory', () => {
    it('is bounded by [working_memory] max_entries and cleared by "memory clear"', async () => {
      const rt = await createTestRuntime({ tables: { working_memory: { max_entries: 2 } } });
      const wm = rt.app.kernel.workingMemory;
      wm.add('operator', 'one', new Date(0));
      wm.add('assistant', 'two', new Date(0));
      wm.add('operator', 'three', new Date(0));
      // Past the bound, what is dropped goes at once, in whole turns: what is kept begins with the operator's
      // words (see WorkingMemory), so the assistant's "two", whose turn began with "one", goes with it.
      const shown = (await rt.run('memory')).output;
      expect(shown[0]).to.equal('working memory: 1 of at most 2 entries (volatile; lost when the runtime stops)');
      expect(shown.slice(1)).to.deep.equal(['1970-01-01T00:00:00.000Z operator: three']);
      wm.add('assistant', 'four', new Date(0));
      expect((await rt.run('memory')).output.slice(1)).to.deep.equal([
        '1970-01-01T00:00:00.000Z operator: three',
        '1970-01-01T00:00:00.000Z assistant: four',
      ]);
      expect((await rt.run('memory clear')).output).to.deep.equal(['working memory cleared (2 entries removed)']);
      expect((await rt.run('memory')).output[1]).to.equal('(empty)');
      await rt.dispose();
    });
  });

  describe('manifest', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'mira-manifest-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    const bootFile = async (text: string) => {
      const path = join(dir, 'profile.toml');
      writeFileSync(path, text);
      try {
        await Application.boot({ manifestPath: path });
      } catch (error) {
        return error as MiraError;
      }
      throw new Error('expected failure');
    };

    it('reports malformed TOML with file, line and column', async () => {
      const error = await bootFile('[profile]\nname = "Mira\n');
      expect(error.code).to.equal('MIRA_ERR_MANIFEST_SYNTAX');
      expect(error.message).to.match(/profile\.toml:2:\d+: invalid TOML/);
    });

    it('says a string left open is not closed, with its line, instead of "control characters"', async () => {
      const cases: Array<[string, number, number]> = [
        ['[profile]\nname = "Mira\n', 2, 13],
        ["[profile]\nname = 'Mira\r\nplugins = []\n", 2, 13],
        ['[profile]\nname = "Mira', 2, 8],
      ];
      for (const [text, line, column] of cases) {
        const error = await bootFile(text);
        expect(error.code, JSON.stringify(text)).to.equal('MIRA_ERR_MANIFEST_SYNTAX');
        expect(error.detail, JSON.stringify(text)).to.match(
          new RegExp(
            `profile\\.toml:${line}:${column}: invalid TOML: a string on line ${line} is not closed; end it with the quote it opens with, on the same line$`,
          ),
        );
        expect(error.fix).to.equal(
          (CoreErrors.entry('MIRA_ERR_MANIFEST_SYNTAX')!.situations!.unterminatedString as { fix: string }).fix,
        );
      }
      // A control character inside a closed string is still called one.
      const control = await bootFile('[profile]\nname = "Mi\u0001ra"\n');
      expect(control.detail).to.match(/invalid TOML: .*control characters are not allowed in strings; fix the line/);
    });

    it('requires [profile] name', async () => {
      const error = await bootFile('[profile]\nplugins = []\n');
      expect(error.code).to.equal('MIRA_ERR_MANIFEST_INVALID');
      expect(error.message).to.contain('[profile] name');
    });

    it('resolves path plugins against the manifest directory, not the working directory', async () => {
      writeFileSync(
        join(dir, 'local-plugin.js'),
        "export default { name: 'local', version: '1.0.0', setup(k) { k.commands.register({ name: 'hello', summary: 'greets', run: (_i, out) => out.print('hello from ' + k.profile.name) }); } };\n",
      );
      const manifestPath = writeManifest(dir, { name: 'Rover', plugins: ['./local-plugin.js'] });
      const cwd = process.cwd();
      process.chdir(tmpdir());
      try {
        const app = await Application.boot({ manifestPath });
        await app.start();
        const lines: string[] = [];
        await app.execute('hello', { print: (l) => lines.push(l) });
        expect(lines).to.deep.equal(['hello from Rover']);
        await app.stop();
      } finally {
        process.chdir(cwd);
      }
    });

    it('reports a module without a valid plugin export', async () => {
      writeFileSync(join(dir, 'not-a-plugin.js'), 'export const x = 1;\n');
      const error = await bootFile('[profile]\nname = "Mira"\nplugins = ["./not-a-plugin.js"]\n');
      expect(error.code).to.equal('MIRA_ERR_PLUGIN_INVALID');
      expect(error.message).to.contain('not-a-plugin.js').and.to.contain('export default');
    });

    it('reports an unknown plugin package', async () => {
      const error = await bootFile('[profile]\nname = "Mira"\nplugins = ["@mira/plugin-does-not-exist"]\n');
      expect(error.code).to.equal('MIRA_ERR_PLUGIN_NOT_FOUND');
      expect(error.message).to.contain('@mira/plugin-does-not-exist');
      expect(readdirSync(dir)).to.deep.equal(['profile.toml']);
      expect(existsSync(join(dir, 'data'))).to.equal(false);
    });
  });
});
