import { expect } from 'chai';
import type { MiraError } from '@mira/core';
import { RosbridgeTransport, goalStatus } from '@mira/plugin-ros2';
import { NAVIGATE_TO_POSE, type RosMessage } from '@mira/robot';
import { rejection } from './conformance/memory-store-contract.js';
import { eventually } from './conformance/transport-contract.js';
import { startRosbridgeServer, type RosbridgeTestServer } from './helpers/rosbridge-server.js';

const TWIST = 'geometry_msgs/msg/Twist';
const twist = (x: number) => ({ linear: { x, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function thrown(run: () => unknown): MiraError {
  try {
    run();
  } catch (error) {
    return error as MiraError;
  }
  throw new Error('expected a throw');
}

describe('rosbridge transport: what it says and refuses, exactly (faithful in-test bridge)', function () {
  this.timeout(20_000);
  let bridge: RosbridgeTestServer;
  let transport: RosbridgeTransport;
  let logs: string[];
  beforeEach(async () => {
    bridge = await startRosbridgeServer();
    bridge.declareTopic('/cmd_vel', TWIST);
    logs = [];
    transport = new RosbridgeTransport(bridge.url, 2000, (m) => logs.push(m), { livenessMs: 200, goalAcceptMs: 300 });
    await transport.connect();
  });
  afterEach(async () => {
    await transport.close();
    await bridge.close();
  });

  it('names itself by its URL, and connects once', async () => {
    expect(transport.name).to.equal(`rosbridge ${bridge.url}`);
    await transport.connect();
    expect(transport.connected).to.equal(true);
    expect(transport.link()).to.deep.include({ up: true });
  });

  it('refuses everything after close, saying it is closed, and closes twice quietly', async () => {
    await transport.close();
    await transport.close();
    expect(transport.connected).to.equal(false);
    const publish = await rejection(transport.publish('/cmd_vel', TWIST, twist(0.1)));
    expect(publish.code).to.equal('MIRA_ERR_HARDWARE_TRANSPORT_FAILED');
    expect(publish.message).to.contain(`rosbridge ${bridge.url}: closed; the message on /cmd_vel was not sent`);
    const call = await rejection(transport.callService('/x', 'std_srvs/srv/Trigger', {}, 100));
    expect(call.message).to.contain('closed; the call to /x was not sent');
    const goal = await rejection(transport.sendActionGoal('/nav', NAVIGATE_TO_POSE, {}, () => undefined));
    expect(goal.message).to.contain('closed; the goal to /nav was not sent');
    expect(thrown(() => transport.subscribe('/a', TWIST, () => undefined)).message).to.contain('not connected');
    expect(thrown(() => transport.advertiseService('/s', 'std_srvs/srv/Trigger', () => ({}))).message).to.contain(
      'not connected',
    );
    expect((await rejection(transport.roundTrip())).message).to.contain('the link is down');
  });

  it('refuses to subscribe or advertise before it connected', () => {
    const fresh = new RosbridgeTransport(bridge.url, 2000, () => undefined);
    expect(thrown(() => fresh.subscribe('/a', TWIST, () => undefined)).code).to.equal(
      'MIRA_ERR_HARDWARE_TRANSPORT_FAILED',
    );
    expect(fresh.connected).to.equal(false);
    expect(fresh.link()).to.deep.equal({ up: false, since: fresh.link().since, why: 'not connected yet' });
  });

  it('advertises a topic once, before its first message, with the type', async () => {
    await transport.publish('/cmd_vel', TWIST, twist(0.1));
    await transport.publish('/cmd_vel', TWIST, twist(0.2));
    await eventually(() => bridge.published('/cmd_vel').length === 2, 3000, 'both messages');
    const advertised = bridge.ops.filter((op) => op.op === 'advertise');
    expect(advertised).to.have.length(1);
    expect(advertised[0]).to.deep.include({ topic: '/cmd_vel', type: TWIST });
    expect(bridge.logged).to.deep.equal([]);
  });

  it('unadvertises its topics and services on close while connected', async () => {
    await transport.publish('/cmd_vel', TWIST, twist(0.1));
    transport.advertiseService('/ping', 'std_srvs/srv/Trigger', () => ({ success: true, message: '' }));
    await eventually(() => bridge.ops.some((op) => op.op === 'advertise_service'), 3000, 'the service');
    await transport.close();
    await eventually(() => bridge.ops.some((op) => op.op === 'unadvertise'), 3000, 'the unadvertise');
    expect(bridge.ops.find((op) => op.op === 'unadvertise')).to.deep.include({ topic: '/cmd_vel' });
  });

  it('withdraws a service it offered', async () => {
    const withdraw = transport.advertiseService('/ping', 'std_srvs/srv/Trigger', () => ({ success: true }));
    await eventually(() => bridge.ops.some((op) => op.op === 'advertise_service'), 3000, 'the service');
    expect(bridge.ops.find((op) => op.op === 'advertise_service')).to.deep.include({
      service: '/ping',
      type: 'std_srvs/srv/Trigger',
    });
    withdraw();
    await eventually(() => bridge.ops.some((op) => op.op === 'unadvertise_service'), 3000, 'the withdrawal');
    const caller = new RosbridgeTransport(bridge.url, 2000, () => undefined);
    await caller.connect();
    try {
      const error = await rejection(caller.callService('/ping', 'std_srvs/srv/Trigger', {}, 3000));
      expect(error.detail).to.equal(`rosbridge ${bridge.url}: service /ping failed: Service /ping does not exist`);
    } finally {
      await caller.close();
    }
  });

  it('answers a service call with the handler’s values, and times a silent service out with its own code', async () => {
    transport.advertiseService('/add', 'example_interfaces/srv/AddTwoInts', async (request) => ({
      sum: Number(request.a) + Number(request.b),
    }));
    transport.advertiseService('/mute', 'std_srvs/srv/Trigger', () => 'not an object' as unknown as RosMessage);
    await eventually(() => bridge.ops.filter((op) => op.op === 'advertise_service').length === 2, 3000, 'services');
    const caller = new RosbridgeTransport(bridge.url, 2000, () => undefined);
    await caller.connect();
    try {
      expect(await caller.callService('/add', 'example_interfaces/srv/AddTwoInts', { a: 2, b: 3 }, 3000)).to.deep.equal(
        { sum: 5 },
      );
      const call = bridge.ops.find((op) => op.op === 'call_service' && op.service === '/add')!;
      expect(call).to.deep.include({ type: 'example_interfaces/srv/AddTwoInts', args: { a: 2, b: 3 }, timeout: 3 });
      expect(String(call.id)).to.match(/^call_service:\/add:mira\d+$/);
      // The bridge cannot build a response from a string: it logs it, and the caller hears nothing.
      const silent = await rejection(caller.callService('/mute', 'std_srvs/srv/Trigger', {}, 300));
      expect(silent.code).to.equal('MIRA_ERR_HARDWARE_SERVICE_TIMEOUT');
      expect(silent.detail).to.equal(`rosbridge ${bridge.url}: service /mute did not answer within 300 ms`);
      expect(bridge.logged.some((l) => l.startsWith('service_response /mute'))).to.equal(true);
    } finally {
      await caller.close();
    }
  });

  it('fails a call in flight when the connection closes, saying so', async () => {
    transport.advertiseService('/slow', 'std_srvs/srv/Trigger', () => new Promise<RosMessage>(() => undefined));
    const caller = new RosbridgeTransport(bridge.url, 2000, () => undefined);
    await caller.connect();
    try {
      await eventually(() => bridge.ops.some((op) => op.op === 'advertise_service'), 3000, 'the service');
      const pending = caller.callService('/slow', 'std_srvs/srv/Trigger', {}, 5000);
      await eventually(() => bridge.ops.some((op) => op.op === 'call_service'), 3000, 'the call');
      await bridge.stop();
      const error = await rejection(pending);
      expect(error.detail).to.equal(`rosbridge ${bridge.url}: the connection closed during the call to /slow`);
    } finally {
      await caller.close();
    }
  });

  it('refuses while down with why, and says down, then back, once each', async () => {
    await bridge.stop();
    await eventually(() => !transport.connected, 3000, 'down');
    const refused = await rejection(transport.publish('/cmd_vel', TWIST, twist(0.1)));
    expect(refused.detail).to.equal(
      `rosbridge ${bridge.url}: not connected (connection lost); the message on /cmd_vel was not sent and is not queued`,
    );
    const goal = await rejection(transport.sendActionGoal('/nav', NAVIGATE_TO_POSE, {}, () => undefined));
    expect(goal.message).to.contain('the goal to /nav was not sent and is not queued');
    expect(logs).to.deep.equal([
      `rosbridge ${bridge.url}: connection lost; sensors go stale and commands are refused until it is back`,
    ]);
    await sleep(500);
    await bridge.start();
    await eventually(() => transport.connected, 8000, 'back');
    expect(logs).to.have.length(2);
    expect(logs[1]).to.match(
      new RegExp(
        `^rosbridge ${bridge.url.replaceAll('.', '\\.')}: reconnected after \\d\\.\\d s \\(\\d+ attempts?\\); subscriptions and advertisements restored$`,
      ),
    );
    // A link listener that throws is logged; the rest still hear.
    const heard: boolean[] = [];
    transport.onLink(() => {
      throw new Error('listener broke');
    });
    const off = transport.onLink((s) => heard.push(s.up));
    await bridge.stop();
    await eventually(() => heard.length === 1, 3000, 'the second listener');
    expect(logs.some((l) => l === `rosbridge ${bridge.url}: a link listener failed: listener broke`)).to.equal(true);
    off();
    await bridge.start();
    await eventually(() => transport.connected, 8000, 'back again');
    expect(heard).to.deep.equal([false]);
  });

  it('backs off between attempts while the bridge stays down', async () => {
    await bridge.stop();
    await sleep(2200);
    await bridge.start();
    await eventually(() => transport.connected, 8000, 'back');
    // 0.2 s, 0.4 s, 0.8 s, 1.6 s: four attempts in 2.2 s at most, not one every few milliseconds.
    const attempts = Number(/\((\d+) attempts?\)/.exec(logs.at(-1)!)![1]);
    expect(attempts).to.be.within(2, 5);
  });

  it('drops what arrives from a link past its deadline, and delivers again once it is back', async () => {
    bridge.declareTopic('/battery', 'sensor_msgs/msg/BatteryState');
    const got: RosMessage[] = [];
    transport.subscribe('/battery', 'sensor_msgs/msg/BatteryState', (m) => got.push(m));
    await eventually(() => bridge.subscribers('/battery') === 1, 3000, 'the subscription');
    bridge.publish('/battery', { percentage: 0.5 });
    await eventually(() => got.length === 1, 3000, 'a reading');
    const unsubscribe = transport.subscribe('/battery', 'sensor_msgs/msg/BatteryState', () => got.push({ x: 1 }));
    await eventually(() => bridge.subscribers('/battery') === 2, 3000, 'the second subscription');
    unsubscribe();
    await eventually(() => bridge.subscribers('/battery') === 1, 3000, 'the unsubscription');
    bridge.publish('/battery', { percentage: 0.4 });
    await eventually(() => got.length === 2, 3000, 'the next reading');
    // percentage is a float32: rclpy hands the bridge 0.4 widened to a double, and the transport passes it on.
    expect(got.map((m) => m.percentage)).to.deep.equal([0.5, 0.4000000059604645]);
  });

  describe('action goals', () => {
    it('sends each goal on a connection of its own with the action type and feedback on, and ends it', async () => {
      const nav = bridge.actionServer('/nav', NAVIGATE_TO_POSE);
      const feedback: RosMessage[] = [];
      const goal = await transport.sendActionGoal('/nav', NAVIGATE_TO_POSE, { x: 1 }, (f) => feedback.push(f));
      await eventually(() => nav.goals.length === 1, 3000, 'the goal');
      const sent = bridge.ops.find((op) => op.op === 'send_action_goal')!;
      expect(sent).to.deep.include({ action: '/nav', action_type: NAVIGATE_TO_POSE, args: { x: 1 }, feedback: true });
      expect(String(sent.id)).to.match(/^send_action_goal:\/nav:mira-[0-9a-f]{8}-\d+$/);
      expect(goal.id).to.equal(sent.id);
      nav.goals[0]!.feedback({ distance_remaining: 2 });
      await eventually(() => feedback.length === 1, 3000, 'feedback');
      expect(feedback).to.deep.equal([{ distance_remaining: 2 }]);
      nav.goals[0]!.succeed({ error_code: 0 });
      expect(await goal.outcome).to.deep.equal({ status: 'succeeded', result: { error_code: 0 } });
      // Cancelling a goal that ended sends nothing.
      await goal.cancel();
      await sleep(100);
      expect(bridge.ops.filter((op) => op.op === 'cancel_action_goal')).to.deep.equal([]);
    });

    it('cancels from its own connection, which a running goal does not hold', async () => {
      const nav = bridge.actionServer('/nav', NAVIGATE_TO_POSE);
      const goal = await transport.sendActionGoal('/nav', NAVIGATE_TO_POSE, {}, () => undefined);
      await eventually(() => nav.goals.length === 1, 3000, 'the goal');
      nav.goals[0]!.feedback({});
      await goal.cancel();
      expect(await goal.outcome).to.deep.include({ status: 'canceled' });
      expect(bridge.ops.find((op) => op.op === 'cancel_action_goal')).to.deep.include({ action: '/nav' });
    });

    it("is cancelled by its ID from another connection (the safety path's), and no other client's goal is", async () => {
      const nav = bridge.actionServer('/nav', NAVIGATE_TO_POSE);
      const others = new RosbridgeTransport(bridge.url, 2000, () => undefined, { livenessMs: 200 });
      const safety = new RosbridgeTransport(bridge.url, 2000, () => undefined, { livenessMs: 200 });
      await others.connect();
      await safety.connect();
      try {
        const theirs = await others.sendActionGoal('/nav', NAVIGATE_TO_POSE, {}, () => undefined);
        const mine = await transport.sendActionGoal('/nav', NAVIGATE_TO_POSE, {}, () => undefined);
        await eventually(() => nav.goals.length === 2, 3000, 'both goals');
        for (const g of nav.goals) g.feedback({});
        expect(mine.id).not.to.equal(theirs.id);
        await safety.cancelGoal('/nav', mine.id!);
        expect(await mine.outcome).to.deep.include({ status: 'canceled' });
        expect(nav.goals.map((g) => g.state)).to.deep.equal(['active', 'canceled']);
        // An ID the bridge does not know (it restarted since) is answered with nothing: nothing is cancelled.
        await safety.cancelGoal('/nav', 'send_action_goal:/nav:mira-00000000-1');
        await sleep(100);
        expect(nav.goals.map((g) => g.state)).to.deep.equal(['active', 'canceled']);
        nav.goals[0]!.succeed();
        expect(await theirs.outcome).to.deep.include({ status: 'succeeded' });
      } finally {
        await others.close();
        await safety.close();
      }
    });

    it('reports aborted and unknown statuses as aborted, and a refused goal with the bridge’s reason', async () => {
      expect([goalStatus(4), goalStatus(5), goalStatus(6), goalStatus(2), goalStatus(undefined)]).to.deep.equal([
        'succeeded',
        'canceled',
        'aborted',
        'aborted',
        'aborted',
      ]);
      const nav = bridge.actionServer('/nav', NAVIGATE_TO_POSE);
      const goal = await transport.sendActionGoal('/nav', NAVIGATE_TO_POSE, {}, () => undefined);
      await eventually(() => nav.goals.length === 1, 3000, 'the goal');
      nav.goals[0]!.abort({ error_code: 104 });
      expect(await goal.outcome).to.deep.equal({ status: 'aborted', result: { error_code: 104 } });
      bridge.actionServer('/other', 'nav2_msgs/action/NavigateThroughPoses');
      const refused = await transport.sendActionGoal('/other', NAVIGATE_TO_POSE, {}, () => undefined);
      expect(await refused.outcome).to.deep.equal({
        status: 'rejected',
        result: {},
        error: `action type ${NAVIGATE_TO_POSE} does not match nav2_msgs/action/NavigateThroughPoses`,
      });
    });

    it('rejects a goal with no word within goal_accept_timeout_ms, cancelling it, and does not wait longer', async () => {
      const started = Date.now();
      const goal = await transport.sendActionGoal('/nobody', NAVIGATE_TO_POSE, {}, () => undefined);
      const outcome = await goal.outcome;
      expect(outcome).to.deep.equal({
        status: 'rejected',
        result: {},
        error:
          'no feedback or result within 300 ms (no action server on /nobody, or the bridge refused the goal); cancelled',
      });
      expect(Date.now() - started).to.be.below(2000);
      await eventually(() => bridge.ops.some((op) => op.op === 'cancel_action_goal'), 3000, 'the cancel');
    });

    it('a goal that gets feedback in time is not rejected later', async () => {
      const nav = bridge.actionServer('/nav', NAVIGATE_TO_POSE);
      const goal = await transport.sendActionGoal('/nav', NAVIGATE_TO_POSE, {}, () => undefined);
      await eventually(() => nav.goals.length === 1, 3000, 'the goal');
      nav.goals[0]!.feedback({});
      let settled = false;
      void goal.outcome.then(() => (settled = true));
      await sleep(500);
      expect(settled).to.equal(false);
      nav.goals[0]!.succeed();
      expect(await goal.outcome).to.deep.include({ status: 'succeeded' });
    });

    it('says the goal is lost when its connection closes while it runs', async () => {
      const nav = bridge.actionServer('/nav', NAVIGATE_TO_POSE);
      const goal = await transport.sendActionGoal('/nav', NAVIGATE_TO_POSE, {}, () => undefined);
      await eventually(() => nav.goals.length === 1, 3000, 'the goal');
      nav.goals[0]!.feedback({});
      await bridge.stop();
      const error = await rejection(goal.outcome);
      expect(error.detail).to.equal(
        `rosbridge ${bridge.url}: the connection closed while the goal to /nav was running; the robot may still be pursuing it`,
      );
      // Nothing is left to cancel on the goal's side: it is said quietly.
      await goal.cancel();
    });
  });
});
