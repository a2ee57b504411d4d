import { expect } from 'chai';
import { WorkingMemory } from '@mira/core';
import type { RecordedRequest } from '@mira/core/testing';
import type { ModelRuntime } from './helpers/model-runtime.js';
import { session, simRuntime } from './helpers/sim-session.js';

// Prefix reuse at the shipped defaults (max_tokens 1024, 40 entries of working memory) through a 60-turn
// session with tool calls: what the scripted server's single slot reuses of each call's prompt (the prefix
// it shares with the previous prompt, as llama-server's slot cache does).

/** Reuse per call: the tokens shared with the previous prompt, over the prompt's. */
function reuse(requests: readonly RecordedRequest[]): number[] {
  return requests.map((r) => r.cachedTokens / r.promptTokens);
}

describe('the prefix cache over a long session (real SDK, scripted server)', function () {
  this.timeout(60_000);
  let m: ModelRuntime;
  afterEach(() => m?.dispose());

  for (const contextTokens of [32768, 8192]) {
    it(`reuses at least 90% of every call's prompt after the first in 60 turns (context ${contextTokens})`, async () => {
      m = await simRuntime(contextTokens);
      await session(m, 60, false);
      const requests = m.server.requests;
      const perCall = reuse(requests).slice(1);
      const sorted = [...perCall].sort((a, b) => a - b);
      console.log(
        `context ${contextTokens}: ${requests.length} calls, reuse min ${sorted[0]!.toFixed(3)} median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(3)}`,
      );
      for (const [i, r] of perCall.entries()) expect(r, `call ${i + 2}`).to.be.at.least(0.9);
      // Mid-episode (a call that ends with a tool result), what came before the episode is sent unchanged.
      for (const [i, r] of requests.entries()) {
        if (r.body.messages.at(-1)!.role !== 'tool') continue;
        const before = (x: RecordedRequest) => {
          const messages = x.body.messages;
          const opening = messages.findLastIndex((message) => message.role === 'user');
          return JSON.stringify(messages.slice(0, opening));
        };
        expect(before(r), `call ${i + 1}`).to.equal(before(requests[i - 1]!));
      }
    });
  }
});

describe('WorkingMemory#add()', () => {
  const at = new Date('2026-05-01T09:00:00Z');
  const fill = (memory: WorkingMemory, turns: number) => {
    for (let i = 1; i <= turns; i += 1) {
      memory.add('operator', `o${i}`, at);
      memory.add('assistant', `a${i}`, at);
    }
  };

  it('keeps every entry up to its bound', () => {
    const memory = new WorkingMemory();
    fill(memory, 20);
    expect(memory.entries()).to.have.length(40);
    expect(memory.entries()[0]!.text).to.equal('o1');
  });

  it('drops all but the newest tenth at once, in whole turns, then only grows until the bound again', () => {
    const memory = new WorkingMemory();
    fill(memory, 21);
    expect(memory.entries().map((e) => e.text)).to.deep.equal(['o20', 'a20', 'o21', 'a21']);
    fill(memory, 18); // o1..a18 again: 4 + 36 = 40, at the bound
    expect(memory.entries()).to.have.length(40);
    expect(memory.entries()[0]!.text).to.equal('o20');
    memory.add('operator', 'next', at);
    expect(memory.entries().map((e) => e.text)).to.deep.equal(['o18', 'a18', 'next']);
  });

  it('keeps at least one turn, and never more than its bound', () => {
    const one = new WorkingMemory(1);
    fill(one, 2);
    expect(one.entries().map((e) => e.text)).to.deep.equal(['a2']);
    const four = new WorkingMemory(4);
    fill(four, 3);
    expect(four.entries().map((e) => e.text)).to.deep.equal(['o3', 'a3']);
  });
});
