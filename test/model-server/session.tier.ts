import { expect } from 'chai';
import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, runMira } from '../helpers/run-mira.js';
import { buildLlamaServer, startRealModelServer, testModel, type RealModelServer } from './llama-server.js';

// The real-server tier (npm run test:model-server): the real console (core/bin/mira.js) with the simulated
// profile against a real llama.cpp llama-server, built from the source node-llama-cpp ships, with a model
// the repository generates (random weights: the protocol is real, the answers are not). It asserts what
// must hold with any model: no episode ends on a protocol error, the server accepts every request (or
// Mira handles its refusal), nothing is written that the operator did not say, and the prompt cache
// reuses at least 90% of every call's prompt after the first of a session.

const SESSION = [
  'memory entity add person "Ada"',
  'memory entity add place "Library"',
  'Hello, who are you?',
  'Ada prefers green tea.',
  'What does Ada like to drink?',
  'Ada works at the Library.',
  'Where does Ada work?',
  'Please note that the spare battery is on the top shelf.',
  'What did I ask you to note about the battery?',
  'Drive forward slowly for one second.',
  'Turn left a little.',
  'Stop.',
  'What is your battery level?',
  'How far is the wall in front of you?',
  'Tell me everything you remember about Ada.',
  'Thank you, that is all.',
  'memory',
];
const PROTOCOL_ERRORS = /^error: MIRA_ERR_COGNITION_(PROVIDER|MALFORMED|UNREACHABLE|TIMEOUT|CONTEXT_OVERFLOW|AUTH)\b/m;

describe('a console session against a real llama-server (profiles/mira-sim)', function () {
  this.timeout(30 * 60_000); // the first run builds llama-server
  let cache: string;
  let model: string;
  let server: RealModelServer;
  let root: string;

  before(() => {
    cache = buildLlamaServer();
    model = testModel(cache);
  });
  beforeEach(async () => {
    server = await startRealModelServer(cache, model);
    root = mkdtempSync(join(tmpdir(), 'mira-real-'));
  });
  afterEach(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  for (const stream of [false, true]) {
    it(`holds through remember, recall, notes and a drive (${stream ? 'streaming' : 'non-streaming'})`, async () => {
      const profile = join(root, 'profiles', 'mira-sim');
      mkdirSync(profile, { recursive: true });
      copyFileSync(join(REPO_ROOT, 'profiles', 'mira-sim', 'profile.toml'), join(profile, 'profile.toml'));
      const manifest = readFileSync(join(profile, 'profile.toml'), 'utf8')
        .replace('# stream = false', `stream = ${stream}`)
        .replace('[openai]\n', '[openai]\nmax_tokens = 64\ntimeout_ms = 20000\n');
      writeFileSync(join(profile, 'profile.toml'), manifest);

      const run = await runMira(['--profile', profile], `${SESSION.join('\n')}\n`, {
        env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: '' },
      });
      const calls = server.calls;
      const summary = calls.map((c, i) => {
        const reuse = c.cacheN === undefined ? '-' : (c.cacheN / (c.cacheN + (c.promptN ?? 0))).toFixed(3);
        return `  call ${i + 1}: ${c.status} ${c.errorType ?? c.finishReason} bytes=${c.requestBytes} cache_n=${c.cacheN} prompt_n=${c.promptN} reuse=${reuse}`;
      });
      console.log(
        `${stream ? 'streaming' : 'non-streaming'} session, ${calls.length} requests:\n${summary.join('\n')}`,
      );

      const protocolErrors = run.stdout.split('\n').filter((line) => PROTOCOL_ERRORS.test(line));
      const serverErrors = server
        .log()
        .split('\n')
        .filter((line) => / E |error|exception/i.test(line));
      const hang = `${server.unanswered()} request(s) still unanswered by llama-server`;
      expect(protocolErrors, `${hang}\n${serverErrors.join('\n').slice(-3000)}`).to.deep.equal([]);
      expect(calls.length).to.be.greaterThan(SESSION.length - 3);
      calls.forEach((call, i) => {
        if (call.status === 400 && call.errorType === 'exceed_context_size_error') {
          expect(calls[i + 1]?.status, `call ${i + 2}, the retry after an overflow`).to.equal(200);
        } else {
          expect(call.status, `call ${i + 1}: ${server.log().slice(-2000)}`).to.equal(200);
        }
      });
      for (const [i, call] of calls.entries()) {
        if (i === 0 || call.status !== 200) continue;
        expect(call.cacheN! / (call.cacheN! + call.promptN!), `reuse of call ${i + 1}`).to.be.at.least(0.9);
      }

      // Nothing the model wrote into persistent memory that the operator did not say.
      const db = new Database(join(root, 'data', 'mira-memory.sqlite3'), { readonly: true });
      const written = db.prepare(`SELECT summary FROM memories WHERE source_kind <> 'console'`).all() as Array<{
        summary: string;
      }>;
      db.close();
      const said = SESSION.join('\n').normalize('NFKC');
      for (const { summary } of written) expect(said).to.contain(summary.normalize('NFKC'));
    });
  }
});
