import { expect } from 'chai';
import { GROUNDING_HEADER, firstSentence, shortenOldestResult, toolsInForm } from '@mira/core';
import { type RecordedRequest, withoutGrounding } from '@mira/core/testing';
import type { ModelRuntime } from './helpers/model-runtime.js';
import { session, simRuntime, turn, utterance } from './helpers/sim-session.js';

// Any context from 4,096 tokens: the instructions and tools are measured against the context less max_tokens
// before the first episode and sent in a compact form when they leave too little room; every call is kept
// inside it, working memory first (in blocks), then the episode's oldest tool results (with a marker); an
// overflow the server still answers is retried trimmed. Through the real SDK and the scripted server, with
// the simulated profile's tools (as long as mira-sim's) and a tool whose results are long.

/**
 * Every request accepted, with room for the whole answer (the prompt and the max_tokens it carries inside n_ctx),
 * unless nothing was left to trim: no working memory and every tool result of the episode shortened to its marker.
 */
function expectInside(requests: readonly RecordedRequest[], contextTokens: number) {
  let over = 0;
  for (const [i, r] of requests.entries()) {
    expect(r.status, `call ${i + 1}`).to.equal(200);
    if (r.promptTokens + Number(r.body.max_tokens ?? 1024) <= contextTokens) continue;
    over += 1;
    const messages = r.body.messages;
    const opening = messages.findLastIndex((x) => x.role === 'user');
    expect(opening, `call ${i + 1}: working memory left`).to.equal(1);
    for (const result of messages.filter((x) => x.role === 'tool')) {
      expect(withoutGrounding(result.content!), `call ${i + 1}`).to.match(/^\[shortened: \d+ characters\]$/);
    }
  }
  return over;
}

describe('cognition in a small context (real SDK, scripted server)', function () {
  this.timeout(60_000);
  let m: ModelRuntime;
  afterEach(() => m?.dispose());

  it('at 4,096 tokens says once that the tools go compact and answers shorter, and no overflow reaches the operator in 60 turns', async () => {
    m = await simRuntime(4096);
    const output = await session(m, 60);
    expect(output.join('\n')).not.to.contain('MIRA_ERR_COGNITION_CONTEXT_OVERFLOW');
    // The most compact tools and instructions take about 3,650 tokens (the generated model's own count): the
    // answer gives up room down to its floor, and only a call of a long episode with nothing left to shorten
    // leaves it less (the server cuts such an answer at the context's end, and Mira says it was cut).
    const over = expectInside(m.server.requests, 4096);
    expect(over).to.be.below(m.server.requests.length / 4);
    for (const r of m.server.requests) expect(r.promptTokens + 128).to.be.at.most(4096);
    const warnings = m.rt.logs.filter((l) => l.includes('the tools are sent with'));
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.match(
      /^warning: cognition: a request to the model may carry 3072 tokens .*cut to its first sentence.*answers are limited to \d+ tokens \(of max_tokens 1024\).*llama-server -c/,
    );
    // Every call sends the same compact tools: the tool's own first sentence, the schema unchanged.
    const first = m.server.requests[0]!.body.tools!;
    for (const r of m.server.requests) expect(r.body.tools).to.deep.equal(first);
    const remember = first.find((t) => t.function.name === 'remember')!.function;
    expect(remember.description).to.equal(firstSentence(remember.description));
    expect(remember.description.length).to.be.below(200);
    // The oldest results of a long episode were shortened, visibly; the newest user message is the utterance.
    const shortened = m.server.requests.filter((r) => r.prompt.includes('[shortened: '));
    expect(shortened.length).to.be.greaterThan(0);
    for (const r of m.server.requests) {
      const opening = r.body.messages.filter((x) => x.role === 'user').at(-1)!;
      expect(withoutGrounding(opening.content!)).to.match(/^Turn \d+: please check/);
    }
  });

  it("at 4,096 tokens with Qwen2.5's own template limits the answers to what the context leaves, and no overflow reaches the operator in 60 turns", async () => {
    // Qwen2.5's template writes each tool's JSON and its own tool preamble: the instructions with the most compact
    // tools take more than the 3,072 tokens a 1,024-token answer leaves, so the answer gives up room.
    m = await simRuntime(4096, {}, { template: 'qwen2.5' });
    const output = await session(m, 60);
    expect(output.join('\n')).not.to.contain('MIRA_ERR_COGNITION_CONTEXT_OVERFLOW');
    const warnings = m.rt.logs.filter((l) => l.includes('the tools are sent with'));
    expect(warnings).to.have.length(1);
    const said =
      /answers are limited to (\d+) tokens \(of max_tokens 1024\), leaving about (\d+) for the conversation/.exec(
        warnings[0]!,
      );
    expect(said, warnings[0]).to.not.equal(null);
    const answer = Number(said![1]);
    expect(answer).to.be.within(256, 1023);
    for (const [i, r] of m.server.requests.entries()) {
      expect(r.status, `call ${i + 1}`).to.equal(200);
      expect(r.body.max_tokens, `call ${i + 1}`).to.equal(answer);
      expect(r.promptTokens + 128, `call ${i + 1}`).to.be.at.most(4096);
    }
    // Room for the whole answer but where nothing was left to shorten.
    expect(expectInside(m.server.requests, 4096)).to.be.below(m.server.requests.length / 4);
    // Where an episode's exchange grew past the room, the robot-state blocks older than the newest were left out
    // (the newest message still carries the state now).
    const marker = `\n\n${GROUNDING_HEADER}\n`;
    const lean = m.server.requests.filter((r) => {
      const carrying = r.body.messages.filter((x) => x.role !== 'system' && (x.content ?? '').includes(marker));
      return r.body.messages.some((x) => x.role === 'tool') && carrying.length === 1;
    });
    expect(lean.length).to.be.greaterThan(0);
    for (const r of lean) expect(r.body.messages.at(-1)!.content).to.include(marker);
  });

  it('at 8,192 tokens sends the full tools, warns of nothing, and no overflow reaches the operator in 60 turns', async () => {
    m = await simRuntime(8192);
    const output = await session(m, 60);
    expect(output.join('\n')).not.to.contain('MIRA_ERR_COGNITION_CONTEXT_OVERFLOW');
    expect(expectInside(m.server.requests, 8192)).to.equal(0);
    expect(m.rt.logs.filter((l) => l.startsWith('warning: cognition'))).to.deep.equal([]);
    const remember = m.server.requests[0]!.body.tools!.find((t) => t.function.name === 'remember')!.function;
    expect(remember.description).not.to.equal(firstSentence(remember.description));
  });

  it("counts with the server's tokenizer, each distinct text once", async () => {
    m = await simRuntime(8192);
    await session(m, 4);
    const counted = m.server.tokenizeRequests;
    expect(counted.length).to.be.greaterThan(0);
    expect(new Set(counted).size).to.equal(counted.length);
    // The opening message (the utterance and its grounding) and the tools were counted by the server: the tools as
    // its template renders them (a probe conversation rendered through /apply-template with them, counted once).
    expect(counted.some((t) => t.startsWith(utterance(1)))).to.equal(true);
    const rendered = counted.filter((t) => t.includes('<tools>'));
    expect(rendered).to.have.length(1);
    expect(rendered[0]).to.include('"name":"recall_memory"');
    expect(counted.some((t) => t.startsWith('[{"name":"recall_memory"'))).to.equal(false);
  });

  it("counts the tools' JSON with the server's tokenizer when the server has no /apply-template", async () => {
    m = await simRuntime(8192, {}, { applyTemplate: false });
    await session(m, 4);
    const counted = m.server.tokenizeRequests;
    expect(counted.some((t) => t.startsWith('[{"name":"recall_memory"'))).to.equal(true);
    expect(counted.some((t) => t.includes('<tools>'))).to.equal(false);
  });

  it('retries an overflow trimmed even when working memory is empty: the oldest results shortened', async () => {
    // The profile claims a large context; the server has 4,096: its refusal is the only guide.
    m = await simRuntime(4096, { context_tokens: 100_000 });
    m.server.push(...turn(3));
    const { ok, output } = await m.say(utterance(3));
    expect(ok, output.join('\n')).to.equal(true);
    const statuses = m.server.requests.map((r) => r.status);
    expect(statuses).to.include(400);
    statuses.forEach((s, i) => {
      if (s === 400) expect(statuses[i + 1]).to.equal(200);
    });
    // Each retry is shorter than the request refused before it, and still carries the utterance.
    statuses.forEach((s, i) => {
      if (s !== 400) return;
      const retried = m.server.requests[i + 1]!;
      expect(retried.promptTokens).to.be.below(m.server.requests[i]!.promptTokens);
      const opening = retried.body.messages.find((x) => x.role === 'user')!;
      expect(withoutGrounding(opening.content!)).to.equal(utterance(3));
    });
    expect(m.rt.logs.some((l) => l.includes('refused the request as too long; sent again trimmed'))).to.equal(true);
  });
});

describe('compact tools and shortened results', () => {
  it('cuts a description at its first sentence, not at an abbreviation or a number', () => {
    expect(firstSentence('Drive at 0.5 m/s, e.g. forward. Then stop.')).to.equal('Drive at 0.5 m/s, e.g. forward.');
    expect(firstSentence('One sentence only')).to.equal('One sentence only');
    expect(firstSentence('Why? Because.')).to.equal('Why?');
  });

  it('drops parameter descriptions, keeping a property named description and the schema', () => {
    const tool = {
      name: 't',
      description: 'First. Second.',
      parameters: {
        type: 'object',
        description: 'args',
        properties: { description: { type: 'string', description: 'the text' }, n: { type: ['integer', 'null'] } },
        required: ['description', 'n'],
        additionalProperties: false,
      },
    };
    expect(toolsInForm([tool], 'first-sentence')).to.deep.equal([{ ...tool, description: 'First.' }]);
    expect(toolsInForm([tool], 'no-parameter-descriptions')).to.deep.equal([
      {
        name: 't',
        description: 'First.',
        parameters: {
          type: 'object',
          properties: { description: { type: 'string' }, n: { type: ['integer', 'null'] } },
          required: ['description', 'n'],
          additionalProperties: false,
        },
      },
    ]);
  });

  it('shortens the oldest result first, to a head and then to nothing, keeping its grounding', () => {
    const long = 'x'.repeat(1000);
    const exchange = [
      { role: 'tool' as const, toolCallId: 'a', content: long },
      {
        role: 'tool' as const,
        toolCallId: 'b',
        content: `${long}\n\n[Robot state — from the runtime, not said by the operator]\n[runtime]\nt`,
      },
    ];
    expect(shortenOldestResult(exchange)).to.equal(true);
    expect(exchange[0]!.content).to.equal(`${'x'.repeat(240)} [shortened: 760 characters]`);
    expect(shortenOldestResult(exchange)).to.equal(true);
    expect(exchange[1]!.content).to.equal(
      `${'x'.repeat(240)} [shortened: 760 characters]\n\n[Robot state — from the runtime, not said by the operator]\n[runtime]\nt`,
    );
    expect(shortenOldestResult(exchange)).to.equal(true);
    expect(exchange[0]!.content).to.equal('[shortened: 1000 characters]');
    expect(shortenOldestResult(exchange)).to.equal(true);
    expect(shortenOldestResult(exchange)).to.equal(false);
    expect(exchange[1]!.content).to.match(/^\[shortened: 1000 characters\]\n\n\[Robot state/);
  });
});
