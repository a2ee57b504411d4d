import { expect } from 'chai';
import { systemClock } from '@mira/core';
import { MonitorState } from '@mira/plugin-attention';
import { createTestRuntime, type TestRuntime } from '@mira/core/testing';
import ros2Plugin from '@mira/plugin-ros2';
import simPlugin from '@mira/plugin-sim';
import {
  CLOCK_QOS,
  CLOCK_SKEW_WARN_S,
  arrayField,
  clockSkewMonitor,
  driveCommand,
  simulationClock,
  toSensorValue,
  velocityOf,
  type RobotTransport,
} from '@mira/robot';
import { startRosbridgeServer, type RosbridgeTestServer } from './helpers/rosbridge-server.js';

const reading = (value: Readonly<Record<string, number | boolean | string>>) => ({
  sensorId: 'battery',
  value,
  at: new Date(),
  monotonic: 0,
});

describe('standard messages as current robots send them', () => {
  it('reads BatteryState charging from power_supply_status, and a charging battery does not fire the low monitor', () => {
    const base = { percentage: 0.15, voltage: 11.1 };
    expect(toSensorValue('sensor_msgs/msg/BatteryState', { ...base, power_supply_status: 1 })).to.deep.equal({
      percent: 15,
      voltage: 11.1,
      charging: true,
    });
    expect(toSensorValue('sensor_msgs/msg/BatteryState', { ...base, power_supply_status: 2 })).to.deep.include({
      charging: false,
    });
    expect(toSensorValue('sensor_msgs/msg/BatteryState', base)).to.deep.equal({ percent: 15, voltage: 11.1 });
    // POWER_SUPPLY_STATUS_UNKNOWN (0), or a value the definition does not have, says nothing about charging.
    for (const status of [0, 5, null, '1']) {
      expect(toSensorValue('sensor_msgs/msg/BatteryState', { ...base, power_supply_status: status })).to.deep.equal({
        percent: 15,
        voltage: 11.1,
      });
    }
    expect(toSensorValue('sensor_msgs/msg/BatteryState', { ...base, power_supply_status: 4 })).to.deep.include({
      charging: false,
    });
    const monitor = new MonitorState({ id: 'low', sensor: 'battery', field: 'percent', below: 20, message: 'low' });
    expect(monitor.observe(reading({ percent: 15, charging: true }))).to.equal(undefined);
    expect(monitor.observe(reading({ percent: 14, charging: false }))?.description).to.equal(
      'battery.percent = 14 < 20',
    );
  });

  it('applies Range min_range and max_range as the message definition says; null (NaN or ±Inf over JSON) is invalid', () => {
    const range = (r: number | null) =>
      toSensorValue('sensor_msgs/msg/Range', { range: r, min_range: 0.05, max_range: 4 });
    expect(range(1.25)).to.deep.equal({ range_m: 1.25 });
    expect(range(0.01)).to.deep.equal({ range_m: 0.05, too_close: true });
    expect(range(Number.NEGATIVE_INFINITY)).to.deep.equal({ range_m: 0.05, too_close: true });
    expect(range(9)).to.deep.equal({ nothing_within_m: 4 });
    expect(range(Number.POSITIVE_INFINITY)).to.deep.equal({ nothing_within_m: 4 });
    // rosbridge writes -Inf ("too close", REP 117) as null too: null must never read as a clear path.
    expect(range(null)).to.deep.equal({ invalid: true });
    expect(toSensorValue('sensor_msgs/msg/Range', { min_range: 0.05, max_range: 4 })).to.deep.equal({ invalid: true });
    expect(range(Number.NaN)).to.deep.equal({ invalid: true });
    // A too-close reading still fires an obstacle monitor on range_m.
    const obstacle = new MonitorState({ id: 'near', sensor: 'range', field: 'range_m', below: 0.3, message: 'near' });
    expect(obstacle.observe({ ...reading(range(0.01)), sensorId: 'range' })).not.to.equal(undefined);
  });

  it("reads a localisation pose (Nav2's amcl_pose) as x, y, yaw and the header's frame", () => {
    const pose = (frame: unknown, z: number, w: number) =>
      toSensorValue('geometry_msgs/msg/PoseWithCovarianceStamped', {
        header: { stamp: { sec: 1, nanosec: 0 }, frame_id: frame },
        pose: { pose: { position: { x: 1.23456, y: -2, z: 0 }, orientation: { x: 0, y: 0, z, w } } },
      });
    expect(pose('map', Math.SQRT1_2, Math.SQRT1_2)).to.deep.equal({ x: 1.235, y: -2, yaw: 1.570796, frame: 'map' });
    // tf2 frames carry no leading slash; a message without a frame says so by leaving it out.
    expect(pose('/map', 0, 1)).to.deep.equal({ x: 1.235, y: -2, yaw: 0, frame: 'map' });
    expect(pose('', 0, 1)).to.deep.equal({ x: 1.235, y: -2, yaw: 0 });
    expect(pose(7, 0, 1)).to.deep.equal({ x: 1.235, y: -2, yaw: 0 });
  });

  it('converts NaN and ±Inf the same way for both transports: the field is left out', () => {
    // rclnodejs delivers the numbers; rosbridge (JSON) delivers null.
    for (const unknown of [Number.NaN, Number.POSITIVE_INFINITY, null]) {
      expect(toSensorValue('sensor_msgs/msg/BatteryState', { percentage: unknown, voltage: 12.1 })).to.deep.equal({
        voltage: 12.1,
      });
    }
    const odometry = toSensorValue('nav_msgs/msg/Odometry', {
      pose: { pose: { position: { x: 1, y: null }, orientation: { x: 0, y: 0, z: 0, w: 1 } } },
      twist: { twist: { linear: { x: Number.NaN }, angular: { z: 0.5 } } },
    });
    expect(odometry).to.deep.equal({ x: 1, yaw: 0, angular_rad_s: 0.5 });
  });

  it('reads a LaserScan as the nearest obstacle overall and per sector, ignoring no-returns', () => {
    const scan = toSensorValue('sensor_msgs/msg/LaserScan', {
      angle_min: -Math.PI,
      angle_increment: Math.PI / 4,
      range_min: 0.1,
      range_max: 10,
      // -180°, -135°, -90°, -45°, 0°, 45°, 90°, 135°
      // Sectors: front within ±45°, back from ±135°, left and right between.
      ranges: [3, null, 2.5, 0.05, 1.2, 4, 5, Number.POSITIVE_INFINITY],
    });
    expect(scan).to.deep.equal({
      nearest_m: 1.2,
      back_m: 3,
      right_m: 2.5,
      front_m: 1.2,
      left_m: 5,
      unknown_returns: 1,
    });
    expect(
      toSensorValue('sensor_msgs/msg/LaserScan', {
        angle_min: 0,
        angle_increment: 0.1,
        range_min: 0.1,
        range_max: 5,
        ranges: [null, 99],
      }),
    ).to.deep.equal({ unknown_returns: 1 });
  });

  it('reads typed arrays wherever arrays are (rosbridge sends sequence<float> as Float32Array under CBOR)', () => {
    const plain = { angle_min: -Math.PI, angle_increment: Math.PI / 2, range_min: 0.1, range_max: 10 };
    const ranges = [3, 2.5, 1.25, 5];
    const fromArray = toSensorValue('sensor_msgs/msg/LaserScan', { ...plain, ranges });
    expect(fromArray).to.deep.equal({ nearest_m: 1.25, back_m: 3, right_m: 2.5, front_m: 1.25, left_m: 5 });
    expect(toSensorValue('sensor_msgs/msg/LaserScan', { ...plain, ranges: Float32Array.from(ranges) })).to.deep.equal(
      fromArray,
    );
    expect(toSensorValue('sensor_msgs/msg/LaserScan', { ...plain, ranges: Float64Array.from(ranges) })).to.deep.equal(
      fromArray,
    );
    expect(arrayField(new DataView(new ArrayBuffer(4)))).to.equal(undefined);
    expect(arrayField(BigInt64Array.from([5n]))).to.deep.equal([5]);
    expect(arrayField('1,2')).to.equal(undefined);
  });

  it('reads an Imu as yaw and yaw rate', () => {
    const half = Math.PI / 4;
    expect(
      toSensorValue('sensor_msgs/msg/Imu', {
        orientation: { x: 0, y: 0, z: Math.sin(half), w: Math.cos(half) },
        angular_velocity: { z: 0.25 },
      }),
    ).to.deep.equal({ yaw: 1.571, yaw_rate_rad_s: 0.25 });
  });

  it('gives no yaw for an Imu without orientation (orientation_covariance[0] = -1), in arrays and typed arrays', () => {
    const half = Math.PI / 4;
    const imu = (covariance: unknown) =>
      toSensorValue('sensor_msgs/msg/Imu', {
        orientation: { x: 0, y: 0, z: Math.sin(half), w: Math.cos(half) },
        orientation_covariance: covariance,
        angular_velocity: { z: 0.25 },
      });
    const none = [-1, 0, 0, 0, 0, 0, 0, 0, 0];
    expect(imu(none)).to.deep.equal({ yaw_rate_rad_s: 0.25 });
    expect(imu(Float64Array.from(none))).to.deep.equal({ yaw_rate_rad_s: 0.25 });
    expect(imu([0.01, 0, 0, 0, 0.01, 0, 0, 0, 0.01])).to.deep.equal({ yaw: 1.571, yaw_rate_rad_s: 0.25 });
  });

  it('simulates LaserScan and Imu too', async () => {
    const rt = await createTestRuntime({
      plugins: [simPlugin],
      tables: {
        sim: {
          tick_ms: 0,
          sensors: [
            { id: 'scan', topic: '/scan', type: 'sensor_msgs/msg/LaserScan' },
            { id: 'imu', topic: '/imu', type: 'sensor_msgs/msg/Imu' },
          ],
        },
      },
    });
    try {
      rt.instance(simPlugin).transport.tick();
      expect(rt.app.kernel.latestReading('scan')!.value).to.deep.equal({ nearest_m: 4, front_m: 4 });
      expect(rt.app.kernel.latestReading('imu')!.value).to.deep.equal({ yaw: 0, yaw_rate_rad_s: 0 });
    } finally {
      await rt.dispose();
    }
  });

  it('builds Twist and TwistStamped commands and reads both back', () => {
    expect(driveCommand('geometry_msgs/msg/Twist', 0.2, -0.1)).to.deep.equal({
      linear: { x: 0.2, y: 0, z: 0 },
      angular: { x: 0, y: 0, z: -0.1 },
    });
    // By default an all-zero stamp, which ros2_control's controllers replace with their clock's time.
    const stamped = driveCommand('geometry_msgs/msg/TwistStamped', 0.2, -0.1, 'base_footprint');
    expect(stamped.header).to.deep.equal({ stamp: { sec: 0, nanosec: 0 }, frame_id: 'base_footprint' });
    expect(velocityOf(stamped)).to.deep.equal({ linear: 0.2, angular: -0.1 });
    const now = driveCommand('geometry_msgs/msg/TwistStamped', 0.2, -0.1, 'base_link', 'now', () => 1_700_000_123_456);
    expect(now.header).to.deep.equal({ stamp: { sec: 1_700_000_123, nanosec: 456_000_000 }, frame_id: 'base_link' });
    expect(driveCommand('geometry_msgs/msg/Twist', 0.2, 0, 'x', 'now')).not.to.have.property('header');
  });
});

describe('TwistStamped drives (ros2_control on Jazzy)', function () {
  this.timeout(20_000);
  let rt: TestRuntime;
  let bridge: RosbridgeTestServer;
  const stampedDrive = {
    topic: '/cmd_vel',
    type: 'geometry_msgs/msg/TwistStamped',
    max_linear_m_s: 0.5,
    max_angular_rad_s: 1,
    max_duration_s: 5,
  };
  const drive = async () =>
    JSON.parse((await rt.callTool('drive', { linear_m_s: 0.3, angular_rad_s: 0, duration_s: 2 })).content);
  afterEach(async () => {
    await rt?.dispose();
    await bridge?.close();
  });

  it('passes per-sensor bridge options, and never the QoS depth as queue_length', async () => {
    bridge = await startRosbridgeServer();
    rt = await createTestRuntime({
      plugins: [ros2Plugin],
      tables: {
        ros2: {
          transport: 'rosbridge',
          url: bridge.url,
          sensors: [
            { id: 'battery', topic: '/battery_state', type: 'sensor_msgs/msg/BatteryState' },
            {
              id: 'range',
              topic: '/range',
              type: 'sensor_msgs/msg/Range',
              throttle_rate_ms: 200,
              queue_length: 1,
              compression: 'cbor',
            },
          ],
        },
      },
    });
    const subscribe = (topic: string) => bridge.ops.find((op) => op.op === 'subscribe' && op.topic === topic)!;
    const deadline = Date.now() + 3000;
    while ((!subscribe('/battery_state') || !subscribe('/range')) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(subscribe('/battery_state')).to.deep.include({ throttle_rate: 0, queue_length: 0, compression: 'none' });
    expect(subscribe('/range')).to.deep.include({ throttle_rate: 200, queue_length: 1, compression: 'cbor' });
  });

  it('publishes stamped commands over rosbridge, advertised with their type', async () => {
    bridge = await startRosbridgeServer();
    rt = await createTestRuntime({
      plugins: [ros2Plugin],
      tables: { ros2: { transport: 'rosbridge', url: bridge.url, sensors: [], drive: stampedDrive } },
    });
    expect(await drive()).to.deep.include({ status: 'started' });
    const deadline = Date.now() + 3000;
    while (bridge.published('/cmd_vel').length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    const first = bridge.published('/cmd_vel')[0]!;
    expect(first.twist).to.deep.equal({ linear: { x: 0.3, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
    // The default stamp policy: all zero on the wire, which the controller replaces on arrival.
    expect(first.header).to.deep.equal({ stamp: { sec: 0, nanosec: 0 }, frame_id: 'base_link' });
    expect(bridge.ops.find((op) => op.op === 'advertise' && op.topic === '/cmd_vel')).to.deep.include({
      type: 'geometry_msgs/msg/TwistStamped',
    });
  });

  it('stamps commands with this host\'s clock on the wire with [ros2.drive] stamp = "now"', async () => {
    bridge = await startRosbridgeServer();
    rt = await createTestRuntime({
      plugins: [ros2Plugin],
      tables: {
        ros2: { transport: 'rosbridge', url: bridge.url, sensors: [], drive: { ...stampedDrive, stamp: 'now' } },
      },
    });
    expect(await drive()).to.deep.include({ status: 'started' });
    const deadline = Date.now() + 3000;
    while (bridge.published('/cmd_vel').length < 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    const [first, second] = bridge.published('/cmd_vel') as Array<{
      header: { stamp: { sec: number; nanosec: number } };
    }>;
    const at = (m: typeof first) => m!.header.stamp.sec + m!.header.stamp.nanosec / 1e9;
    expect(at(first)).to.be.closeTo(Date.now() / 1000, 5);
    // Each republished command carries its own time.
    expect(at(second)).to.be.greaterThan(at(first));
  });

  it('refuses a stamp policy it does not know', async () => {
    bridge = await startRosbridgeServer();
    let message = '';
    try {
      rt = await createTestRuntime({
        plugins: [ros2Plugin],
        tables: {
          ros2: { transport: 'rosbridge', url: bridge.url, sensors: [], drive: { ...stampedDrive, stamp: 'robot' } },
        },
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).to.contain('MIRA_ERR_CONFIG_INVALID').and.to.contain('stamp');
  });

  it('drives the simulator with stamped commands', async () => {
    rt = await createTestRuntime({
      clock: systemClock,
      plugins: [simPlugin],
      tables: { sim: { tick_ms: 10, drive: stampedDrive } },
    });
    expect(await drive()).to.deep.include({ status: 'started' });
    const deadline = Date.now() + 3000;
    const x = () => (rt.app.kernel.latestReading('odometry')?.value as { linear_m_s?: number } | undefined)?.linear_m_s;
    while (x() !== 0.3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(x()).to.equal(0.3);
  });
});

describe('clock skew against sensor stamps', () => {
  const at = (sec: number, nanosec = 0) => ({ header: { stamp: { sec, nanosec }, frame_id: 'base_link' } });

  it('warns once per sensor when its stamps are more than the bound away from this clock, either way', () => {
    const lines: string[] = [];
    const now = 1_700_000_100_000;
    const monitor = clockSkewMonitor(
      () => now,
      (line) => lines.push(line),
    );
    monitor.check('odometry', at(1_700_000_100, 0));
    monitor.check('odometry', at(1_700_000_099, 600_000_000)); // 0.4 s: within the bound
    monitor.check('odometry', at(0)); // no time: skipped
    monitor.check('odometry', {}); // no header: skipped
    expect(lines).to.deep.equal([]);
    monitor.check('odometry', at(1_700_000_098)); // 2 s behind
    monitor.check('odometry', at(1_700_000_090)); // said once
    monitor.check('scan', at(1_700_000_103)); // 3 s ahead
    expect(lines).to.have.length(2);
    expect(lines[0]).to.match(
      /^clock skew: sensor odometry's stamps are 2\.0 s behind this host's clock \(more than 0\.5 s/,
    );
    expect(lines[1]).to.match(/^clock skew: sensor scan's stamps are 3\.0 s ahead of this host's clock/);
    expect(lines[1]).to.contain('keep [ros2.drive] stamp = "zero"');
    expect(CLOCK_SKEW_WARN_S).to.equal(0.5);
  });

  it('under use_sim_time checks against the simulation clock, and only once it has been heard', () => {
    const lines: string[] = [];
    const handlers: Array<(m: Record<string, unknown>) => void> = [];
    const subscribed: Array<{ topic: string; type: string; qos: unknown }> = [];
    const transport = {
      subscribe: (topic: string, type: string, handler: (m: Record<string, unknown>) => void, qos?: unknown) => {
        subscribed.push({ topic, type, qos });
        handlers.push(handler);
        return () => undefined;
      },
    } as unknown as RobotTransport;
    const clock = simulationClock(transport, '/sim/clock');
    expect(subscribed).to.deep.equal([{ topic: '/sim/clock', type: 'rosgraph_msgs/msg/Clock', qos: CLOCK_QOS }]);
    expect([clock.simulated, clock.ready(), clock.now()]).to.deep.equal([true, false, 0]);
    const monitor = clockSkewMonitor(clock.now, (line) => lines.push(line), clock);
    // Sim time starts near zero: nothing to compare with before the first /clock.
    monitor.check('odometry', at(12));
    expect(lines).to.deep.equal([]);
    handlers[0]!({ clock: { sec: 12, nanosec: 250_000_000 } });
    expect([clock.ready(), clock.now()]).to.deep.equal([true, 12_250]);
    monitor.check('odometry', at(12, 100_000_000)); // 0.15 s: within the bound
    expect(lines).to.deep.equal([]);
    monitor.check('odometry', at(1_700_000_000)); // a wall-clock stamp on a simulated robot
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(/^clock skew: sensor odometry's stamps are \d+\.\d s ahead of the simulation clock/);
    expect(lines[0]).to.contain('use_sim_time too');
    // A reset simulation goes back, as ROS's clock does; a message without a time changes nothing.
    handlers[0]!({ clock: { sec: 1, nanosec: 0 } });
    handlers[0]!({ clock: { sec: 'x' } });
    handlers[0]!({});
    expect(clock.now()).to.equal(1000);
  });
});
