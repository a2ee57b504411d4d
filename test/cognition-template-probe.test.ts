import { expect } from 'chai';
import notesPlugin from '@mira/plugin-notes';
import type { ScriptedServerOptions } from '@mira/core/testing';
import { modelRuntime, type ModelRuntime } from './helpers/model-runtime.js';

// The start-up probe of llama-server's chat template (plugins/openai/src/template-probe.ts) against the scripted
// llama-server's `/apply-template`, with templates that render Mira's requests, that refuse its tools' schemas as
// declared, that render no tools, and a server without the route. The real templates are looped over in the tier
// (test/model-server/templates.tier.ts).

/** A nullable type list as a request carries it (`"type":["string","null"]`), which Hermes 2 Pro raises on. */
const TYPE_LIST = /"type":\[[^\]]*"null"/;

describe('the chat template probe (real SDK, scripted llama-server)', function () {
  this.timeout(20_000);
  let m: ModelRuntime;
  afterEach(() => m?.dispose());

  const start = (server: ScriptedServerOptions) =>
    modelRuntime({
      plugins: [notesPlugin],
      tables: { notes: { enabled: true, database_path: 'notes.sqlite3', scope: 'default' } },
      server,
    }).then((runtime) => (m = runtime));
  const saveNote = {
    toolCalls: [{ name: 'save_memory', arguments: { content: 'The key is blue.', label: null, private_key: null } }],
  };
  const probes = () => m.server.templateRequests.map((r) => JSON.stringify(r));

  it('renders a conversation and a tool exchange with the tools as declared, and warns of nothing', async () => {
    await start({});
    m.server.push(saveNote, { text: 'Saved.' });
    const { ok, output } = await m.say('Remember that the key is blue.');
    expect(ok, output.join('\n')).to.equal(true);
    expect(output.join('\n')).to.match(/\[save_memory\] saved N\d+/);
    expect(m.rt.logs.filter((l) => l.startsWith('warning:'))).to.deep.equal([]);
    const [plain, exchange] = m.server.templateRequests as Array<{ messages: Array<{ role: string }> }>;
    expect(plain!.messages.map((x) => x.role)).to.deep.equal(['system', 'user']);
    expect(exchange!.messages.map((x) => x.role)).to.deep.equal(['system', 'user', 'assistant', 'tool']);
    expect(JSON.stringify(exchange)).to.match(TYPE_LIST);
    // Rendered once each: the plain and exchange probes, then the tools counted with and without.
    expect(probes().filter((p) => p.includes('"role":"tool"'))).to.have.length(1);
    for (const request of m.server.requests) expect(JSON.stringify(request.body.tools)).to.match(TYPE_LIST);
  });

  it("sends nullable values as anyOf when the template refuses type lists (Hermes 2 Pro), so a note's call runs", async () => {
    await start({ template: 'hermes-2-pro' });
    m.server.push(saveNote, { text: 'Saved.' });
    const { ok, output } = await m.say('Remember that the key is blue.');
    expect(ok, output.join('\n')).to.equal(true);
    expect(output.join('\n')).to.match(/\[save_memory\] saved N\d+/);
    expect(m.rt.logs.filter((l) => l.startsWith('warning:'))).to.deep.equal([]);
    const exchanges = probes().filter((p) => p.includes('"role":"tool"'));
    // The declared form was refused, the anyOf form rendered.
    expect(exchanges).to.have.length(2);
    expect(exchanges[0]).to.match(TYPE_LIST);
    expect(exchanges[1]).not.to.match(TYPE_LIST);
    expect(m.server.requests.map((r) => r.status)).to.deep.equal([200, 200]);
    for (const request of m.server.requests) {
      const tools = JSON.stringify(request.body.tools);
      expect(tools).not.to.match(TYPE_LIST);
      expect(tools).to.include('"anyOf":[{"type":"string"},{"type":"null"}]');
    }
  });

  it('warns only that no tools render when the template has none (Gemma 2): the conversation itself renders', async () => {
    await start({ template: 'gemma-2' });
    m.server.push({ text: 'Hello.' });
    const { ok } = await m.say('Hello');
    expect(ok).to.equal(true);
    const warnings = m.rt.logs.filter((l) => l.startsWith('warning:'));
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.match(/renders no tools/);
    // No tool exchange is probed where no tool can be called.
    expect(probes().filter((p) => p.includes('"role":"tool"'))).to.deep.equal([]);
  });

  it('asks once and says nothing when the server has no /apply-template (404)', async () => {
    await start({ applyTemplate: false });
    m.server.push(saveNote, { text: 'Saved.' });
    const { ok, output } = await m.say('Remember that the key is blue.');
    expect(ok, output.join('\n')).to.equal(true);
    expect(m.rt.logs.filter((l) => l.startsWith('warning:'))).to.deep.equal([]);
    // Not asked again to count the tools: they are counted as JSON.
    expect(m.server.templateRequests).to.have.length(1);
    for (const request of m.server.requests) expect(JSON.stringify(request.body.tools)).to.match(TYPE_LIST);
  });
});
