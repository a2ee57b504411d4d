import { expect } from 'chai';
import { withoutGrounding } from '@mira/core/testing';
import { modelRuntime, type ModelRuntime } from './helpers/model-runtime.js';

// The context: Mira learns the model's context size (the profile, or llama-server's /props), keeps each
// request inside it by dropping the oldest working-memory turns, trims and retries once on an overflow
// error, and warns when the server's template renders no tools.

const utterance = (i: number) => `Turn ${i}: ${'please keep listening to this long sentence '.repeat(10).trim()}`;

describe('cognition and the model context (real SDK, scripted server)', function () {
  this.timeout(30_000);
  let m: ModelRuntime;
  afterEach(() => m?.dispose());

  async function longSession(turns: number) {
    m.server.push(...Array.from({ length: turns * 2 }, () => ({ text: 'Understood.' })));
    for (let i = 1; i <= turns; i += 1) {
      const { ok, output } = await m.say(utterance(i));
      expect(ok, output.join('\n')).to.equal(true);
      expect(output).to.deep.equal(['Mira: Understood.']);
    }
  }

  it("keeps every request inside llama-server's n_ctx from /props, dropping the oldest turns first", async () => {
    m = await modelRuntime({ server: { contextTokens: 3000 }, openai: { max_tokens: 256 } });
    await longSession(12);
    expect(m.server.requests.map((r) => r.status)).to.deep.equal(Array(12).fill(200));
    for (const [i, r] of m.server.requests.entries()) {
      expect(r.promptTokens).to.be.below(3000 - 256);
      const users = r.body.messages.filter((x) => x.role === 'user').map((x) => withoutGrounding(x.content!));
      expect(users.at(-1)).to.equal(utterance(i + 1)); // the current utterance is always there
      expect(r.body.tools).to.deep.equal(m.server.requests[0]!.body.tools); // and the tools
    }
    const last = m.server.requests
      .at(-1)!
      .body.messages.map((x) => x.content ?? '')
      .join('\n');
    expect(last).not.to.contain('Turn 1:');
    expect(last).to.contain('Turn 11:'); // the newest turns stay
  });

  it('keeps every request inside [openai] context_tokens when the server cannot say (OpenAI)', async () => {
    m = await modelRuntime({
      server: { flavor: 'openai', contextTokens: 2000 },
      openai: { max_tokens: 256, context_tokens: 2000 },
    });
    await longSession(12);
    expect(m.server.requests.map((r) => r.status)).to.deep.equal(Array(12).fill(200));
  });

  for (const flavor of ['llama-server', 'openai'] as const) {
    it(`trims and sends again once when the server refuses the request as too long (${flavor})`, async () => {
      // The profile claims a larger context than the server has: the server's 400 is the only guide.
      m = await modelRuntime({ server: { flavor, contextTokens: 2000 }, openai: { context_tokens: 100_000 } });
      await longSession(8);
      const statuses = m.server.requests.map((r) => r.status);
      expect(statuses.filter((s) => s === 400).length).to.be.greaterThan(0);
      statuses.forEach((s, i) => {
        if (s === 400) expect(statuses[i + 1]).to.equal(200);
      });
      expect(m.rt.logs.some((l) => l.includes('refused the request as too long'))).to.equal(true);
    });
  }

  it('says plainly that the request does not fit when even the utterance alone does not', async () => {
    // Smaller than the instructions alone: no form of the tools and no trim can make it fit.
    m = await modelRuntime({ server: { contextTokens: 500 }, openai: { context_tokens: 100_000 } });
    m.server.push({ text: 'never' });
    const { ok, output } = await m.say('Hello');
    expect(ok).to.equal(false);
    expect(output.at(-1)).to.match(/^error: MIRA_ERR_COGNITION_CONTEXT_OVERFLOW: the model server at .* \(400\)/);
  });

  it('warns once, naming --jinja, when the chat template renders no tools', async () => {
    m = await modelRuntime({ server: { rendersTools: false }, script: [{ text: 'a' }, { text: 'b' }] });
    await m.say('Hello');
    await m.say('Again');
    const warnings = m.rt.logs.filter((l) => l.includes('renders no tools'));
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.match(/^warning: .*--jinja.*tool-capable template/);
  });

  for (const flavor of ['llama-server', 'openai'] as const) {
    it(`does not warn when the server renders tools or cannot say (${flavor})`, async () => {
      m = await modelRuntime({ server: { flavor }, script: [{ text: 'a' }] });
      await m.say('Hello');
      expect(m.rt.logs.filter((l) => l.startsWith('warning:'))).to.deep.equal([]);
    });
  }
});
