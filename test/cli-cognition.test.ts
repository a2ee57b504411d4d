import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jpeg from 'jpeg-js';
import { startScriptedModelServer, type ScriptedModelServer } from '@mira/core/testing';
import { LOOK_MAX_BYTES } from '@mira/robot';
import { MiraProcess } from './helpers/mira-process.js';
import { MIRA_BIN, REPO_ROOT, runMira } from './helpers/run-mira.js';

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
    // The first start of a new store says so (and where); then the Mind view's address, and nothing else.
    expect(run.stderr).to.match(
      /^mira: memory: created a new store at \S+\n(?:mira: notes: created a new store at \S+\n)?mira: Mind view: http:\/\/127\.0\.0\.1:\d+\/#token=[0-9a-f]{48}\n$/,
    );
    expect(run.code).to.equal(0);
    expect(run.stdout).to.contain('[recall_memory] hit ENT1\nMira: I remember Ada; she prefers tea.\n');
    expect(run.stdout).to.match(/operator: What does Ada drink\?\n.*assistant: I remember Ada; she prefers tea\.\n/);
    expect(server.requests[0]!.headers.authorization).to.equal('Bearer sk-test-key');
    expect(server.requests[0]!.body.model).to.equal('gpt-4.1-mini');
  });

  it('looks through the camera: the frame reaches the model server as an image part, within the budget', async () => {
    // The profile with vision on, against a llama-server double that has a projector.
    const toml = readFileSync(join(profile, 'profile.toml'), 'utf8').replace(
      'model = "gpt-4.1-mini"',
      'model = "gpt-4.1-mini"\nvision = true',
    );
    writeFileSync(join(profile, 'profile.toml'), toml);
    await server.close();
    server = await startScriptedModelServer([], { vision: true });
    server.push({ toolCalls: [{ name: 'look', arguments: { camera: 'camera_front' } }] }, { text: 'A wall.' });
    const run = await runMira(['--profile', profile], 'What do you see?\n', { env: { OPENAI_BASE_URL: server.url } });
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/\[look\] camera_front 96×64, \d+ bytes, \d+ ms old\nMira: A wall\.\n/);
    const last = server.requests[1]!.body.messages.at(-1)!;
    expect(last.role).to.equal('user');
    const parts = last.content as unknown as Array<{ type: string; image_url?: { url: string; detail: string } }>;
    expect(parts.map((p) => p.type)).to.deep.equal(['text', 'image_url']);
    const [, base64] = parts[1]!.image_url!.url.split('data:image/jpeg;base64,');
    const frame = jpeg.decode(Buffer.from(base64!, 'base64'), { useTArray: true });
    expect([frame.width, frame.height]).to.deep.equal([96, 64]);
    expect(Buffer.from(base64!, 'base64').length).to.be.at.most(LOOK_MAX_BYTES);
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

  describe('while the model works (stream = true)', () => {
    let mira: MiraProcess | undefined;
    beforeEach(() => {
      const manifest = join(profile, 'profile.toml');
      writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('# stream = false', 'stream = true'));
    });
    afterEach(async () => {
      if (mira?.closedAt === undefined) await mira?.kill();
      mira = undefined;
    });

    it('prints the streamed text as it arrives and each tool line as its tool runs', async () => {
      // A slow model: the second answer begins 1.5 s after it is asked, then a chunk every 1.5 s.
      server.push(
        { toolCalls: [{ name: 'recall_memory', arguments: { query: 'Ada' } }] },
        { text: 'Hello, operator. I do not know Ada yet.', delayMs: 1500, chunkDelayMs: 1500 },
      );
      mira = new MiraProcess(profile, { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: '' });
      mira.say('Who is Ada?');
      const m = mira;
      const toolLine = await m.until(() => m.stdout.includes('[recall_memory] ') && Date.now(), 'the tool line');
      const firstHalf = await m.until(() => m.stdout.includes('Mira: Hello, operator. I d') && Date.now(), 'text');
      m.child.stdin.end();
      expect(await m.exited).to.equal(0);
      const answer = server.requests[1]!;
      // The tool line came before the model answered again, the first half of the text before the second.
      expect(toolLine).to.be.below(answer.chunkTimes[0]!);
      expect(answer.chunkTimes).to.have.length.above(3);
      expect(firstHalf).to.be.below(answer.chunkTimes[2]!);
      // Printed as the whole reply is when not streamed, and nothing else on a pipe (no waiting line).
      expect(m.stdout).to.match(/^\[recall_memory\] [^\n]+\nMira: Hello, operator\. I do not know Ada yet\.\n$/);
    });

    it('ends the line of a stream that stalls and says so on a line of its own, running none of its calls', async () => {
      const manifest = join(profile, 'profile.toml');
      writeFileSync(
        manifest,
        readFileSync(manifest, 'utf8').replace('# stream_idle_ms = 60000', 'stream_idle_ms = 300'),
      );
      // The role chunk, the text in two halves and the first half of a call, then nothing, the connection held open.
      server.push({
        text: 'Hello, operator.',
        toolCalls: [{ name: 'recall_memory', arguments: { query: 'Ada' } }],
        stallAfterChunks: 4,
      });
      const run = await runMira(['--profile', profile], 'Hello\n', {
        env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: '' },
      });
      expect(run.code).to.equal(1);
      expect(run.stdout).to.match(
        /^Mira: Hello, operator\.\nerror: MIRA_ERR_COGNITION_STREAM_STALLED: the model server at \S+ sent nothing for 300 ms in the middle of a streamed answer, so the answer was given up: the part received was dropped and none of its tool calls was run; try again, or raise \[openai\] stream_idle_ms for a model that pauses that long\n$/,
      );
      expect(server.requests).to.have.length(1);
    });

    it('shows a waiting line on a terminal after about a second, cleared when the text arrives', async function () {
      // A real terminal: util-linux script(1) runs mira on a pseudo-terminal.
      server.push({ text: 'Here I am.', delayMs: 2500 });
      const env = { ...process.env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: '', TERM: 'xterm' };
      const command = `'${process.execPath}' '${MIRA_BIN}' --profile '${profile}'`;
      const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: REPO_ROOT, env });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      const closed = new Promise((resolve) => child.on('close', resolve));
      const until = async (what: RegExp) => {
        const deadline = Date.now() + 60_000;
        while (!what.test(out)) {
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${JSON.stringify(out)}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      await until(/> /);
      child.stdin.write('Hello\r');
      await until(/Mira is thinking… \d+s/);
      await until(/Mira: Here I am\./);
      child.stdin.write('quit\r');
      await closed;
      const thinking = out.lastIndexOf('Mira is thinking…');
      const reply = out.indexOf('Mira: Here I am.');
      expect(thinking).to.be.below(reply);
      // Between them the line was cleared (cli-progress: erase the line, carriage return).
      expect(
        ['\u001b[2K', '\u001b[0K', '\u001b[K'].some((erase) => out.slice(thinking, reply).includes(erase)),
      ).to.equal(true);
    });
  });
});
