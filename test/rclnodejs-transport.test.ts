import { expect } from 'chai';
import type { MiraError } from '@mira/core';
import { RclnodejsTransport } from '@mira/plugin-ros2';
import {
  CANCEL_ALL_GOALS,
  CANCEL_GOAL_SERVICE_TYPE,
  E_STOP_QOS,
  E_STOP_TYPE,
  NAVIGATE_TO_POSE,
  subscribeEStop,
  type RosMessage,
} from '@mira/robot';
import { eventually } from './conformance/transport-contract.js';
import rclnodejs, {
  graph,
  reinstallSignalHandler,
  serveAction,
  stopActionServers,
  signalHandlerInstalled,
} from './helpers/rclnodejs-standin.js';

/** Another ROS node in the same graph, on its own context, as a robot's driver would be. */
async function otherNode(name: string) {
  const context = new rclnodejs.Context();
  await rclnodejs.init(context);
  const node = new rclnodejs.Node(name, '', context);
  node.spin();
  return { node, context };
}

describe('the rclnodejs transport against the rclnodejs 2.2 stand-in', function () {
  this.timeout(10_000);
  let transport: RclnodejsTransport;
  let logged: string[];
  let peer: Awaited<ReturnType<typeof otherNode>>;

  beforeEach(async () => {
    reinstallSignalHandler();
    logged = [];
    transport = new RclnodejsTransport('mira_rcl_test', '/robot1', {
      log: (message) => logged.push(message),
      load: async () => rclnodejs,
    });
    await transport.connect();
    peer = await otherNode('peer');
  });
  afterEach(async () => {
    await transport.close();
    if (!peer.context.isShutdown()) peer.context.shutdown();
    // Its action servers leave the graph too: the next file in this process reads the same graph.
    stopActionServers();
  });

  it("removes rclnodejs's SIGINT handler, so Mira's orderly stop runs on a live context", async () => {
    const fresh = new RclnodejsTransport('mira_signals', '', { load: async () => rclnodejs });
    reinstallSignalHandler();
    expect(signalHandlerInstalled()).to.equal(true);
    await fresh.connect();
    expect(signalHandlerInstalled()).to.equal(false);
    // A Ctrl-C now reaches only Mira: its last zero-velocity command still goes out.
    await fresh.publish('/cmd_vel', 'geometry_msgs/msg/Twist', { linear: { x: 0, y: 0, z: 0 } });
    expect(graph.published.get('/cmd_vel')?.at(-1)).to.deep.include({ linear: { x: 0, y: 0, z: 0 } });
    await fresh.close();
  });

  it('sends int64 fields as BigInt (rclnodejs throws on a number) and delivers them as plain numbers', async () => {
    const seenByPeer: RosMessage[] = [];
    peer.node.createSubscription('example_interfaces/msg/Int64', '/robot1/count', {}, (m) => seenByPeer.push(m));
    const seenByMira: RosMessage[] = [];
    transport.subscribe('count', 'example_interfaces/msg/Int64', (m) => seenByMira.push(m));
    await transport.publish('count', 'example_interfaces/msg/Int64', { data: 42 });
    await eventually(() => seenByPeer.length === 1 && seenByMira.length === 1, 2000, 'both subscribers');
    expect(seenByPeer[0]).to.deep.equal({ data: 42n });
    expect(seenByMira[0]).to.deep.equal({ data: 42 });
    expect(JSON.stringify(seenByMira[0])).to.equal('{"data":42}');
  });

  it('converts int64 arrays both ways', async () => {
    const seen: RosMessage[] = [];
    transport.subscribe('/ids', 'example_interfaces/msg/Int64MultiArrayData', (m) => seen.push(m));
    await transport.publish('/ids', 'example_interfaces/msg/Int64MultiArrayData', { data: [1, -2, 3] });
    await eventually(() => seen.length === 1, 2000, 'the array');
    expect(seen[0]).to.deep.equal({ data: [1, -2, 3] });
    expect(graph.published.get('/ids')?.at(-1)).to.deep.equal({ data: [1n, -2n, 3n] });
  });

  it('refuses a fractional int64 with a transport error and publishes nothing', async () => {
    const before = graph.published.get('/robot1/count')?.length ?? 0;
    let error: MiraError | undefined;
    try {
      await transport.publish('count', 'example_interfaces/msg/Int64', { data: 2.5 });
    } catch (e) {
      error = e as MiraError;
    }
    expect(error?.code).to.equal('MIRA_ERR_HARDWARE_TRANSPORT_FAILED');
    expect(error?.message).to.include('example_interfaces/msg/Int64.data must be a whole number');
    expect(graph.published.get('/robot1/count')?.length ?? 0).to.equal(before);
  });

  it('delivers typed arrays as arrays, keeps NaN for the converters, and serialises like rosbridge', async () => {
    const seen: RosMessage[] = [];
    transport.subscribe('/scan', 'sensor_msgs/msg/LaserScan', (m) => seen.push(m), { reliability: 'best_effort' });
    peer.node
      .createPublisher('sensor_msgs/msg/LaserScan', '/scan')
      .publish({ ranges: [1.5, Number.NaN, Number.POSITIVE_INFINITY], range_max: 10 });
    await eventually(() => seen.length === 1, 2000, 'the scan');
    const ranges = seen[0]!.ranges as number[];
    expect(Array.isArray(ranges)).to.equal(true);
    expect(ranges[0]).to.equal(1.5);
    expect(Number.isNaN(ranges[1])).to.equal(true);
    expect(ranges[2]).to.equal(Number.POSITIVE_INFINITY);
    expect(JSON.stringify(ranges)).to.equal('[1.5,null,null]');
  });

  it('sets keep-last history with the configured depth and reliability', () => {
    transport.subscribe('/imu', 'std_msgs/msg/String', () => {}, { reliability: 'best_effort', depth: 3 });
    const sub = [...graph.subscriptions].find((s) => s.topic === '/imu');
    expect(sub?.qos).to.deep.include({ history: 1, depth: 3, reliability: 2, durability: 2 });
  });

  for (const [how, handler] of [
    [
      'throws',
      () => {
        throw new Error('handler broke');
      },
    ],
    ['rejects', async () => Promise.reject(new Error('handler broke'))],
  ] as const) {
    it(`answers with the empty response and logs when a service handler ${how}, instead of leaving the caller waiting`, async () => {
      transport.advertiseService('~/add', 'example_interfaces/srv/AddTwoInts', handler);
      const client = peer.node.createClient('example_interfaces/srv/AddTwoInts', '/robot1/mira_rcl_test/add');
      expect(await client.waitForService(1000)).to.equal(true);
      const response = await client.sendRequestAsync({ a: 1n, b: 2n }, { timeout: 1000 });
      expect(response).to.deep.equal({ sum: 0n });
      expect(logged.join('\n')).to.include('service ~/add failed (handler broke)');
      expect(graph.logged.join('\n')).not.to.include('handler broke');
    });
  }

  it('hears a latched (transient local) e-stop sent before Mira subscribed, and a best-effort e-stop publisher', async () => {
    const { QoS } = rclnodejs;
    const latchedQos = new QoS(
      QoS.HistoryPolicy.RMW_QOS_POLICY_HISTORY_KEEP_LAST,
      1,
      QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_RELIABLE,
      QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL,
    );
    const latched = peer.node.createPublisher(E_STOP_TYPE, '/e_stop', { qos: latchedQos });
    latched.publish({ data: true });
    await new Promise((resolve) => setTimeout(resolve, 20)); // delivered to nobody: Mira subscribes later
    const heard: boolean[] = [];
    subscribeEStop(transport, '/e_stop', (m) => heard.push(m.data as boolean));
    await eventually(() => heard.length === 1, 2000, 'the latched e-stop');
    expect(heard).to.deep.equal([true]);
    const bestEffortQos = new QoS(
      QoS.HistoryPolicy.RMW_QOS_POLICY_HISTORY_KEEP_LAST,
      1,
      QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT,
      QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_VOLATILE,
    );
    peer.node.createPublisher(E_STOP_TYPE, '/e_stop', { qos: bestEffortQos }).publish({ data: false });
    await eventually(() => heard.length === 2, 2000, 'the best-effort e-stop');
    expect(heard).to.deep.equal([true, false]);
    // The stand-in applies DDS's matching rule: one reliable + transient-local subscription alone would
    // never have heard the best-effort publisher, nor a volatile one the latched value.
    const alone: boolean[] = [];
    transport.subscribe('/e_stop', E_STOP_TYPE, (m) => alone.push(m.data as boolean), E_STOP_QOS[0]);
    await eventually(() => alone.length === 1, 2000, 'the latched value again');
    peer.node.createPublisher(E_STOP_TYPE, '/e_stop', { qos: bestEffortQos }).publish({ data: true });
    await eventually(() => heard.length === 3, 2000, 'the second best-effort message');
    expect(alone).to.deep.equal([true]);
  });

  it('reuses one client per service and destroys its clients on close', async () => {
    peer.node.createService('example_interfaces/srv/AddTwoInts', '/add', {}, (req) => ({
      sum: (req.a as bigint) + (req.b as bigint),
    }));
    const before = graph.clientsCreated;
    for (let i = 0; i < 3; i += 1) {
      expect(
        await transport.callService('/add', 'example_interfaces/srv/AddTwoInts', { a: i, b: 40 }, 1000),
      ).to.deep.equal({ sum: 40 + i });
    }
    expect(graph.clientsCreated - before).to.equal(1);
    await transport.close();
    expect([...graph.clients].filter((c) => c.node.name === 'mira_rcl_test')).to.have.length(0);
  });

  it('times out a service that never answers with MIRA_ERR_HARDWARE_SERVICE_TIMEOUT', async () => {
    peer.node.createService('std_srvs/srv/Trigger', '/slow', {}, () => new Promise(() => {}));
    let error: MiraError | undefined;
    try {
      await transport.callService('/slow', 'std_srvs/srv/Trigger', {}, 200);
    } catch (e) {
      error = e as MiraError;
    }
    expect(error?.code).to.equal('MIRA_ERR_HARDWARE_SERVICE_TIMEOUT');
    expect(error?.message).to.include('did not answer within 200 ms');
  });

  it('closes only its own context: other nodes in the process keep working', async () => {
    await transport.close();
    expect(peer.context.isShutdown()).to.equal(false);
    const seen: RosMessage[] = [];
    peer.node.createSubscription('std_msgs/msg/String', '/after', {}, (m) => seen.push(m));
    peer.node.createPublisher('std_msgs/msg/String', '/after').publish({ data: 'still here' });
    await eventually(() => seen.length === 1, 2000, 'the peer message');
    expect([...graph.nodes].map((n) => n.name)).not.to.include('mira_rcl_test');
  });

  describe('action goals (rclnodejs ActionClient)', () => {
    const goal = { pose: { header: { frame_id: 'map' }, pose: { position: { x: 1, y: 2, z: 0 } } }, behavior_tree: '' };

    it('sends a goal, passes feedback as plain JSON, and reports the result with its status', async () => {
      const nav2 = await serveAction('/robot1/navigate_to_pose', NAVIGATE_TO_POSE);
      const feedback: RosMessage[] = [];
      const sent = await transport.sendActionGoal('navigate_to_pose', NAVIGATE_TO_POSE, goal, (f) => feedback.push(f));
      await eventually(() => nav2.goals.length === 1, 2000, 'the goal');
      expect(nav2.goals[0]!.goal).to.deep.nested.include({ 'pose.pose.position.y': 2, 'pose.header.frame_id': 'map' });
      nav2.goals[0]!.feedback({ distance_remaining: 0.5, number_of_recoveries: 2 });
      await eventually(() => feedback.length === 1, 2000, 'the feedback');
      expect(feedback[0]).to.deep.include({ distance_remaining: 0.5, number_of_recoveries: 2 });
      nav2.goals[0]!.succeed({ error_code: 0 });
      expect(await sent.outcome).to.deep.equal({ status: 'succeeded', result: { error_code: 0, error_msg: '' } });
    });

    it('cancels its own goal, and the cancel service (what the safety path calls) cancels every goal', async () => {
      const nav2 = await serveAction('/robot1/navigate_to_pose', NAVIGATE_TO_POSE);
      const first = await transport.sendActionGoal('navigate_to_pose', NAVIGATE_TO_POSE, goal, () => {});
      await first.cancel();
      expect((await first.outcome).status).to.equal('canceled');
      const second = await transport.sendActionGoal('navigate_to_pose', NAVIGATE_TO_POSE, goal, () => {});
      const answer = await transport.callService(
        '/robot1/navigate_to_pose/_action/cancel_goal',
        CANCEL_GOAL_SERVICE_TYPE,
        CANCEL_ALL_GOALS,
        1000,
      );
      expect(answer.return_code).to.equal(0);
      expect((await second.outcome).status).to.equal('canceled');
      expect(nav2.goals.map((g) => g.state)).to.deep.equal(['canceled', 'canceled']);
    });

    it("names each goal by its UUID; another node (the safety path's) cancels that goal alone by it", async () => {
      const nav2 = await serveAction('/robot1/navigate_to_pose', NAVIGATE_TO_POSE);
      const others = new RclnodejsTransport('someone_else', '/robot1', { load: async () => rclnodejs });
      const safety = new RclnodejsTransport('mira_safety', '/robot1', { load: async () => rclnodejs });
      await others.connect();
      await safety.connect();
      try {
        const theirs = await others.sendActionGoal('navigate_to_pose', NAVIGATE_TO_POSE, goal, () => {});
        const mine = await transport.sendActionGoal('navigate_to_pose', NAVIGATE_TO_POSE, goal, () => {});
        expect(mine.id).to.match(/^[0-9a-f]{32}$/);
        expect(mine.id).to.equal(Buffer.from(nav2.goals[1]!.uuid).toString('hex'));
        expect(theirs.id).not.to.equal(mine.id);
        await safety.cancelGoal('navigate_to_pose', mine.id!);
        expect((await mine.outcome).status).to.equal('canceled');
        expect(nav2.goals.map((g) => g.state)).to.deep.equal(['active', 'canceled']);
        // Once it has ended, cancelling it again is no error (ERROR_GOAL_TERMINATED: nothing left to stop).
        await safety.cancelGoal('navigate_to_pose', mine.id!);
        // A UUID the server does not know is refused with its return code, and nothing is cancelled.
        let unknown: MiraError | undefined;
        await safety.cancelGoal('navigate_to_pose', 'ab'.repeat(16)).catch((e: MiraError) => (unknown = e));
        expect(unknown?.message).to.include('ERROR_UNKNOWN_GOAL_ID');
        let malformed: MiraError | undefined;
        await safety.cancelGoal('navigate_to_pose', 'send_action_goal:1').catch((e: MiraError) => (malformed = e));
        expect(malformed?.message).to.include('is not a goal UUID');
        expect(nav2.goals.map((g) => g.state)).to.deep.equal(['active', 'canceled']);
      } finally {
        await others.close();
        await safety.close();
      }
    });

    it('reports a rejected goal, and refuses at once when no server answers', async () => {
      await serveAction('/robot1/picky', NAVIGATE_TO_POSE, false);
      const refused = await transport.sendActionGoal('picky', NAVIGATE_TO_POSE, goal, () => {});
      expect(await refused.outcome).to.deep.include({ status: 'rejected' });
      let error: MiraError | undefined;
      try {
        await transport.sendActionGoal('nobody', NAVIGATE_TO_POSE, goal, () => {});
      } catch (e) {
        error = e as MiraError;
      }
      expect(error?.code).to.equal('MIRA_ERR_HARDWARE_SERVICE_TIMEOUT');
    });
  });
});
