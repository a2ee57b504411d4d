import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { createTestRuntime, type TestRuntime } from '@mira/core/testing';
import ros2Plugin, { RosbridgeTransport } from '@mira/plugin-ros2';
import type { RosMessage } from '@mira/robot';
import { rejection } from './conformance/memory-store-contract.js';
import { eventually } from './conformance/transport-contract.js';
import { startRosbridgeServer, type RosbridgeTestServer } from './helpers/rosbridge-server.js';
import { REPO_ROOT } from './helpers/run-mira.js';
import { unhandledRejectionsDuring } from './helpers/unhandled.js';

const BATTERY = 'sensor_msgs/msg/BatteryState';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const battery = (percent: number) => ({
  header: { stamp: { sec: 1, nanosec: 0 }, frame_id: 'base' },
  voltage: 12,
  percentage: percent / 100,
  present: true,
});

describe('rosbridge transport: faults a real deployment meets (strict in-test bridge)', function () {
  this.timeout(30_000);
  let bridge: RosbridgeTestServer;
  let transport: RosbridgeTransport;
  let logs: string[];
  beforeEach(async () => {
    bridge = await startRosbridgeServer();
    logs = [];
    transport = new RosbridgeTransport(bridge.url, 2000, (m) => logs.push(m));
    await transport.connect();
  });
  afterEach(async () => {
    await transport.close();
    await bridge.close();
  });

  it('reconnects after the bridge restarts, re-subscribes and re-advertises, and never queues', async () => {
    const got: RosMessage[] = [];
    transport.subscribe('/battery_state', BATTERY, (m) => got.push(m));
    await transport.publish('/cmd_vel', 'geometry_msgs/msg/Twist', {
      linear: { x: 0.1, y: 0, z: 0 },
      angular: { x: 0, y: 0, z: 0 },
    });
    await eventually(() => bridge.subscribers('/battery_state') === 1, 8000, 'the subscription');
    await bridge.stop();
    await eventually(() => !transport.connected, 8000, 'the transport to notice');
    expect(logs.some((l) => l.includes('connection lost'))).to.equal(true);
    // While the bridge is down nothing is sent and nothing is queued to burst out later.
    const refused = await rejection(
      transport.publish('/cmd_vel', 'geometry_msgs/msg/Twist', {
        linear: { x: 0.4, y: 0, z: 0 },
        angular: { x: 0, y: 0, z: 0 },
      }),
    );
    expect(refused.code).to.equal('MIRA_ERR_HARDWARE_TRANSPORT_FAILED');
    expect(refused.message).to.contain('not connected');
    await bridge.start();
    await eventually(() => transport.connected && bridge.subscribers('/battery_state') === 1, 8000, 'the reconnection');
    expect(logs.some((l) => l.includes('reconnected'))).to.equal(true);
    bridge.publish('/battery_state', battery(42));
    await eventually(() => got.length === 1, 8000, 'a reading after the restart');
    await transport.publish('/cmd_vel', 'geometry_msgs/msg/Twist', {
      linear: { x: 0.2, y: 0, z: 0 },
      angular: { x: 0, y: 0, z: 0 },
    });
    await eventually(() => bridge.published('/cmd_vel').length === 2, 8000, 'the publish after the restart');
    expect(bridge.published('/cmd_vel').map((m) => (m.linear as { x: number }).x)).to.deep.equal([0.1, 0.2]);
    expect(bridge.logged).to.deep.equal([]); // re-advertised before publishing again
  });

  it('logs and skips a frame it cannot decode, and keeps the connection', async () => {
    const got: RosMessage[] = [];
    transport.subscribe('/battery_state', BATTERY, (m) => got.push(m));
    await eventually(() => bridge.subscribers('/battery_state') === 1, 8000, 'the subscription');
    bridge.sendRaw('this is not {json');
    bridge.publish('/battery_state', battery(50));
    await eventually(() => got.length === 1, 8000, 'the next message');
    expect(transport.connected).to.equal(true);
    expect(logs.some((l) => /the connection stays/.test(l))).to.equal(true);
  });

  it('bounds the lines a flood of malformed frames causes, and says how many more came', async () => {
    const lines: string[] = [];
    const limited = new RosbridgeTransport(bridge.url, 2000, (m) => lines.push(m), {
      peerLogLimit: { lines: 5, intervalMs: 1000 },
    });
    await limited.connect();
    try {
      const got: RosMessage[] = [];
      limited.subscribe('/battery_state', BATTERY, (m) => got.push(m));
      await eventually(() => bridge.subscribers('/battery_state') === 1, 8000, 'the subscription');
      lines.length = 0;
      for (let i = 0; i < 200; i += 1) bridge.sendRaw(`{"op": "publish", "topic": ${i}`);
      bridge.publish('/battery_state', battery(50));
      await eventually(() => got.length === 1, 8000, 'the message after the flood');
      const summary = /\((\d+) more like this in the last 1 s\)$/;
      // The interval ends, and its count is said once.
      await eventually(() => lines.some((l) => summary.test(l)), 8000, 'the count');
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(limited.connected).to.equal(true);
      // Every malformed frame is accounted for: said, or counted in a summary (which says the latest too).
      const accounted = lines.reduce((sum, l) => sum + 1 + Number(summary.exec(l)?.[1] ?? 0), 0);
      expect(accounted, lines.join('\n')).to.equal(200);
      // At most five lines per interval, then one: 200 frames arrive within an interval or two.
      expect(lines.length, lines.join('\n')).to.be.at.most(2 * (5 + 1));
      expect(lines.slice(0, 5).every((l) => l.endsWith('; the connection stays'))).to.equal(true);
    } finally {
      await limited.close();
    }
  });

  it('puts at most five lines on stderr for a flood of service responses without an id, then their count', async () => {
    // roslib itself prints each such response with console.error: a process of its own shows what reaches stderr.
    const script = [
      "import { RosbridgeTransport } from '@mira/plugin-ros2';",
      'const t = new RosbridgeTransport(process.argv[1], 2000, undefined, { peerLogLimit: { lines: 5, intervalMs: 10000 } });',
      'await t.connect();',
      "process.stdout.write('connected\\n');",
      "process.stdin.once('data', async () => { await t.close(); process.exit(0); });",
    ].join('\n');
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, bridge.url], {
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      await eventually(() => stdout.includes('connected') && bridge.clients() === 2, 15_000, 'the other process');
      for (let i = 0; i < 50; i += 1) bridge.sendRaw('{"op": "service_response", "values": {}, "result": true}');
      await sleep(500);
    } finally {
      child.stdin.write('close\n');
      await new Promise((resolve) => child.on('close', resolve));
    }
    const said = `mira: rosbridge ${bridge.url}: a service_response without an id; skipped`;
    expect(stderr.split('\n').filter(Boolean)).to.deep.equal([
      ...Array<string>(5).fill(said),
      `${said} (44 more like this in the last 10 s)`,
    ]);
  });

  it('fails a call to a service the graph lacks when the bridge answers result false (at once), not at the bound', async () => {
    // Mira's bound is far beyond this test's own: only the bridge's answer can end the call in time.
    const error = await rejection(transport.callService('/nobody', 'std_srvs/srv/Trigger', {}, 120_000));
    expect(error.code).to.equal('MIRA_ERR_HARDWARE_TRANSPORT_FAILED');
    expect(error.message).to.equal(
      `MIRA_ERR_HARDWARE_TRANSPORT_FAILED: rosbridge ${bridge.url}: service /nobody failed: Service /nobody does not exist`,
    );
    const call = bridge.ops.find((op) => op.op === 'call_service')!;
    expect(call.timeout).to.equal(120); // the bridge gets Mira's bound, in seconds
  });

  it('answers a failing service handler with an empty object and result false, so the ROS caller is not left waiting', async () => {
    transport.advertiseService('/explode', 'std_srvs/srv/Trigger', () => {
      throw new Error('handler broke');
    });
    const caller = new RosbridgeTransport(bridge.url, 2000, () => undefined);
    await caller.connect();
    try {
      await eventually(() => bridge.ops.some((op) => op.op === 'advertise_service'), 8000, 'the advertisement');
      const error = await rejection(caller.callService('/explode', 'std_srvs/srv/Trigger', {}, 3000));
      expect(error.code).to.equal('MIRA_ERR_HARDWARE_TRANSPORT_FAILED');
      expect(error.message).to.contain('failed');
      expect(bridge.logged).to.deep.equal([]);
      const response = bridge.ops.find((op) => op.op === 'service_response')!;
      expect(response).to.deep.include({ values: {}, result: false });
      expect(logs.some((l) => l.includes('handler broke'))).to.equal(true);
    } finally {
      await caller.close();
    }
  });

  it('re-advertises its services after a restart', async () => {
    transport.advertiseService('/ping', 'std_srvs/srv/Trigger', () => ({ success: true, message: 'pong' }));
    await eventually(() => bridge.ops.some((op) => op.op === 'advertise_service'), 8000, 'the advertisement');
    await bridge.stop();
    await eventually(() => !transport.connected, 8000, 'the transport to notice');
    await bridge.start();
    await eventually(() => transport.connected, 8000, 'the reconnection');
    const caller = new RosbridgeTransport(bridge.url, 2000, () => undefined);
    await caller.connect();
    try {
      await eventually(
        () => bridge.ops.filter((op) => op.op === 'advertise_service').length === 2,
        8000,
        'the re-advertisement',
      );
      expect(await caller.callService('/ping', 'std_srvs/srv/Trigger', {}, 3000)).to.deep.equal({
        success: true,
        message: 'pong',
      });
    } finally {
      await caller.close();
    }
  });

  it('reports an unreachable bridge at start-up without an unhandled rejection', async () => {
    const unhandled = await unhandledRejectionsDuring(async () => {
      const lonely = new RosbridgeTransport('ws://127.0.0.1:9', 500, () => undefined);
      const error = await rejection(lonely.connect());
      expect(error.message).to.match(/cannot reach rosbridge at ws:\/\/127\.0\.0\.1:9/);
      await new Promise((resolve) => setTimeout(resolve, 100));
    });
    expect(unhandled).to.deep.equal([]);
  });
});

describe('rosbridge in a runtime: an outage is visible, and the robot is not said to drive (safety worker)', function () {
  this.timeout(30_000);
  let bridge: RosbridgeTestServer;
  let rt: TestRuntime;
  beforeEach(async () => {
    bridge = await startRosbridgeServer();
    rt = await createTestRuntime({
      plugins: [ros2Plugin],
      tables: {
        ros2: {
          transport: 'rosbridge',
          url: bridge.url,
          sensors: [{ id: 'battery', topic: '/battery_state', type: BATTERY, stale_after_ms: 1000 }],
          drive: {
            topic: '/cmd_vel',
            type: 'geometry_msgs/msg/Twist',
            max_linear_m_s: 0.5,
            max_angular_rad_s: 1,
            max_duration_s: 5,
          },
        },
      },
    });
  });
  afterEach(async () => {
    await rt.dispose();
    await bridge.close();
  });

  const drive = async () =>
    JSON.parse((await rt.callTool('drive', { linear_m_s: 0.2, angular_rad_s: 0, duration_s: 1 })).content);

  it('puts a flood of malformed frames on stderr and /rosout alike, five lines a connection at most', async () => {
    await eventually(() => bridge.subscribers('/battery_state') === 1, 8000, 'the subscription');
    await eventually(() => bridge.ops.some((op) => op.op === 'advertise' && op.topic === '/rosout'), 8000, '/rosout');
    const malformed = (text: string) => text.includes('; the connection stays');
    for (let i = 0; i < 100; i += 1) bridge.sendRaw('this is not {json');
    // Both connections (the runtime's and the safety path's) read every frame: five lines each.
    await eventually(() => rt.logs.filter(malformed).length === 10, 8000, 'the lines of both connections');
    const rosout = () => bridge.published('/rosout').filter((line) => malformed(String(line.msg)));
    await eventually(() => rosout().length === 10, 8000, 'the same lines on /rosout');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(rt.logs.filter(malformed)).to.have.length(10);
    expect(rosout()).to.have.length(10);
  });

  it('refuses to drive while the bridge is down, logs the outage, and recovers', async () => {
    await eventually(() => bridge.subscribers('/battery_state') === 1, 8000, 'the subscription');
    await bridge.stop();
    await eventually(() => rt.logs.some((l) => l.includes('connection lost')), 8000, 'the outage in the log');
    expect(await drive()).to.deep.include({ status: 'rejected', reason: 'transport_error' });
    const sent = bridge.published('/cmd_vel').length;
    await bridge.start();
    await eventually(() => bridge.subscribers('/battery_state') === 1, 8000, 'the re-subscription');
    await eventually(() => bridge.ops.filter((op) => op.op === 'subscribe').length >= 2, 8000, 'both connections back');
    // Nothing refused during the outage comes out now.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      bridge
        .published('/cmd_vel')
        .slice(sent)
        .filter((m) => (m.linear as { x: number }).x !== 0),
    ).to.deep.equal([]);
    bridge.publish('/battery_state', battery(77));
    await eventually(
      () => (rt.app.kernel.latestReading('battery')?.value as { percent?: number })?.percent === 77,
      8000,
      'a fresh reading',
    );
    // The safety path's own connection comes back too: a drive starts again.
    const deadline = Date.now() + 8000;
    let result = await drive();
    while (result.status !== 'started' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      result = await drive();
    }
    expect(result).to.deep.include({ status: 'started' });
  });
});
