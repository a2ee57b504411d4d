import { loadavg } from 'node:os';

/** Latency summary in microseconds. */
export interface Latency {
  readonly n: number;
  readonly p50: number;
  readonly p99: number;
  readonly mean: number;
}

/** Summarises per-operation durations (nanoseconds as bigint) into microseconds. */
export function summarize(samples: bigint[]): Latency {
  const us = samples.map((s) => Number(s) / 1000).sort((a, b) => a - b);
  const at = (q: number) => us[Math.min(us.length - 1, Math.floor(q * us.length))]!;
  return { n: us.length, p50: at(0.5), p99: at(0.99), mean: us.reduce((a, b) => a + b, 0) / us.length };
}

/** Times `op` over every input (after a warm-up), one sample per call. */
export async function timeEach<T>(inputs: readonly T[], op: (input: T) => unknown, warmup = 200): Promise<Latency> {
  for (let i = 0; i < Math.min(warmup, inputs.length); i += 1) await op(inputs[i]!);
  const samples: bigint[] = [];
  for (const input of inputs) {
    const start = process.hrtime.bigint();
    await op(input);
    samples.push(process.hrtime.bigint() - start);
  }
  return summarize(samples);
}

/** Fixed-seed pseudo-random numbers, so every run measures the same inputs. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** What {@link timeInterleaved} measured of one variant: its latency and its summed time in ms. */
export interface InterleavedLatency extends Latency {
  readonly totalMs: number;
}

/**
 * Times every variant on every input, call by call: input i runs through each variant in turn, the
 * order rotating with i, so a burst of machine noise (another process, a GC pause) falls on all variants
 * alike instead of deciding one variant's p99. Inputs before `warmup` are run but not timed.
 */
export async function timeInterleaved<T, K extends string>(
  inputs: readonly T[],
  variants: Readonly<Record<K, (input: T) => unknown>>,
  warmup = 0,
): Promise<Record<K, InterleavedLatency>> {
  const names = Object.keys(variants) as K[];
  const samples = new Map<K, bigint[]>(names.map((n) => [n, []]));
  for (const [i, input] of inputs.entries()) {
    for (let j = 0; j < names.length; j += 1) {
      const name = names[(i + j) % names.length]!;
      const start = process.hrtime.bigint();
      await variants[name](input);
      const took = process.hrtime.bigint() - start;
      if (i >= warmup) samples.get(name)!.push(took);
    }
  }
  return Object.fromEntries(
    names.map((n) => {
      const s = samples.get(n)!;
      return [n, { ...summarize(s), totalMs: Number(s.reduce((a, b) => a + b, 0n)) / 1e6 }];
    }),
  ) as Record<K, InterleavedLatency>;
}

/** The machine's 1-, 5- and 15-minute load averages, for a results table's header. */
export function loadAverage(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
}
