import { expect } from 'chai';
import notesPlugin from '@mira/plugin-notes';
import simPlugin from '@mira/plugin-sim';
import { modelRuntime, type ModelRuntime } from './helpers/model-runtime.js';

// The prompt is laid out for prefix caches: what is fixed for a session first and byte-identical, what
// changes last. Measured through the scripted server, which renders each request as a ChatML template
// with a tool section does and reports the prefix it shares with the previous one (one slot).

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

  it('starts every request with the same instructions and tools, byte for byte, and ends it with the grounding', async () => {
    const requests = await session();
    const first = requests[0]!;
    for (const r of requests) {
      expect(r.body.messages[0]).to.deep.equal(first.body.messages[0]);
      expect(JSON.stringify(r.body.tools)).to.equal(JSON.stringify(first.body.tools));
      const last = r.body.messages.at(-1)!;
      expect(last.role).to.equal('system');
      expect(last.content).to.match(/^\[runtime\]\nCurrent time \(UTC\): /);
    }
    const head = first.prompt.slice(0, first.prompt.indexOf('</tools>'));
    for (const r of requests) expect(r.prompt.startsWith(head)).to.equal(true);
    // The time is only in the grounding, so nothing before it changes as the clock does.
    expect(first.body.messages[0]!.content).not.to.match(/\d{4}-\d\d-\d\dT/);
  });
});
