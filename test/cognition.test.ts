import { expect } from 'chai';
import type { MiraPlugin } from '@mira/core';
import { groundingOf } from '@mira/core/testing';
import { modelRuntime, toolMessages, type ModelRuntime } from './helpers/model-runtime.js';

const recall = (query: unknown) => ({ toolCalls: [{ name: 'recall_memory', arguments: { query } }] });

describe('cognition episodes with recall_memory (real SDK, scripted server, real SQLite)', function () {
  this.timeout(20_000);
  let m: ModelRuntime;
  afterEach(() => m?.dispose());

  async function seedAda(memories = 1) {
    const store = m.store();
    const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada Lovelace' });
    await store.addAlias(ada.id, 'Ada');
    const tea = await store.createEntity({ entityType: 'drink', canonicalName: 'Earl Grey' });
    for (let i = 0; i < memories; i += 1) {
      await store.createMemory({
        kind: 'preference',
        summary: i === 0 ? 'Ada prefers Earl Grey' : `Ada note ${i}`,
        predicate: i === 0 ? 'prefers' : null,
        value: i === 0 ? 'Earl Grey' : null,
        sourceKind: 'console',
        links: [{ entityId: ada.id, role: 'subject' }, ...(i === 0 ? [{ entityId: tea.id, role: 'object' }] : [])],
      });
    }
    return { ada, tea };
  }

  for (const stream of [false, true]) {
    it(`recalls a hit and continues the same episode (${stream ? 'streaming' : 'non-streaming'})`, async () => {
      m = await modelRuntime({ stream, script: [recall('ada'), { text: 'I remember that Ada prefers Earl Grey.' }] });
      await seedAda();
      const { ok, output } = await m.say('What does Ada like to drink?');
      expect(ok).to.equal(true);
      expect(output).to.deep.equal(['[recall_memory] hit ENT1', 'Mira: I remember that Ada prefers Earl Grey.']);
      expect(m.server.requests).to.have.length(2);
      expect(m.server.requests[0]!.body.stream ?? false).to.equal(stream);
      const [content] = toolMessages(m.server, 1);
      expect(content).to.contain('may be stale');
      expect(content).to.contain('ENT1 person "Ada Lovelace"\n');
      expect(content).to.contain('\n  aliases: "Ada"');
      expect(content).to.contain(
        'MEM1 preference: "Ada prefers Earl Grey"; predicate=prefers value="Earl Grey"; links: ENT1 "Ada Lovelace" (subject), ENT2 "Earl Grey" (object)',
      );
      const wm = m.rt.app.kernel.workingMemory.entries().map((e) => `${e.speaker}: ${e.text}`);
      expect(wm).to.deep.equal([
        'operator: What does Ada like to drink?',
        'assistant: I remember that Ada prefers Earl Grey.',
      ]);
    });
  }

  it('offers strict function tools on the Chat Completions API', async () => {
    m = await modelRuntime({ script: [{ text: 'Hello.' }] });
    await m.say('Hello');
    const tool = m.server.requests[0]!.body.tools!.find((t) => t.function.name === 'recall_memory')!;
    expect(tool.type).to.equal('function');
    expect(tool.function.strict).to.equal(true);
    expect(tool.function.parameters).to.deep.equal({
      type: 'object',
      properties: {
        query: { type: 'string', description: 'One exact canonical name or alias, at most 256 characters.' },
      },
      required: ['query'],
      additionalProperties: false,
    });
    expect(m.server.requests[0]!.path).to.equal('/v1/chat/completions');
  });

  it('says a miss plainly', async () => {
    m = await modelRuntime({ script: [recall('Grace Hopper'), { text: 'I do not remember Grace.' }] });
    await seedAda();
    const { output } = await m.say('Who is Grace Hopper?');
    expect(output[0]).to.equal('[recall_memory] miss');
    expect(toolMessages(m.server, 1)[0]).to.match(/Miss: no entity has exactly the name or alias "Grace Hopper"/);
  });

  it('lists ambiguous exact matches in entity-ID order without choosing', async () => {
    m = await modelRuntime({ script: [recall('sam'), { text: 'Which Sam?' }] });
    const store = m.store();
    const a = await store.createEntity({ entityType: 'person', canonicalName: 'Sam' });
    const b = await store.createEntity({ entityType: 'dog', canonicalName: 'Samwise' });
    await store.addAlias(b.id, 'SAM');
    const { output } = await m.say('Tell me about Sam');
    expect(output[0]).to.equal(`[recall_memory] ambiguous ${a.ref},${b.ref}`);
    const content = toolMessages(m.server, 1)[0]!;
    expect(content).to.contain('Ambiguous: 2 entities');
    expect(content.indexOf('ENT1 person "Sam"')).to.be.lessThan(content.indexOf('ENT2 dog "Samwise"'));
  });

  it('projects at most five entities and says how many were left out', async () => {
    m = await modelRuntime({ script: [recall('Sam'), { text: 'Many Sams.' }] });
    for (let i = 0; i < 7; i += 1) await m.store().createEntity({ entityType: 'person', canonicalName: 'Sam' });
    const { output } = await m.say('Sam?');
    expect(output[0]).to.equal('[recall_memory] ambiguous ENT1,ENT2,ENT3,ENT4,ENT5 (+2)');
    const content = toolMessages(m.server, 1)[0]!;
    expect(content).to.contain('Entity list truncated: showing the first 5 of 7 matches; 2 more not shown.');
    expect(content).not.to.contain('ENT6');
  });

  it('projects the eight newest active memories per entity in ascending ID order', async () => {
    m = await modelRuntime({ script: [recall('Ada'), { text: 'Lots about Ada.' }] });
    await seedAda(12);
    await m.say('Ada?');
    const content = toolMessages(m.server, 1)[0]!;
    expect(content).to.contain('12 active memories; showing the newest 8 in ascending ID order (4 older not shown)');
    const ids = [...content.matchAll(/^ {2}(MEM\d+) /gm)].map((x) => x[1]);
    expect(ids).to.deep.equal(['MEM5', 'MEM6', 'MEM7', 'MEM8', 'MEM9', 'MEM10', 'MEM11', 'MEM12']);
  });

  it('caps the rendered recall at 12,000 characters and says so', async () => {
    m = await modelRuntime({ script: [recall('Sam'), { text: 'Long.' }] });
    const store = m.store();
    for (let e = 0; e < 5; e += 1) {
      const sam = await store.createEntity({ entityType: 'person', canonicalName: 'Sam' });
      for (let i = 0; i < 8; i += 1) {
        await store.createMemory({
          kind: 'fact',
          summary: `Sam ${e} fact ${i} ${'long text '.repeat(40)}`,
          sourceKind: 'console',
          links: [{ entityId: sam.id, role: 'subject' }],
        });
      }
    }
    await m.say('Sam?');
    const content = toolMessages(m.server, 1)[0]!;
    expect(content.length).to.be.at.most(12_000);
    expect(content.length).to.be.greaterThan(11_000);
    expect(content).to.match(
      /\[output truncated: the rendering was capped at 12000 characters; later lines are not shown\]$/,
    );
  });

  for (const [what, query] of [
    ['an empty query', ''],
    ['a blank query', '   '],
    ['a query over 256 characters', 'a'.repeat(257)],
    ['a query with a control character', 'Ada\u0007'],
  ] as const) {
    it(`rejects ${what} and counts it as an acquisition attempt`, async () => {
      m = await modelRuntime({ script: [recall(query), recall('Ada'), recall('Ada'), { text: 'Done.' }] });
      await seedAda();
      const { output } = await m.say('Ada?');
      expect(output).to.deep.equal([
        '[recall_memory] rejected invalid_query',
        '[recall_memory] hit ENT1',
        '[recall_memory] rejected acquisition_budget_exhausted',
        'Mira: Done.',
      ]);
    });
  }

  it("prints model text escaped and indented, so it can never pass for the runtime's own lines", async () => {
    const forged = 'x\n[remember] applied/created MEM42\n\x1b[31mRED';
    m = await modelRuntime({
      script: [
        { toolCalls: [{ name: forged, arguments: {} }] },
        { text: 'Done.\n[remember] applied/created MEM42\n\x1b[31mRED \u202egnp.exe' },
      ],
    });
    const { output } = await m.say('Hello');
    expect(output).to.deep.equal([
      '[x\\x0a[remember] applied/created MEM42\\x0a\\x1b[31mRED] rejected tool_not_available',
      'Mira: Done.',
      '  [remember] applied/created MEM42',
      '  \\x1b[31mRED \\u202egnp.exe',
    ]);
    const raw = (line: string) => [...line].some((c) => c.codePointAt(0)! < 0x20 || (c >= '\u202a' && c <= '\u202e'));
    for (const line of output) expect(raw(line), line).to.equal(false);
  });

  it('cuts a made-up tool name to 64 characters', async () => {
    m = await modelRuntime({ script: [{ toolCalls: [{ name: 'y'.repeat(500), arguments: {} }] }, { text: 'ok' }] });
    const { output } = await m.say('Hello');
    expect(output[0]).to.equal(`[${'y'.repeat(64)}] rejected tool_not_available`);
  });

  it('reports a store failure as backend_failure', async () => {
    m = await modelRuntime({ script: [recall('Ada'), { text: 'Memory is unavailable.' }] });
    await seedAda();
    await m.store().close();
    const { output } = await m.say('Ada?');
    expect(output[0]).to.equal('[recall_memory] rejected backend_failure');
    expect(JSON.parse(toolMessages(m.server, 1)[0]!)).to.deep.equal({
      status: 'rejected',
      reason: 'backend_failure',
      error: 'persistent memory could not be read; nothing was recalled',
    });
    // The model gets a stable reason; the log keeps the cause with its stack.
    const logged = m.rt.logs.find((line) => line.startsWith('recall_memory: persistent memory could not be read:'));
    expect(logged)
      .to.contain('MIRA_ERR_MEMORY_CLOSED')
      .and.to.match(/\n\s+at /);
  });

  it('refuses a third acquisition by its result and keeps offering the same tools', async () => {
    m = await modelRuntime({ script: [recall('Ada'), recall('Nobody'), recall('Ada'), { text: 'Enough.' }] });
    await seedAda();
    const { output } = await m.say('Ada?');
    expect(output).to.deep.equal([
      '[recall_memory] hit ENT1',
      '[recall_memory] miss',
      '[recall_memory] rejected acquisition_budget_exhausted',
      'Mira: Enough.',
    ]);
    // The same tool list, byte for byte, on every call: a spent budget changes no prompt prefix.
    const tools = m.server.requests.map((r) => JSON.stringify(r.body.tools));
    expect(m.server.requests[0]!.toolNames).to.include('recall_memory');
    expect(new Set(tools).size).to.equal(1);
    expect(JSON.parse(toolMessages(m.server, 3)[2]!).error).to.match(/^acquisition budget exhausted/);
  });

  it('enforces the acquisition budget across calls made in one answer', async () => {
    m = await modelRuntime({
      script: [
        {
          toolCalls: [
            { name: 'recall_memory', arguments: { query: 'Ada' } },
            { name: 'recall_memory', arguments: { query: 'Ada' } },
            { name: 'recall_memory', arguments: { query: 'Ada' } },
          ],
        },
        { text: 'Enough.' },
      ],
    });
    await seedAda();
    const { output } = await m.say('Ada?');
    expect(output).to.deep.equal([
      '[recall_memory] hit ENT1',
      '[recall_memory] hit ENT1',
      '[recall_memory] rejected acquisition_budget_exhausted',
      'Mira: Enough.',
    ]);
  });

  it('counts invalid tool arguments as an acquisition attempt', async () => {
    m = await modelRuntime({
      script: [
        { toolCalls: [{ name: 'recall_memory', arguments: { name: 'Ada' } }] },
        { toolCalls: [{ name: 'recall_memory', arguments: '{not json' }] },
        { text: 'Sorry.' },
      ],
    });
    const { output } = await m.say('Ada?');
    expect(output).to.deep.equal([
      '[recall_memory] rejected invalid_tool_arguments',
      '[recall_memory] rejected invalid_tool_arguments',
      'Mira: Sorry.',
    ]);
    expect(m.server.requests[2]!.body.tools).to.deep.equal(m.server.requests[0]!.body.tools);
  });

  for (const [what, text] of [
    ['text that is not JSON', '{not json'],
    ['a number no server can read', '{"query": -67e3941}'],
    ['no text at all', ''],
  ] as const) {
    it(`sends back ${what} as the arguments {} and says in the result that they were invalid`, async () => {
      m = await modelRuntime({
        script: [{ toolCalls: [{ name: 'recall_memory', arguments: text, id: 'call_bad' }] }, { text: 'Sorry.' }],
      });
      const { output } = await m.say('Ada?');
      expect(output).to.deep.equal(['[recall_memory] rejected invalid_tool_arguments', 'Mira: Sorry.']);
      const assistant = m.server.requests[1]!.body.messages.find((x) => x.role === 'assistant')!;
      expect(assistant.tool_calls).to.deep.equal([
        { id: 'call_bad', type: 'function', function: { name: 'recall_memory', arguments: '{}' } },
      ]);
      expect(JSON.parse(toolMessages(m.server, 1)[0]!)).to.deep.equal({
        status: 'rejected',
        reason: 'invalid_tool_arguments',
        error:
          'the arguments are not valid JSON, so they are shown to you as {}; nothing was done: call again with arguments that match the schema',
      });
    });
  }

  it("sends back the model's own arguments when they are JSON, even when they do not match the schema", async () => {
    const own = '{ "name" : "Ada" }';
    m = await modelRuntime({
      script: [{ toolCalls: [{ name: 'recall_memory', arguments: own }] }, { text: 'Sorry.' }],
    });
    await m.say('Ada?');
    const assistant = m.server.requests[1]!.body.messages.find((x) => x.role === 'assistant')!;
    expect((assistant.tool_calls as Array<{ function: { arguments: string } }>)[0]!.function.arguments).to.equal(own);
  });

  it('rebuilds grounding before every model call of an episode', async () => {
    m = await modelRuntime();
    m.server.push(
      () => {
        m.clock.advance(90_000);
        return recall('Ada');
      },
      { text: 'Done.' },
    );
    await m.say('Ada?');
    // The grounding rides on the newest message: the operator's at the first call, the tool result after.
    expect(m.server.requests.map((r) => r.body.messages.at(-1)!.role)).to.deep.equal(['user', 'tool']);
    const states = m.server.requests.map((r) => groundingOf(r.body.messages.at(-1)!.content!)!);
    const times = states.map((s) => /Current time \(UTC\): (\S+)/.exec(s)![1]);
    expect(times).to.deep.equal(['2026-05-01T09:00:00.000Z', '2026-05-01T09:01:30.000Z']);
    expect(states[1]).to.contain('Time since session start: 1m30s');
    // Who the robot is does not change: it sits with the instructions.
    expect(m.server.requests[0]!.body.messages[0]!.content).to.contain('[self]\nRuntime self: Mira — A test robot.');
    expect(states[0]).not.to.contain('Runtime self');
  });

  it('injects nothing from persistent memory and never pre-searches the operator text', async () => {
    m = await modelRuntime({ script: [{ text: 'Hello.' }] });
    await seedAda(3);
    await m.say('Tell me everything about Ada Lovelace and Earl Grey');
    const first = JSON.stringify(m.server.requests[0]!.body.messages);
    expect(first).not.to.contain('prefers');
    expect(first).not.to.match(/ENT\d|MEM\d/);
    expect(first.match(/Earl Grey/g)).to.have.length(1); // only the operator's own words
  });

  it('offers an autonomous episode only the tools allowed for its origin', async () => {
    const operatorOnly: MiraPlugin = {
      name: 'operator-only-tools',
      version: '1.0.0',
      setup: (k) =>
        k.tools.register({
          name: 'wave_hand',
          description: 'Wave at the operator.',
          kind: 'effect',
          origins: ['operator'],
          parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
          run: async () => ({ content: '{"status":"done"}', display: 'waved' }),
        }),
    };
    m = await modelRuntime({
      plugins: [operatorOnly],
      script: [
        { text: 'ok' },
        { toolCalls: [{ name: 'wave_hand', arguments: {} }] },
        { text: 'I noticed the battery.' },
      ],
    });
    await m.say('hi');
    expect(m.server.requests[0]!.toolNames).to.include.members(['recall_memory', 'wave_hand']);
    const lines: string[] = [];
    const result = await m.rt.app.kernel.cognition.run({
      origin: 'attention',
      trigger: 'battery fell below 20%',
      out: { print: (l) => lines.push(l) },
    });
    expect(m.server.requests[1]!.toolNames).to.include('recall_memory').and.not.to.include('wave_hand');
    expect(lines).to.deep.equal(['[wave_hand] rejected tool_not_available', 'Mira: I noticed the battery.']);
    expect(result.toolCalls[0]!.result.content).to.contain('"reason":"tool_not_available"');
    expect(m.server.requests[1]!.body.messages.at(-1)!.content).to.match(/^\(autonomous attention episode/);
  });

  describe('provider failures end the episode with one clear line and change nothing', () => {
    const cases: Array<[string, () => Promise<ModelRuntime>, RegExp]> = [
      [
        'an error status',
        () => modelRuntime({ script: [{ status: 500, error: 'model overloaded' }] }),
        /^error: MIRA_ERR_COGNITION_PROVIDER: the model server at http:\/\/127\.0\.0\.1:\d+\/v1 answered with an error \(500\)/,
      ],
      [
        'a refused key',
        () => modelRuntime({ script: [{ status: 401 }], openai: { api_key_env: 'MIRA_TEST_UNSET_KEY' } }),
        /^error: MIRA_ERR_COGNITION_AUTH: .*set MIRA_TEST_UNSET_KEY in the environment$/,
      ],
      [
        'a key the server refuses',
        () => {
          process.env.MIRA_TEST_REFUSED_KEY = 'sk-refused';
          return modelRuntime({ script: [{ status: 401 }], openai: { api_key_env: 'MIRA_TEST_REFUSED_KEY' } });
        },
        /^error: MIRA_ERR_COGNITION_AUTH: the model server at .* refused the request \(401\); check the key in MIRA_TEST_REFUSED_KEY$/,
      ],
      [
        'a timeout',
        () => modelRuntime({ script: [{ text: 'late', delayMs: 1500 }], openai: { timeout_ms: 300 } }),
        /^error: MIRA_ERR_COGNITION_TIMEOUT: the model server at .* did not answer within 300 ms/,
      ],
      [
        'a malformed response',
        () => modelRuntime({ script: [{ malformed: true }] }),
        /^error: MIRA_ERR_COGNITION_MALFORMED: /,
      ],
      [
        'an endless tool loop',
        () =>
          modelRuntime({
            script: Array.from({ length: 8 }, () => ({ toolCalls: [{ name: 'no_such_tool', arguments: {} }] })),
          }),
        /^error: MIRA_ERR_COGNITION_STEP_LIMIT: /,
      ],
    ];
    for (const [what, make, pattern] of cases) {
      it(what, async () => {
        m = await make();
        await seedAda();
        const before = m.snapshot();
        const result = await m.say('Hello?');
        expect(result.ok).to.equal(false);
        expect(result.output.at(-1)).to.match(pattern);
        expect(result.output.filter((l) => l.startsWith('error:'))).to.have.length(1);
        expect(m.snapshot()).to.deep.equal(before);
        expect(m.rt.app.kernel.workingMemory.entries()).to.deep.equal([]);
        expect((await m.say('memory persistent')).ok).to.equal(true);
      });
    }

    it('an unreachable server', async () => {
      m = await modelRuntime();
      await m.server.close();
      const result = await m.say('Hello?');
      expect(result.output).to.have.length(1);
      expect(result.output[0]).to.match(
        /^error: MIRA_ERR_COGNITION_UNREACHABLE: cannot reach the model server at http:\/\/127\.0\.0\.1:\d+\/v1/,
      );
    });
  });
});
