import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MiraError } from '@mira/core';
import { createTestRuntime, type TestRuntime } from '@mira/core/testing';
import memoryPlugin from '@mira/plugin-memory';
import ros2Plugin, { RosbridgeTransport } from '@mira/plugin-ros2';
import simPlugin from '@mira/plugin-sim';
import { NAVIGATE_TO_POSE } from '@mira/robot';
import { eventually } from './conformance/transport-contract.js';
import {
  startRosbridgeServer,
  type RosbridgeServerOptions,
  type RosbridgeTestServer,
  type TestActionServer,
} from './helpers/rosbridge-server.js';

/** Blocks this thread for `ms`, as a plugin stuck in a loop would (the safety worker's thread runs on). */
function blockMainThread(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy: no timer, socket or message is served meanwhile
  }
}

/** The line the safety path prints once the runtime is back from a stall its dead-man stopped. */
const STALLED = /^\[safety\] stopped: runtime stalled \d+\.\d s$/;

const DRIVE = {
  topic: '/cmd_vel',
  type: 'geometry_msgs/msg/Twist',
  max_linear_m_s: 0.5,
  max_angular_rad_s: 1,
  max_duration_s: 5,
};

describe('navigate_to on Nav2 NavigateToPose over rosbridge', function () {
  this.timeout(30_000);
  let bridge: RosbridgeTestServer;
  let nav2: TestActionServer;
  let rt: TestRuntime;
  let eStop: { set(msg: Record<string, unknown>): void; stop(): void };

  /** A runtime on the bridge with the robot's namespace, drive, e-stop and navigation; `ros2` adds to `[ros2]`. */
  const boot = (ros2: Record<string, unknown> = {}) =>
    createTestRuntime({
      plugins: [ros2Plugin, memoryPlugin],
      tables: {
        // Persistent memory (a real SQLite file in the runtime's folder) holds the places.
        memory: { enabled: true, database_path: 'memory.sqlite3' },
        ros2: {
          transport: 'rosbridge',
          url: bridge.url,
          namespace: '/robot1',
          sensors: [],
          drive: DRIVE,
          safety: { e_stop_topic: '/e_stop', stall_ms: 250 },
          navigation: {},
          ...ros2,
        },
      },
    });

  /** A bridge with Nav2 behind it, a runtime on it, and the robot's e-stop relay. */
  const setUp = async (options: RosbridgeServerOptions = {}) => {
    bridge = await startRosbridgeServer(options);
    nav2 = bridge.actionServer('/robot1/navigate_to_pose', NAVIGATE_TO_POSE);
    rt = await boot();
    // The robot's e-stop relay repeats its state: Mira refuses motion while it is not heard.
    eStop = bridge.repeat('/e_stop', { data: false }, 100);
    await eventually(() => bridge.subscribers('/e_stop') > 0, 8000, 'the safety path');
    // Three of the relay's periods: the safety path has heard it (it refuses goals until then).
    await new Promise((resolve) => setTimeout(resolve, 300));
  };
  beforeEach(() => setUp());
  afterEach(async () => {
    eStop.stop();
    await rt.dispose();
    await bridge.close();
  });

  /** A tool call's result; navigate_to by coordinates gets its `place: null`. */
  const call = async (name: string, args: Record<string, unknown>) =>
    JSON.parse((await rt.callTool(name, name === 'navigate_to' ? { place: null, ...args } : args)).content);
  const byPlace = (place: string) => call('navigate_to', { place, x_m: null, y_m: null, yaw_deg: null });
  const navigation = () => rt.app.kernel.latestReading('navigation')?.value as Record<string, unknown> | undefined;

  it('sends the goal Nav2 expects, shows feedback on the navigation sensor, and reports arrival', async () => {
    expect(await call('navigate_to', { x_m: 1.5, y_m: -2, yaw_deg: 90 })).to.deep.equal({
      status: 'started',
      goal: { x_m: 1.5, y_m: -2, yaw_deg: 90, frame_id: 'map' },
    });
    await eventually(() => nav2.goals.length === 1, 3000, 'the goal at the action server');
    const pose = nav2.goals[0]!.args.pose as {
      header: { frame_id: string };
      pose: { position: Record<string, number>; orientation: Record<string, number> };
    };
    expect(pose.header.frame_id).to.equal('map');
    expect(pose.pose.position).to.deep.equal({ x: 1.5, y: -2, z: 0 });
    expect(pose.pose.orientation.z).to.be.closeTo(Math.SQRT1_2, 1e-9);
    expect(pose.pose.orientation.w).to.be.closeTo(Math.SQRT1_2, 1e-9);
    nav2.goals[0]!.feedback({
      distance_remaining: 2.345,
      navigation_time: { sec: 3, nanosec: 500_000_000 },
      number_of_recoveries: 1,
    });
    await eventually(() => navigation()?.distance_remaining_m === 2.35, 3000, 'the feedback');
    expect(navigation()).to.deep.equal({
      state: 'navigating',
      goal_x_m: 1.5,
      goal_y_m: -2,
      distance_remaining_m: 2.35,
      navigation_time_s: 3.5,
      recoveries: 1,
    });
    nav2.goals[0]!.succeed({ error_code: 0 });
    await eventually(() => rt.notifications.includes('[navigate_to] reached (1.5, -2)'), 3000, 'the arrival');
    expect(navigation()).to.deep.include({ state: 'succeeded' });
    expect(bridge.logged).to.deep.equal([]);
  });

  describe('to a place by name', () => {
    const console = async (line: string) => {
      const { ok, output } = await rt.run(line);
      expect(ok, `${line}: ${output.join('\n')}`).to.equal(true);
      return output;
    };

    it('resolves the name or an alias exactly, sends its pose, and says which place and pose', async () => {
      expect(await console('memory place add "kitchen" --pose 3.2,-1.0,90')).to.deep.equal([
        'ENT1 place "kitchen" at (3.2, -1, 90°) in map (MEM1)',
      ]);
      await console('memory alias add ENT1 "the kitchen"');
      expect(await byPlace('The Kitchen')).to.deep.equal({
        status: 'started',
        goal: { x_m: 3.2, y_m: -1, yaw_deg: 90, frame_id: 'map' },
        place: 'kitchen (ENT1)',
      });
      await eventually(() => nav2.goals.length === 1, 3000, 'the goal at the action server');
      const pose = nav2.goals[0]!.args.pose as { pose: { position: Record<string, number> } };
      expect(pose.pose.position).to.deep.equal({ x: 3.2, y: -1, z: 0 });
      expect(rt.notifications).to.include('[navigate_to] kitchen (ENT1) → (3.2, -1, 90°)');
      // A person of the same name is no place to drive to, and makes nothing ambiguous.
      await console('memory entity add person "kitchen"');
      expect(await byPlace('kitchen')).to.deep.include({ status: 'started', place: 'kitchen (ENT1)' });
    });

    it('refuses a miss, an ambiguity or a name that is no place, with the candidates, and sends nothing', async () => {
      await console('memory place add "north lab" --pose 1,1,0');
      await console('memory place add "south lab" --pose -1,-1,180');
      await console('memory alias add ENT1 "lab"');
      await console('memory alias add ENT2 "lab"');
      await console('memory entity add person "Ada"');
      expect(await byPlace('lab')).to.deep.equal({
        status: 'rejected',
        reason: 'place_ambiguous',
        error: '"lab" names 2 places (ENT1, ENT2); ask which one; nothing was sent',
        candidate_ids: ['ENT1', 'ENT2'],
      });
      expect(await byPlace('Ada')).to.deep.equal({
        status: 'rejected',
        reason: 'place_not_found',
        error: '"Ada" names ENT3 (a person), not a place; nothing was sent',
        candidate_ids: ['ENT3'],
      });
      expect(await byPlace('kitchen')).to.deep.equal({
        status: 'rejected',
        reason: 'place_not_found',
        error:
          'no place is named "kitchen" (exact name or alias); an operator adds one with memory place add; nothing was sent',
      });
      // "labs" is not "lab": names are never matched loosely.
      expect(await byPlace('labs')).to.deep.include({ reason: 'place_not_found' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(nav2.goals).to.have.length(0);
    });

    it('drives only to a pose the operator gave, in the navigation frame, and takes a place or coordinates', async () => {
      await console('memory place add "dock" --pose 0,0,0 --frame odom');
      expect(await byPlace('dock')).to.deep.include({ status: 'rejected', reason: 'place_frame_mismatch' });
      // A pose memory the operator did not write on the console (here: another source) is not driven to.
      const store = (await import('@mira/memory-contract')).MEMORY_STORE;
      const memory = rt.app.kernel.store(store);
      const hall = await memory.createEntity({ entityType: 'place', canonicalName: 'hall' });
      await memory.createMemory({
        kind: 'fact',
        summary: 'hall is at (5, 5, 0°) in map',
        predicate: 'pose',
        value: 'x=5 y=5 yaw=0 frame=map',
        sourceKind: 'attention',
        links: [{ entityId: hall.id, role: 'subject' }],
      });
      expect(await byPlace('hall')).to.deep.equal({
        status: 'rejected',
        reason: 'place_has_no_pose',
        error: 'ENT2 "hall" has no pose the operator gave; nothing was sent',
        candidate_ids: ['ENT2'],
      });
      expect(await call('navigate_to', { place: 'dock', x_m: 1, y_m: 1, yaw_deg: 0 })).to.deep.include({
        reason: 'invalid_tool_arguments',
      });
      expect(await call('navigate_to', { x_m: 1, y_m: null, yaw_deg: 0 })).to.deep.include({
        reason: 'invalid_tool_arguments',
      });
      expect(nav2.goals).to.have.length(0);
      // The operator gives the place its pose on the console; then it is driven to.
      await console('memory place pose ENT2 --pose 5,5,0');
      expect(await byPlace('hall')).to.deep.include({ status: 'started', place: 'hall (ENT2)' });
      await eventually(() => nav2.goals.length === 1, 3000, 'the goal at the action server');
      const again = await rt.run('memory place pose ENT2 --pose 6,6,0');
      expect(again.output.join('\n')).to.contain('ENT2 already has its pose (MEM3)');
    });

    it("keeps where the robot is (--here, from Nav2's amcl_pose, in its frame) and drives back there", async () => {
      await rt.dispose();
      rt = await boot({
        sensors: [{ id: 'localisation', topic: '/amcl_pose', type: 'geometry_msgs/msg/PoseWithCovarianceStamped' }],
      });
      await eventually(() => bridge.subscribers('/e_stop') > 0, 8000, 'the safety path');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const early = await rt.run('memory place add "desk" --here');
      expect(early.ok).to.equal(false);
      expect(early.output.join('\n'))
        .to.contain('--here needs a fresh pose')
        .and.to.contain('localisation: nothing heard yet');
      const amcl = bridge.repeat(
        '/amcl_pose',
        {
          header: { stamp: { sec: 0, nanosec: 0 }, frame_id: 'map' },
          pose: {
            pose: {
              position: { x: 1.25, y: -0.5, z: 0 },
              orientation: { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 },
            },
            covariance: new Array(36).fill(0),
          },
        },
        100,
      );
      try {
        await eventually(() => rt.app.kernel.latestReading('localisation') !== undefined, 3000, 'the pose');
        expect(await console('memory place add "desk" --here')).to.deep.equal([
          'ENT1 place "desk" at (1.25, -0.5, 90°) in map (MEM1)',
        ]);
        const both = await rt.run('memory place add "chair" --here --pose 1,1,1');
        expect(both.output.join('\n')).to.contain('give either --here or --pose [--frame], not both');
        expect(await byPlace('desk')).to.deep.include({
          status: 'started',
          goal: { x_m: 1.25, y_m: -0.5, yaw_deg: 90, frame_id: 'map' },
        });
      } finally {
        amcl.stop();
      }
    });

    it('says --here needs a pose sensor where the profile has none', async () => {
      const { ok, output } = await rt.run('memory place add "desk" --here');
      expect(ok).to.equal(false);
      expect(output.join('\n')).to.contain('MIRA_ERR_MEMORY_POSE_INVALID').and.to.contain('this profile has none');
    });

    it('refuses a bad pose on the console and creates no place', async () => {
      for (const [line, message] of [
        ['memory place add "attic" --pose 1,2', 'a pose is x,y,yaw'],
        ['memory place add "attic" --pose 1,2,720', 'yaw is in degrees, from -360 to 360'],
        ['memory place add "attic" --pose 1,2,3 --frame "bad frame"', 'a frame is a ROS frame name'],
        ['memory place add "attic"', 'give the place its pose'],
      ] as const) {
        const { ok, output } = await rt.run(line);
        expect(ok, line).to.equal(false);
        expect(output.join('\n'), line).to.contain('MIRA_ERR_MEMORY_POSE_INVALID').and.to.contain(message);
      }
      expect(await console('memory place list')).to.deep.equal([
        'no places yet; add one with memory place add "<name>" --pose x,y,yaw',
      ]);
    });
  });

  it("says why Nav2 gave up: the result's error_code and error_msg on the console and the sensor", async () => {
    await call('navigate_to', { x_m: 3, y_m: 1, yaw_deg: 0 });
    await eventually(() => nav2.goals.length === 1, 3000, 'the goal at the action server');
    nav2.goals[0]!.abort({ error_code: 9002, error_msg: 'Transform from map to base_link unavailable' });
    await eventually(
      () =>
        rt.notifications.includes(
          '[navigate_to] goal (3, 1) aborted: Nav2 error 9002 (TF_ERROR): Transform from map to base_link unavailable',
        ),
      3000,
      'the abort with its reason',
    );
    expect(navigation()).to.deep.equal({
      state: 'aborted',
      goal_x_m: 3,
      goal_y_m: 1,
      error_code: 9002,
      error_msg: 'Transform from map to base_link unavailable',
    });
    // A planner's code raised through bt_navigator is shown by number; an abort without one says only that.
    await call('navigate_to', { x_m: 4, y_m: 1, yaw_deg: 0 });
    await eventually(() => nav2.goals.length === 2, 3000, 'the second goal');
    nav2.goals[1]!.abort({ error_code: 104, error_msg: '' });
    await eventually(
      () => rt.notifications.includes('[navigate_to] goal (4, 1) aborted: Nav2 error 104'),
      3000,
      'the planner code',
    );
    await call('navigate_to', { x_m: 5, y_m: 1, yaw_deg: 0 });
    await eventually(() => nav2.goals.length === 3, 3000, 'the third goal');
    nav2.goals[2]!.abort({ error_code: 0 });
    await eventually(() => rt.notifications.includes('[navigate_to] goal (5, 1) aborted'), 3000, 'a bare abort');
    expect(navigation()).to.deep.equal({ state: 'aborted', goal_x_m: 5, goal_y_m: 1 });
  });

  it('under -p use_sim_time:=true, goals and drives stamped "now" follow /clock (zero until it is heard)', async () => {
    // A bridge of its own: on the shared one the first runtime's Twist publisher and subscription hold
    // /cmd_vel's type, and a real bridge would refuse TwistStamped there (a type conflict) too.
    eStop.stop();
    await rt.dispose();
    await bridge.close();
    bridge = await startRosbridgeServer();
    nav2 = bridge.actionServer('/robot1/navigate_to_pose', NAVIGATE_TO_POSE);
    eStop = bridge.repeat('/e_stop', { data: false }, 100);
    rt = await createTestRuntime({
      plugins: [ros2Plugin],
      rosArgs: ['-p', 'use_sim_time:=true'],
      tables: {
        ros2: {
          transport: 'rosbridge',
          url: bridge.url,
          namespace: '/robot1',
          sensors: [],
          drive: { ...DRIVE, type: 'geometry_msgs/msg/TwistStamped', stamp: 'now' },
          safety: { e_stop_topic: '/e_stop', stall_ms: 250 },
          navigation: {},
        },
      },
    });
    await eventually(() => bridge.subscribers('/e_stop') > 0, 8000, 'the safety path');
    expect(rt.logs.some((l) => l.includes('use_sim_time: on the simulation clock /clock'))).to.equal(true);
    // The same from a params file, and what else it says is named as not used.
    const file = join(rt.dir, 'params.yaml');
    writeFileSync(file, '/**:\n  ros__parameters:\n    use_sim_time: true\n    max_speed: 1.0\n');
    const fromFile = await createTestRuntime({
      plugins: [ros2Plugin],
      rosArgs: ['--params-file', file],
      start: false,
      tables: { ros2: { transport: 'rosbridge', url: bridge.url, sensors: [] } },
    });
    // The profile's own key, and -p winning over it (as over any ROS node's parameter file).
    const fromProfile = await createTestRuntime({
      plugins: [ros2Plugin],
      start: false,
      tables: { ros2: { transport: 'rosbridge', url: bridge.url, sensors: [], use_sim_time: true } },
    });
    const overridden = await createTestRuntime({
      plugins: [ros2Plugin],
      rosArgs: ['-p', 'use_sim_time:=false'],
      start: false,
      tables: { ros2: { transport: 'rosbridge', url: bridge.url, sensors: [], use_sim_time: true } },
    });
    try {
      expect(fromFile.logs.some((l) => l.includes('use_sim_time: on the simulation clock /clock'))).to.equal(true);
      expect(
        fromFile.logs.some((l) => l.includes('ROS arguments not used by Mira: max_speed (--params-file)')),
      ).to.equal(true);
      expect(fromProfile.logs.some((l) => l.includes('use_sim_time: on the simulation clock'))).to.equal(true);
      expect(overridden.logs.some((l) => l.includes('use_sim_time'))).to.equal(false);
    } finally {
      await fromFile.dispose();
      await fromProfile.dispose();
      await overridden.dispose();
    }
    expect(rt.logs.some((l) => l.includes('not used by Mira'))).to.equal(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const goalStamp = (i: number) => (nav2.goals[i]!.args.pose as { header: { stamp: unknown } }).header.stamp;
    // No /clock yet: a ROS node's clock reads zero, and so do Mira's stamps.
    await call('navigate_to', { x_m: 1, y_m: 1, yaw_deg: 0 });
    await eventually(() => nav2.goals.length === 1, 3000, 'the goal');
    expect(goalStamp(0)).to.deep.equal({ sec: 0, nanosec: 0 });
    // The simulator's clock, heard by the runtime and by the safety path (each on its own connection).
    bridge.declareTopic('/clock', 'rosgraph_msgs/msg/Clock');
    const simClock = bridge.repeat('/clock', { clock: { sec: 42, nanosec: 500_000_000 } }, 20);
    try {
      await eventually(() => bridge.subscribers('/clock') >= 2, 3000, 'both /clock subscriptions');
      await new Promise((resolve) => setTimeout(resolve, 100));
      await call('navigate_to', { x_m: 2, y_m: 1, yaw_deg: 0 });
      await eventually(() => nav2.goals.length === 2, 3000, 'the second goal');
      expect(goalStamp(1)).to.deep.equal({ sec: 42, nanosec: 500_000_000 });
      await call('drive', { linear_m_s: 0.1, angular_rad_s: 0, duration_s: 1 });
      const stamped = () =>
        bridge.published('/cmd_vel').filter((m) => 'header' in m) as Array<{ header: { stamp: unknown } }>;
      await eventually(() => stamped().length > 0, 3000, 'a drive command');
      expect(stamped()[0]!.header.stamp).to.deep.equal({ sec: 42, nanosec: 500_000_000 });
      // /diagnostics too (its first message may predate the clock: the latest one after it).
      await eventually(
        () => bridge.published('/diagnostics').some((m) => (m.header as { stamp: { sec: number } }).stamp.sec === 42),
        3000,
        'a /diagnostics message on the simulation clock',
      );
    } finally {
      simClock.stop();
    }
  });

  it('is offered to operator episodes only, and refuses goals out of range without sending one', async () => {
    expect(rt.app.kernel.tools.get('navigate_to')!.tool.origins).to.deep.equal(['operator']);
    expect(await call('navigate_to', { x_m: 500, y_m: 0, yaw_deg: 0 })).to.deep.include({
      status: 'rejected',
      reason: 'out_of_range',
    });
    expect(await call('navigate_to', { x_m: 0, y_m: Number.NaN, yaw_deg: 0 })).to.deep.include({
      reason: 'out_of_range',
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(nav2.goals).to.have.length(0);
  });

  it('cancels the running goal on the stop tool', async () => {
    await call('navigate_to', { x_m: 1, y_m: 1, yaw_deg: 0 });
    await eventually(() => nav2.goals.length === 1, 3000, 'the goal');
    expect(await call('stop', {})).to.deep.equal({ status: 'stopped' });
    await eventually(() => nav2.goals[0]!.state === 'canceled', 3000, 'the cancellation');
    await eventually(() => rt.notifications.includes('[navigate_to] goal (1, 1) canceled'), 3000, 'the line');
    expect(navigation()).to.deep.include({ state: 'canceled' });
  });

  describe('on a bridge that acknowledges goals late (its handle exists only once Nav2 accepted)', () => {
    beforeEach(async () => {
      eStop.stop();
      await rt.dispose();
      await bridge.close();
      await setUp({ lateGoalHandles: true });
    });

    for (const [how, stop] of [
      ['the stop tool', async () => expect(await call('stop', {})).to.deep.equal({ status: 'stopped' })],
      ['a console stop', async () => void (await rt.run('stop'))],
      ['the e-stop topic', async () => eStop.set({ data: true })],
    ] as const) {
      it(`cancels the goal ${how} stopped before the bridge held it, once it does`, async () => {
        expect(await call('navigate_to', { x_m: 1, y_m: 1, yaw_deg: 0 })).to.deep.include({ status: 'started' });
        await eventually(() => nav2.goals.length === 1, 3000, 'the goal at the action server');
        await stop();
        // The cancel reached the bridge before it held the goal: dropped there without a word.
        await eventually(() => bridge.ops.some((op) => op.op === 'cancel_action_goal'), 3000, 'the first cancel');
        expect(nav2.goals[0]!.state).to.equal('pending');
        nav2.goals[0]!.accept();
        nav2.goals[0]!.feedback({ distance_remaining: 1 });
        await eventually(() => nav2.goals[0]!.state === 'canceled', 3000, 'the cancellation once it is held');
        await eventually(() => rt.notifications.includes('[navigate_to] goal (1, 1) canceled'), 3000, 'the line');
        expect(bridge.ops.filter((op) => op.op === 'cancel_action_goal')).to.have.length(2);
      });
    }

    it('a goal replaced before the bridge held it is cancelled once it does', async () => {
      await call('navigate_to', { x_m: 1, y_m: 0, yaw_deg: 0 });
      await eventually(() => nav2.goals.length === 1, 3000, 'the first goal');
      await call('navigate_to', { x_m: 4, y_m: 0, yaw_deg: 0 });
      await eventually(() => nav2.goals.length === 2, 3000, 'the second goal');
      expect(nav2.goals.map((g) => g.state)).to.deep.equal(['pending', 'pending']);
      nav2.goals[0]!.feedback({ distance_remaining: 3 });
      await eventually(() => nav2.goals[0]!.state === 'canceled', 3000, 'the first goal cancelled');
      nav2.goals[1]!.feedback({ distance_remaining: 2 });
      await new Promise((r) => setTimeout(r, 200));
      expect(nav2.goals.map((g) => g.state)).to.deep.equal(['canceled', 'active']);
    });

    it('a goal held and not stopped is cancelled once, by the stop that comes later', async () => {
      await call('navigate_to', { x_m: 1, y_m: 0, yaw_deg: 0 });
      await eventually(() => nav2.goals.length === 1, 3000, 'the goal');
      nav2.goals[0]!.feedback({ distance_remaining: 3 });
      await eventually(() => navigation()?.distance_remaining_m === 3, 3000, 'the feedback');
      expect(bridge.ops.filter((op) => op.op === 'cancel_action_goal')).to.deep.equal([]);
      expect(await call('stop', {})).to.deep.equal({ status: 'stopped' });
      await eventually(() => nav2.goals[0]!.state === 'canceled', 3000, 'the cancellation');
      await new Promise((r) => setTimeout(r, 200));
      expect(bridge.ops.filter((op) => op.op === 'cancel_action_goal')).to.have.length(1);
    });
  });

  /** A goal another node sent to the same Nav2 (a fleet manager, a teleop panel), on its own connection. */
  const othersGoal = async () => {
    const other = new RosbridgeTransport(bridge.url, 2000, () => undefined);
    await other.connect();
    const goal = await other.sendActionGoal('/robot1/navigate_to_pose', NAVIGATE_TO_POSE, {}, () => undefined);
    await eventually(() => nav2.goals.length === 1, 3000, "the other node's goal");
    nav2.goals[0]!.feedback({});
    return { other, goal };
  };

  it("cancels Mira's goal by its ID on a stop, and no goal another node sent", async () => {
    const { other } = await othersGoal();
    try {
      await call('navigate_to', { x_m: 1, y_m: 1, yaw_deg: 0 });
      await eventually(() => nav2.goals.length === 2, 3000, "Mira's goal");
      expect(await call('stop', {})).to.deep.equal({ status: 'stopped' });
      await eventually(() => nav2.goals[1]!.state === 'canceled', 3000, 'the cancellation');
      await new Promise((r) => setTimeout(r, 200));
      expect(nav2.goals.map((g) => g.state)).to.deep.equal(['active', 'canceled']);
      // By its ID (rosbridge's cancel_action_goal), never the all-goals CancelGoal request.
      expect(
        bridge.ops.filter((op) => op.op === 'call_service' && String(op.service).endsWith('/cancel_goal')),
      ).to.deep.equal([]);
    } finally {
      await other.close();
    }
  });

  it("a stalled runtime's goal is cancelled by its ID too; another node's goal keeps running", async () => {
    const { other } = await othersGoal();
    try {
      await call('navigate_to', { x_m: 3, y_m: 0, yaw_deg: 0 });
      await eventually(() => nav2.goals.length === 2, 3000, "Mira's goal");
      await new Promise((r) => setTimeout(r, 100));
      blockMainThread(700); // a plugin stuck in a loop
      await eventually(() => nav2.goals[1]!.state === 'canceled', 3000, 'the cancellation by the worker');
      expect(nav2.goals[0]!.state).to.equal('active');
    } finally {
      await other.close();
    }
  });

  it('cancels the running goal on a console stop', async () => {
    await call('navigate_to', { x_m: 2, y_m: 0, yaw_deg: 0 });
    await eventually(() => nav2.goals.length === 1, 3000, 'the goal');
    await rt.run('stop');
    await eventually(() => nav2.goals[0]!.state === 'canceled', 3000, 'the cancellation');
  });

  it('cancels the running goal on the e-stop topic and refuses new goals until it clears', async () => {
    await call('navigate_to', { x_m: 2, y_m: 0, yaw_deg: 0 });
    await eventually(() => nav2.goals.length === 1, 3000, 'the goal');
    eStop.set({ data: true });
    await eventually(() => nav2.goals[0]!.state === 'canceled', 3000, 'the cancellation');
    await eventually(() => rt.notifications.includes('[safety] stopped: emergency stop on /e_stop'), 3000, 'e-stop');
    expect(await call('navigate_to', { x_m: 1, y_m: 0, yaw_deg: 0 })).to.deep.include({
      status: 'rejected',
      reason: 'emergency_stopped',
    });
    expect(nav2.goals).to.have.length(1);
  });

  it('stops a drive that replaced the goal when the runtime stalls (the safety worker does it on its own)', async () => {
    await call('navigate_to', { x_m: 3, y_m: 0, yaw_deg: 0 });
    await eventually(() => nav2.goals.length === 1, 3000, 'the goal');
    // One source of motion: the drive cancels the goal; then the main thread blocks past the stall time.
    await call('drive', { linear_m_s: 0.1, angular_rad_s: 0, duration_s: 5 });
    await eventually(() => nav2.goals[0]!.state === 'canceled', 3000, 'the cancellation by the drive');
    blockMainThread(700); // a plugin stuck in a loop
    // The dead-man's line, not the link check's (the in-test bridge froze with this thread).
    await eventually(() => rt.notifications.some((line) => STALLED.test(line)), 3000, "the dead-man's line");
  });

  it('cancels the running goal when the runtime stalls with no drive running (the dead-man covers navigation)', async () => {
    await call('navigate_to', { x_m: 3, y_m: 0, yaw_deg: 0 });
    await eventually(() => nav2.goals.length === 1, 3000, 'the goal');
    await new Promise((r) => setTimeout(r, 100));
    blockMainThread(700); // a plugin stuck in a loop, with no drive of Mira's running
    await eventually(() => nav2.goals[0]!.state === 'canceled', 3000, 'the cancellation by the worker');
    // The in-test bridge runs on this thread and froze with it, so the worker's link check fails too and
    // would cancel every goal on the next connection: only the dead-man's line and a cancel by the goal's
    // ID (and no all-goals request) show that the dead-man, not the link check, ended the goal.
    await eventually(() => rt.notifications.some((line) => STALLED.test(line)), 3000, "the dead-man's line");
    const sent = bridge.ops.filter((op) => op.op === 'send_action_goal').map((op) => op.id);
    expect(sent).to.have.length(1);
    const cancelled = new Set(bridge.ops.filter((op) => op.op === 'cancel_action_goal').map((op) => op.id));
    expect([...cancelled]).to.deep.equal(sent);
    expect(
      bridge.ops.filter((op) => op.op === 'call_service' && String(op.service).endsWith('/cancel_goal')),
    ).to.deep.equal([]);
  });

  it('cancels the running goal when a drive starts: one source of motion', async () => {
    await call('navigate_to', { x_m: 3, y_m: 0, yaw_deg: 0 });
    await eventually(() => nav2.goals.length === 1, 3000, 'the goal');
    expect(await call('drive', { linear_m_s: 0.1, angular_rad_s: 0, duration_s: 2 })).to.deep.include({
      status: 'started',
    });
    await eventually(() => nav2.goals[0]!.state === 'canceled', 3000, 'the cancellation');
    await eventually(() => rt.notifications.includes('[navigate_to] goal (3, 0) canceled'), 3000, 'the line');
  });

  it('ends a running drive when a goal is sent: nothing non-zero is republished after it', async () => {
    expect(await call('drive', { linear_m_s: 0.2, angular_rad_s: 0, duration_s: 5 })).to.deep.include({
      status: 'started',
    });
    await eventually(
      () => bridge.published('/cmd_vel').some((m) => (m.linear as { x: number }).x === 0.2),
      3000,
      'the drive',
    );
    await call('navigate_to', { x_m: 3, y_m: 0, yaw_deg: 0 });
    await eventually(() => nav2.goals.length === 1, 3000, 'the goal');
    await new Promise((r) => setTimeout(r, 100));
    const sent = bridge.published('/cmd_vel').length;
    await new Promise((r) => setTimeout(r, 500));
    expect(bridge.published('/cmd_vel').slice(sent)).to.deep.equal([]);
    expect(nav2.goals[0]!.state).to.equal('active');
  });

  it('rejects a goal nobody answers within goal_accept_timeout_ms instead of navigating forever', async () => {
    await rt.dispose();
    // No action server on this name: rosbridge waits for one, saying nothing.
    rt = await boot({ goal_accept_timeout_ms: 500, navigation: { action: 'nobody_navigates' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await call('navigate_to', { x_m: 1, y_m: 0, yaw_deg: 0 })).to.deep.include({ status: 'started' });
    await eventually(() => navigation()?.state === 'rejected', 3000, 'the rejection');
    expect(
      rt.notifications.some((l) =>
        l.startsWith(
          '[navigate_to] goal (1, 0) refused: no feedback or result within 500 ms (no action server on /robot1/nobody_navigates',
        ),
      ),
    ).to.equal(true);
    // And the next goal is not held behind the unanswered one.
    nav2 = bridge.actionServer('/robot1/nobody_navigates', NAVIGATE_TO_POSE);
    await call('navigate_to', { x_m: 2, y_m: 0, yaw_deg: 0 });
    await eventually(() => nav2.goals.length === 1, 3000, 'the next goal at the server');
  });

  it('replaces a running goal with a new one', async () => {
    await call('navigate_to', { x_m: 1, y_m: 0, yaw_deg: 0 });
    await eventually(() => nav2.goals.length === 1, 3000, 'the first goal');
    await call('navigate_to', { x_m: 4, y_m: 0, yaw_deg: 0 });
    await eventually(() => nav2.goals.length === 2, 3000, 'the second goal');
    expect(nav2.goals.map((g) => g.state)).to.deep.equal(['canceled', 'active']);
    nav2.goals[1]!.feedback({ distance_remaining: 1 });
    await eventually(() => navigation()?.goal_x_m === 4 && navigation()?.distance_remaining_m === 1, 3000, 'feedback');
  });

  it('says the goal is lost when the bridge goes down during it, and refuses new goals until it is back', async () => {
    await call('navigate_to', { x_m: 1, y_m: 0, yaw_deg: 0 });
    await eventually(() => nav2.goals.length === 1, 3000, 'the goal');
    await bridge.stop();
    await eventually(() => navigation()?.state === 'lost', 5000, 'the lost state');
    expect(rt.notifications.some((l) => l.includes('the robot may still be pursuing it'))).to.equal(true);
    expect(await call('navigate_to', { x_m: 2, y_m: 0, yaw_deg: 0 })).to.deep.include({
      status: 'rejected',
      reason: 'transport_error',
    });
  });

  it('says so when the server refuses the goal', async () => {
    bridge.actionServer('/robot1/navigate_to_pose', 'nav2_msgs/action/NavigateThroughPoses');
    await call('navigate_to', { x_m: 1, y_m: 0, yaw_deg: 0 });
    await eventually(
      () => rt.notifications.some((l) => l.startsWith('[navigate_to] goal (1, 0) refused: action type')),
      3000,
      'the refusal',
    );
    expect(navigation()).to.deep.include({ state: 'rejected' });
  });
});

describe('navigation configuration', () => {
  it('needs a drive, since the safety path cancels goals', async () => {
    let error: MiraError | undefined;
    try {
      await createTestRuntime({
        plugins: [ros2Plugin],
        tables: { ros2: { transport: 'rosbridge', url: 'ws://127.0.0.1:9', sensors: [], navigation: {} } },
      });
    } catch (e) {
      error = e as MiraError;
    }
    expect(error?.message).to.include('navigation needs a drive table too');
  });

  it('is refused on the simulator, which has no action servers', async () => {
    let error: MiraError | undefined;
    try {
      await createTestRuntime({
        plugins: [simPlugin],
        tables: { sim: { tick_ms: 0, drive: DRIVE, navigation: {} } },
      });
    } catch (e) {
      error = e as MiraError;
    }
    expect(error?.message).to.include('cannot send action goals');
  });
});
