// The safety path's stop latency: from the `stop` line written to mira's stdin to the zero Twist seen by a
// subscriber on its own thread, beside the same stop acted on by the main event loop, under four loads.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'smol-toml';
import { startScriptedModelServer, type ScriptedModelServer } from '@mira/core/testing';
import { SqliteNotesStore } from '@mira/plugin-notes';
import { DEFAULT_LIVENESS_MS, RosbridgeTransport } from '@mira/plugin-ros2';
import { startRosbridgeServer, type RosbridgeTestServer } from '../test/helpers/rosbridge-server.js';
import { MiraProcess } from '../test/helpers/mira-process.js';
import { REPO_ROOT } from '../test/helpers/run-mira.js';
import { barChartSvg, markdownTable, writeResults } from './lib/report.js';
import { fmt } from './lib/stats.js';

export interface SafetyBenchOptions {
  /** Stops measured when idle; the loaded cases take a fresh process each and use fewer. */
  readonly idleSamples: number;
  readonly loadedSamples: number;
  /** Link faults (a frozen or killed bridge) measured, and stops over a live rosbridge link. */
  readonly faultSamples: number;
  /** Notes in the store Find duplicates runs over. */
  readonly notes: number;
  /** How long a rosbridge mira runs under a CPU hog while its false link-down events are counted. */
  readonly hogSeconds: number;
  /** The size of the notes export imported while `stop` is typed (bytes, about). */
  readonly importBytes: number;
  readonly log: (m: string) => void;
}

/** A `mira-notes` export of about `bytes`: notes of ~500 characters, a label each. */
function largeExport(bytes: number): string {
  const notes = Array.from({ length: Math.ceil(bytes / 560) }, (_, i) => ({
    content: `note ${i}: ${'the charger is behind the kitchen door and the spare bulbs are in the hall cupboard; '.repeat(6)}`,
    labels: [['home', 'kitchen', 'hall', 'garden'][i % 4]!],
    private_key: null,
    created_at: new Date(1_700_000_000_000 + i * 1000).toISOString(),
    updated_at: new Date(1_700_000_000_000 + i * 1000).toISOString(),
  }));
  const exportedAt = new Date(1_700_000_000_000).toISOString();
  return JSON.stringify({ format: 'mira-notes', version: 1, scope: 'default', exported_at: exportedAt, notes });
}

const PROBE = join(REPO_ROOT, 'test', 'fixtures', 'safety-probe', 'index.js');
/** How long the main loop's answer is waited for before the sample is cut. */
const MAIN_CUT_MS = 20_000;
const STOP_LINE = 'emergency stop: zero velocity sent to 1 drive';

interface Sample {
  readonly safetyMs: number;
  /** undefined: the main loop had not acted after {@link MAIN_CUT_MS}. */
  readonly mainMs: number | undefined;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function writeProfile(dir: string, server: ScriptedModelServer): void {
  const bus = `safety-bench-${randomUUID()}`;
  const drive = {
    topic: '/cmd_vel',
    type: 'geometry_msgs/msg/Twist',
    max_linear_m_s: 0.5,
    max_angular_rad_s: 1,
    max_duration_s: 60,
  };
  const profile = {
    profile: { name: 'Mira', plugins: ['@mira/plugin-sim', '@mira/plugin-notes', '@mira/plugin-openai', PROBE] },
    // A dead-man slower than any load here: only the typed stop stops the robot.
    sim: { bus, drive, safety: { stall_ms: 10_000 } },
    probe: { bus },
    notes: { enabled: true, database_path: 'notes.sqlite3' },
    openai: { model: 'scripted', base_url: server.url, max_retries: 0, timeout_ms: 600_000 },
  };
  writeFileSync(join(dir, 'profile.toml'), stringify(profile));
}

/** One stop: drive, start the load, type `stop` while the main thread is busy, time both paths. */
async function measure(mira: MiraProcess, load: (() => void) | undefined, settleMs = 300): Promise<Sample> {
  const stopsBefore = mira.stdout.split(STOP_LINE).length - 1;
  mira.say('probe drive 0.3 0 50');
  const driving = Date.now();
  await mira.until(() => mira.probeTwists().some((t) => t.at >= driving && t.linear === 0.3), 'the drive');
  if (load) {
    load();
    await new Promise((resolve) => setTimeout(resolve, settleMs));
  }
  const typed = mira.say('stop');
  const zero = await mira.until(() => mira.probeTwists().find((t) => t.at >= typed && t.linear === 0), 'zero velocity');
  let mainMs: number | undefined;
  try {
    await mira.until(() => mira.stdout.split(STOP_LINE).length - 1 > stopsBefore, 'the main loop', MAIN_CUT_MS);
    mainMs = Date.now() - typed;
  } catch {
    mainMs = undefined;
  }
  return { safetyMs: zero.at - typed, mainMs };
}

async function scenario(
  name: string,
  samples: number,
  dir: string,
  server: ScriptedModelServer,
  load: ((mira: MiraProcess, sample: number) => void) | undefined,
  log: (m: string) => void,
  settleMs?: number,
): Promise<{ name: string; samples: Sample[] }> {
  const results: Sample[] = [];
  for (let i = 0; i < samples; i += 1) {
    writeProfile(dir, server);
    const mira = new MiraProcess(dir);
    await mira.until(() => mira.stderr.includes('probe: watching'), 'the probe watcher');
    results.push(await measure(mira, load && (() => load(mira, i)), settleMs));
    log(
      `safety: ${name} ${i + 1}/${samples}: safety ${results.at(-1)!.safetyMs} ms, main ${results.at(-1)!.mainMs ?? `> ${MAIN_CUT_MS}`} ms`,
    );
    await mira.kill();
  }
  return { name, samples: results };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Link loss → "down": a {@link RosbridgeTransport} (default 500 ms deadline) on the in-test bridge, which
 * is frozen (SIGSTOP: TCP open, nothing read) or killed (its sockets dropped); the time until the
 * transport's link listeners hear it is down.
 */
async function linkLoss(kind: 'frozen' | 'killed', samples: number, log: (m: string) => void): Promise<number[]> {
  const bridge = await startRosbridgeServer();
  const transport = new RosbridgeTransport(bridge.url, 5000, () => undefined);
  const times: number[] = [];
  try {
    await transport.connect();
    let state = { up: true, at: performance.now() };
    transport.onLink((link) => (state = { up: link.up, at: performance.now() }));
    for (let i = 0; i < samples; i += 1) {
      while (!transport.connected) await sleep(5);
      await transport.roundTrip();
      // A random phase against the pinger, as a real fault has.
      await sleep(Math.random() * 100);
      const lost = performance.now();
      if (kind === 'frozen') bridge.freeze();
      else await bridge.stop();
      while (state.up) await sleep(1);
      times.push(state.at - lost);
      if (kind === 'frozen') bridge.thaw();
      else await bridge.start();
      log(`safety: link ${kind} ${i + 1}/${samples}: down after ${times.at(-1)!.toFixed(0)} ms`);
    }
  } finally {
    await transport.close();
    await bridge.close();
  }
  return times;
}

/**
 * Stop latency over a live rosbridge link: a mira process on the ROS 2 plugin (rosbridge to the in-test
 * bridge in this process) drives at 0.3 m/s; `stop` is typed while its main thread is blocked; the time
 * from the line to the zero `Twist` arriving at the bridge.
 */
/**
 * A CPU hog on every core: one busy-looping process per core, as a robot computer running SLAM, Nav2 and
 * perception is. `stop()` ends them.
 */
function cpuHog(): { stop(): void } {
  const hogs: ChildProcess[] = Array.from({ length: availableParallelism() }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
  return { stop: () => hogs.forEach((hog) => hog.kill('SIGKILL')) };
}

function rosbridgeProfile(dir: string, bridge: RosbridgeTestServer): void {
  const profile = {
    profile: { name: 'Mira', plugins: ['@mira/plugin-ros2', PROBE] },
    ros2: {
      transport: 'rosbridge',
      url: bridge.url,
      sensors: [],
      drive: {
        topic: '/cmd_vel',
        type: 'geometry_msgs/msg/Twist',
        max_linear_m_s: 0.5,
        max_angular_rad_s: 1,
        max_duration_s: 60,
      },
      safety: { stall_ms: 10_000 },
    },
  };
  writeFileSync(join(dir, 'profile.toml'), stringify(profile));
}

/** The topic the bare process publishes its zero on (the bridge knows its type, as it knows /cmd_vel's). */
const BARE_TOPIC = '/bare/cmd_vel';

/**
 * The same-moment baseline: a bare Node process with a WebSocket of its own to the bridge, which sends the
 * zero Twist as a rosbridge `publish` for each line written to its stdin, and nothing else (no roslib, no
 * worker, no ping). Told at the same moment as mira is, under the same load, it measures what the machine
 * and the bridge take for a stop; mira's stop minus it is mira's own share.
 */
function bareStopper(url: string): { tell(): number; ready: Promise<void>; kill(): void } {
  const script = `const WebSocket = require('ws');
const ws = new WebSocket(process.argv[1]);
const zero = JSON.stringify({ op: 'publish', topic: process.argv[2],
  msg: { linear: { x: 0, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } } });
ws.on('open', () => process.stdout.write('ready\\n'));
ws.on('error', (e) => { process.stderr.write(String(e)); process.exit(1); });
process.stdin.on('data', (d) => { for (const c of d) if (c === 10) ws.send(zero); });`;
  const child = spawn(process.execPath, ['-e', script, url, BARE_TOPIC], { cwd: REPO_ROOT });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the bare stopper exited (${code})`)));
  });
  return {
    tell: () => {
      child.stdin.write('stop\n');
      return Date.now();
    },
    ready,
    kill: () => child.kill('SIGKILL'),
  };
}

/** Stops over a live rosbridge link, each beside the bare process's zero told at the same moment (in ms). */
interface BridgeStops {
  readonly mira: number[];
  readonly bare: number[];
  /** Mira's stop minus the bare one, sample by sample. */
  readonly own: number[];
}

async function rosbridgeStops(dir: string, samples: number, log: (m: string) => void, what = ''): Promise<BridgeStops> {
  const bridge: RosbridgeTestServer = await startRosbridgeServer();
  bridge.declareTopic('/cmd_vel', 'geometry_msgs/msg/Twist');
  bridge.declareTopic(BARE_TOPIC, 'geometry_msgs/msg/Twist');
  rosbridgeProfile(dir, bridge);
  const mira = new MiraProcess(dir);
  const bare = bareStopper(bridge.url);
  const zeros = () => bridge.arrivals('/cmd_vel').filter((a) => (a.msg.linear as { x: number }).x === 0);
  const times: BridgeStops = { mira: [], bare: [], own: [] };
  try {
    await bare.ready;
    await mira.until(() => bridge.subscribers('/cmd_vel') > 0, 'the safety path');
    for (let i = 0; i < samples; i += 1) {
      const lines = mira.stdout.split(STOP_LINE).length;
      mira.say('probe drive 0.3 0 50');
      const driving = Date.now();
      await mira.until(
        () => bridge.arrivals('/cmd_vel').some((a) => a.at >= driving && (a.msg.linear as { x: number }).x === 0.3),
        'the drive',
      );
      mira.say('probe block 1500');
      await mira.until(
        () => mira.blockedAt() !== undefined && mira.stderr.split('probe: blocking').length > i + 1,
        'the block',
      );
      await sleep(200);
      // Both told at once, which first alternating, so neither always has the head start.
      let miraTyped: number;
      let told: number;
      if (i % 2 === 0) {
        miraTyped = mira.say('stop');
        told = bare.tell();
      } else {
        told = bare.tell();
        miraTyped = mira.say('stop');
      }
      const zero = await mira.until(() => zeros().find((a) => a.at >= miraTyped), 'zero velocity');
      const bareZero = await mira.until(() => bridge.arrivals(BARE_TOPIC).find((a) => a.at >= told), 'the bare zero');
      times.mira.push(zero.at - miraTyped);
      times.bare.push(bareZero.at - told);
      times.own.push(times.mira.at(-1)! - times.bare.at(-1)!);
      await mira.until(() => mira.stdout.split(STOP_LINE).length > lines, 'the stop line');
      log(`safety: rosbridge stop${what} ${i + 1}/${samples}: ${times.mira.at(-1)} ms (bare ${times.bare.at(-1)} ms)`);
    }
  } finally {
    bare.kill();
    await mira.kill();
    await bridge.close();
  }
  return times;
}

/**
 * False link-down events under load: a mira over rosbridge to a live in-test bridge, every core busy with
 * a hog and its own main thread blocked for 700 ms (past the 500 ms liveness deadline) every 5 s, for
 * `seconds`. The bridge never stops answering, so every "no answer to pings" is false; the runtime's own
 * stalls are counted beside them, as it logs them.
 */
async function falseLinkDowns(
  dir: string,
  seconds: number,
  log: (m: string) => void,
): Promise<{ minutes: number; linkDowns: number; ownStallLines: number; load: number }> {
  const bridge = await startRosbridgeServer();
  bridge.declareTopic('/cmd_vel', 'geometry_msgs/msg/Twist');
  rosbridgeProfile(dir, bridge);
  const mira = new MiraProcess(dir);
  const hog = cpuHog();
  const start = Date.now();
  let load = 0;
  try {
    await mira.until(() => bridge.subscribers('/cmd_vel') > 0, 'the safety path');
    while (Date.now() - start < seconds * 1000) {
      mira.say('probe block 700');
      await sleep(5000);
      load = Math.max(load, loadavg()[0]!);
    }
  } finally {
    hog.stop();
    await mira.kill();
    await bridge.close();
  }
  const minutes = (Date.now() - start) / 60_000;
  const linkDowns = mira.stderr.split('no answer to pings').length - 1;
  const ownStallLines = mira.stderr.split("this runtime's own thread stalled").length - 1;
  log(
    `safety: ${linkDowns} false link-down events in ${minutes.toFixed(1)} min under a CPU hog (load ${load.toFixed(1)})`,
  );
  return { minutes, linkDowns, ownStallLines, load };
}

/** Runs the safety benchmark and writes bench/results/safety.{md,json,svg}. */
export async function safetyBench(options: SafetyBenchOptions): Promise<void> {
  const { log } = options;
  const dir = mkdtempSync(join(tmpdir(), 'mira-safety-bench-'));
  // The model answers every utterance with one search over a 100,000-word query, then a line of text.
  const hugeQuery = Array.from({ length: 100_000 }, (_, i) => `word${i % 5000}`).join(' ');
  const server = await startScriptedModelServer([]);
  try {
    log(`safety: writing ${options.notes} notes for Find duplicates…`);
    const notes = SqliteNotesStore.open(join(dir, 'notes.sqlite3'), { log: () => undefined });
    for (let i = 0; i < options.notes; i += 1) {
      await notes.save(
        'default',
        `note ${i} about the ${['dock', 'charger', 'kitchen', 'lab'][i % 4]} and item ${(i * 7919) % 10007}`,
        'bench',
        null,
      );
    }
    notes.close();
    const results = [];
    results.push(await scenario('idle', options.idleSamples, dir, server, undefined, log));
    results.push(
      await scenario('main thread blocked', options.loadedSamples, dir, server, (m) => m.say('probe block 3000'), log),
    );
    results.push(
      await scenario(
        'heavy model tool call (search_memory, 100,000 words)',
        options.loadedSamples,
        dir,
        server,
        (m) => {
          server.push(
            { toolCalls: [{ name: 'search_memory', arguments: { query: hugeQuery, label: null, private_key: null } }] },
            { text: 'Searched.' },
          );
          m.say('Find the notes about the dock');
        },
        log,
      ),
    );
    results.push(
      await scenario(
        `Find duplicates over ${options.notes} notes`,
        options.loadedSamples,
        dir,
        server,
        (m) => m.say('notes duplicates'),
        log,
      ),
    );
    // A notes export of about 28 MB (issue 49 item 7), imported into a fresh scope each sample; `stop` is
    // typed 3 s in, while the import parses and writes.
    const exportFile = join(dir, 'large-export.json');
    writeFileSync(exportFile, largeExport(options.importBytes));
    const megabytes = (statSync(exportFile).size / 1e6).toFixed(1);
    results.push(
      await scenario(
        `notes import of a ${megabytes} MB export`,
        options.loadedSamples,
        dir,
        server,
        (m, i) => m.say(`notes import ${exportFile} --scope bench${i}`),
        log,
        3000,
      ),
    );
    const frozen = await linkLoss('frozen', options.faultSamples, log);
    const killed = await linkLoss('killed', options.faultSamples, log);
    const overBridge = await rosbridgeStops(dir, options.faultSamples, log);
    const idleLoad = loadavg()[0]!;
    const hog = cpuHog();
    let overBridgeHogged: BridgeStops;
    let hogLoad: number;
    try {
      await sleep(2000);
      overBridgeHogged = await rosbridgeStops(dir, options.faultSamples, log, ' (CPU hog)');
      hogLoad = loadavg()[0]!;
    } finally {
      hog.stop();
    }
    const downs = await falseLinkDowns(dir, options.hogSeconds, log);
    const simBlocked = results[1]!.samples.map((s) => s.safetyMs);
    const deadline = DEFAULT_LIVENESS_MS;
    const linkRows = [
      { fault: 'bridge frozen (SIGSTOP): link loss → down', values: frozen },
      { fault: 'bridge killed: link loss → down', values: killed },
    ].map(({ fault, values }) => ({
      fault,
      samples: values.length,
      'p50 ms': fmt(percentile(values, 50), 0),
      'p99 ms': fmt(percentile(values, 99), 0),
      baseline: `deadline ${deadline} ms`,
      'p99 / baseline': fmt(percentile(values, 99) / deadline, 2),
      "mira's own share (mira − baseline) p50 / p99 ms": '',
      target: `p99 ≤ ${deadline + 100} ms: ${percentile(values, 99) <= deadline + 100 ? 'met' : 'MISSED'}`,
    }));
    // A stop's baseline: the bare process's zero told at the same moment under the same load (see bareStopper).
    const stopRows = [
      {
        fault: `stop over a live rosbridge link, main thread blocked (load ${idleLoad.toFixed(1)}): typed → zero at the bridge`,
        stops: overBridge,
      },
      {
        fault: `stop over a live rosbridge link, main thread blocked, a CPU hog on every core (load ${hogLoad.toFixed(1)})`,
        stops: overBridgeHogged,
      },
    ].map(({ fault, stops }) => ({
      fault,
      samples: stops.mira.length,
      'p50 ms': fmt(percentile(stops.mira, 50), 0),
      'p99 ms': fmt(percentile(stops.mira, 99), 0),
      baseline: `bare process's zero, same moment: p50 ${fmt(percentile(stops.bare, 50), 0)} / p99 ${fmt(percentile(stops.bare, 99), 0)} ms`,
      'p99 / baseline': fmt(percentile(stops.mira, 99) / Math.max(1, percentile(stops.bare, 99)), 2),
      "mira's own share (mira − baseline) p50 / p99 ms": `${fmt(percentile(stops.own, 50), 0)} / ${fmt(percentile(stops.own, 99), 0)}`,
      target: `own share p99 ≤ 20 ms: ${percentile(stops.own, 99) <= 20 ? 'met' : 'MISSED'}`,
    }));
    const faultRows = [...linkRows, ...stopRows];
    const rows = results.map(({ name, samples }) => {
      const safety = samples.map((s) => s.safetyMs);
      const main = samples.map((s) => s.mainMs ?? Number.POSITIVE_INFINITY);
      const show = (v: number) => (Number.isFinite(v) ? fmt(v, 0) : `> ${MAIN_CUT_MS}`);
      return {
        load: name,
        samples: samples.length,
        'safety path p50 ms': fmt(percentile(safety, 50), 0),
        'safety path p99 ms': fmt(percentile(safety, 99), 0),
        'main loop p50 ms': show(percentile(main, 50)),
        'main loop p99 ms': show(percentile(main, 99)),
        'target p99 ≤ 100 ms': percentile(safety, 99) <= 100 ? 'met' : 'MISSED',
      };
    });
    const md = [
      '# Safety path: stop latency',
      '',
      "From the `stop` line written to the mira process's stdin to the zero `Twist` seen by a subscriber on a thread",
      'of its own (simulator bus), while the robot drives at 0.3 m/s; beside the time until the main event loop',
      `acted on the same line (its "${STOP_LINE}"). The dead-man is set to 10 s so only the typed stop counts.`,
      `Main-loop times are cut at ${MAIN_CUT_MS / 1000} s. Each loaded sample is a fresh process.`,
      '',
      markdownTable(rows),
      '',
      '## Link faults (rosbridge)',
      '',
      'A `RosbridgeTransport` with the default liveness deadline on the faithful in-test bridge: the time from the',
      'bridge freezing (TCP open, nothing read) or dying to the link counting as down (nothing more is written; the',
      'safety path ends the drive). Then a mira process over rosbridge: `stop` typed while its main thread is',
      'blocked, to the zero `Twist` arriving at the bridge, beside the same-moment baseline: a bare Node process',
      'with a WebSocket of its own to the bridge, told at the same moment (which first alternating) to send the',
      "same zero, under the same load. Mira's own share is its stop minus the bare one, sample by sample (the",
      `simulator bus stop with the main thread blocked, above, was p50 ${fmt(Math.max(1, percentile(simBlocked, 50)), 0)} ms).`,
      '',
      markdownTable(faultRows),
      '',
      '## False link-down events under load',
      '',
      `A mira over rosbridge to a live in-test bridge for ${downs.minutes.toFixed(1)} min, a CPU hog on every core`,
      `(load up to ${downs.load.toFixed(1)}) and its own main thread blocked 700 ms (past the 500 ms liveness deadline)`,
      'every 5 s. The bridge answers throughout, so every link-down is false (target: 0).',
      '',
      markdownTable([
        {
          'false link-down events': downs.linkDowns,
          'per minute': fmt(downs.linkDowns / downs.minutes, 2),
          "own-stall log lines (the runtime's, said as such)": downs.ownStallLines,
          target: downs.linkDowns === 0 ? '0: met' : '0: MISSED',
        },
      ]),
      '',
    ].join('\n');
    const svg = barChartSvg(
      'Stop latency p99: safety path vs main event loop',
      'ms',
      results.map(({ name, samples }) => ({
        label: name,
        bars: [
          {
            series: 'safety path',
            value: percentile(
              samples.map((s) => s.safetyMs),
              99,
            ),
          },
          {
            series: 'main event loop',
            value: percentile(
              samples.map((s) => s.mainMs ?? MAIN_CUT_MS),
              99,
            ),
          },
        ],
      })),
    );
    writeResults('safety', md, { results, faults: { frozen, killed, overBridge, overBridgeHogged }, downs }, svg);
    process.stdout.write(`${md}\n`);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
