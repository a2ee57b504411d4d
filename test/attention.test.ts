import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock, type MiraError } from '@mira/core';
import {
  createTestRuntime,
  startScriptedModelServer,
  type ScriptedModelServer,
  type TestRuntime,
} from '@mira/core/testing';
import attentionPlugin from '@mira/plugin-attention';
import memoryPlugin from '@mira/plugin-memory';
import memoryToolsPlugin from '@mira/plugin-memory-tools';
import openaiPlugin from '@mira/plugin-openai';
import simPlugin, { type SimTransport } from '@mira/plugin-sim';
import { eventually } from './conformance/transport-contract.js';
import { runMira } from './helpers/run-mira.js';

describe('attention: monitor and temporal episodes (sim, scripted model, manual clock)', function () {
  this.timeout(20_000);
  let rt: TestRuntime;
  let server: ScriptedModelServer;
  let clock: ManualClock;
  let sim: SimTransport;

  beforeEach(async () => {
    server = await startScriptedModelServer();
    clock = new ManualClock('2026-06-01T08:00:00.000Z');
    rt = await createTestRuntime({
      clock,
      plugins: [simPlugin, attentionPlugin, memoryPlugin, memoryToolsPlugin, openaiPlugin],
      tables: {
        sim: { tick_ms: 0, battery_percent: 21, battery_drain_percent_per_min: 60 },
        attention: {
          tick_ms: 0,
          monitors: [
            {
              id: 'battery_low',
              sensor: 'battery',
              field: 'percent',
              below: 20,
              clear_above: 25,
              message: 'The battery is low.',
            },
          ],
        },
        memory: { enabled: true, database_path: 'memory.sqlite3' },
        openai: { model: 'scripted', base_url: server.url, max_retries: 0 },
      },
    });
    sim = rt.instance(simPlugin).transport;
  });
  afterEach(async () => {
    await rt.dispose();
    await server.close();
  });

  it('starts one monitor episode when the battery crosses the threshold, not on every reading', async () => {
    server.push(
      {
        toolCalls: [
          {
            name: 'remember',
            arguments: {
              kind: 'fact',
              subject: 'Mira',
              predicate: 'battery',
              value: 'low',
              evidence: 'battery low',
              related_entity: null,
              related_role: null,
            },
          },
        ],
      },
      { text: 'I should dock soon.' },
    );
    for (let i = 0; i < 5; i += 1) {
      clock.advance(1000); // 1 %/s drain: 20, 19, 18, 17, 16
      sim.tick();
    }
    await eventually(() => rt.notifications.includes('Mira: I should dock soon.'), 3000, 'the monitor episode');
    expect(rt.notifications.filter((l) => l.startsWith('[monitor battery_low]'))).to.have.length(1);
    expect(rt.notifications[0]).to.match(/^\[monitor battery_low\] battery\.percent = 19(\.\d+)? < 20$/);
    expect(server.requests).to.have.length(2);
    expect(server.requests[0]!.toolNames)
      .to.include('recall_memory')
      .and.include('read_sensor')
      .and.not.include('remember')
      .and.not.include('drive');
    expect(rt.notifications).to.include('[remember] rejected invalid_proposal');
    expect(server.requests[0]!.body.messages.at(-1)!.content).to.match(
      /autonomous monitor episode.*The battery is low\./,
    );
  });

  it('fires follow-ups in order as temporal episodes without remember', async () => {
    server.push({ text: 'Checking the dock.' }, { text: 'Checking the door.' });
    expect((await rt.run('followup add 2m "check the door"')).output[0]).to.equal(
      'F1 due in 2m0s at 2026-06-01T08:02:00.000Z: "check the door"',
    );
    await rt.run('followup add 1m "check the dock"');
    await rt.run('followup add 10m "never mind"');
    expect((await rt.run('followup cancel F3')).output).to.deep.equal(['F3 cancelled']);
    expect((await rt.run('followup list')).output).to.deep.equal([
      'F2 due in 1m0s at 2026-06-01T08:01:00.000Z: "check the dock"',
      'F1 due in 2m0s at 2026-06-01T08:02:00.000Z: "check the door"',
    ]);
    clock.advance(150_000);
    await rt.instance(attentionPlugin).tick();
    await eventually(() => rt.notifications.includes('Mira: Checking the door.'), 3000, 'both episodes');
    expect(rt.notifications.filter((l) => l.startsWith('[followup'))).to.deep.equal([
      '[followup F2] due: check the dock',
      '[followup F1] due: check the door',
    ]);
    for (const request of server.requests) {
      expect(request.toolNames).not.to.include('remember');
      expect(request.body.messages.at(-1)!.content).to.contain('autonomous temporal episode');
    }
    expect((await rt.run('followup list')).output).to.deep.equal(['no pending follow-ups']);
  });

  it('refuses bad follow-up input with a stable code', async () => {
    expect((await rt.run('followup add soon "x"')).output[0]).to.match(/^error: MIRA_ERR_ATTENTION_DURATION: /);
    expect((await rt.run('followup add 5m " "')).output[0]).to.match(/^error: MIRA_ERR_ATTENTION_FOLLOWUP_EMPTY: /);
    expect((await rt.run('followup cancel F9')).output[0]).to.match(/^error: MIRA_ERR_ATTENTION_FOLLOWUP_NOT_FOUND: /);
  });
});

describe('attention: a monitor nobody could trigger fails boot, naming it', function () {
  this.timeout(30_000);
  const monitor = (sensor: string, field?: string) => ({
    id: 'battery_low',
    sensor,
    ...(field ? { field } : {}),
    below: 20,
    message: 'The battery is low.',
  });
  const boot = async (m: Record<string, unknown>) => {
    try {
      const rt = await createTestRuntime({
        plugins: [simPlugin, attentionPlugin],
        tables: { sim: { tick_ms: 0 }, attention: { tick_ms: 0, monitors: [m] } },
      });
      await rt.dispose();
      return undefined;
    } catch (error) {
      return error as MiraError;
    }
  };

  it('refuses a misspelt sensor', async () => {
    const error = await boot(monitor('batery', 'percent'));
    expect(error?.code).to.equal('MIRA_ERR_CONFIG_INVALID');
    expect(error?.message).to.contain(
      '[attention] monitor battery_low: no plugin provides a sensor "batery"; sensors: battery, odometry, range',
    );
  });

  it('refuses a field the sensor does not have', async () => {
    const error = await boot(monitor('battery', 'percentage'));
    expect(error?.code).to.equal('MIRA_ERR_CONFIG_INVALID');
    expect(error?.message).to.contain(
      '[attention] monitor battery_low: sensor battery has no field "percentage"; its fields: percent, voltage, charging',
    );
  });

  it('accepts a sensor and field that exist', async () => {
    expect(await boot(monitor('battery', 'percent'))).to.equal(undefined);
  });

  it('fails mira check too, with the same words', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mira-monitor-'));
    try {
      writeFileSync(
        join(dir, 'profile.toml'),
        [
          '[profile]',
          'name = "Mira"',
          'plugins = ["@mira/plugin-sim", "@mira/plugin-attention"]',
          '[[attention.monitors]]',
          'id = "battery_low"',
          'sensor = "batery"',
          'field = "percent"',
          'below = 20',
          'message = "low"',
        ].join('\n'),
      );
      const run = await runMira(['check', '--profile', dir]);
      expect(run.code).to.equal(1);
      expect(run.stderr).to.contain('no plugin provides a sensor "batery"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
