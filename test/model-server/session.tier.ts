import { expect } from 'chai';
import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, runMira } from '../helpers/run-mira.js';
import {
  buildLlamaServer,
  startRealModelServer,
  testModel,
  type ProxiedCall,
  type RealModelServer,
} from './llama-server.js';

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

/** Sixty turns: the session above, then questions and notes in turn, so working memory (40 entries) slides. */
const LONG_SESSION = [
  ...SESSION.slice(0, -2),
  ...Array.from({ length: 60 - (SESSION.length - 2) }, (_, i) =>
    i % 3 === 2
      ? `Please note that shelf ${i} holds the spare part number ${i}.`
      : `Turn ${i}: what is your battery level, and how far is the wall in front of you?`,
  ),
];

/** How the console is started: the shipped defaults of [openai], a context, and a bound on the whole run. */
interface Run {
  readonly lines: readonly string[];
  readonly stream: boolean;
  readonly context: number;
  /** The `mira` process is killed, and the test fails, after this long. */
  readonly boundMs: number;
}

/** What a run's calls reused of their prompts (calls after the first that the server answered). */
function reuseOf(calls: readonly ProxiedCall[]): number[] {
  return calls
    .slice(1)
    .filter((c) => c.status === 200 && c.cacheN !== undefined)
    .map((c) => c.cacheN! / (c.cacheN! + c.promptN!));
}

describe('a console session against a real llama-server (profiles/mira-sim)', function () {
  this.timeout(30 * 60_000); // the first run builds llama-server
  let cache: string;
  let model: string;
  let server: RealModelServer | undefined;
  let root: string;

  before(() => {
    cache = buildLlamaServer();
    model = testModel(cache);
  });
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'mira-real-'));
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  async function session({ lines, stream, context, boundMs }: Run) {
    server = await startRealModelServer(cache, model, { context });
    const profile = join(root, 'profiles', 'mira-sim');
    mkdirSync(profile, { recursive: true });
    copyFileSync(join(REPO_ROOT, 'profiles', 'mira-sim', 'profile.toml'), join(profile, 'profile.toml'));
    // The shipped defaults of [openai] (max_tokens 1024, the default timeout): only the stream is chosen.
    const manifest = readFileSync(join(profile, 'profile.toml'), 'utf8').replace(
      '# stream = false',
      `stream = ${stream}`,
    );
    writeFileSync(join(profile, 'profile.toml'), manifest);

    const started = Date.now();
    const run = await runMira(['--profile', profile], `${lines.join('\n')}\n`, {
      env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: '' },
      timeoutMs: boundMs,
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    const calls = server.calls;
    const reuse = reuseOf(calls).sort((a, b) => a - b);
    const overflows = calls.filter((c) => c.errorType === 'exceed_context_size_error').length;
    const summary = calls.map((c, i) => {
      const r = c.cacheN === undefined ? '-' : (c.cacheN / (c.cacheN + (c.promptN ?? 0))).toFixed(3);
      return `  call ${i + 1}: ${c.status} ${c.errorType ?? c.finishReason} bytes=${c.requestBytes} cache_n=${c.cacheN} prompt_n=${c.promptN} reuse=${r}`;
    });
    console.log(
      `${lines.length} lines, ${stream ? 'streaming' : 'non-streaming'}, context ${context}: ${calls.length} requests in ${seconds} s, ` +
        `${overflows} refused as too long, reuse min ${reuse[0]?.toFixed(3)} median ${reuse[Math.floor(reuse.length / 2)]?.toFixed(3)}` +
        (process.env.MIRA_TIER_CALLS ? `\n${summary.join('\n')}` : ''),
    );

    expect(run.signal, `mira was still running after ${boundMs / 60_000} min:\n${run.stdout.slice(-2000)}`).to.equal(
      null,
    );
    const protocolErrors = run.stdout.split('\n').filter((line) => PROTOCOL_ERRORS.test(line));
    const serverErrors = server
      .log()
      .split('\n')
      .filter((line) => / E |error|exception/i.test(line));
    const hang = `${server.unanswered()} request(s) still unanswered by llama-server`;
    expect(protocolErrors, `${hang}\n${serverErrors.join('\n').slice(-3000)}`).to.deep.equal([]);
    expect(calls.length).to.be.greaterThan(lines.length - 3);
    calls.forEach((call, i) => {
      if (call.status === 400 && call.errorType === 'exceed_context_size_error') {
        expect(calls[i + 1]?.status, `call ${i + 2}, the retry after an overflow`).to.equal(200);
      } else {
        expect(call.status, `call ${i + 1}: ${server!.log().slice(-2000)}`).to.equal(200);
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
    const said = lines.join('\n').normalize('NFKC');
    for (const { summary } of written) expect(said).to.contain(summary.normalize('NFKC'));
  }

  for (const stream of [false, true]) {
    it(`holds through remember, recall, notes and a drive at the shipped defaults (${stream ? 'streaming' : 'non-streaming'})`, () =>
      session({ lines: SESSION, stream, context: 8192, boundMs: 5 * 60_000 }));
  }
  for (const context of [8192, 4096]) {
    it(`holds through 60 turns at the shipped defaults in a context of ${context} tokens`, () =>
      session({ lines: LONG_SESSION, stream: context === 4096, context, boundMs: 10 * 60_000 }));
  }
});
