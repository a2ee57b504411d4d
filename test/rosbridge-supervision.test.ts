import { expect } from 'chai';
import { RosbridgeTransport, describeRosEvent } from '@mira/plugin-ros2';
import { NAVIGATE_TO_POSE } from '@mira/robot';
import { rejection } from './conformance/memory-store-contract.js';
import { eventually } from './conformance/transport-contract.js';
import { startRosbridgeServer, type RosbridgeTestServer } from './helpers/rosbridge-server.js';

const TWIST = 'geometry_msgs/msg/Twist';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('rosbridge transport: its link, looked after (faithful in-test bridge)', function () {
  this.timeout(20_000);
  let bridge: RosbridgeTestServer;
  let logs: string[];
  const open: RosbridgeTransport[] = [];
  const transport = (options: { livenessMs?: number; timeoutMs?: number } = {}) => {
    const t = new RosbridgeTransport(bridge.url, options.timeoutMs ?? 2000, (m) => logs.push(m), {
      livenessMs: options.livenessMs ?? 200,
    });
    open.push(t);
    return t;
  };
  beforeEach(async () => {
    bridge = await startRosbridgeServer();
    bridge.declareTopic('/cmd_vel', TWIST);
    logs = [];
  });
  afterEach(async () => {
    for (const t of open.splice(0)) await t.close();
    await bridge.close();
  });

  it('pings five times per deadline, not more and not less', async () => {
    const t = transport({ livenessMs: 500 });
    await t.connect();
    const before = bridge.pings();
    await sleep(1000);
    // Every 100 ms: about ten in a second.
    expect(bridge.pings() - before).to.be.within(7, 13);
  });

  it('answers concurrent round trips each on its own ping', async () => {
    const t = transport();
    await t.connect();
    await Promise.all([t.roundTrip(), t.roundTrip(), t.roundTrip()]);
  });

  it('opens one connection however often connect() is called, and closes it on close()', async () => {
    const t = transport();
    await t.connect();
    await t.connect();
    await eventually(() => bridge.clients() === 1, 3000, 'one client');
    await sleep(200);
    expect(bridge.clients()).to.equal(1);
    await t.close();
    await eventually(() => bridge.clients() === 0, 3000, 'no client');
  });

  it('says nothing and reconnects nothing once closed', async () => {
    const t = transport();
    await t.connect();
    await t.close();
    await sleep(600);
    expect(logs).to.deep.equal([]);
    expect(bridge.clients()).to.equal(0);
  });

  it('closed while it connects: connect() ends and no connection stays', async () => {
    await bridge.stop();
    const t = transport({ timeoutMs: 3000 });
    const connecting = t.connect();
    await sleep(100);
    await t.close();
    await bridge.start();
    await connecting.catch(() => undefined);
    await sleep(700);
    expect(bridge.clients()).to.equal(0);
  });

  it('says which bridge it cannot reach, and why: refused, or silent (a frozen bridge) within the bound', async () => {
    const refused = new RosbridgeTransport('ws://127.0.0.1:9', 400, () => undefined);
    const error = await rejection(refused.connect());
    expect(error.code).to.equal('MIRA_ERR_HARDWARE_TRANSPORT_FAILED');
    expect(error.detail).to.equal(
      'cannot reach rosbridge at ws://127.0.0.1:9 within 400 ms (connection refused or closed); start rosbridge_server on the robot or fix [ros2] url',
    );
    bridge.freeze();
    const started = Date.now();
    const frozen = await rejection(transport({ timeoutMs: 500 }).connect());
    expect(frozen.detail).to.equal(
      `cannot reach rosbridge at ${bridge.url} within 500 ms (no answer within 500 ms); start rosbridge_server on the robot or fix [ros2] url`,
    );
    expect(Date.now() - started).to.be.below(1500);
    bridge.thaw();
    await sleep(300);
    // The abandoned attempt does not connect later.
    expect(bridge.clients()).to.equal(0);
  });

  it('writes to stderr, as mira: …, when given no log', async () => {
    const written: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => written.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      const t = new RosbridgeTransport(bridge.url, 2000);
      open.push(t);
      await t.connect();
      await bridge.stop();
      await eventually(() => written.length > 0, 3000, 'the line');
    } finally {
      process.stderr.write = original;
    }
    expect(written[0]).to.equal(
      `mira: rosbridge ${bridge.url}: connection lost; sensors go stale and commands are refused until it is back\n`,
    );
  });

  it('counts one attempt when the bridge is back at once', async () => {
    const t = transport();
    await t.connect();
    await bridge.stop();
    await bridge.start();
    await eventually(() => logs.some((l) => l.includes('reconnected after')), 8000, 'back');
    expect(logs.at(-1)).to.match(
      /reconnected after \d\.\d s \(1 attempt\); subscriptions and advertisements restored$/,
    );
  });

  it('passes the bridge options of a subscription through, with the defaults otherwise', async () => {
    const t = transport();
    await t.connect();
    t.subscribe('/scan', 'sensor_msgs/msg/LaserScan', () => undefined, {
      bridge: { queue_length: 3, throttle_rate: 100, compression: 'cbor' },
    });
    t.subscribe('/battery', 'sensor_msgs/msg/BatteryState', () => undefined);
    await eventually(() => bridge.ops.filter((op) => op.op === 'subscribe').length === 2, 3000, 'subscriptions');
    const [scan, battery] = bridge.ops.filter((op) => op.op === 'subscribe');
    expect(scan).to.deep.include({ topic: '/scan', queue_length: 3, throttle_rate: 100, compression: 'cbor' });
    expect(battery).to.deep.include({ topic: '/battery', queue_length: 0, throttle_rate: 0, compression: 'none' });
  });

  it('re-advertises a service with its type after a restart, and logs a failing handler with its stack', async () => {
    const t = transport();
    await t.connect();
    t.advertiseService('/boom', 'std_srvs/srv/Trigger', () => {
      throw new Error('handler broke');
    });
    await bridge.stop();
    await bridge.start();
    await eventually(() => bridge.ops.filter((op) => op.op === 'advertise_service').length === 1, 8000, 'again');
    expect(bridge.ops.find((op) => op.op === 'advertise_service')).to.deep.include({
      service: '/boom',
      type: 'std_srvs/srv/Trigger',
    });
    const caller = transport();
    await caller.connect();
    await rejection(caller.callService('/boom', 'std_srvs/srv/Trigger', {}, 2000));
    const line = logs.find((l) => l.includes('service /boom failed'))!;
    expect(line).to.match(/service \/boom failed: Error: handler broke\n\s+at /);
  });

  it('asks for feedback with every goal, and refuses a goal when closed while its connection opens', async () => {
    const t = transport();
    await t.connect();
    const nav = bridge.actionServer('/nav', NAVIGATE_TO_POSE);
    const feedback: unknown[] = [];
    await t.sendActionGoal('/nav', NAVIGATE_TO_POSE, {}, (f) => feedback.push(f));
    await eventually(() => nav.goals.length === 1, 3000, 'the goal');
    nav.goals[0]!.feedback({ distance_remaining: 1 });
    await eventually(() => feedback.length === 1, 3000, 'the feedback');
    const sending = t.sendActionGoal('/nav', NAVIGATE_TO_POSE, {}, () => undefined);
    await t.close();
    const error = await rejection(sending);
    expect(error.detail).to.match(/closed; the goal (to \/nav )?was not sent/);
  });

  it('describes what a bridge or socket sends in words', () => {
    expect(describeRosEvent(new Error('boom'))).to.equal('boom');
    expect(describeRosEvent('Service /x does not exist')).to.equal('Service /x does not exist');
    expect(describeRosEvent({ message: 42 })).to.equal('42');
    expect(describeRosEvent({ type: 'error', target: 1 })).to.equal('{"type":"error","target":1}');
    expect(describeRosEvent(null)).to.equal('null');
    expect(describeRosEvent(undefined)).to.equal('an error');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeRosEvent(cyclic)).to.equal('an error');
    expect(describeRosEvent(7)).to.equal('7');
  });
});
