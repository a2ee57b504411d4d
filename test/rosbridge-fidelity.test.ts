import { expect } from 'chai';
import { RosbridgeTransport } from '@mira/plugin-ros2';
import type { RosMessage } from '@mira/robot';
import { eventually } from './conformance/transport-contract.js';
import { MESSAGE_FIELDS, fixedArrayField } from './helpers/rosbridge-messages.js';
import { startRosbridgeServer, type RosbridgeTestServer } from './helpers/rosbridge-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The in-test bridge against rosbridge_suite's own server, on what Mira reads through it: each case here
 * would pass on the old, synchronous and lenient double and fail on this one, or the reverse.
 */
describe('in-test rosbridge: behaves as rosbridge_suite’s server does', function () {
  this.timeout(30_000);
  let bridge: RosbridgeTestServer;
  let transport: RosbridgeTransport;
  beforeEach(async () => {
    bridge = await startRosbridgeServer();
    transport = new RosbridgeTransport(bridge.url, 2000, () => undefined);
    await transport.connect();
  });
  afterEach(async () => {
    await transport.close();
    await bridge.close();
  });

  const listen = async (topic: string, type: string, bridgeQos?: Record<string, unknown>) => {
    bridge.declareTopic(topic, type);
    const got: RosMessage[] = [];
    transport.subscribe(topic, type, (m) => got.push(m), bridgeQos ? { bridge: bridgeQos } : undefined);
    await eventually(() => bridge.subscribers(topic) === 1, 3000, `the subscription to ${topic}`);
    return got;
  };

  it('throttle_rate alone: what comes within the rate of the last message sent is dropped', async () => {
    const got = await listen('/chatter', 'std_msgs/msg/String', { throttle_rate: 10_000 });
    for (let i = 1; i <= 5; i++) bridge.publish('/chatter', { data: `m${i}` });
    await eventually(() => got.length === 1, 3000, 'the first message');
    await sleep(200);
    expect(got).to.deep.equal([{ data: 'm1' }]);
  });

  it('queue_length: the newest are kept (the oldest go first) and sent throttle_rate apart', async () => {
    const got = await listen('/chatter', 'std_msgs/msg/String', { throttle_rate: 50, queue_length: 2 });
    for (let i = 1; i <= 5; i++) bridge.publish('/chatter', { data: `m${i}` });
    await eventually(() => got.length === 2, 3000, 'the kept messages');
    await sleep(200);
    expect(got).to.deep.equal([{ data: 'm4' }, { data: 'm5' }]);
  });

  it('neither: every message, once per client however many subscriptions it has on the topic', async () => {
    const got = await listen('/chatter', 'std_msgs/msg/String');
    const other = new RosbridgeTransport(bridge.url, 2000, () => undefined);
    await other.connect();
    try {
      const twice: RosMessage[] = [];
      other.subscribe('/chatter', 'std_msgs/msg/String', (m) => twice.push(m));
      other.subscribe('/chatter', 'std_msgs/msg/String', () => undefined);
      await eventually(() => bridge.subscribers('/chatter') === 3, 3000, 'the subscriptions');
      for (let i = 1; i <= 3; i++) bridge.publish('/chatter', { data: `m${i}` });
      await eventually(() => got.length === 3 && twice.length === 3, 3000, 'every message');
      await sleep(100);
      expect(twice.map((m) => m.data)).to.deep.equal(['m1', 'm2', 'm3']);
    } finally {
      await other.close();
    }
  });

  it('widens float32 fields as rclpy does (0.05 → 0.05000000074505806); float64 fields stay', async () => {
    const scans = await listen('/scan', 'sensor_msgs/msg/LaserScan');
    const odom = await listen('/odom', 'nav_msgs/msg/Odometry');
    bridge.publish('/scan', { range_min: 0.05, range_max: 12, ranges: [0.05, 1] });
    bridge.publish('/odom', { child_frame_id: 'base_link', twist: { twist: { linear: { x: 0.05, y: 0, z: 0 } } } });
    await eventually(() => scans.length === 1 && odom.length === 1, 3000, 'both messages');
    expect(scans[0]).to.deep.equal({ range_min: 0.05000000074505806, range_max: 12, ranges: [0.05000000074505806, 1] });
    expect(odom[0]).to.deep.equal({
      child_frame_id: 'base_link',
      twist: { twist: { linear: { x: 0.05, y: 0, z: 0 } } },
    });
  });

  it('fails CBOR for any message with a fixed-size array, found from its fields, and logs it', async () => {
    expect(fixedArrayField('sensor_msgs/msg/Imu')).to.equal('orientation_covariance');
    expect(fixedArrayField('nav_msgs/msg/Odometry')).to.equal('pose.covariance');
    expect(fixedArrayField('geometry_msgs/msg/PoseWithCovarianceStamped')).to.equal('pose.covariance');
    expect(fixedArrayField('sensor_msgs/msg/LaserScan')).to.equal(undefined);
    // Every listed type with a `T[N]` field anywhere is one of them.
    const withFixed = Object.keys(MESSAGE_FIELDS).filter((type) => fixedArrayField(type) !== undefined);
    expect(withFixed).to.deep.equal([
      'geometry_msgs/PoseWithCovariance',
      'geometry_msgs/TwistWithCovariance',
      'geometry_msgs/PoseWithCovarianceStamped',
      'nav_msgs/Odometry',
      'sensor_msgs/Imu',
    ]);
    // A type no list named before: a covariance nested in a twist.
    const twists = await listen('/twist_cov', 'geometry_msgs/msg/TwistWithCovariance', { compression: 'cbor' });
    const scans = await listen('/scan', 'sensor_msgs/msg/LaserScan', { compression: 'cbor' });
    bridge.publish('/twist_cov', { covariance: new Array(36).fill(0) });
    bridge.publish('/scan', { ranges: [1, 2] });
    await eventually(() => scans.length === 1, 3000, 'the scan');
    await sleep(100);
    expect(twists).to.deep.equal([]);
    expect(bridge.logged).to.deep.equal([
      "subscribe /twist_cov: 'numpy.ndarray' object has no attribute 'get_fields_and_field_types' (covariance)",
    ]);
    expect(scans[0]!.ranges).to.be.instanceOf(Float32Array);
  });

  it('writes later, never in the call that produced the message: a stop in the same turn holds it', async () => {
    const got = await listen('/chatter', 'std_msgs/msg/String');
    bridge.publish('/chatter', { data: 'before the freeze' });
    bridge.freeze();
    await sleep(150);
    expect(got).to.deep.equal([]);
    bridge.thaw();
    await eventually(() => got.length === 1, 3000, 'the message after the thaw');
    expect(got).to.deep.equal([{ data: 'before the freeze' }]);
  });

  it('answers a call to a service the graph lacks at once, with result false and the reason', async () => {
    const caller = new RosbridgeTransport(bridge.url, 2000, () => undefined);
    await caller.connect();
    try {
      // Mira's bound is far beyond this test's: only the bridge's own answer ends the call in time.
      const error = await caller.callService('/nobody', 'std_srvs/srv/Trigger', {}, 120_000).catch((e: Error) => e);
      expect(String((error as Error).message)).to.contain('Service /nobody does not exist');
    } finally {
      await caller.close();
    }
  });

  it('refuses a publish its topic’s type cannot hold (a Twist on a TwistStamped topic), only in its log', async () => {
    bridge.declareTopic('/cmd_vel', 'geometry_msgs/msg/TwistStamped');
    await transport.publish('/cmd_vel', 'geometry_msgs/msg/Twist', { linear: { x: 0.1, y: 0, z: 0 } });
    await eventually(() => bridge.logged.length >= 2, 3000, 'the log lines');
    expect(bridge.published('/cmd_vel')).to.deep.equal([]);
    expect(bridge.logged).to.deep.equal([
      'advertise /cmd_vel: TypeConflictException: Tried to advertise /cmd_vel with type geometry_msgs/msg/Twist, but it is geometry_msgs/msg/TwistStamped',
      'publish /cmd_vel: NonexistentFieldException: geometry_msgs/msg/TwistStamped has no field linear',
    ]);
  });
});
