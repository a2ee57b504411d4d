import { createServer, type Socket } from 'node:net';
import { expect } from 'chai';
import { RosbridgeTransport, describeRosEvent } from '@mira/plugin-ros2';
import { NAVIGATE_TO_POSE } from '@mira/robot';
import { rejection } from './conformance/memory-store-contract.js';
import { eventually } from './conformance/transport-contract.js';
import { startRosbridgeServer, type RosbridgeTestServer } from './helpers/rosbridge-server.js';

const TWIST = 'geometry_msgs/msg/Twist';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Holds the main thread, as a long synchronous step of the runtime would: nothing is read meanwhile. */
const stall = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};
const portOf = (url: string) => Number(new URL(url).port);

describe('rosbridge transport: its link, looked after (faithful in-test bridge)', function () {
  this.timeout(20_000);
  let bridge: RosbridgeTestServer;
  let logs: string[];
  const open: RosbridgeTransport[] = [];
  const transport = (
    options: { livenessMs?: number; timeoutMs?: number; outageSummaryMs?: number; goalAcceptMs?: number } = {},
  ) => {
    const t = new RosbridgeTransport(bridge.url, options.timeoutMs ?? 2000, (m) => logs.push(m), {
      ...options,
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

  it("does not take its own thread's stall for a dead link: the bridge's answers waited unread", async () => {
    const t = transport();
    expect(t.connected).to.equal(false);
    expect(t.link()).to.deep.include({ up: false, why: 'not connected yet' });
    await t.connect();
    const states: boolean[] = [];
    t.onLink((state) => states.push(state.up));
    expect(t.connected).to.equal(true);
    // Held longer than the deadline (200 ms): no pong can be read meanwhile, yet the bridge is alive.
    stall(700);
    expect(t.connected).to.equal(true);
    expect(t.link()).to.deep.include({ up: true });
    // What the runtime says on the link goes out (a reply, an event), and the link stays up.
    await t.publish('/chatter', 'std_msgs/msg/String', { data: 'after the stall' });
    await sleep(400);
    expect(states).to.deep.equal([]);
    expect(bridge.published('/chatter')).to.deep.equal([{ data: 'after the stall' }]);
    expect(logs.filter((l) => l.includes('no answer to pings'))).to.deep.equal([]);
    expect(logs.filter((l) => l.includes("this runtime's own thread stalled"))).to.have.length(1);
    expect(logs.find((l) => l.includes('own thread'))).to.match(
      /^rosbridge ws:\/\/127\.0\.0\.1:\d+: this runtime's own thread stalled \d+ ms — a busy process or machine, not the link; the link is judged on the answers it reads while it runs$/,
    );
  });

  it('still finds a frozen bridge while its own thread stalls now and then', async () => {
    const t = transport();
    await t.connect();
    bridge.freeze();
    try {
      // Stalls of the runtime between looks, each longer than the deadline: only the awake time counts.
      for (let i = 0; i < 3; i += 1) {
        stall(250);
        await sleep(20);
      }
      await eventually(() => !t.link().up, 3000, 'the frozen bridge found');
      // link() says so at once; the supervisor's next look (within 10 ms) says why.
      await eventually(
        () => logs.some((l) => /no answer to pings for \d+ ms \(a frozen bridge or a dead network\)/.test(l)),
        100,
        'the line that says why',
      );
    } finally {
      bridge.thaw();
    }
  });

  it('does not fail a round trip whose answer came while its own thread was stalled', async () => {
    const t = transport({ livenessMs: 300 });
    await t.connect();
    const answered = t.roundTrip();
    stall(500);
    await answered;
  });

  it('refuses a command while the bridge is gone, saying why and that nothing is queued', async () => {
    const t = transport();
    await t.connect();
    await bridge.stop();
    await eventually(() => !t.link().up, 3000, 'down');
    const error = await rejection(t.publish('/cmd_vel', TWIST, { linear: { x: 0.2 } }));
    expect(error.code).to.equal('MIRA_ERR_HARDWARE_TRANSPORT_FAILED');
    expect(error.detail).to.equal(
      `rosbridge ${bridge.url}: not connected (connection lost); the message on /cmd_vel was not sent and is not queued`,
    );
    await bridge.start();
    await eventually(() => t.connected, 5000, 'back');
    await sleep(100);
    expect(bridge.published('/cmd_vel')).to.deep.equal([]);
  });

  it('fails a round trip the frozen bridge does not answer within the deadline', async () => {
    const t = transport({ livenessMs: 300 });
    await t.connect();
    bridge.freeze();
    try {
      const error = await rejection(t.roundTrip());
      expect(error.message).to.equal('no answer to a ping within 300 ms');
    } finally {
      bridge.thaw();
    }
  });

  it('refuses to cancel a goal over a link past its deadline, saying what was not sent', async () => {
    const t = transport();
    await t.connect();
    const nav = bridge.actionServer('/nav', NAVIGATE_TO_POSE);
    const goal = await t.sendActionGoal('/nav', NAVIGATE_TO_POSE, {}, () => undefined);
    goal.outcome.catch(() => undefined);
    await eventually(() => nav.goals.length === 1, 3000, 'the goal');
    bridge.freeze();
    try {
      await eventually(() => !t.connected, 3000, 'the link past its deadline');
      // By its ID, as the safety path cancels: the goal's own connection, just as silent, may already have
      // ended it as lost (its cancel() then has nothing left to send).
      const error = await rejection(t.cancelGoal('/nav', goal.id!));
      expect(error.detail).to.match(
        /^rosbridge ws:\/\/127\.0\.0\.1:\d+: not connected \(no answer to pings[^)]*\)+; the cancellation of \/nav was not sent and is not queued$/,
      );
    } finally {
      bridge.thaw();
    }
  });

  it('sums a long outage up in the log while it lasts, and stops once the bridge is back', async () => {
    const t = transport({ outageSummaryMs: 1100 });
    await t.connect();
    await bridge.stop();
    await eventually(() => logs.some((l) => l.includes('still down')), 3000, 'the summary');
    expect(logs.find((l) => l.includes('still down'))).to.match(
      new RegExp(`^rosbridge ${bridge.url}: still down after 1 s \\(\\d reconnect attempts\\); retrying$`),
    );
    await bridge.start();
    await eventually(() => t.connected, 8000, 'back');
    const said = logs.filter((l) => l.includes('still down')).length;
    await sleep(1300);
    expect(logs.filter((l) => l.includes('still down')).length).to.equal(said);
  });

  it('counts every attempt of a longer outage, and is back within a second of the bridge', async () => {
    const t = transport();
    await t.connect();
    await bridge.stop();
    await sleep(900);
    await bridge.start();
    const back = Date.now();
    await eventually(() => logs.some((l) => l.includes('reconnected after')), 8000, 'back');
    // Attempts at 0.2, 0.6 and 1.4 s: the backoff doubles from 200 ms, so the third finds the bridge.
    expect(Date.now() - back).to.be.below(2500);
    const [, attempts] = /\((\d+) attempts\)/.exec(logs.at(-1)!) ?? [];
    expect(Number(attempts)).to.be.within(2, 4);
  });

  it('retries a bridge that drops every connection with a doubling backoff, not in a storm', async () => {
    let attempts = 0;
    const dropper = createServer((socket) => {
      attempts++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => dropper.listen(0, '127.0.0.1', resolve));
    const port = (dropper.address() as { port: number }).port;
    try {
      const t = new RosbridgeTransport(`ws://127.0.0.1:${port}`, 2000, () => undefined);
      const error = await rejection(t.connect());
      expect(error.detail).to.include('(connection refused or closed)');
      // Attempts at about 0, 0.1, 0.3, 0.7 and 1.5 s; the next would start past the bound.
      expect(attempts).to.be.within(4, 6);
    } finally {
      await new Promise((resolve) => dropper.close(resolve));
    }
  });

  it('gives up a reconnection the bridge never answers, and reaches the bridge once it is back', async () => {
    const t = transport({ timeoutMs: 1000 });
    await t.connect();
    await bridge.stop();
    // A process on the bridge's port that takes connections and never answers the WebSocket upgrade.
    const held: Socket[] = [];
    const hung = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => hung.listen(portOf(bridge.url), '127.0.0.1', resolve));
    try {
      await eventually(() => held.length > 0, 5000, 'an attempt on the hung port');
      // It stops listening; the connection it holds stays open, as a hung process's would.
      hung.close();
      await bridge.start();
      // The attempt held by the hung process fails at the handshake bound, and the next one connects.
      await eventually(() => t.connected, 6000, 'back');
    } finally {
      for (const socket of held) socket.destroy();
    }
  });

  it('fails at once on a URL no socket can be opened to, instead of retrying it', async () => {
    const t = new RosbridgeTransport('ws://not a host:9090', 3000, () => undefined);
    const error = await rejection(t.connect());
    expect(error.code).to.equal('MIRA_ERR_HARDWARE_TRANSPORT_FAILED');
    expect(error.detail).to.equal(
      'cannot open a connection to rosbridge at ws://not a host:9090: Invalid URL: ws://not a host:9090; fix [ros2] url',
    );
  });

  it('takes a subscription QoS without bridge options, with the bridge defaults', async () => {
    const t = transport();
    await t.connect();
    t.subscribe('/battery', 'sensor_msgs/msg/BatteryState', () => undefined, { reliability: 'reliable', depth: 1 });
    await eventually(() => bridge.ops.some((op) => op.op === 'subscribe'), 3000, 'the subscription');
    expect(bridge.ops.find((op) => op.op === 'subscribe')).to.deep.include({
      topic: '/battery',
      queue_length: 0,
      throttle_rate: 0,
      compression: 'none',
    });
  });

  it('advertises its publishers again as soon as the bridge is back, before anything is published', async () => {
    const t = transport();
    await t.connect();
    await t.publish('/cmd_vel', TWIST, { linear: { x: 0 } });
    await eventually(() => bridge.ops.some((op) => op.op === 'advertise'), 3000, 'the advertisement');
    await bridge.stop();
    await bridge.start();
    await eventually(() => t.connected, 8000, 'back');
    await eventually(
      () => bridge.ops.filter((op) => op.op === 'advertise' && op.topic === '/cmd_vel').length === 2,
      3000,
      'the advertisement again',
    );
    expect(bridge.ops.filter((op) => op.op === 'publish')).to.have.length(1);
  });

  it('sends no answer to a call that was made before an outage over the connection that follows it', async () => {
    const t = transport();
    await t.connect();
    const answer = (values: Record<string, unknown> | Error) => () =>
      sleep(300).then(() => {
        if (values instanceof Error) throw values;
        return values;
      });
    t.advertiseService('/slow', 'std_srvs/srv/Trigger', answer({ success: true, message: '' }));
    t.advertiseService('/slow_fail', 'std_srvs/srv/Trigger', answer(new Error('late and broken')));
    const caller = transport();
    await caller.connect();
    const calls = [
      caller.callService('/slow', 'std_srvs/srv/Trigger', {}, 3000),
      caller.callService('/slow_fail', 'std_srvs/srv/Trigger', {}, 3000),
    ];
    for (const call of calls) call.catch(() => undefined);
    await eventually(() => bridge.ops.filter((op) => op.op === 'call_service').length === 2, 3000, 'the calls');
    await bridge.stop();
    // Both handlers end while the link is down; the bridge that comes back never asked.
    await sleep(600);
    await bridge.start();
    await eventually(() => t.connected && caller.connected, 8000, 'back');
    await sleep(300);
    expect(bridge.ops.filter((op) => op.op === 'service_response')).to.deep.equal([]);
  });

  it('advertises a service made while the link is down once, and forgets one withdrawn while down', async () => {
    const t = transport();
    await t.connect();
    const withdraw = t.advertiseService('/gone', 'std_srvs/srv/Trigger', () => ({ success: true, message: '' }));
    await eventually(() => bridge.ops.some((op) => op.op === 'advertise_service'), 3000, 'the first advertisement');
    await bridge.stop();
    await eventually(() => !t.link().up, 3000, 'down');
    const before = bridge.ops.length;
    t.advertiseService('/late', 'std_srvs/srv/Trigger', () => ({ success: true, message: '' }));
    withdraw();
    await bridge.start();
    await eventually(() => t.connected, 8000, 'back');
    await sleep(300);
    const after = bridge.ops.slice(before).filter((op) => op.op.includes('advertise_service'));
    expect(after.map((op) => `${op.op} ${String(op.service)}`)).to.deep.equal(['advertise_service /late']);
  });

  it('says nothing more once closed over a frozen bridge', async () => {
    const t = transport();
    await t.connect();
    bridge.freeze();
    try {
      await t.close();
      await sleep(600);
      expect(logs).to.deep.equal([]);
    } finally {
      bridge.thaw();
    }
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
