import { expect } from 'chai';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedModelServer, type ScriptedModelServer } from '@mira/core/testing';
import { REPO_ROOT, runMira } from './helpers/run-mira.js';

describe('mira CLI with cognition (profiles/mira-sim, OPENAI_BASE_URL)', function () {
  this.timeout(30_000);
  let root: string;
  let profile: string;
  let server: ScriptedModelServer;

  beforeEach(async () => {
    // A copy of the default profile, so its relative database path lands in a temporary folder.
    root = mkdtempSync(join(tmpdir(), 'mira-sim-'));
    profile = join(root, 'profiles', 'mira-sim');
    mkdirSync(profile, { recursive: true });
    copyFileSync(join(REPO_ROOT, 'profiles', 'mira-sim', 'profile.toml'), join(profile, 'profile.toml'));
    server = await startScriptedModelServer();
  });
  afterEach(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('runs an episode that calls recall_memory, with the key and server from the environment', async () => {
    server.push(
      { toolCalls: [{ name: 'recall_memory', arguments: { query: 'Ada' } }] },
      { text: 'I remember Ada; she prefers tea.' },
    );
    const run = await runMira(
      ['--profile', profile],
      'memory entity add person "Ada"\nmemory add preference "Ada prefers tea" --link ENT1:subject\nWhat does Ada drink?\nmemory\n',
      {
        env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test-key' },
      },
    );
    expect(run.stderr).to.match(/^mira: Mind view: http:\/\/127\.0\.0\.1:\d+\/#token=[0-9a-f]{48}\n$/);
    expect(run.code).to.equal(0);
    expect(run.stdout).to.contain('[recall_memory] hit ENT1\nMira: I remember Ada; she prefers tea.\n');
    expect(run.stdout).to.match(/operator: What does Ada drink\?\n.*assistant: I remember Ada; she prefers tea\.\n/);
    expect(server.requests[0]!.headers.authorization).to.equal('Bearer sk-test-key');
    expect(server.requests[0]!.body.model).to.equal('gpt-4.1-mini');
  });

  it('works with a local server that needs no key, and reports an unreachable server on the turn', async () => {
    server.push({ text: 'Hello, operator.' });
    const ok = await runMira(['--profile', profile], 'Hello\n', {
      env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: '' },
    });
    expect(ok.code).to.equal(0);
    expect(ok.stdout).to.equal('Mira: Hello, operator.\n');
    const url = server.url;
    await server.close();
    const down = await runMira(['--profile', profile], 'Hello\nmemory persistent\n', { env: { OPENAI_BASE_URL: url } });
    expect(down.code).to.equal(1);
    expect(down.stdout).to.match(
      /^error: MIRA_ERR_COGNITION_UNREACHABLE: cannot reach the model server at http:\/\/127\.0\.0\.1:\d+\/v1;/,
    );
    expect(down.stdout).to.contain('persistent memory: enabled (sqlite)');
    expect(down.stderr).not.to.match(/\n\s+at /); // no stack traces
  });
});
