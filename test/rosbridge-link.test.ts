import { expect } from 'chai';
import { createTestRuntime, type TestRuntime } from '@mira/core/testing';
import ros2Plugin, { RosbridgeTransport } from '@mira/plugin-ros2';
import type { LinkState, RosMessage } from '@mira/robot';
import { eventually } from './conformance/transport-contract.js';
import { startRosbridgeServer, type RosbridgeTestServer } from './helpers/rosbridge-server.js';

const TWIST = 'geometry_msgs/msg/Twist';
const DRIVE = { topic: '/cmd_vel', type: TWIST, max_linear_m_s: 0.5, max_angular_rad_s: 1, max_duration_s: 10 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How many of the runtime's log lines say `text`. */
const count = (runtime: TestRuntime, text: string) => runtime.logs.filter((l) => l.includes(text)).length;
const linear = (m: Record<string, unknown>) => (m.linear as { x: number }).x;

describe('rosbridge link supervision: a frozen or restarted bridge never drives the robot on (safety worker)', function () {
  this.timeout(40_000);
  let bridge: RosbridgeTestServer;
  let rt: TestRuntime | undefined;
  beforeEach(async () => {
    bridge = await startRosbridgeServer();
    // The base's controller subscribes /cmd_vel on the ROS side.
    bridge.declareTopic('/cmd_vel', TWIST);
  });
  afterEach(async () => {
    await rt?.dispose();
    rt = undefined;
    await bridge.close();
  });

  const boot = async (extra: Record<string, unknown> = {}) => {
    rt = await createTestRuntime({
      plugins: [ros2Plugin],
      tables: { ros2: { transport: 'rosbridge', url: bridge.url, sensors: [], drive: DRIVE, ...extra } },
    });
    return rt;
  };
  const drive = async (runtime: TestRuntime, duration_s = 8) =>
    JSON.parse(
      (await runtime.callTool('drive', { linear_m_s: 0.2, angular_rad_s: 0, duration_s }, { utterance: 'go' })).content,
    );
  /**
   * The first drive of a test, once both links are up. The in-test bridge answers pings on this thread, which
   * boots the runtime: a boot that holds it past the 300 ms deadline on a loaded machine takes a link down
   * for a moment (rightly: nothing answered), and the drive is refused until it is back. Only that refusal
   * is tried again, for at most 10 s; any other answer is the test's.
   */
  const firstDrive = async (runtime: TestRuntime) => {
    const until = Date.now() + 10_000;
    for (;;) {
      const answer = (await drive(runtime)) as { status: string; reason?: string; error?: string };
      const linkDown = answer.reason === 'transport_error' && /the link is down/.test(answer.error ?? '');
      if (!linkDown || Date.now() > until) return answer;
      await sleep(100);
    }
  };

  it('ends the drive when the bridge restarts, sends zero first on reconnection and nothing non-zero after', async () => {
    const runtime = await boot();
    expect(await firstDrive(runtime)).to.deep.include({ status: 'started' });
    await eventually(() => bridge.published('/cmd_vel').some((m) => linear(m) === 0.2), 5000, 'the drive');
    const back = count(runtime, 'reconnected after');
    await bridge.stop();
    await eventually(
      () =>
        runtime.notifications.includes(
          "[safety] drive ended: the link to the robot failed; it will not resume — zero velocity not delivered on /cmd_vel: the link failed (connection lost); the base's own command timeout must stop the robot",
        ),
      5000,
      'the console line',
    );
    const before = bridge.published('/cmd_vel').length;
    await sleep(800);
    await bridge.start();
    await eventually(() => count(runtime, 'reconnected after') >= back + 2, 10_000, 'both connections back');
    await eventually(() => bridge.published('/cmd_vel').length > before, 5000, 'the first command after the restart');
    await sleep(600);
    const after = bridge.published('/cmd_vel').slice(before);
    expect(linear(after[0]!)).to.equal(0);
    expect(after.filter((m) => linear(m) !== 0)).to.deep.equal([]);
  });

  it('notices a frozen bridge within its deadline: a stop says "not delivered", and nothing non-zero comes out when it resumes', async () => {
    const runtime = await boot({ liveness_ms: 300 });
    expect(await firstDrive(runtime)).to.deep.include({ status: 'started' });
    await eventually(
      () => bridge.published('/cmd_vel').filter((m) => linear(m) === 0.2).length >= 3,
      5000,
      'the drive',
    );
    const silent = (l: string) => /^(warning|safety): rosbridge .*: no answer to pings for/.test(l);
    const down = runtime.logs.filter(silent).length;
    const back = count(runtime, 'reconnected after');
    bridge.freeze();
    const frozenAt = bridge.published('/cmd_vel').length;
    // Both connections (the runtime's and the safety path's) notice, each on its own pings.
    await eventually(() => runtime.logs.filter(silent).length >= down + 2, 5000, 'the deadline to pass');
    const { output } = await runtime.run('stop');
    expect(output).to.have.length(1);
    expect(output[0]).to.match(
      /^emergency stop: zero velocity not delivered on \/cmd_vel over rosbridge ws:\/\/127\.0\.0\.1:\d+: the link has been down for \d+\.\d s \(.*no answer to pings.*\); the base's own command timeout must stop the robot$/,
    );
    expect(runtime.logs.some((l) => l.includes('not delivered'))).to.equal(true);
    // Refused while down, not queued.
    expect(await drive(runtime)).to.deep.include({ status: 'rejected', reason: 'transport_error' });
    await sleep(300);
    bridge.thaw();
    await eventually(() => count(runtime, 'reconnected after') >= back + 2, 10_000, 'both connections back');
    await sleep(500);
    const after = bridge.published('/cmd_vel').slice(frozenAt);
    expect(after.filter((m) => linear(m) !== 0)).to.deep.equal([]);
    expect(after.length).to.be.greaterThan(0);
    expect(linear(after[0]!)).to.equal(0);
  });

  it('leaves a zero behind every command on a link it drops for silence: none is the last the base hears', async () => {
    const runtime = await boot({ liveness_ms: 300 });
    expect(await firstDrive(runtime)).to.deep.include({ status: 'started' });
    await eventually(
      () => bridge.published('/cmd_vel').filter((m) => linear(m) === 0.2).length >= 3,
      5000,
      'the drive',
    );
    // The links' own lines (not a refused command's, which names the silence too).
    const silent = (l: string) => /^(warning|safety): rosbridge .*: no answer to pings for/.test(l);
    const down = runtime.logs.filter(silent).length;
    const back = count(runtime, 'reconnected after');
    bridge.freeze();
    const frozenAt = bridge.arrivals('/cmd_vel').length;
    await eventually(() => runtime.logs.filter(silent).length >= down + 2, 5000, 'both links to be declared down');
    // Thawed in the very instant the deadline passed: a link found silent by a command (before the
    // supervisor's next look) is dropped then and there, its last words written, and reconnected.
    bridge.thaw();
    await eventually(() => count(runtime, 'reconnected after') >= back + 2, 10_000, 'both connections back');
    await sleep(500);
    const after = bridge.arrivals('/cmd_vel').slice(frozenAt);
    // The dropped connection's zero (read behind whatever waited in the frozen bridge's socket), then the new
    // connection's first.
    expect(after.filter((a) => linear(a.msg) === 0).length, JSON.stringify(after)).to.be.at.least(2);
    // A command written the instant before the freeze cannot be taken back: the zero follows it in the same read.
    after.forEach((a, i) => {
      if (linear(a.msg) === 0) return;
      expect(linear(after[i + 1]!.msg), JSON.stringify(after)).to.equal(0);
      expect(after[i + 1]!.at - a.at).to.be.at.most(5);
    });
    expect(linear(after.at(-1)!.msg)).to.equal(0);
  });

  it('reports a stop on a live link as sent and heard back on the command topic', async () => {
    const runtime = await boot();
    expect(await firstDrive(runtime)).to.deep.include({ status: 'started' });
    await eventually(() => bridge.published('/cmd_vel').some((m) => linear(m) === 0.2), 5000, 'the drive');
    const { output } = await runtime.run('stop');
    expect(output[0]).to.equal('emergency stop: zero velocity sent to 1 drive');
    expect(output[1]).to.match(/^ {2}zero velocity sent on \/cmd_vel over rosbridge .* and heard back on \/cmd_vel$/);
  });

  it('delays start-up while the bridge restarts (bounded by connect_timeout_ms) instead of failing', async () => {
    await bridge.stop();
    const started = boot({ connect_timeout_ms: 8000 });
    await sleep(700);
    await bridge.start();
    const runtime = await started;
    await eventually(() => bridge.subscribers('/cmd_vel') === 1, 5000, 'the safety path');
    expect(await drive(runtime, 1)).to.deep.include({ status: 'started' });
  });

  it('logs an outage once when it starts and once when it ends, not every attempt', async () => {
    const runtime = await boot();
    await bridge.stop();
    await sleep(3000);
    await bridge.start();
    await eventually(
      () => runtime.logs.filter((l) => l.includes('reconnected after')).length >= 2,
      10_000,
      'both connections back',
    );
    // The transports' own lines (the ROS node says once that /rosout could not be published, and then is quiet).
    const lines = runtime.logs.filter((l) => /^(warning: |safety: )rosbridge ws:/.test(l));
    // Two connections (the runtime's and the safety path's): one line each when it went down, one when back.
    expect(lines.filter((l) => l.includes('connection lost'))).to.have.length(2);
    expect(lines.filter((l) => l.includes('reconnected after'))).to.have.length(2);
    expect(lines.filter((l) => /reconnected after [2-9]\.\d s \([1-9]\d* attempts?\)/.test(l))).to.have.length(2);
    expect(lines).to.have.length(4);
  });

  it('reports once, by name, a sensor whose subscription delivers nothing (the bridge refused it silently)', async () => {
    bridge.declareTopic('/battery_state', 'std_msgs/msg/Float32');
    const runtime = await boot({
      sensors: [{ id: 'battery', topic: '/battery_state', type: 'sensor_msgs/msg/BatteryState', stale_after_ms: 300 }],
    });
    await eventually(() => bridge.logged.some((l) => l.includes('TypeConflictException')), 5000, 'the refusal');
    await eventually(
      () => runtime.logs.some((l) => l.includes('sensor battery: nothing received on /battery_state')),
      3000,
      'the report',
    );
    await sleep(700);
    expect(runtime.logs.filter((l) => l.includes('sensor battery: nothing received'))).to.have.length(1);
  });
});

describe('rosbridge transport: link state, round trips and CBOR (faithful in-test bridge)', function () {
  this.timeout(20_000);
  let bridge: RosbridgeTestServer;
  let transport: RosbridgeTransport;
  let logs: string[];
  beforeEach(async () => {
    bridge = await startRosbridgeServer();
    logs = [];
    transport = new RosbridgeTransport(bridge.url, 2000, (m) => logs.push(m), { livenessMs: 200 });
    await transport.connect();
  });
  afterEach(async () => {
    await transport.close();
    await bridge.close();
  });

  it('goes down past the liveness deadline of a frozen bridge, refuses to publish, and comes back after it resumes', async () => {
    const states: LinkState[] = [];
    transport.onLink((s) => states.push(s));
    await transport.roundTrip();
    expect(transport.link().up).to.equal(true);
    bridge.freeze();
    const frozen = performance.now();
    await eventually(() => !transport.connected, 3000, 'the link to go down');
    // Past the deadline the link counts as down at once, before the supervisor's next look tells listeners.
    expect(performance.now() - frozen).to.be.at.least(150);
    expect(transport.link().up).to.equal(false);
    await eventually(() => states.length === 1, 3000, 'the listeners to hear it');
    expect(states.map((s) => s.up)).to.deep.equal([false]);
    expect(states[0]!.why).to.match(/^no answer to pings for \d+ ms/);
    let refused: Error | undefined;
    try {
      await transport.publish('/cmd_vel', TWIST, { linear: { x: 0.3, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
    } catch (error) {
      refused = error as Error;
    }
    expect(refused?.message).to.contain('not connected (no answer to pings');
    let roundTrip: Error | undefined;
    await transport.roundTrip().catch((error: Error) => (roundTrip = error));
    expect(roundTrip?.message).to.contain('the link is down');
    bridge.thaw();
    await eventually(() => transport.connected, 8000, 'the reconnection');
    expect(states.map((s) => s.up)).to.deep.equal([false, true]);
    await transport.roundTrip();
  });

  it('writes its last words behind a command the frozen bridge had not read, so a zero follows it in the same read', async () => {
    bridge.declareTopic('/cmd_vel', TWIST);
    const twist = (x: number) => ({ linear: { x, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
    transport.setLastWords('/cmd_vel', TWIST, () => twist(0));
    await transport.publish('/cmd_vel', TWIST, twist(0.1));
    await eventually(() => bridge.published('/cmd_vel').length === 1, 3000, 'the first command');
    bridge.freeze();
    // Written before the deadline passed: it waits unread in the frozen bridge's socket (a freeze that came
    // between a round trip and the command it allowed). TCP gives no way to take it back.
    await transport.publish('/cmd_vel', TWIST, twist(0.1));
    await eventually(() => !transport.connected, 3000, 'the link to go down');
    await sleep(100);
    bridge.thaw();
    await eventually(() => transport.connected, 8000, 'the reconnection');
    await sleep(300);
    const after = bridge.arrivals('/cmd_vel').slice(1);
    // The stale command, then the zero read with it: no later message, no other connection, comes between.
    expect(after.map((a) => linear(a.msg))).to.deep.equal([0.1, 0]);
    expect(after[1]!.at - after[0]!.at).to.be.at.most(5);
  });

  it('acts at once on a deadline a command finds passed before the supervisor looks: last words, dropped, back', async () => {
    bridge.declareTopic('/cmd_vel', TWIST);
    const twist = (x: number) => ({ linear: { x, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
    transport.setLastWords('/cmd_vel', TWIST, () => twist(0));
    await transport.publish('/cmd_vel', TWIST, twist(0.1));
    await eventually(() => bridge.published('/cmd_vel').length === 1, 3000, 'the first command');
    bridge.freeze();
    await transport.publish('/cmd_vel', TWIST, twist(0.1));
    // Asked as a command asks, as often as the thread allows: the first ask past the deadline finds it.
    while (transport.link().up) await new Promise((resolve) => setImmediate(resolve));
    // The bridge answers again at once: a link merely reported down would stay open, the stale command
    // last on it, and never reconnect.
    bridge.thaw();
    await eventually(() => logs.some((l) => l.includes('reconnected after')), 8000, 'the reconnection');
    await sleep(300);
    expect(
      bridge
        .arrivals('/cmd_vel')
        .slice(1)
        .map((a) => linear(a.msg)),
    ).to.deep.equal([0.1, 0]);
  });

  it('stays up while a caller asks for the link as often as the thread allows: pings are paced by time, not by looks', async () => {
    // Every ask is a look at the silence; a supervisor that paced its pings by the time between looks would
    // ping no more once asks come microseconds apart, and a bridge answering every ping would be dropped.
    const until = performance.now() + 1500;
    let asks = 0;
    while (performance.now() < until) {
      expect(transport.link().up, `the link after ${asks} asks`).to.equal(true);
      asks += 1;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(asks).to.be.greaterThan(1000);
    expect(logs.filter((l) => l.includes('no answer to pings'))).to.deep.equal([]);
    expect(transport.connected).to.equal(true);
  });

  it('writes no last words on a topic its connection never published on', async () => {
    transport.setLastWords('/cmd_vel', TWIST, () => ({ linear: { x: 0, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } }));
    bridge.freeze();
    await eventually(() => !transport.connected, 3000, 'the link to go down');
    bridge.thaw();
    await eventually(() => transport.connected, 8000, 'the reconnection');
    await sleep(200);
    expect(bridge.ops.filter((op) => op.topic === '/cmd_vel')).to.deep.equal([]);
  });

  it('delivers LaserScan ranges under CBOR as a Float32Array, and an Imu under CBOR not at all (the bridge cannot convert it)', async () => {
    bridge.declareTopic('/scan', 'sensor_msgs/msg/LaserScan');
    bridge.declareTopic('/imu', 'sensor_msgs/msg/Imu');
    const scans: RosMessage[] = [];
    const imus: RosMessage[] = [];
    transport.subscribe('/scan', 'sensor_msgs/msg/LaserScan', (m) => scans.push(m), {
      bridge: { compression: 'cbor' },
    });
    transport.subscribe('/imu', 'sensor_msgs/msg/Imu', (m) => imus.push(m), { bridge: { compression: 'cbor' } });
    await eventually(
      () => bridge.subscribers('/scan') === 1 && bridge.subscribers('/imu') === 1,
      5000,
      'subscriptions',
    );
    bridge.publish('/scan', { angle_min: 0, angle_increment: 0.5, range_min: 0.1, range_max: 5, ranges: [1.5, 2.25] });
    bridge.publish('/imu', { orientation: { x: 0, y: 0, z: 0, w: 1 }, orientation_covariance: new Array(9).fill(0) });
    await eventually(() => scans.length === 1, 5000, 'the scan');
    expect(scans[0]!.ranges).to.be.instanceOf(Float32Array);
    expect(Array.from(scans[0]!.ranges as Float32Array)).to.deep.equal([1.5, 2.25]);
    await sleep(200);
    expect(imus).to.deep.equal([]);
    expect(bridge.logged.some((l) => l.startsWith('subscribe /imu:'))).to.equal(true);
  });
});
