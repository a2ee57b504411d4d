import { expect } from 'chai';
import { modelRuntime, type ModelRuntime } from './helpers/model-runtime.js';

// How an episode ends on answers that are not a plain reply: empty, cut at the token limit, filtered,
// refused, or carrying the model's thinking; and which failures are retried. Against the scripted server
// answering as llama-server (OpenAI where the behaviour is OpenAI's).

describe('cognition replies that are not plain (real SDK, scripted server)', function () {
  this.timeout(20_000);
  let m: ModelRuntime;
  afterEach(() => m?.dispose());

  for (const stream of [false, true]) {
    it(`asks an empty answer again once, unchanged (${stream ? 'streaming' : 'non-streaming'})`, async () => {
      m = await modelRuntime({ stream, script: [{ text: '' }, { text: 'Hello, operator.' }] });
      const { ok, output } = await m.say('Hello');
      expect(ok).to.equal(true);
      expect(output).to.deep.equal(['Mira: Hello, operator.']);
      expect(m.server.requests).to.have.length(2);
      expect(JSON.stringify(m.server.requests[1]!.body)).to.equal(JSON.stringify(m.server.requests[0]!.body));
    });

    it(`tells the operator plainly when the model answers nothing twice (${stream ? 'streaming' : 'non-streaming'})`, async () => {
      m = await modelRuntime({ stream, script: [{ text: '' }, { text: '  ' }] });
      const before = m.snapshot();
      const { ok, output } = await m.say('Hello');
      expect(ok).to.equal(true);
      expect(output).to.deep.equal([
        'note: the model gave no reply (it answered with nothing, twice); please ask again',
      ]);
      expect(m.server.requests).to.have.length(2);
      expect(m.rt.app.kernel.workingMemory.entries()).to.deep.equal([]);
      expect(m.snapshot()).to.deep.equal(before);
    });
  }

  it('sends max_tokens from the profile, 1024 by default', async () => {
    m = await modelRuntime({ script: [{ text: 'a' }] });
    await m.say('Hello');
    expect(m.server.requests[0]!.body.max_tokens).to.equal(1024);
    expect(m.server.requests[0]!.body).not.to.have.property('max_completion_tokens');
  });

  it('sends the limit as max_completion_tokens when the profile says so', async () => {
    m = await modelRuntime({
      script: [{ text: 'a' }],
      openai: { max_tokens: 64, max_tokens_field: 'max_completion_tokens' },
    });
    await m.say('Hello');
    expect(m.server.requests[0]!.body.max_completion_tokens).to.equal(64);
    expect(m.server.requests[0]!.body).not.to.have.property('max_tokens');
  });

  for (const stream of [false, true]) {
    it(`says a reply cut at max_tokens was cut (${stream ? 'streaming' : 'non-streaming'})`, async () => {
      m = await modelRuntime({ stream, script: [{ text: 'word '.repeat(40) }], openai: { max_tokens: 16 } });
      const { ok, output } = await m.say('Talk');
      expect(ok).to.equal(true);
      expect(output).to.deep.equal([
        // Sixteen tokens of the model's: word ▁word ▁word …
        `Mira: ${'word '.repeat(15)}word`,
        "note: the reply was cut off at the model's limit of 16 tokens per answer; for longer replies, raise [openai] max_tokens in the profile",
      ]);
      expect(m.server.requests).to.have.length(1);
    });

    it(`runs none of the calls of an answer cut inside one, and says so (${stream ? 'streaming' : 'non-streaming'})`, async () => {
      // The first call is whole and would write a memory; the second is cut mid-arguments at max_tokens 64.
      const remember = {
        kind: 'preference',
        subject: 'Alice',
        predicate: 'prefers',
        value: 'tea',
        evidence: 'Alice prefers tea',
        related_entity: null,
        related_role: null,
      };
      m = await modelRuntime({
        stream,
        openai: { max_tokens: 64 },
        script: [
          {
            toolCalls: [
              { name: 'remember', arguments: remember },
              { name: 'recall_memory', arguments: { query: `Alice ${'and her friends '.repeat(20)}` } },
            ],
          },
        ],
      });
      await m.store().createEntity({ entityType: 'person', canonicalName: 'Alice' });
      const before = m.snapshot();
      const { ok, output } = await m.say('Alice prefers tea.');
      expect(ok).to.equal(true);
      const sent = m.server.requests[0]!;
      expect(sent.status).to.equal(200);
      expect(output).to.deep.equal([
        "note: the model's answer was cut off at its limit of 64 tokens per answer inside a tool call, so none of its 2 tool calls was run; raise [openai] max_tokens in the profile, or ask for less at once",
      ]);
      // Nothing ran, nothing was written, the episode ended without asking again; nothing to keep.
      expect(m.server.requests).to.have.length(1);
      expect(m.snapshot()).to.deep.equal(before);
      expect(m.rt.app.kernel.workingMemory.entries()).to.deep.equal([]);
    });
  }

  it("prints the text before a cut call, keeps it with the utterance, and runs the call's tool never", async () => {
    m = await modelRuntime({
      openai: { max_tokens: 16 },
      script: [
        {
          text: 'Let me look.',
          toolCalls: [{ name: 'recall_memory', arguments: { query: 'Ada Lovelace '.repeat(10) } }],
        },
      ],
    });
    const { output } = await m.say('Who is Ada?');
    expect(output).to.deep.equal([
      'Mira: Let me look.',
      "note: the model's answer was cut off at its limit of 16 tokens per answer inside a tool call, so none of its 1 tool call was run; raise [openai] max_tokens in the profile, or ask for less at once",
    ]);
    expect(m.rt.app.kernel.workingMemory.entries().map((e) => e.text)).to.deep.equal(['Who is Ada?', 'Let me look.']);
    expect(m.server.requests).to.have.length(1);
  });

  it('says so when the limit was reached before any reply, without asking again', async () => {
    m = await modelRuntime({ script: [{ text: '', finishReason: 'length' }] });
    const { output } = await m.say('Talk');
    expect(output).to.deep.equal([
      'note: the model reached its limit of 1024 tokens per answer without a reply; ask again more simply, or raise [openai] max_tokens in the profile',
    ]);
    expect(m.server.requests).to.have.length(1);
  });

  it("says plainly when the provider's content filter withheld the reply", async () => {
    m = await modelRuntime({
      script: [{ text: 'Part', finishReason: 'content_filter' }],
      server: { flavor: 'openai' },
    });
    const { output } = await m.say('Talk');
    expect(output).to.deep.equal([
      'Mira: Part',
      "note: the model's provider withheld the rest of the reply (its content filter)",
    ]);
  });

  for (const stream of [false, true]) {
    it(`says plainly that the model declined, in its words (${stream ? 'streaming' : 'non-streaming'})`, async () => {
      m = await modelRuntime({
        stream,
        script: [{ text: '', refusal: "I can't help with that." }],
        server: { flavor: 'openai' },
      });
      const { output } = await m.say('Do something bad');
      expect(output).to.deep.equal(["Mira: I can't help with that.", 'note: the model declined to answer']);
      expect(m.rt.app.kernel.workingMemory.entries()).to.deep.equal([]);
    });
  }

  for (const stream of [false, true]) {
    it(`never prints nor keeps the model's thinking (${stream ? 'streaming' : 'non-streaming'})`, async () => {
      m = await modelRuntime({
        stream,
        script: [
          {
            text: '<think>Ada likes tea, the operator said so.</think>Hello.<think>unclosed',
            reasoning: 'the operator said Ada prefers tea',
          },
        ],
      });
      const { output } = await m.say('Hello');
      expect(output).to.deep.equal(['Mira: Hello.']);
      const wm = m.rt.app.kernel.workingMemory.entries().map((e) => e.text);
      expect(wm).to.deep.equal(['Hello', 'Hello.']);
    });
  }

  it('an answer that is only thinking is an empty answer, asked again', async () => {
    m = await modelRuntime({ script: [{ text: '<think>hmm</think>' }, { text: 'Yes.' }] });
    expect((await m.say('Well?')).output).to.deep.equal(['Mira: Yes.']);
  });

  describe('retries only what a retry can fix', () => {
    for (const status of [429, 503]) {
      it(`retries a ${status}`, async () => {
        m = await modelRuntime({ script: [{ status }, { text: 'Back.' }], openai: { max_retries: 1 } });
        expect((await m.say('Hello')).output).to.deep.equal(['Mira: Back.']);
        expect(m.server.requests).to.have.length(2);
        expect(m.rt.logs.some((l) => l.includes(`(${status})`) && l.includes('retrying'))).to.equal(true);
      });
    }

    for (const [status, what] of [
      [500, 'a 500 (llama-server answers it for a request it cannot read)'],
      [400, 'a 400'],
      [404, 'a 404'],
    ] as const) {
      it(`does not retry ${what}`, async () => {
        m = await modelRuntime({ script: [{ status }, { text: 'never' }], openai: { max_retries: 3 } });
        const { ok, output } = await m.say('Hello');
        expect(ok).to.equal(false);
        expect(output.at(-1)).to.match(/^error: MIRA_ERR_COGNITION_PROVIDER: /);
        expect(m.server.requests).to.have.length(1);
      });
    }

    it('does not retry a timeout', async () => {
      m = await modelRuntime({
        script: [{ text: 'late', delayMs: 1500 }, { text: 'never' }],
        openai: { max_retries: 3, timeout_ms: 300 },
      });
      const { output } = await m.say('Hello');
      expect(output.at(-1)).to.match(/^error: MIRA_ERR_COGNITION_TIMEOUT: /);
      expect(m.server.requests).to.have.length(1);
    });
  });

  describe('a stream that stops arriving ([openai] stream_idle_ms)', () => {
    const remember = {
      kind: 'preference',
      subject: 'Alice',
      predicate: 'prefers',
      value: 'tea',
      evidence: 'Alice prefers tea',
      related_entity: null,
      related_role: null,
    };

    it('gives up a stream stalled mid-text, closes it, says what to do, and keeps nothing of it', async () => {
      // The role chunk and the first half of the text, then nothing, the connection held open.
      m = await modelRuntime({
        stream: true,
        openai: { stream_idle_ms: 200, timeout_ms: 3000, max_retries: 2 },
        script: [{ text: 'Hello, operator. All is well.', stallAfterChunks: 2 }, { text: 'Back.' }],
      });
      const { ok, output } = await m.say('Hello');
      expect(ok).to.equal(false);
      expect(output).to.have.length(1);
      expect(output[0]).to.match(
        /^error: MIRA_ERR_COGNITION_STREAM_STALLED: the model server at http:\/\/127\.0\.0\.1:\d+\/v1 sent nothing for 200 ms in the middle of a streamed answer, so the answer was given up: .*raise \[openai\] stream_idle_ms/,
      );
      const [stalled] = m.server.requests;
      expect(stalled!.chunkTimes).to.have.length(2);
      // The connection was closed by Mira (the server sees it close a moment later; waited for, not timed).
      for (let i = 0; i < 500 && !stalled!.closedEarly; i += 1) await new Promise((r) => setTimeout(r, 10));
      expect(stalled!.closedEarly).to.equal(true);
      // Not sent again (the text may have been printed), and nothing of the cut answer kept.
      expect(m.server.requests).to.have.length(1);
      expect(m.rt.app.kernel.workingMemory.entries().map((e) => e.text)).to.deep.equal([]);
      // The next turn is answered as usual, without the cut text.
      expect((await m.say('Hello again')).output).to.deep.equal(['Mira: Back.']);
      expect(JSON.stringify(m.server.requests[1]!.body.messages)).not.to.contain('All is well');
    });

    it('runs none of the tool calls of a stream stalled inside one', async () => {
      // The role chunk, the whole first call and half of the second, then nothing.
      m = await modelRuntime({
        stream: true,
        openai: { stream_idle_ms: 200 },
        script: [
          {
            toolCalls: [
              { name: 'remember', arguments: remember },
              { name: 'recall_memory', arguments: { query: 'Alice' } },
            ],
            stallAfterChunks: 4,
          },
        ],
      });
      await m.store().createEntity({ entityType: 'person', canonicalName: 'Alice' });
      const before = m.snapshot();
      const { ok, output } = await m.say('Alice prefers tea.');
      expect(ok).to.equal(false);
      expect(output).to.have.length(1);
      expect(output[0]).to.match(/^error: MIRA_ERR_COGNITION_STREAM_STALLED: /);
      expect(m.server.requests[0]!.chunkTimes).to.have.length(4);
      expect(m.server.requests).to.have.length(1);
      expect(m.snapshot()).to.deep.equal(before);
    });

    it('lets a slow stream through whose chunks each come within the limit', async () => {
      m = await modelRuntime({
        stream: true,
        openai: { stream_idle_ms: 2000 },
        script: [{ text: 'Slow but steady.', chunkDelayMs: 100 }],
      });
      expect((await m.say('Hello')).output).to.deep.equal(['Mira: Slow but steady.']);
    });
  });
});
