import * as roslib from 'roslib';
import type { MiraPlugin } from '@mira/core';
import { createTestRuntime } from '@mira/core/testing';
import ros2Plugin from '@mira/plugin-ros2';
import simPlugin, { SimRobot, SimTransport } from '@mira/plugin-sim';
import { startRosbridgeServer } from '../test/helpers/rosbridge-server.js';
import { barChartSvg, markdownTable, writeResults } from './lib/report.js';
import { fmt, loadAverage, timeEach } from './lib/stats.js';

export interface HardwareBenchOptions {
  readonly messages: number;
  readonly log: (m: string) => void;
}

const battery = (i: number) => ({
  header: { stamp: { sec: i, nanosec: 0 }, frame_id: 'base_link' },
  voltage: 12,
  percentage: (i % 100) / 100,
  present: true,
});

async function viaSim(messages: number) {
  const rt = await createTestRuntime({ plugins: [simPlugin], tables: { sim: { tick_ms: 0 } } });
  const transport = rt.instance(simPlugin).transport;
  const kernel = rt.app.kernel;
  const inputs = Array.from({ length: messages }, (_, i) => i);
  // Reading → grounding: one message delivered, then the grounding rebuilt and showing it.
  const latency = await timeEach(inputs, async (i) => {
    await transport.publish('/battery_state', 'sensor_msgs/msg/BatteryState', battery(i));
    const grounding = await kernel.hooks.grounding.promise(
      { sections: [] },
      { id: 0, origin: 'operator', startedAt: new Date() },
    );
    const shown = new RegExp(`\\bpercent ${i % 100}\\b`);
    if (!grounding.sections.some((s) => shown.test(s.text))) throw new Error('reading missing from grounding');
  });
  const start = process.hrtime.bigint();
  for (const i of inputs) await transport.publish('/battery_state', 'sensor_msgs/msg/BatteryState', battery(i));
  const perSecond = messages / (Number(process.hrtime.bigint() - start) / 1e9);
  await rt.dispose();

  // Baseline: the same messages on a bare bus with a subscriber that does nothing.
  const bare = new SimTransport(
    new SimRobot(),
    { now: () => new Date(), monotonic: () => performance.now() },
    { sensors: [], tickMs: 0 },
  );
  await bare.connect();
  let seen = 0;
  bare.subscribe('/battery_state', 'sensor_msgs/msg/BatteryState', () => void (seen += 1));
  const bareLatency = await timeEach(inputs, (i) =>
    bare.publish('/battery_state', 'sensor_msgs/msg/BatteryState', battery(i)),
  );
  const bareStart = process.hrtime.bigint();
  for (const i of inputs) await bare.publish('/battery_state', 'sensor_msgs/msg/BatteryState', battery(i));
  const barePerSecond = messages / (Number(process.hrtime.bigint() - bareStart) / 1e9);
  await bare.close();
  if (seen === 0) throw new Error('baseline saw nothing');
  return { latency, bareLatency, perSecond, barePerSecond };
}

async function viaRosbridge(messages: number) {
  const server = await startRosbridgeServer();
  const rt = await createTestRuntime({
    plugins: [ros2Plugin as MiraPlugin<any>],
    tables: {
      ros2: {
        transport: 'rosbridge',
        url: server.url,
        sensors: [{ id: 'battery', topic: '/battery_state', type: 'sensor_msgs/msg/BatteryState' }],
      },
    },
  });
  let count = 0;
  rt.app.kernel.hooks.sensorReading.for('battery').tap('bench', () => void (count += 1));
  while (server.subscribers('/battery_state') < 1) await new Promise((r) => setTimeout(r, 5));
  const start = process.hrtime.bigint();
  for (let i = 0; i < messages; i += 1) server.publish('/battery_state', battery(i));
  while (count < messages) await new Promise((r) => setImmediate(r));
  const perSecond = messages / (Number(process.hrtime.bigint() - start) / 1e9);
  await rt.dispose();

  // Baseline: a bare roslib subscriber with no logic, on the same server.
  const R = roslib as unknown as {
    Ros: new (o: { url: string }) => { on(e: string, f: () => void): void; close(): void };
    Topic: new (o: Record<string, unknown>) => { subscribe(f: () => void): void };
  };
  const ros = new R.Ros({ url: server.url });
  await new Promise<void>((resolve) => ros.on('connection', resolve));
  let bareCount = 0;
  new R.Topic({ ros, name: '/battery_state', messageType: 'sensor_msgs/msg/BatteryState' }).subscribe(
    () => void (bareCount += 1),
  );
  while (server.subscribers('/battery_state') < 1) await new Promise((r) => setTimeout(r, 5));
  const bareStart = process.hrtime.bigint();
  for (let i = 0; i < messages; i += 1) server.publish('/battery_state', battery(i));
  while (bareCount < messages) await new Promise((r) => setImmediate(r));
  const barePerSecond = messages / (Number(process.hrtime.bigint() - bareStart) / 1e9);
  ros.close();
  await server.close();
  return { perSecond, barePerSecond };
}

/** Runs the hardware benchmark and writes bench/results/hardware.{md,json,svg}. */
export async function hardwareBench(options: HardwareBenchOptions): Promise<void> {
  options.log('hardware: sensor readings through the sim and rosbridge transports…');
  const sim = await viaSim(options.messages);
  const bridge = await viaRosbridge(options.messages);
  const rows = [
    {
      measurement: 'sim: reading → grounding p50 µs',
      runtime: fmt(sim.latency.p50),
      baseline: fmt(sim.bareLatency.p50),
      'overhead ratio': fmt(sim.latency.p50 / sim.bareLatency.p50, 1),
    },
    {
      measurement: 'sim: readings/s',
      runtime: fmt(sim.perSecond, 0),
      baseline: fmt(sim.barePerSecond, 0),
      'overhead ratio': fmt(sim.barePerSecond / sim.perSecond, 2),
    },
    {
      measurement: 'rosbridge: readings/s',
      runtime: fmt(bridge.perSecond, 0),
      baseline: fmt(bridge.barePerSecond, 0),
      'overhead ratio': fmt(bridge.barePerSecond / bridge.perSecond, 2),
    },
  ];
  const md = `# Hardware benchmark

${options.messages} \`sensor_msgs/msg/BatteryState\` messages. Runtime: each message becomes a
reading (converted, recorded as latest, published on the sensor hook) and, for the latency row,
the grounding is rebuilt and shows it. Baseline: the same messages on the same transport with a
subscriber that does nothing (a bare bus for sim; a bare roslib subscriber for rosbridge).
Load average (1 / 5 / 15 min): ${loadAverage()}.
Overhead ratio = baseline rate / runtime rate (or runtime latency / baseline latency).

${markdownTable(rows)}
`;
  const svg = barChartSvg('Sensor readings per second', 'readings/s (higher is better)', [
    {
      label: 'sim transport',
      bars: [
        { series: 'runtime', value: sim.perSecond },
        { series: 'no-op subscriber', value: sim.barePerSecond },
      ],
    },
    {
      label: 'rosbridge transport',
      bars: [
        { series: 'runtime', value: bridge.perSecond },
        { series: 'no-op subscriber', value: bridge.barePerSecond },
      ],
    },
  ]);
  writeResults('hardware', md, { sim, rosbridge: bridge }, svg);
  process.stdout.write(`${md}\n`);
}
