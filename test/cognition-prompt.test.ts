import { expect } from 'chai';
import notesPlugin from '@mira/plugin-notes';
import simPlugin from '@mira/plugin-sim';
import { GROUNDING_HEADER } from '@mira/core';
import { groundingOf, withoutGrounding } from '@mira/core/testing';
import { modelRuntime, type ModelRuntime } from './helpers/model-runtime.js';

// The prompt is laid out for prefix caches: what is fixed for a session first and byte-identical, what
// changes late, on the episode's newest message (a user or tool message every chat template renders).
// Measured through the scripted server, which renders each request as a ChatML template with a tool
// section does and reports the prefix it shares with the previous one (one slot).

const recall = (query: string) => ({ toolCalls: [{ name: 'recall_memory', arguments: { query } }] });

describe('the cognition prompt and prefix caches (real SDK, scripted server)', function () {
  this.timeout(20_000);
  let m: ModelRuntime;
  afterEach(() => m?.dispose());

  async function session() {
    // The simulated profile's plugins: its tools make the prompt as long as mira-sim's.
    m = await modelRuntime({
      plugins: [simPlugin, notesPlugin],
      tables: {
        sim: {
          tick_ms: 0,
          drive: {
            topic: '/cmd_vel',
            type: 'geometry_msgs/msg/Twist',
            max_linear_m_s: 0.5,
            max_angular_rad_s: 1.5,
            max_duration_s: 10,
          },
        },
        notes: { enabled: true, database_path: 'notes.sqlite3', scope: 'default' },
      },
      script: [
        recall('Ada'),
        { text: 'I remember Ada.' },
        { text: 'Hello.' },
        recall('Bob'),
        recall('Carol'),
        recall('Dan'),
        { text: 'Enough.' },
        { toolCalls: [{ name: 'recall_memory', arguments: '{broken' }] },
        { text: 'Sorry.' },
      ],
    });
    const ada = await m.store().createEntity({ entityType: 'person', canonicalName: 'Ada' });
    expect(ada.ref).to.equal('ENT1');
    for (const line of ['Who is Ada?', 'Hello', 'Bob, Carol and Dan?', 'Again?']) {
      m.clock.advance(61_000);
      expect((await m.say(line)).ok).to.equal(true);
    }
    expect(m.server.remaining).to.equal(0);
    return m.server.requests;
  }

  it('reuses at least 90% of the prompt on every call after the first of a session', async () => {
    const requests = await session();
    expect(requests).to.have.length(9);
    for (const [i, r] of requests.entries()) {
      expect(r.status, `call ${i + 1}`).to.equal(200);
      if (i > 0) expect(r.cachedTokens / r.promptTokens, `call ${i + 1}`).to.be.at.least(0.9);
    }
  });

  it('starts every request with the same instructions and tools, byte for byte, and sends no other system message', async () => {
    const requests = await session();
    const first = requests[0]!;
    for (const r of requests) {
      expect(r.body.messages[0]).to.deep.equal(first.body.messages[0]);
      expect(JSON.stringify(r.body.tools)).to.equal(JSON.stringify(first.body.tools));
      // Qwen3.5's and Ministral 3's templates raise on a system message that is not first; SmolLM3's drop it.
      expect(r.body.messages.slice(1).map((x) => x.role)).not.to.include('system');
    }
    const head = first.prompt.slice(0, first.prompt.indexOf('</tools>'));
    for (const r of requests) expect(r.prompt.startsWith(head)).to.equal(true);
    // The time is only in the grounding, so nothing before it changes as the clock does.
    expect(first.body.messages[0]!.content).not.to.match(/\d{4}-\d\d-\d\dT/);
  });

  it("sends the grounding on the episode's newest message and never rewrites one sent before", async () => {
    const requests = await session();
    // Episodes of 2, 1, 4 and 2 calls: a call after the first of an episode ends with a tool result.
    expect(requests.map((r) => r.body.messages.at(-1)!.role)).to.deep.equal([
      'user',
      'tool',
      'user',
      'user',
      'tool',
      'tool',
      'tool',
      'user',
      'tool',
    ]);
    for (const [i, r] of requests.entries()) {
      const last = r.body.messages.at(-1)!;
      expect(groundingOf(last.content!), `call ${i + 1}`).to.match(/^\[runtime\]\nCurrent time \(UTC\): /);
      const previous = requests[i - 1];
      if (last.role === 'tool') {
        // Every message the episode's previous call sent is sent again byte for byte, the grounding with it.
        const before = previous!.body.messages;
        expect(JSON.stringify(r.body.messages.slice(0, before.length))).to.equal(JSON.stringify(before));
      } else {
        // The operator's words first, then the block; the turns of earlier episodes carry no grounding.
        expect(last.content!.startsWith(`${withoutGrounding(last.content!)}\n\n${GROUNDING_HEADER}\n`)).to.equal(true);
        for (const earlier of r.body.messages.slice(1, -1)) expect(earlier.content).not.to.contain(GROUNDING_HEADER);
      }
    }
    // Working memory keeps the operator's words alone.
    expect(
      m.rt.app.kernel.workingMemory
        .entries()
        .filter((e) => e.speaker === 'operator')
        .map((e) => e.text),
    ).to.deep.equal(['Who is Ada?', 'Hello', 'Bob, Carol and Dan?', 'Again?']);
  });
});
