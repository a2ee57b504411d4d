import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  countTokens,
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedReply,
} from '@mira/core/testing';
import { REPO_ROOT } from './helpers/run-mira.js';

// The scripted model server stands for llama.cpp's llama-server (and OpenAI): these pin what it does as
// they do, each behaviour from the server's source (see core/src/testing/model-server.ts).

const system = { role: 'system', content: 'You are a robot.' };
const user = (content: string) => ({ role: 'user', content });
const tool = {
  type: 'function',
  function: {
    name: 'recall_memory',
    description: 'Recall.',
    parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
  },
};

async function post(server: ScriptedModelServer, body: Record<string, unknown>) {
  const response = await fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', messages: [system, user('Hello')], tools: [tool], ...body }),
  });
  const text = await response.text();
  if (body.stream) {
    const chunks = text
      .split('\n\n')
      .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
      .map((line) => JSON.parse(line.slice(6)));
    return { status: response.status, chunks, json: undefined as any };
  }
  return { status: response.status, json: JSON.parse(text), chunks: [] as any[] };
}

const withCall = (args: string) => [
  system,
  user('Drive'),
  {
    role: 'assistant',
    content: '',
    tool_calls: [{ id: 'a', type: 'function', function: { name: 'drive', arguments: args } }],
  },
  { role: 'tool', tool_call_id: 'a', content: '{}' },
];

describe('the scripted model server (llama-server double)', () => {
  let server: ScriptedModelServer;
  afterEach(() => server?.close());
  const start = (script: ScriptedReply[], options = {}) =>
    startScriptedModelServer(script, options).then((s) => (server = s));

  for (const args of ['{not json', '{"linear_m_s": -67e3941}', '']) {
    it(`refuses a history whose tool-call arguments do not parse (${JSON.stringify(args)}) with 500, as llama-server does`, async () => {
      await start([{ text: 'never played' }]);
      const { status, json } = await post(server, { messages: withCall(args) });
      expect(status).to.equal(500);
      expect(json.error.code).to.equal(500);
      expect(json.error.type).to.equal('server_error');
      expect(json.error.message).to.match(/^Failed to parse tool call arguments as JSON: /);
      expect(server.remaining).to.equal(1);
      expect(server.requests[0]!.status).to.equal(500);
    });
  }

  it("refuses a system message that is not first with 500, as llama-server does with Qwen3.5's template", async () => {
    await start([{ text: 'never played' }]);
    const { status, json } = await post(server, { messages: [system, user('Hello'), system] });
    expect(status).to.equal(500);
    expect(json).to.deep.equal({ error: { code: 500, message: json.error.message, type: 'server_error' } });
    expect(json.error.message).to.match(
      /^\n-+\nWhile executing CallExpression at line 85, column 32 in source:\n[^]*\nError: Jinja Exception: System message must be at the beginning\.$/,
    );
    expect(server.remaining).to.equal(1);
    expect(server.requests[0]!.status).to.equal(500);
  });

  it('takes a system message only first (llama-server), and anywhere as OpenAI does', async () => {
    await start([{ text: 'a' }, { text: 'b' }]);
    expect((await post(server, { messages: [system, user('Hello')] })).status).to.equal(200);
    expect((await post(server, { messages: [user('Hello')] })).status).to.equal(200);
    await server.close();
    await start([{ text: 'a' }], { flavor: 'openai' });
    expect((await post(server, { messages: [system, user('Hello'), system] })).status).to.equal(200);
  });

  const threeCalls: ScriptedReply = {
    toolCalls: [
      // Tokens as the generated test model cuts them: { " query " : " Ada " }
      { name: 'recall_memory', arguments: { query: 'Ada' }, id: 'c1' }, // 9 tokens
      { name: 'recall_memory', arguments: { query: 'Bob Builder the second' }, id: 'c2' }, // 17 tokens
      { name: 'recall_memory', arguments: { query: 'Cy' }, id: 'c3' }, // 10 tokens: … " C y " }
    ],
  };

  it('cuts inside the tool call that max_tokens falls in, and generates none after it', async () => {
    await start([threeCalls]);
    // The first call (9 tokens) and 5 of the second's.
    const { json } = await post(server, { max_tokens: 14 });
    expect(json.choices[0].finish_reason).to.equal('length');
    expect(json.choices[0].message.tool_calls.map((c: any) => [c.id, c.function.arguments])).to.deep.equal([
      ['c1', '{"query":"Ada"}'],
      ['c2', '{"query":'],
    ]);
    expect(json.usage.completion_tokens).to.equal(14);
  });

  it('streams the cut call as it was cut', async () => {
    await start([threeCalls]);
    const { chunks } = await post(server, { max_tokens: 14, stream: true });
    const args = new Map<number, string>();
    for (const chunk of chunks) {
      for (const part of chunk.choices[0]?.delta.tool_calls ?? []) {
        args.set(part.index, (args.get(part.index) ?? '') + (part.function.arguments ?? ''));
      }
    }
    expect([...args.values()]).to.deep.equal(['{"query":"Ada"}', '{"query":']);
    expect(chunks.at(-1).choices[0].finish_reason).to.equal('length');
  });

  it('sends no call when max_tokens falls in the text before them, and whole calls when they fit', async () => {
    await start([{ ...threeCalls, text: 'Let me look that up for you.' }, threeCalls, threeCalls]);
    // The text is 10 tokens (L e t ▁me ▁look ▁that ▁up ▁for ▁you .); the next two answers are the calls alone, 36.
    const cutInText = (await post(server, { max_tokens: 4 })).json.choices[0];
    expect(cutInText.finish_reason).to.equal('length');
    expect(cutInText.message).to.deep.equal({ role: 'assistant', content: 'Let me' });
    const whole = (await post(server, { max_tokens: 36 })).json.choices[0];
    expect(whole.finish_reason).to.equal('tool_calls');
    expect(whole.message.tool_calls).to.have.length(3);
    // One token fewer: the last call is cut (9 tokens of its 10).
    const short = (await post(server, { max_tokens: 35 })).json.choices[0];
    expect(short.finish_reason).to.equal('length');
    expect(short.message.tool_calls.at(-1).function.arguments).to.equal('{"query":"Cy"');
  });

  it('accepts a history whose arguments parse', async () => {
    await start([{ text: 'ok' }]);
    expect((await post(server, { messages: withCall('{"linear_m_s": 0.2}') })).status).to.equal(200);
  });

  it('answers an empty reply with content "" and no refusal field', async () => {
    await start([{ text: '' }]);
    const { json } = await post(server, {});
    expect(json.choices[0].message).to.deep.equal({ role: 'assistant', content: '' });
    expect(json.choices[0].finish_reason).to.equal('stop');
  });

  it('streams an empty reply as the role chunk (content null) and the finish chunk only', async () => {
    await start([{ text: '' }]);
    const { chunks } = await post(server, { stream: true });
    expect(chunks.map((c) => c.choices[0])).to.deep.equal([
      { index: 0, delta: { role: 'assistant', content: null }, finish_reason: null },
      { index: 0, delta: {}, finish_reason: 'stop', ...{} },
    ]);
    expect(chunks.at(-1).timings).to.have.keys('cache_n', 'prompt_n', 'predicted_n');
  });

  it('uses llama-server ids: chatcmpl- and 32 alphanumerics, tool-call ids of 32 alphanumerics', async () => {
    await start([{ toolCalls: [{ name: 'recall_memory', arguments: {} }] }]);
    const { json } = await post(server, {});
    expect(json.id).to.match(/^chatcmpl-[0-9A-Za-z]{32}$/);
    expect(json.choices[0].message.tool_calls[0].id).to.match(/^[0-9A-Za-z]{32}$/);
    expect(json.choices[0].message.content).to.equal('');
    expect(json.choices[0].finish_reason).to.equal('tool_calls');
    expect(json.system_fingerprint).to.equal('b1-5b4ebc5');
  });

  it('answers as OpenAI when told: call_ ids, refusal null, content null beside tool calls', async () => {
    await start([{ toolCalls: [{ name: 'recall_memory', arguments: {} }] }], { flavor: 'openai' });
    const { json } = await post(server, {});
    expect(json.id).to.match(/^chatcmpl-[0-9A-Za-z]{29}$/);
    expect(json.choices[0].message.tool_calls[0].id).to.match(/^call_[0-9A-Za-z]{24}$/);
    expect(json.choices[0].message).to.include({ content: null, refusal: null });
    expect(json).not.to.have.property('timings');
  });

  it('cuts the text at max_tokens with finish_reason "length"', async () => {
    await start([{ text: 'x'.repeat(100) }, { text: 'x'.repeat(100) }]);
    const cut = await post(server, { max_tokens: 10 });
    expect(cut.json.choices[0]).to.include({ finish_reason: 'length' });
    // No piece of the model's holds two x: each is a token.
    expect(cut.json.choices[0].message.content).to.equal('x'.repeat(10));
    const whole = await post(server, { max_completion_tokens: 100 });
    expect(whole.json.choices[0]).to.include({ finish_reason: 'stop' });
  });

  it('reports usage with prompt_tokens_details.cached_tokens: the prefix shared with the previous prompt', async () => {
    await start([{ text: 'a' }, { text: 'b' }]);
    const first = await post(server, { messages: [system, user('Hello')] });
    const second = await post(server, {
      messages: [system, user('Hello'), { role: 'assistant', content: 'a' }, user('More')],
    });
    expect(first.json.usage.prompt_tokens_details).to.deep.equal({ cached_tokens: 0 });
    const { prompt_tokens, prompt_tokens_details } = second.json.usage;
    expect(prompt_tokens_details.cached_tokens).to.be.greaterThan(0).and.lessThan(prompt_tokens);
    expect(second.json.timings.cache_n).to.equal(prompt_tokens_details.cached_tokens);
    expect(second.json.timings.prompt_n).to.equal(prompt_tokens - prompt_tokens_details.cached_tokens);
    expect(server.requests[1]!.cachedTokens).to.equal(prompt_tokens_details.cached_tokens);
  });

  it("answers llama-server's context overflow: 400 exceed_context_size_error with n_prompt_tokens and n_ctx", async () => {
    await start([{ text: 'never' }], { contextTokens: 50 });
    const { status, json } = await post(server, { messages: [system, user('x'.repeat(400))] });
    expect(status).to.equal(400);
    expect(json.error).to.include({ code: 400, type: 'exceed_context_size_error', n_ctx: 50 });
    expect(json.error.message).to.match(/^request \(\d+ tokens\) exceeds the available context size \(50 tokens\)/);
    expect(server.remaining).to.equal(1);
  });

  it("answers OpenAI's context overflow: 400 context_length_exceeded", async () => {
    await start([{ text: 'never' }], { contextTokens: 50, flavor: 'openai' });
    const { status, json } = await post(server, { messages: [system, user('x'.repeat(400))] });
    expect(status).to.equal(400);
    expect(json.error).to.include({
      type: 'invalid_request_error',
      code: 'context_length_exceeded',
      param: 'messages',
    });
  });

  it('refuses, as OpenAI, a tool call the history does not answer', async () => {
    await start([{ text: 'never' }], { flavor: 'openai' });
    const { status } = await post(server, { messages: withCall('{}').slice(0, 3) });
    expect(status).to.equal(400);
  });

  it("serves llama-server's /props with n_ctx and the template's tool capability", async () => {
    await start([], { contextTokens: 8192, rendersTools: false });
    const props = await (await fetch(server.url.replace(/\/v1$/, '/props'))).json();
    expect(props.default_generation_settings.n_ctx).to.equal(8192);
    expect(props.chat_template_caps).to.include({ supports_tools: false, supports_tool_calls: false });
  });

  it('tokenizes as the generated test model: pieces of its vocabulary, specials whole, lines apart, unknown characters as bytes', async () => {
    await start([]);
    const tokenize = async (content: string): Promise<number[]> =>
      (
        await (
          await fetch(server.url.replace(/\/v1$/, '/tokenize'), { method: 'POST', body: JSON.stringify({ content }) })
        ).json()
      ).tokens;
    // A common word of the docs is one piece, with its space in front after the first.
    expect(await tokenize('memory memory memory')).to.have.length(3);
    // A special token is one id, and the text beside it is tokenized apart.
    const special = await tokenize('<|im_start|>');
    expect(special).to.have.length(1);
    expect(await tokenize('<|im_start|>memory')).to.deep.equal([...special, ...(await tokenize('memory'))]);
    // No piece holds a newline beside anything else.
    expect(await tokenize('memory\nmemory')).to.deep.equal([
      ...(await tokenize('memory')),
      ...(await tokenize('\n')),
      ...(await tokenize('memory')),
    ]);
    // A character no doc holds is its UTF-8 bytes (the byte tokens follow the 10 special ones, in order).
    expect(await tokenize('\u{1FAB8}')).to.deep.equal([...Buffer.from('\u{1FAB8}')].map((b) => 10 + b));
    // The exact ids against the real server: test/model-server/tokens.tier.ts.
  });

  it("serves llama-server's /tokenize as many ids as the prompt counts; OpenAI has none", async () => {
    await start([]);
    const tokenize = (content: unknown) =>
      fetch(server.url.replace(/\/v1$/, '/tokenize'), { method: 'POST', body: JSON.stringify({ content }) });
    const text = 'Who is Ada? She prefers green tea.';
    const { tokens } = await (await tokenize(text)).json();
    expect(tokens).to.have.length(countTokens(text));
    expect(tokens.every((t: unknown) => Number.isInteger(t))).to.equal(true);
    // As llama-server (measured): no content is no tokens, a number fails nlohmann's string conversion.
    expect(await (await tokenize(undefined)).json()).to.deep.equal({ tokens: [] });
    const number = await tokenize(42);
    expect(number.status).to.equal(500);
    expect((await number.json()).error).to.deep.equal({
      code: 500,
      message: '[json.exception.type_error.302] type must be string, but is number',
      type: 'server_error',
    });
    expect(server.tokenizeRequests).to.deep.equal([text]);
    await server.close();
    await start([], { flavor: 'openai' });
    expect((await tokenize(text)).status).to.equal(404);
  });

  it('drops the tools silently when the template renders none', async () => {
    await start([{ text: 'a' }], { rendersTools: false });
    await post(server, {});
    expect(server.requests[0]!.prompt).not.to.contain('recall_memory');
  });

  it('stalls a stream after the chunks asked for, holding the connection open until the client closes it', async () => {
    await start([{ text: 'Hello, operator.', stallAfterChunks: 2 }]);
    const controller = new AbortController();
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [system, user('Hello')], stream: true }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    let text = '';
    while ((text.match(/^data: /gm) ?? []).length < 2) text += new TextDecoder().decode((await reader.read()).value);
    const [role, first] = text
      .split('\n\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line.slice(6)));
    expect(role.choices[0].delta).to.deep.equal({ role: 'assistant', content: null });
    expect(first.choices[0].delta).to.deep.equal({ content: 'Hello, o' });
    const recorded = server.requests[0]!;
    expect(recorded.chunkTimes).to.have.length(2);
    expect(recorded.closedEarly).to.equal(false);
    controller.abort();
    await reader.read().catch(() => undefined);
    for (let i = 0; i < 500 && !recorded.closedEarly; i += 1) await new Promise((r) => setTimeout(r, 10));
    expect(recorded.closedEarly).to.equal(true);
    expect(recorded.chunkTimes).to.have.length(2);
  });

  describe('POST /apply-template', () => {
    const applyTemplate = (body: unknown) =>
      fetch(server.url.replace(/\/v1$/, '/apply-template'), {
        method: 'POST',
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    /** A tool whose optional value is a nullable type list, as the note tools declare it. */
    const nullable = {
      type: 'function',
      function: {
        name: 'save_memory',
        description: 'Save a note.',
        parameters: {
          type: 'object',
          properties: { content: { type: 'string' }, label: { type: ['string', 'null'] } },
          required: ['content', 'label'],
          additionalProperties: false,
        },
      },
    };
    const anyOf = {
      ...nullable,
      function: {
        ...nullable.function,
        parameters: {
          ...nullable.function.parameters,
          properties: { content: { type: 'string' }, label: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
        },
      },
    };

    it('renders a request as the chat endpoint renders it, generating nothing', async () => {
      await start([{ text: 'a' }]);
      const messages = withCall('{"linear_m_s": 0.2}');
      const rendered = await applyTemplate({ messages, tools: [tool] });
      expect(rendered.status).to.equal(200);
      const { prompt } = await rendered.json();
      expect(server.requests).to.deep.equal([]);
      expect(server.remaining).to.equal(1);
      await post(server, { messages });
      expect(prompt).to.equal(server.requests[0]!.prompt);
      expect(server.templateRequests).to.deep.equal([{ messages, tools: [tool] }]);
    });

    it("renders as Qwen2.5's template does through the bundled llama-server, byte for byte (qwen2.5)", async () => {
      // Recorded from the real server (see the fixture's source): tools, calls, grouped results, no system.
      const fixture = JSON.parse(readFileSync(join(REPO_ROOT, 'test/fixtures/qwen2.5-apply-template.json'), 'utf8'));
      await start([], { template: 'qwen2.5' });
      for (const { request, prompt } of fixture.cases) {
        expect(await (await applyTemplate(request)).json()).to.deep.equal({ prompt });
      }
    });

    it('refuses what the chat endpoint refuses, with the same status and error', async () => {
      await start([]);
      const late = [user('Hello'), system];
      const rendered = await applyTemplate({ messages: late });
      const chat = await post(server, { messages: late });
      expect(rendered.status).to.equal(500);
      expect(await rendered.json()).to.deep.equal(chat.json);
      const unparsed = await applyTemplate({ messages: withCall('{not json') });
      expect(unparsed.status).to.equal(500);
    });

    it("refuses a body without messages (400) and one that is not JSON (500), as llama-server's handler does", async () => {
      await start([]);
      const missing = await applyTemplate({});
      expect(missing.status).to.equal(400);
      expect((await missing.json()).error).to.deep.equal({
        code: 400,
        message: "'messages' is required",
        type: 'invalid_request_error',
      });
      const broken = await applyTemplate('nope');
      expect(broken.status).to.equal(500);
      expect((await broken.json()).error.type).to.equal('server_error');
    });

    it("answers 404 on a server without the route, and on OpenAI's", async () => {
      await start([], { applyTemplate: false });
      const without = await applyTemplate({ messages: [system, user('Hello')] });
      expect(without.status).to.equal(404);
      expect((await without.json()).error).to.deep.equal({
        code: 404,
        message: 'File Not Found',
        type: 'not_found_error',
      });
      await server.close();
      await start([], { flavor: 'openai' });
      expect((await applyTemplate({ messages: [system, user('Hello')] })).status).to.equal(404);
    });

    it('as Hermes 2 Pro tool-use, refuses a parameter typed with a list (400) and renders one typed with anyOf', async () => {
      await start([{ text: 'a' }], { template: 'hermes-2-pro' });
      const messages = [system, user('Hello')];
      const listed = await applyTemplate({ messages, tools: [nullable] });
      expect(listed.status).to.equal(400);
      const { error } = await listed.json();
      expect(error.type).to.equal('invalid_request_error');
      expect(error.message).to.match(/^Unable to generate parser for this template\./);
      expect(error.message).to.match(/Object key of unhashable type: Array$/);
      expect((await post(server, { messages, tools: [nullable] })).status).to.equal(400);
      expect(server.remaining).to.equal(1);
      expect((await applyTemplate({ messages, tools: [anyOf] })).status).to.equal(200);
      expect((await post(server, { messages, tools: [anyOf] })).status).to.equal(200);
    });

    it('as Gemma 2, folds the system message into the first user message, drops tools and refuses a tool result', async () => {
      await start([], { template: 'gemma-2' });
      const props = await (await fetch(server.url.replace(/\/v1$/, '/props'))).json();
      expect(props.chat_template_caps).to.include({ supports_system_role: false, supports_tools: false });
      const plain = await applyTemplate({ messages: [system, user('Hello')], tools: [tool] });
      expect(await plain.json()).to.deep.equal({
        prompt: '<start_of_turn>user\nYou are a robot.\nHello<end_of_turn>\n<start_of_turn>model\n',
      });
      const exchange = await applyTemplate({ messages: withCall('{}') });
      expect(exchange.status).to.equal(400);
      expect((await exchange.json()).error.message).to.match(/Conversation roles must alternate/);
    });
  });
});
