import { expect } from 'chai';
import { createRequire } from 'node:module';
import { readManifest } from '@mira/core';
import { createTestRuntime, type TestRuntime } from '@mira/core/testing';
import ros2Plugin from '@mira/plugin-ros2';
import { toSensorValue } from '@mira/robot';
import { runMira } from './helpers/run-mira.js';
import { startRosbridgeServer, type RosbridgeTestServer } from './helpers/rosbridge-server.js';

const PROFILE = createRequire(import.meta.url).resolve('@mira/profile-turtlebot4/profile.toml');

describe('the TurtleBot 4 profile (@mira/profile-turtlebot4)', function () {
  this.timeout(30_000);

  it('passes mira check, by package name, with and without a namespace', async () => {
    for (const env of [{}, { ROBOT_NAMESPACE: '/robot1', ROBOT_NAME: 'Scout' }]) {
      const run = await runMira(['check', '--profile', '@mira/profile-turtlebot4'], '', { env, timeoutMs: 20_000 });
      expect(run.stderr).to.equal('');
      expect(run.code).to.equal(0);
    }
  });

  it("reads the Create 3's hazard vector and dock status as readings", () => {
    const hazards = (types: number[]) =>
      toSensorValue('irobot_create_msgs/msg/HazardDetectionVector', {
        header: { stamp: { sec: 1, nanosec: 0 }, frame_id: 'base_link' },
        detections: types.map((type) => ({ header: { frame_id: 'bump_front_left' }, type })),
      });
    expect(hazards([])).to.deep.equal({
      backup_limit: false,
      bump: false,
      cliff: false,
      stall: false,
      wheel_drop: false,
      object_proximity: false,
      hazards: 0,
    });
    expect(hazards([1, 2, 2, 5])).to.deep.equal({
      backup_limit: false,
      bump: true,
      cliff: true,
      stall: false,
      wheel_drop: false,
      object_proximity: true,
      hazards: 4,
    });
    expect(hazards([0, 3, 4])).to.deep.include({ backup_limit: true, stall: true, wheel_drop: true, bump: false });
    // A type the message does not define is counted, and sets no field.
    expect(hazards([9])).to.deep.include({ hazards: 1, bump: false, cliff: false });
    expect(toSensorValue('irobot_create_msgs/msg/HazardDetectionVector', {})).to.deep.include({ hazards: 0 });
    expect(toSensorValue('irobot_create_msgs/msg/DockStatus', { dock_visible: true, is_docked: false })).to.deep.equal({
      docked: false,
      dock_visible: true,
    });
    expect(toSensorValue('irobot_create_msgs/msg/DockStatus', { is_docked: 'yes' })).to.deep.equal({});
  });

  describe('on a bridge, under the namespace the robot was set up with', () => {
    let bridge: RosbridgeTestServer;
    let rt: TestRuntime;
    beforeEach(async () => {
      bridge = await startRosbridgeServer();
      const manifest = readManifest(PROFILE, { ROBOT_NAMESPACE: '/robot1', ROSBRIDGE_URL: bridge.url });
      rt = await createTestRuntime({ plugins: [ros2Plugin], tables: { ros2: manifest.tables.ros2! } });
    });
    afterEach(async () => {
      await rt?.dispose();
      await bridge?.close();
    });

    it('subscribes the namespaced topics, reads hazards and the dock, and drives with zero-stamped TwistStamped', async () => {
      const topics = ['battery_state', 'hazard_detection', 'dock_status', 'odom', 'scan'].map((t) => `/robot1/${t}`);
      const deadline = Date.now() + 5000;
      while (topics.some((t) => bridge.subscribers(t) === 0) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(topics.map((t) => bridge.subscribers(t))).to.deep.equal([1, 1, 1, 1, 1]);
      bridge.publish('/robot1/hazard_detection', {
        header: { stamp: { sec: 1, nanosec: 0 }, frame_id: 'base_link' },
        detections: [{ header: { stamp: { sec: 1, nanosec: 0 }, frame_id: 'bump_front_center' }, type: 1 }],
      });
      bridge.publish('/robot1/dock_status', {
        header: { stamp: { sec: 1, nanosec: 0 }, frame_id: 'base_link' },
        dock_visible: true,
        is_docked: true,
      });
      const reading = (id: string) => rt.app.kernel.latestReading(id)?.value as Record<string, unknown> | undefined;
      while ((!reading('hazards') || !reading('dock')) && Date.now() < deadline + 3000)
        await new Promise((r) => setTimeout(r, 20));
      expect(reading('hazards')).to.deep.include({ bump: true, cliff: false, hazards: 1 });
      expect(reading('dock')).to.deep.equal({ docked: true, dock_visible: true });
      // Stamped in 1970: another clock than this host's, said once per sensor in the log.
      expect(rt.logs.filter((l) => l.includes("clock skew: sensor hazards's stamps are"))).to.have.length(1);
      // The navigation action is the robot's, under its namespace.
      expect(rt.app.kernel.tools.get('navigate_to')).to.not.equal(undefined);

      const started = JSON.parse(
        (await rt.callTool('drive', { linear_m_s: 0.2, angular_rad_s: 0, duration_s: 1 })).content,
      );
      expect(started).to.deep.include({ status: 'started' });
      while (bridge.published('/robot1/cmd_vel').length === 0 && Date.now() < deadline + 6000)
        await new Promise((r) => setTimeout(r, 10));
      const [first] = bridge.published('/robot1/cmd_vel');
      expect(first).to.deep.equal({
        header: { stamp: { sec: 0, nanosec: 0 }, frame_id: 'base_link' },
        twist: { linear: { x: 0.2, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } },
      });
      expect(bridge.ops.find((op) => op.op === 'advertise' && op.topic === '/robot1/cmd_vel')).to.deep.include({
        type: 'geometry_msgs/msg/TwistStamped',
      });
    });

    it('docks and undocks through its dock/undock skills, under the namespace; a stop cancels the dock', async () => {
      const dock = bridge.actionServer('/robot1/dock', 'irobot_create_msgs/action/Dock');
      const undock = bridge.actionServer('/robot1/undock', 'irobot_create_msgs/action/Undock');
      const goal = (skill: string) =>
        rt.callTool('send_ros_action_goal', { skill, goal: '{}' }).then((r) => JSON.parse(r.content));
      const undocking = goal('undock');
      while (undock.goals.length === 0) await new Promise((r) => setTimeout(r, 10));
      expect(undock.goals[0]!.args).to.deep.equal({});
      undock.goals[0]!.succeed({ is_docked: false });
      expect(await undocking).to.deep.include({
        status: 'succeeded',
        skill: 'undock',
        action: '/robot1/undock',
        result: { is_docked: false },
      });
      const docking = goal('dock');
      while (dock.goals.length === 0) await new Promise((r) => setTimeout(r, 10));
      dock.goals[0]!.feedback({ sees_dock: true });
      await new Promise((r) => setTimeout(r, 50));
      await rt.callTool('stop', {});
      expect(await docking).to.deep.include({ status: 'canceled', feedback: { count: 1, last: { sees_dock: true } } });
      expect(dock.goals[0]!.state).to.equal('canceled');
    });
  });
});
