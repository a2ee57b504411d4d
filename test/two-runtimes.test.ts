import { NOTES_STORE } from '@mira/plugin-notes';
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@mira/core';
import { MEMORY_STORE } from '@mira/memory-contract';
import {
  createTestRuntime,
  startScriptedModelServer,
  type ScriptedModelServer,
  type TestRuntime,
} from '@mira/core/testing';
import type { MindViewInstance } from '@mira/plugin-mind-view';
import type { SimInstance } from '@mira/plugin-sim';

// The plugins are named by package, as a profile names them: both runtimes load the same modules.
const PLUGINS = [
  '@mira/plugin-sim',
  '@mira/plugin-attention',
  '@mira/plugin-memory',
  '@mira/plugin-memory-tools',
  '@mira/plugin-notes',
  '@mira/plugin-mind-view',
  '@mira/plugin-openai',
];

describe('two runtimes from one profile in one process share nothing', function () {
  this.timeout(30_000);
  let dir: string;
  let server: ScriptedModelServer;
  let a: TestRuntime;
  let b: TestRuntime;
  let clockA: ManualClock;
  let clockB: ManualClock;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mira-two-'));
    server = await startScriptedModelServer();
    const tables = {
      sim: { tick_ms: 0 },
      attention: { tick_ms: 0 },
      memory: { enabled: true, database_path: 'memory.sqlite3' },
      notes: { enabled: true, database_path: 'notes.sqlite3' },
      mind_view: { enabled: true, port: 0 },
      openai: { model: 'scripted', base_url: server.url, max_retries: 0 },
    };
    clockA = new ManualClock('2026-06-01T08:00:00.000Z');
    clockB = new ManualClock('2026-06-01T08:00:00.000Z');
    a = await createTestRuntime({ dir, plugins: PLUGINS, tables, clock: clockA });
    b = await createTestRuntime({ dir, plugins: PLUGINS, tables, clock: clockB });
  });
  afterEach(async () => {
    await a?.dispose();
    await b?.dispose();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const odometryX = (rt: TestRuntime) => (rt.app.kernel.latestReading('odometry')!.value as { x: number }).x;

  it('drives one robot while the other stays put', async () => {
    const simA = a.instance<SimInstance>('@mira/plugin-sim');
    const simB = b.instance<SimInstance>('@mira/plugin-sim');
    expect(simA.transport).not.to.equal(simB.transport);
    server.push(
      { toolCalls: [{ name: 'drive', arguments: { linear_m_s: 0.5, angular_rad_s: 0, duration_s: 2 } }] },
      { text: 'Driving.' },
    );
    expect((await a.run('Drive forward')).output).to.include('[drive] driving 0.50 m/s, 0.00 rad/s for 2.0 s');
    for (let i = 0; i < 10; i += 1) {
      clockA.advance(100);
      clockB.advance(100);
      simA.transport.tick();
      simB.transport.tick();
    }
    // The manual clock outruns the real-time republishing, so the sim's command timeout stops A part-way.
    expect(odometryX(a)).to.be.greaterThan(0.2);
    expect(odometryX(b)).to.equal(0);
    await a.run('stop');
  });

  it('serves a Mind view per runtime, on its own port with its own token', async () => {
    const viewA = a.instance<MindViewInstance>('@mira/plugin-mind-view').server!;
    const viewB = b.instance<MindViewInstance>('@mira/plugin-mind-view').server!;
    expect(viewA.port).not.to.equal(viewB.port);
    expect(viewA.token).not.to.equal(viewB.token);
    const status = (port: number, token: string) =>
      fetch(`http://127.0.0.1:${port}/api/scopes`, { headers: { authorization: `Bearer ${token}` } }).then(
        (r) => r.status,
      );
    expect(await status(viewA.port, viewA.token)).to.equal(200);
    expect(await status(viewA.port, viewB.token)).to.equal(401);
  });

  it('keeps the other runtime running, with its stores open, when one stops', async () => {
    await a.stop();
    expect(a.instance<MindViewInstance>('@mira/plugin-mind-view').server).to.equal(undefined);
    const created = await b.run('memory entity add person "Ada"');
    expect(created).to.deep.equal({ ok: true, output: ['ENT1 person "Ada"'] });
    const memory = b.app.kernel.store(MEMORY_STORE);
    expect((await memory.findEntities('Ada')).map((e) => e.ref)).to.deep.equal(['ENT1']);
    const notes = b.app.kernel.store(NOTES_STORE);
    expect(notes.scopes()).to.include('default');
    const view = b.instance<MindViewInstance>('@mira/plugin-mind-view').server!;
    const response = await fetch(`http://127.0.0.1:${view.port}/api/entities?name=Ada`, {
      headers: { authorization: `Bearer ${view.token}` },
    });
    expect((await response.json()).entities.map((e: { id: string }) => e.id)).to.deep.equal(['ENT1']);
    const simB = b.instance<SimInstance>('@mira/plugin-sim');
    clockB.advance(100);
    simB.transport.tick();
    expect(b.app.kernel.latestReading('odometry')!.monotonic).to.equal(clockB.monotonic());
  });

  it('gives each runtime its own follow-ups and working memory', async () => {
    expect((await a.run('followup add 5m "check the dock"')).ok).to.equal(true);
    expect((await b.run('followup list')).output).to.deep.equal(['no pending follow-ups']);
    server.push({ text: 'Hello.' });
    await a.run('Hello there');
    expect(a.app.kernel.workingMemory.entries()).to.have.length(2);
    expect(b.app.kernel.workingMemory.entries()).to.deep.equal([]);
  });
});
