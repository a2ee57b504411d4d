import jpeg from 'jpeg-js';
import type { ToolResult } from '@mira/core';
import { createTestRuntime } from '@mira/core/testing';
import simPlugin, { cameraFrame } from '@mira/plugin-sim';
import { LOOK_MAX_BYTES, LOOK_MAX_SIDE_PX, frameForModel } from '@mira/robot';
import { markdownTable, writeResults } from './lib/report.js';
import { fmt, loadAverage, rng } from './lib/stats.js';

export interface LookBenchOptions {
  /** Looks per frame size (the 12-megapixel frame: a quarter of them, at least 2). */
  readonly rounds: number;
  /** Whether to look at a 12-megapixel frame too (its making takes seconds: not in a smoke run). */
  readonly huge: boolean;
  readonly log: (m: string) => void;
}

const TOPIC = '/camera/front/image_raw/compressed';

/** A camera-like JPEG: smooth gradients, a few blocks of colour and a little sensor noise. */
function cameraJpeg(width: number, height: number): Buffer {
  const random = rng(width * 7 + height);
  const data = Buffer.alloc(width * height * 4);
  const blocks = Array.from({ length: 12 }, () => ({
    x: random() * width,
    y: random() * height,
    r: (0.05 + random() * 0.2) * width,
    c: [random() * 255, random() * 255, random() * 255],
  }));
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 4;
      let c = [(x / width) * 200 + 30, (y / height) * 180 + 40, 120];
      for (const b of blocks) if (Math.abs(x - b.x) < b.r && Math.abs(y - b.y) < b.r * 0.7) c = b.c;
      for (let k = 0; k < 3; k += 1) data[i + k] = Math.max(0, Math.min(255, c[k]! + (random() - 0.5) * 16));
      data[i + 3] = 255;
    }
  }
  return jpeg.encode({ width, height, data }, 85).data;
}

/** The longest this thread's event loop went without running a 1 ms timer while `op` ran (ms). */
async function stallDuring(op: () => unknown): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  await op();
  // The timer's next run, after work that held the loop to the end, measures that hold too.
  await new Promise((resolve) => setTimeout(resolve, 5));
  clearInterval(timer);
  return longest;
}

const percentile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

/**
 * Runs the look benchmark and writes bench/results/look.{md,json}: per frame size, the bytes the model is shown
 * and the time from the tool call to its result (the frame shrunk on its worker thread), against the honest
 * baseline of the same work done directly on this thread (`frameForModel`: decode, shrink, encode), with the
 * longest stall of this thread's event loop during each (what the dead-man would see while driving).
 */
export async function lookBench(options: LookBenchOptions): Promise<void> {
  const rt = await createTestRuntime({ plugins: [simPlugin], tables: { sim: { tick_ms: 0 } } });
  const transport = rt.instance(simPlugin).transport;
  const look = rt.app.kernel.tools.get('look')!;
  const context = { episode: { id: 1, origin: 'operator' as const, startedAt: new Date() }, seesImages: true };
  const frames: Array<{ name: string; format: string; data: Buffer; rounds: number }> = [
    { name: 'sim camera 96×64 PNG', format: 'png', data: cameraFrame(0, 0, 0, 5), rounds: options.rounds },
    { name: '640×480 JPEG', format: 'jpeg', data: cameraJpeg(640, 480), rounds: options.rounds },
    { name: '1280×720 JPEG', format: 'jpeg', data: cameraJpeg(1280, 720), rounds: options.rounds },
    ...(options.huge
      ? [
          {
            name: '4000×3000 JPEG',
            format: 'jpeg',
            data: cameraJpeg(4000, 3000),
            rounds: Math.max(2, Math.floor(options.rounds / 4)),
          },
        ]
      : []),
  ];
  const rows = [];
  const data = [];
  for (const frame of frames) {
    options.log(`look: ${frame.name} (${frame.data.length} bytes), ${frame.rounds} looks…`);
    await transport.publish(TOPIC, 'sensor_msgs/msg/CompressedImage', { format: frame.format, data: frame.data });
    const tool: number[] = [];
    const bare: number[] = [];
    const toolStall: number[] = [];
    const bareStall: number[] = [];
    let shown = { bytes: 0, width: 0, height: 0 };
    // One untimed look of each first: the worker thread's start is not a look's cost.
    await look.tool.run({ camera: 'camera_front' }, context);
    for (let i = 0; i < frame.rounds; i += 1) {
      let result: ToolResult | undefined;
      toolStall.push(
        await stallDuring(async () => {
          const start = performance.now();
          result = await look.tool.run({ camera: 'camera_front' }, context);
          tool.push(performance.now() - start);
        }),
      );
      const parsed = JSON.parse(result!.content) as { status: string; bytes: number; width: number; height: number };
      if (parsed.status !== 'shown' || !result!.image) throw new Error(`look refused: ${result!.content}`);
      shown = { bytes: parsed.bytes, width: parsed.width, height: parsed.height };
      bareStall.push(
        await stallDuring(() => {
          const start = performance.now();
          frameForModel({ mediaType: frame.format === 'png' ? 'image/png' : 'image/jpeg', bytes: frame.data });
          bare.push(performance.now() - start);
        }),
      );
    }
    const p50 = percentile(tool, 0.5);
    const bareP50 = percentile(bare, 0.5);
    rows.push({
      frame: frame.name,
      'source bytes': String(frame.data.length),
      'shown (px, bytes)': `${shown.width}×${shown.height}, ${shown.bytes}`,
      'look p50 ms': fmt(p50),
      'direct p50 ms': fmt(bareP50),
      ratio: fmt(p50 / bareP50, 2),
      'loop stall p50 ms (look / direct)': `${fmt(percentile(toolStall, 0.5))} / ${fmt(percentile(bareStall, 0.5))}`,
    });
    data.push({ frame: frame.name, sourceBytes: frame.data.length, shown, tool, bare, toolStall, bareStall });
  }
  await rt.dispose();
  const md = `# Look benchmark

\`look\` on the simulator: a frame published on the camera's topic, then the tool called as an episode calls it
(its model sees images), from the call to its result. The frame is shrunk to at most ${LOOK_MAX_SIDE_PX} px a side
and ${LOOK_MAX_BYTES} bytes of JPEG on a worker thread. Baseline: the same work (\`frameForModel\`: decode, shrink,
encode) done directly on the calling thread, the fastest honest way to the same bytes. "Loop stall" is the
longest the calling thread's event loop went without running a 1 ms timer during each:
the worker keeps it near zero, where the direct work holds it for the whole decode.
Load average (1 / 5 / 15 min): ${loadAverage()}.

${markdownTable(rows)}
`;
  writeResults('look', md, { rows: data });
  options.log(`look: ${rows.map((r) => `${r.frame} ${r['look p50 ms']} ms, ${r['shown (px, bytes)']}`).join('; ')}`);
}
