import { expect } from 'chai';
import { definePlugin, type ManualClock, type MiraPlugin } from '@mira/core';
import { createTestRuntime, type TestRuntime } from '@mira/core/testing';
import ros2Plugin, { RclnodejsTransport } from '@mira/plugin-ros2';
import simPlugin from '@mira/plugin-sim';
import { ARRAY_ITEMS_SHOWN, MESSAGE_BYTE_BOUND, attachRobot, boundMessage } from '@mira/robot';
import rclnodejs, {
  graph as rclGraph,
  remoteNode,
  serveAction,
  stopActionServers,
} from './helpers/rclnodejs-standin.js';
import { parameterValue } from './helpers/rosapi.js';
import { startRosbridgeServer, type RosbridgeTestServer } from './helpers/rosbridge-server.js';

/** What a test puts on the robot's side of the graph, whichever transport reaches it. */
interface RobotSide {
  node(name: string, parameters: Record<string, boolean | number | string | number[] | string[]>): Promise<void>;
  /** A topic with a publisher that repeats `message` until the test ends. */
  topic(name: string, type: string, message: Record<string, unknown>): Promise<void>;
  action(name: string, type: string): Promise<void>;
  service(name: string, type: string): Promise<void>;
}

interface Rig {
  readonly rt: TestRuntime;
  readonly robot: RobotSide;
  close(): Promise<void>;
}

const call = async (rt: TestRuntime, name: string, args: Record<string, unknown>) =>
  JSON.parse((await rt.callTool(name, args)).content) as Record<string, any>;

const SCAN = {
  header: { stamp: { sec: 12, nanosec: 500 }, frame_id: 'laser' },
  angle_min: -3.125,
  angle_max: 3.125,
  angle_increment: 0.25,
  time_increment: 0,
  scan_time: 0.125,
  range_min: 0.125,
  range_max: 12,
  ranges: Array.from({ length: 360 }, (_, i) => 0.5 + (i % 4) * 0.25),
  intensities: [],
};
const IMAGE = {
  header: { stamp: { sec: 3, nanosec: 0 }, frame_id: 'camera' },
  format: 'jpeg',
  data: Array.from({ length: 3000 }, (_, i) => i % 256),
};

/** The same cases, with the same expected results, on every transport that reaches a ROS graph. */
function describeGraphTools(label: string, make: () => Promise<Rig>): void {
  describe(`the ROS graph tools over ${label}`, function () {
    this.timeout(20_000);
    let rig: Rig;
    beforeEach(async () => {
      rig = await make();
      await rig.robot.node('/robot1/controller_server', {
        desired_linear_vel: 0.5,
        controller_plugins: ['FollowPath'],
        speed_samples: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0],
      });
      await rig.robot.topic('/robot1/scan', 'sensor_msgs/msg/LaserScan', SCAN);
      await rig.robot.topic('/robot1/camera/image_raw/compressed', 'sensor_msgs/msg/CompressedImage', IMAGE);
      await rig.robot.action('/robot1/dock', 'irobot_create_msgs/action/Dock');
      await rig.robot.service('/robot1/reset_pose', 'std_srvs/srv/Trigger');
    });
    afterEach(async () => rig?.close());

    it('lists topics with their types, hidden ones (an action’s) left out', async () => {
      expect(await call(rig.rt, 'list_ros_graph', { kind: 'topics', filter: '/robot1/' })).to.deep.equal({
        kind: 'topics',
        total: 2,
        items: [
          { name: '/robot1/camera/image_raw/compressed', type: 'sensor_msgs/msg/CompressedImage' },
          { name: '/robot1/scan', type: 'sensor_msgs/msg/LaserScan' },
        ],
      });
    });

    it('lists nodes by full name, services with types, and actions by name', async () => {
      const nodes = await call(rig.rt, 'list_ros_graph', { kind: 'nodes', filter: '/robot1/' });
      expect(nodes).to.deep.equal({ kind: 'nodes', total: 1, items: [{ name: '/robot1/controller_server' }] });
      const services = await call(rig.rt, 'list_ros_graph', { kind: 'services', filter: '/robot1/' });
      expect(services.items).to.deep.include({ name: '/robot1/reset_pose', type: 'std_srvs/srv/Trigger' });
      expect(services.items).to.deep.include({
        name: '/robot1/controller_server/get_parameters',
        type: 'rcl_interfaces/srv/GetParameters',
      });
      expect(
        services.items.map((s: { name: string }) => s.name).filter((n: string) => n.includes('_action')),
      ).to.deep.equal([]);
      expect(await call(rig.rt, 'list_ros_graph', { kind: 'actions', filter: null })).to.deep.equal({
        kind: 'actions',
        total: 1,
        items: [{ name: '/robot1/dock' }],
      });
    });

    it('counts what it leaves out beyond 50 names', async () => {
      for (let i = 0; i < 60; i++)
        await rig.robot.service(`/robot1/many/s${String(i).padStart(2, '0')}`, 'std_srvs/srv/Trigger');
      const listed = await call(rig.rt, 'list_ros_graph', { kind: 'services', filter: '/robot1/many/' });
      expect(listed).to.deep.include({ total: 60, omitted: 10 });
      expect(listed.items).to.have.length(50);
      expect(listed.items[49]).to.deep.equal({ name: '/robot1/many/s49', type: 'std_srvs/srv/Trigger' });
    });

    it("reads a node's parameters with their types, arrays cut with a marker", async () => {
      expect(
        await call(rig.rt, 'get_ros_parameters', { node: '/robot1/controller_server', filter: null }),
      ).to.deep.equal({
        node: '/robot1/controller_server',
        total: 4,
        parameters: [
          { name: 'controller_plugins', type: 'string_array', value: ['FollowPath'] },
          { name: 'desired_linear_vel', type: 'double', value: 0.5 },
          {
            name: 'speed_samples',
            type: 'double_array',
            value: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, '… 2 more items (10 in all)'],
          },
          { name: 'use_sim_time', type: 'bool', value: false },
        ],
      });
      const filtered = await call(rig.rt, 'get_ros_parameters', { node: '/robot1/controller_server', filter: 'vel' });
      expect(filtered.parameters.map((p: { name: string }) => p.name)).to.deep.equal(['desired_linear_vel']);
    });

    it('refuses the parameters of a node the graph does not have', async () => {
      expect(await call(rig.rt, 'get_ros_parameters', { node: '/robot1/nobody', filter: null })).to.deep.equal({
        status: 'rejected',
        reason: 'unknown_node',
        error:
          'no node /robot1/nobody in the ROS graph; list_ros_graph with kind "nodes" lists the nodes by their full names',
      });
    });

    it('echoes one message, its arrays cut with a marker, within the byte bound', async () => {
      const echoed = await call(rig.rt, 'echo_ros_topic', { topic: '/robot1/scan', wait_s: 5 });
      expect(echoed).to.deep.equal({
        status: 'received',
        topic: '/robot1/scan',
        type: 'sensor_msgs/msg/LaserScan',
        message: {
          ...SCAN,
          ranges: [...SCAN.ranges.slice(0, ARRAY_ITEMS_SHOWN), `… ${360 - ARRAY_ITEMS_SHOWN} more items (360 in all)`],
        },
        cut: true,
      });
    });

    it('summarises an image by its size instead of dumping it', async () => {
      const echoed = await call(rig.rt, 'echo_ros_topic', { topic: '/robot1/camera/image_raw/compressed', wait_s: 5 });
      expect(echoed.message).to.deep.equal({
        header: IMAGE.header,
        format: 'jpeg',
        data: '<3000 bytes of image data, not shown>',
      });
    });

    it('refuses a topic the graph does not have, and a wait out of range', async () => {
      expect(await call(rig.rt, 'echo_ros_topic', { topic: '/robot1/nothing', wait_s: null })).to.deep.equal({
        status: 'rejected',
        reason: 'unknown_topic',
        error: 'no topic /robot1/nothing in the ROS graph; list_ros_graph with kind "topics" lists them',
      });
      expect(await call(rig.rt, 'echo_ros_topic', { topic: '/robot1/scan', wait_s: 11 })).to.deep.include({
        status: 'rejected',
        reason: 'out_of_range',
      });
    });
  });
}

describe('the ROS graph tools, where only one transport can tell', function () {
  this.timeout(20_000);
  let bridge: RosbridgeTestServer | undefined;
  let rt: TestRuntime | undefined;
  afterEach(async () => {
    await rt?.dispose();
    await bridge?.close();
    rt = bridge = undefined;
  });
  const onBridge = async (rosapi: boolean) => {
    bridge = await startRosbridgeServer({ rosapi });
    rt = await createTestRuntime({
      plugins: [ros2Plugin],
      tables: { ros2: { transport: 'rosbridge', url: bridge.url, sensors: [] } },
    });
    return { bridge, rt };
  };

  it('says the graph cannot be read when rosapi does not run beside the bridge, and logs why', async () => {
    const { rt } = await onBridge(false);
    const listed = await call(rt, 'list_ros_graph', { kind: 'topics', filter: null });
    expect(listed).to.deep.include({ status: 'rejected', reason: 'graph_unavailable' });
    expect(listed.error).to.match(/^listing the ROS topics failed: .*\/rosapi\/topics/);
    expect(rt.logs.some((l) => l.includes('listing the ROS topics') && l.includes('/rosapi/topics'))).to.equal(true);
  });

  it('shows the bridge’s own graph: its nodes, /client_count, and rosapi’s services with their types', async () => {
    const { rt } = await onBridge(true);
    const nodes = await call(rt, 'list_ros_graph', { kind: 'nodes', filter: null });
    expect(nodes.items).to.deep.equal([
      { name: '/rosapi' },
      { name: '/rosapi_params' },
      { name: '/rosbridge_websocket' },
    ]);
    const topics = await call(rt, 'list_ros_graph', { kind: 'topics', filter: 'client' });
    expect(topics.items).to.deep.equal([{ name: '/client_count', type: 'std_msgs/msg/Int32' }]);
    const services = await call(rt, 'list_ros_graph', { kind: 'services', filter: '/rosapi/topic' });
    expect(services.items).to.deep.equal([
      { name: '/rosapi/topic_type', type: 'rosapi_msgs/srv/TopicType' },
      { name: '/rosapi/topics', type: 'rosapi_msgs/srv/Topics' },
      { name: '/rosapi/topics_and_raw_types', type: 'rosapi_msgs/srv/TopicsAndRawTypes' },
      { name: '/rosapi/topics_for_type', type: 'rosapi_msgs/srv/TopicsForType' },
    ]);
  });

  it('refuses the parameters of a node without parameter services (rosapi_params), and says why', async () => {
    const { rt } = await onBridge(true);
    const refused = await call(rt, 'get_ros_parameters', { node: '/rosapi_params', filter: null });
    expect(refused).to.deep.include({ status: 'rejected', reason: 'parameters_unavailable' });
    expect(refused.error).to.match(/^\/rosapi_params's parameter services did not answer \(.*does not exist/);
  });

  it('says when nothing came on a topic within the wait', async () => {
    const { bridge, rt } = await onBridge(true);
    bridge.declareTopic('/quiet', 'std_msgs/msg/String');
    const started = performance.now();
    expect(await call(rt, 'echo_ros_topic', { topic: '/quiet', wait_s: 0.3 })).to.deep.equal({
      status: 'no_message',
      topic: '/quiet',
      type: 'std_msgs/msg/String',
      error: 'nothing was published on /quiet within 300 ms',
    });
    expect(performance.now() - started).to.be.within(290, 2000);
    // Unsubscribed once it has answered.
    const until = Date.now() + 1000;
    while (bridge.subscribers('/quiet') > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    expect(bridge.subscribers('/quiet')).to.equal(0);
  });

  it('refuses to echo a topic whose type the native node cannot load, and logs why', async () => {
    const rig = await rclnodejsRig();
    try {
      // A publisher of a type this ROS install lacks (its interface package is not built here).
      const stranger = [...rclGraph.nodes][0]!;
      rclGraph.publishers.add({
        node: stranger,
        type: 'vendor_msgs/msg/Gripper',
        topic: '/gripper',
        qos: undefined,
        history: [],
      } as never);
      const refused = await call(rig.rt, 'echo_ros_topic', { topic: '/gripper', wait_s: 0.2 });
      expect(refused).to.deep.equal({
        status: 'rejected',
        reason: 'unsupported_type',
        error:
          'cannot subscribe to /gripper (vendor_msgs/msg/Gripper): The message required does not exist: vendor_msgs/msg/Gripper',
      });
      expect(rig.rt.logs.some((l) => l.startsWith('warning: echo /gripper: Error: The message required'))).to.equal(
        true,
      );
      for (const p of [...rclGraph.publishers]) if (p.topic === '/gripper') rclGraph.publishers.delete(p);
    } finally {
      await rig.close();
    }
  });

  it('answers on the simulator from its own small graph', async () => {
    rt = await createTestRuntime({ plugins: [simPlugin], tables: { sim: { tick_ms: 20 } } });
    expect(await call(rt, 'list_ros_graph', { kind: 'nodes', filter: null })).to.deep.equal({
      kind: 'nodes',
      total: 1,
      items: [{ name: '/sim_robot' }],
    });
    const topics = await call(rt, 'list_ros_graph', { kind: 'topics', filter: null });
    expect(topics.items).to.deep.include({ name: '/cmd_vel', type: 'geometry_msgs/msg/Twist' });
    expect(topics.items).to.deep.include({ name: '/odom', type: 'nav_msgs/msg/Odometry' });
    expect(await call(rt, 'list_ros_graph', { kind: 'actions', filter: null })).to.deep.equal({
      kind: 'actions',
      total: 0,
      items: [],
    });
    const parameters = await call(rt, 'get_ros_parameters', { node: '/sim_robot', filter: 'room' });
    expect(parameters).to.deep.equal({
      node: '/sim_robot',
      total: 1,
      parameters: [{ name: 'room_half_size_m', type: 'double', value: 5 }],
    });
    // The simulator steps on the runtime's clock: a second later its camera publishes again.
    const echoing = call(rt, 'echo_ros_topic', { topic: '/camera/front/image_raw/compressed', wait_s: 3 });
    await new Promise((r) => setTimeout(r, 50));
    (rt.clock as ManualClock).advance(1100);
    const echoed = await echoing;
    expect(echoed.message.data).to.match(/^<\d+ bytes of image data, not shown>$/);
    expect(echoed.message.format).to.equal('png');
  });
});

describe('boundMessage()', () => {
  it('cuts again, then gives only field names, to stay within the byte bound', () => {
    // 8 items of 600 characters: within the first pass's cuts, beyond the byte bound.
    const wide = {
      items: Array.from({ length: 8 }, () => ({ a: 'x'.repeat(200), b: 'y'.repeat(200), c: 'z'.repeat(200) })),
    };
    const once = boundMessage('any_msgs/msg/Wide', wide);
    expect(Buffer.byteLength(JSON.stringify(once.message))).to.be.at.most(MESSAGE_BYTE_BOUND);
    expect(once.message).to.deep.equal({
      items: [
        ...Array.from({ length: 2 }, () => ({
          a: `${'x'.repeat(40)}… (160 more characters)`,
          b: `${'y'.repeat(40)}… (160 more characters)`,
          c: `${'z'.repeat(40)}… (160 more characters)`,
        })),
        '… 6 more items (8 in all)',
      ],
    });
    expect(once.cut).to.equal(true);
    const huge = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`field_${i}`, i]));
    expect(boundMessage('any_msgs/msg/Huge', huge)).to.deep.equal({
      message: {
        '…': `a message too large to show (more than ${MESSAGE_BYTE_BOUND} bytes even cut); its fields: ${Object.keys(huge).join(', ')}`,
      },
      cut: true,
    });
    expect(boundMessage('std_msgs/msg/String', { data: 'short' })).to.deep.equal({
      message: { data: 'short' },
      cut: false,
    });
  });
});

describeGraphTools('rosbridge (rosapi, on the in-test bridge)', async () => {
  const bridge = await startRosbridgeServer();
  const repeaters: Array<{ stop(): void }> = [];
  const rt = await createTestRuntime({
    plugins: [ros2Plugin],
    tables: { ros2: { transport: 'rosbridge', url: bridge.url, sensors: [] } },
  });
  return {
    rt,
    robot: {
      node: async (name, parameters) =>
        bridge.rosNode(name, Object.fromEntries(Object.entries(parameters).map(([k, v]) => [k, parameterValue(v)]))),
      topic: async (name, type, message) => {
        bridge.declareTopic(name, type);
        repeaters.push(bridge.repeat(name, message, 50));
      },
      action: async (name, type) => void bridge.actionServer(name, type),
      service: async (name, type) => bridge.rosService(name, type, () => ({ success: true, message: '' })),
    },
    close: async () => {
      for (const r of repeaters) r.stop();
      await rt.dispose();
      await bridge.close();
    },
  };
});

/** A runtime whose robot is a native node on the rclnodejs stand-in's graph. */
async function rclnodejsRig(): Promise<Rig> {
  const contexts: Array<{ shutdown(): void; isShutdown(): boolean }> = [];
  const timers: Array<ReturnType<typeof setInterval>> = [];
  const transport = new RclnodejsTransport(`mira_graph_${process.pid}`, '', { load: async () => rclnodejs });
  const plugin: MiraPlugin<Record<string, never>> = definePlugin({
    name: 'test-rclnodejs-robot',
    version: '0.0.0',
    setup(kernel) {
      const bridge = attachRobot(kernel, transport, { sensors: [] });
      return { start: () => bridge.start(), stop: () => bridge.stop() };
    },
  });
  const rt = await createTestRuntime({ plugins: [plugin] });
  const at = (full: string) => {
    const parts = full.split('/');
    return { name: parts.pop()!, namespace: parts.join('/') };
  };
  let helper = 0;
  return {
    rt,
    robot: {
      node: async (full, parameters) => {
        const { name, namespace } = at(full);
        const values = Object.fromEntries(Object.entries(parameters).map(([k, v]) => [k, rclValue(v)]));
        contexts.push((await remoteNode(name, namespace, values)).context);
      },
      topic: async (name, type, message) => {
        const node = await remoteNode(`publisher_${++helper}`, '/helpers');
        contexts.push(node.context);
        const publisher = node.createPublisher(type, name);
        timers.push(setInterval(() => publisher.publish(message), 50));
      },
      action: async (name, type) => {
        await serveAction(name, type);
      },
      service: async (name, type) => {
        const node = await remoteNode(`server_${++helper}`, '/helpers');
        contexts.push(node.context);
        node.createService(type, name, {}, () => ({ success: true, message: '' }));
      },
    },
    close: async () => {
      for (const t of timers) clearInterval(t);
      await rt.dispose();
      for (const c of contexts) if (!c.isShutdown()) c.shutdown();
      stopActionServers();
      expect([...rclGraph.nodes].map((n) => n.name)).to.not.include(`mira_graph_${process.pid}`);
    },
  };
}

describeGraphTools('rclnodejs (the stand-in)', rclnodejsRig);

/** A parameter as rcl_interfaces/msg/ParameterValue for rclnodejs: int64 fields are BigInt there. */
function rclValue(value: boolean | number | string | number[] | string[]): Record<string, unknown> {
  const { integer_value, integer_array_value, ...rest } = parameterValue(value);
  return { ...rest, integer_value: BigInt(integer_value), integer_array_value: integer_array_value.map(BigInt) };
}
