import { expect } from 'chai';
import { countTokens, tokenIds } from '@mira/core/testing';
import { session, simRuntime } from '../helpers/sim-session.js';
import { buildLlamaServer, forward, startRealModelServer, testModel, type RealModelServer } from './llama-server.js';

// The scripted double's tokenizer against the real server's: Mira's real requests of a session (recorded by the
// double) are rendered by llama-server with the model's own template (`/apply-template`) and tokenized by it
// (`/tokenize`); the double's tokenizer (core/src/testing/model-tokenizer.ts) must give the same ids for the same
// text, every one. The double's count of its own, compact rendering stays within the bounds model-prompt.ts
// states; MIRA_TIER_CALLS=1 prints each request's figures.

/** The double's count over the real server's, for any request of the session: measured 0.87–0.99. */
const BOUNDS = { low: 0.82, high: 1.05 } as const;

describe("the double's token counts against llama-server's tokenizer (real server)", function () {
  this.timeout(15 * 60_000);
  let real: RealModelServer | undefined;
  after(() => real?.stop());

  it(`stay within ${BOUNDS.low}–${BOUNDS.high} of the real count on every request of a 12-turn session`, async () => {
    const cache = buildLlamaServer();
    real = await startRealModelServer(cache, testModel(cache), { context: 32768 });
    const post = async (path: string, body: unknown) => {
      const response = await forward(`${real!.upstream}${path}`, 'POST', Buffer.from(JSON.stringify(body)));
      expect(response.status, response.text).to.equal(200);
      return JSON.parse(response.text);
    };
    const m = await simRuntime(32768);
    try {
      await session(m, 12);
    } finally {
      await m.dispose();
    }
    const ratios: number[] = [];
    for (const [i, r] of m.server.requests.entries()) {
      const { prompt } = await post('/apply-template', { messages: r.body.messages, tools: r.body.tools });
      const { tokens } = await post('/tokenize', { content: prompt });
      expect(tokenIds(prompt), `request ${i + 1}: the double's ids for the real rendering`).to.deep.equal(tokens);
      const ratio = r.promptTokens / tokens.length;
      ratios.push(ratio);
      if (process.env.MIRA_TIER_CALLS) {
        const density = Buffer.byteLength(prompt) / tokens.length;
        console.log(
          `call ${i + 1}: double ${r.promptTokens}, llama-server ${tokens.length} (${ratio.toFixed(3)}); ` +
            `${density.toFixed(2)} bytes a token in its prompt, the double's count of it ${countTokens(prompt)}`,
        );
      }
    }
    const sorted = [...ratios].sort((a, b) => a - b);
    console.log(
      `double / llama-server over ${ratios.length} requests: ${sorted[0]!.toFixed(3)}–${sorted.at(-1)!.toFixed(3)}`,
    );
    for (const [i, ratio] of ratios.entries()) expect(ratio, `request ${i + 1}`).to.be.within(BOUNDS.low, BOUNDS.high);
  });
});
