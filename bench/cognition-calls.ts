import OpenAI from 'openai';
import { startScriptedModelServer, withoutGrounding, type RecordedRequest } from '@mira/core/testing';
import { session, simRuntime } from '../test/helpers/sim-session.js';
import { markdownTable } from './lib/report.js';
import { fmt, loadAverage } from './lib/stats.js';

/** One model call of the session, Mira's figure beside its baseline's. */
export interface CallFigures {
  readonly call: number;
  /** The episode's first call (working memory fitted) or a later one (a tool result added). */
  readonly opening: boolean;
  /** From the grounding's rebuild to the server having the whole request, in µs; the bare SDK's send of it. */
  readonly assemblyUs: number;
  readonly bareUs: number;
  /** The request body; the same conversation without Mira's grounding blocks. */
  readonly bytes: number;
  readonly bareBytes: number;
  /** The prompt's tokens as the scripted server counts them; the baseline's. */
  readonly tokens: number;
  readonly bareTokens: number;
}

/** The request as a chat client without Mira's runtime grounding would send the same conversation. */
function withoutMiraGrounding(body: RecordedRequest['body']): RecordedRequest['body'] {
  return {
    ...body,
    messages: body.messages.map((m) => (m.content === null ? m : { ...m, content: withoutGrounding(m.content) })),
  };
}

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!;
};

/**
 * A `turns`-turn console session with the simulated profile's tools and a tool with long results
 * (test/helpers/sim-session.ts) against the scripted llama-server of `contextTokens`, every model call measured:
 * its assembly and send, its bytes and its tokens, each beside the fastest honest baseline (the bare SDK sending
 * the same body; the same conversation without Mira's grounding).
 */
export async function perCallFigures(contextTokens: number, turns: number): Promise<CallFigures[]> {
  const m = await simRuntime(contextTokens);
  const starts: number[] = [];
  // First of the grounding's taps: a call's assembly begins with the grounding's rebuild.
  m.rt.app.kernel.hooks.grounding.tap({ name: 'bench-call-timer', stage: -1000 }, (grounding) => {
    starts.push(performance.now());
    return grounding;
  });
  try {
    await session(m, turns);
  } finally {
    await m.dispose();
  }
  const requests = m.server.requests.filter((r) => r.status === 200);
  const bare = await startScriptedModelServer(Array.from({ length: requests.length + 20 }, () => ({ text: 'ok' })));
  try {
    const client = new OpenAI({ apiKey: 'bench', baseURL: bare.url, maxRetries: 0 });
    const root = bare.url.replace(/\/v1$/, '');
    const post = async (path: string, body: unknown) =>
      (await fetch(`${root}${path}`, { method: 'POST', body: JSON.stringify(body) })).json();
    const send = async (body: RecordedRequest['body']) => {
      const started = performance.now();
      await client.chat.completions.create({ ...(body as any), stream: false });
      return (bare.requests.at(-1)!.receivedAt - started) * 1000;
    };
    for (const r of requests.slice(0, 20)) await send(r.body); // the SDK's first calls load and compile it
    const figures: CallFigures[] = [];
    for (const [i, r] of requests.entries()) {
      const start = starts.findLast((s) => s <= r.receivedAt)!;
      const baseline = withoutMiraGrounding(r.body);
      const { prompt } = (await post('/apply-template', { messages: baseline.messages, tools: baseline.tools })) as {
        prompt: string;
      };
      const { tokens } = (await post('/tokenize', { content: prompt })) as { tokens: number[] };
      figures.push({
        call: i + 1,
        opening: r.body.messages.at(-1)!.role === 'user',
        assemblyUs: (r.receivedAt - start) * 1000,
        bareUs: await send(r.body),
        bytes: Buffer.byteLength(JSON.stringify(r.body)),
        bareBytes: Buffer.byteLength(JSON.stringify(baseline)),
        tokens: r.promptTokens,
        bareTokens: tokens.length,
      });
    }
    return figures;
  } finally {
    await bare.close();
  }
}

/** The figures as a table: p50, p90 and the largest of Mira's, of the baseline's, and of the per-call ratios. */
export function callFiguresTable(figures: readonly CallFigures[]): string {
  type Pick = (f: CallFigures) => number;
  const row = (measurement: string, calls: readonly CallFigures[], mira: Pick, base: Pick) => {
    const ours = calls.map(mira);
    const ratios = calls.map((f) => mira(f) / base(f));
    return {
      measurement,
      calls: String(calls.length),
      'p50 (p90, max)': `${fmt(percentile(ours, 0.5), 0)} (${fmt(percentile(ours, 0.9), 0)}, ${fmt(Math.max(...ours), 0)})`,
      'baseline p50': fmt(percentile(calls.map(base), 0.5), 0),
      'ratio p50': fmt(percentile(ratios, 0.5), 2),
      'ratio p90': fmt(percentile(ratios, 0.9), 2),
      'ratio max': fmt(Math.max(...ratios), 2),
    };
  };
  const assembly: Pick = (f) => f.assemblyUs;
  const bare: Pick = (f) => f.bareUs;
  return markdownTable([
    row('assemble and send, µs (baseline: the bare SDK sends the same body)', figures, assembly, bare),
    row(
      '… an episode’s first call',
      figures.filter((f) => f.opening),
      assembly,
      bare,
    ),
    row(
      '… a call after a tool result',
      figures.filter((f) => !f.opening),
      assembly,
      bare,
    ),
    row(
      'request bytes (baseline: the same without the grounding)',
      figures,
      (f) => f.bytes,
      (f) => f.bareBytes,
    ),
    row(
      'prompt tokens (baseline: the same without the grounding)',
      figures,
      (f) => f.tokens,
      (f) => f.bareTokens,
    ),
  ]);
}

/** The per-call section of the cognition benchmark's results, at each context size. */
export async function callFiguresSection(
  contexts: readonly number[],
  turns: number,
  log: (m: string) => void,
): Promise<{ markdown: string; figures: Record<number, CallFigures[]> }> {
  const figures: Record<number, CallFigures[]> = {};
  const parts: string[] = [];
  for (const context of contexts) {
    log(`cognition: ${turns} turns at a context of ${context} tokens, every model call measured…`);
    figures[context] = await perCallFigures(context, turns);
    parts.push(`### ${context.toLocaleString('en')} tokens of context\n\n${callFiguresTable(figures[context])}`);
  }
  const markdown = `## Per model call over a ${turns}-turn session

Load average (1 / 5 / 15 min) after the runs: ${loadAverage()}. A console session with the simulated profile's
tools and a tool with long results (test/helpers/sim-session.ts: reads, notes, and every fourth turn three steps
of log reads) at the shipped defaults (\`max_tokens\` 1024), against the scripted llama-server in the same process,
which answers at once. For every model call, Mira beside the fastest honest baseline:

- **assemble and send**: from the grounding's rebuild (the first thing the engine does for a call) until the server
  has the whole request: the grounding, the tool list, the context budget (token counts of new texts asked of the
  server's \`/tokenize\`), the messages, the SDK and HTTP; beside the bare SDK sending the very same body to the same
  kind of server (measured after the session, so the two do not share the machine's noise; see the load).
- **request bytes** and **prompt tokens** (as the scripted server counts them: 0.87–0.99 of the test model's own
  tokenizer, see core/src/testing/model-prompt.ts): the request as sent, beside the same conversation without
  Mira's grounding blocks (time, sensors, state), what a chat client that grounds nothing would send.

Each row: Mira's p50 (p90, largest) over the calls, the baseline's p50, and the per-call ratio's p50, p90 and
largest. The per-call series is in cognition.json (\`calls\`).

${parts.join('\n\n')}
`;
  return { markdown, figures };
}
