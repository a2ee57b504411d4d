import { expect } from 'chai';
import { crossThreadNow, definePlugin, type MiraError, type MiraPlugin } from '@mira/core';
import { createTestRuntime, type TestRuntime } from '@mira/core/testing';
import ros2Plugin, { RclnodejsTransport } from '@mira/plugin-ros2';
import { SKILL_TOOLS, attachRobot, type SkillMapping } from '@mira/robot';
import rclnodejs, {
  graph as rclGraph,
  remoteNode,
  serveAction,
  stopActionServers,
} from './helpers/rclnodejs-standin.js';
import { eventually } from './conformance/transport-contract.js';
import { parameterValue } from './helpers/rosapi.js';
import { startRosbridgeServer, type RosbridgeTestServer, type TestActionServer } from './helpers/rosbridge-server.js';

const DRIVE = {
  topic: '/cmd_vel',
  type: 'geometry_msgs/msg/Twist',
  max_linear_m_s: 0.5,
  max_angular_rad_s: 1,
  max_duration_s: 5,
};

const EMPTY = { type: 'object', properties: {}, additionalProperties: false };

/** The skills of the robot under test: one of each kind, a motion action, and one at 1 Hz. */
const SKILLS = [
  {
    id: 'lights',
    kind: 'topic',
    name: 'cmdlightring',
    type: 'irobot_create_msgs/msg/LightringLeds',
    description: 'Sets the light ring',
    motion: false,
    max_rate_hz: 100,
    schema: {
      type: 'object',
      properties: { override_system: { type: 'boolean' } },
      required: ['override_system'],
      additionalProperties: false,
    },
  },
  {
    id: 'beep',
    kind: 'topic',
    name: 'cmd_audio',
    type: 'irobot_create_msgs/msg/AudioNoteVector',
    description: 'Plays a note',
    motion: false,
    schema: { type: 'object' },
  },
  {
    id: 'reset_pose',
    kind: 'service',
    name: 'reset_pose',
    type: 'std_srvs/srv/Trigger',
    description: 'Resets the odometry',
    motion: false,
    max_rate_hz: 100,
    timeout_ms: 500,
    schema: EMPTY,
  },
  {
    id: 'gripper',
    kind: 'service',
    name: 'gripper/set',
    type: 'std_srvs/srv/SetBool',
    description: 'Opens or closes the gripper',
    motion: true,
    max_rate_hz: 100,
    schema: {
      type: 'object',
      properties: { data: { type: 'boolean' } },
      required: ['data'],
      additionalProperties: false,
    },
  },
  {
    id: 'calibrate',
    kind: 'action',
    name: 'calibrate',
    type: 'example_msgs/action/Calibrate',
    description: 'Calibrates the IMU',
    motion: false,
    max_rate_hz: 100,
    timeout_ms: 800,
    schema: {
      type: 'object',
      properties: { samples: { type: 'integer', minimum: 1, maximum: 100 } },
      required: ['samples'],
      additionalProperties: false,
    },
  },
  {
    id: 'dock',
    kind: 'action',
    name: 'dock',
    type: 'irobot_create_msgs/action/Dock',
    description: 'Docks on the charger',
    motion: true,
    max_rate_hz: 100,
    schema: EMPTY,
  },
  {
    id: 'max_speed',
    kind: 'parameter',
    node: 'controller_server',
    name: 'FollowPath.max_vel_x',
    type: 'double',
    description: 'The top speed of path following (m/s)',
    motion: false,
    max_rate_hz: 100,
    schema: { type: 'number', minimum: 0.05, maximum: 0.3 },
  },
];

describe('skills the profile allows, through the runtime, on the in-test bridge', function () {
  this.timeout(30_000);
  let bridge: RosbridgeTestServer;
  let rt: TestRuntime;
  let eStop: { set(msg: Record<string, unknown>): void; stop(): void };
  let calibrate: TestActionServer;
  let dock: TestActionServer;

  const call = async (tool: string, args: Record<string, unknown>, episode?: { askedAt: number }) =>
    JSON.parse((await rt.callTool(tool, args, episode)).content) as Record<string, any>;
  /** Past a skill's rate limit (100 Hz in these skills). */
  const pause = () => new Promise((resolve) => setTimeout(resolve, 15));
  const action = (skill: string, goal: unknown) => call(SKILL_TOOLS.action, { skill, goal: JSON.stringify(goal) });

  beforeEach(async () => {
    bridge = await startRosbridgeServer();
    bridge.declareTopic('/robot1/cmdlightring', 'irobot_create_msgs/msg/LightringLeds');
    bridge.rosService('/robot1/reset_pose', 'std_srvs/srv/Trigger', () => ({ success: true, message: 'reset' }));
    bridge.rosService('/robot1/gripper/set', 'std_srvs/srv/SetBool', (args) => ({
      success: true,
      message: args.data ? 'closed' : 'opened',
    }));
    bridge.rosNode('/robot1/controller_server', { 'FollowPath.max_vel_x': parameterValue(0.26) });
    calibrate = bridge.actionServer('/robot1/calibrate', 'example_msgs/action/Calibrate');
    dock = bridge.actionServer('/robot1/dock', 'irobot_create_msgs/action/Dock');
    rt = await createTestRuntime({
      plugins: [ros2Plugin],
      tables: {
        ros2: {
          transport: 'rosbridge',
          url: bridge.url,
          namespace: '/robot1',
          sensors: [],
          drive: DRIVE,
          safety: { e_stop_topic: '/e_stop', stall_ms: 250 },
          skills: SKILLS,
        },
      },
    });
    eStop = bridge.repeat('/e_stop', { data: false }, 100);
    await eventually(() => bridge.subscribers('/e_stop') > 0, 8000, 'the safety path');
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
  afterEach(async () => {
    eStop.stop();
    await rt.dispose();
    await bridge.close();
  });

  it('offers one tool per kind the profile uses, each listing its skills with their schemas', () => {
    for (const name of Object.values(SKILL_TOOLS)) expect(rt.app.kernel.tools.has(name), name).to.equal(true);
    expect(rt.app.kernel.tools.get(SKILL_TOOLS.action)!.tool.description).to.equal(
      'Send a goal to a ROS 2 action, wait for its result (feedback summarised) and return it, only as one of the ' +
        "skills this robot allows, by its id; goal is JSON text checked against the skill's schema before anything " +
        'is sent. Skills:\n' +
        '- calibrate: Calibrates the IMU (times out after 0.8 s). goal: {"type":"object","required":["samples"],"additionalProperties":false,"properties":{"samples":{"type":"integer","minimum":1,"maximum":100}}}\n' +
        '- dock: Docks on the charger (moves the robot; times out after 60 s). goal: {"type":"object","additionalProperties":false,"properties":{}}',
    );
  });

  it('publishes on a topic the profile allows', async () => {
    expect(await call(SKILL_TOOLS.topic, { skill: 'lights', message: '{"override_system":true}' })).to.deep.equal({
      status: 'published',
      skill: 'lights',
      topic: '/robot1/cmdlightring',
      type: 'irobot_create_msgs/msg/LightringLeds',
    });
    await eventually(() => bridge.published('/robot1/cmdlightring').length === 1, 3000, 'the message');
    expect(bridge.published('/robot1/cmdlightring')).to.deep.equal([{ override_system: true }]);
  });

  it('refuses what is not allowed, not valid, or too often, and sends nothing', async () => {
    expect(await call(SKILL_TOOLS.topic, { skill: 'cmd_vel', message: '{}' })).to.deep.equal({
      status: 'rejected',
      reason: 'skill_not_allowed',
      error: 'cmd_vel is not one of the topic skills this robot allows (lights, beep); nothing was sent',
    });
    expect(await call(SKILL_TOOLS.topic, { skill: 'dock', message: '{}' })).to.deep.equal({
      status: 'rejected',
      reason: 'skill_not_allowed',
      error:
        'dock is not one of the topic skills this robot allows (lights, beep); dock is an action: use send_ros_action_goal; nothing was sent',
    });
    expect(await call(SKILL_TOOLS.topic, { skill: 'lights', message: '{"override_system":1}' })).to.deep.equal({
      status: 'rejected',
      reason: 'invalid_message',
      error:
        'message/override_system must be boolean; the schema is {"type":"object","required":["override_system"],"additionalProperties":false,"properties":{"override_system":{"type":"boolean"}}}; nothing was sent',
    });
    const notJson = await call(SKILL_TOOLS.topic, { skill: 'lights', message: '{override_system: true}' });
    expect(notJson).to.deep.include({ status: 'rejected', reason: 'invalid_message' });
    expect(notJson.error).to.match(/^message is not JSON text \(.+\); nothing was sent$/);
    expect(await call(SKILL_TOOLS.parameter, { skill: 'max_speed', value: '0.5' })).to.deep.include({
      reason: 'invalid_message',
      error: 'value must be <= 0.3; the schema is {"type":"number","minimum":0.05,"maximum":0.3}; nothing was sent',
    });
    expect(await call(SKILL_TOOLS.topic, { skill: 'beep', message: '{}' })).to.deep.include({ status: 'published' });
    const again = await call(SKILL_TOOLS.topic, { skill: 'beep', message: '{}' });
    expect(again).to.deep.include({
      status: 'rejected',
      reason: 'rate_limited',
      error: 'beep is allowed at most 1 times a second; nothing was sent',
    });
    expect(again.retry_after_ms).to.be.within(1, 1000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(bridge.published('/robot1/cmdlightring')).to.deep.equal([]);
    expect(bridge.published('/robot1/cmd_audio')).to.have.length(1);
  });

  it('calls a service and returns its response; a missing service and a silent one are refused by reason', async () => {
    const answered = await call(SKILL_TOOLS.service, { skill: 'reset_pose', request: '{}' });
    expect(answered).to.deep.include({
      status: 'succeeded',
      skill: 'reset_pose',
      service: '/robot1/reset_pose',
      response: { success: true, message: 'reset' },
    });
    expect(answered.elapsed_ms).to.be.a('number');
    bridge.rosService('/robot1/reset_pose', 'std_srvs/srv/Trigger');
    await pause();
    expect(await call(SKILL_TOOLS.service, { skill: 'reset_pose', request: '{}' })).to.deep.equal({
      status: 'rejected',
      reason: 'timeout',
      error:
        '/robot1/reset_pose gave no answer within 500 ms; it may still act on the request (a service call cannot be cancelled)',
    });
    await rt.dispose();
    rt = await createTestRuntime({
      plugins: [ros2Plugin],
      tables: {
        ros2: { transport: 'rosbridge', url: bridge.url, sensors: [], skills: [{ ...SKILLS[2], name: 'nowhere' }] },
      },
    });
    expect(await call(SKILL_TOOLS.service, { skill: 'reset_pose', request: '{}' })).to.deep.equal({
      status: 'rejected',
      reason: 'refused_by_robot',
      error: '/nowhere failed: Service /nowhere does not exist',
    });
  });

  it('sets a parameter through the node’s own SetParameters; a refusal is the node’s words', async () => {
    expect(await call(SKILL_TOOLS.parameter, { skill: 'max_speed', value: '0.2' })).to.deep.equal({
      status: 'set',
      skill: 'max_speed',
      node: '/robot1/controller_server',
      parameter: 'FollowPath.max_vel_x',
      value: 0.2,
    });
    const read = JSON.parse(
      (await rt.callTool('get_ros_parameters', { node: '/robot1/controller_server', filter: 'max_vel' })).content,
    );
    expect(read.parameters).to.deep.equal([{ name: 'FollowPath.max_vel_x', type: 'double', value: 0.2 }]);
    bridge.rosNode('/robot1/controller_server', {});
    await pause();
    expect(await call(SKILL_TOOLS.parameter, { skill: 'max_speed', value: '0.1' })).to.deep.equal({
      status: 'rejected',
      reason: 'refused_by_robot',
      error:
        "/robot1/controller_server did not set FollowPath.max_vel_x: Invalid access to undeclared parameter(s): ['FollowPath.max_vel_x']",
    });
  });

  it('sends a goal, summarises its feedback and returns its result', async () => {
    const pending = action('calibrate', { samples: 10 });
    await eventually(() => calibrate.goals.length === 1, 3000, 'the goal');
    expect(calibrate.goals[0]!.args).to.deep.equal({ samples: 10 });
    calibrate.goals[0]!.feedback({ progress: 0.5 });
    calibrate.goals[0]!.feedback({ progress: 0.9 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    calibrate.goals[0]!.succeed({ offset: 0.01 });
    const result = await pending;
    expect(result).to.deep.include({
      status: 'succeeded',
      skill: 'calibrate',
      action: '/robot1/calibrate',
      result: { offset: 0.01 },
      feedback: { count: 2, last: { progress: 0.9 } },
    });
  });

  it('cancels a goal at its time-out and says so; an aborted goal returns its result', async () => {
    const pending = action('calibrate', { samples: 3 });
    await eventually(() => calibrate.goals.length === 1, 3000, 'the goal');
    calibrate.goals[0]!.feedback({ progress: 0.1 });
    expect(await pending).to.deep.equal({
      status: 'rejected',
      reason: 'timeout',
      error: '/robot1/calibrate gave no result within 800 ms; the goal was cancelled',
      feedback: { count: 1, last: { progress: 0.1 } },
    });
    expect(calibrate.goals[0]!.state).to.equal('canceled');
    const second = action('calibrate', { samples: 3 });
    await eventually(() => calibrate.goals.length === 2, 3000, 'the second goal');
    calibrate.goals[1]!.abort({ offset: 0 });
    expect(await second).to.deep.include({ status: 'aborted', result: { offset: 0 }, feedback: { count: 0 } });
  });

  it('refuses a second goal while one runs, and a goal the action server refuses', async () => {
    const pending = action('calibrate', { samples: 3 });
    await eventually(() => calibrate.goals.length === 1, 3000, 'the goal');
    expect(await action('calibrate', { samples: 3 })).to.deep.equal({
      status: 'rejected',
      reason: 'busy',
      error: 'a goal of calibrate is still running; wait for its result; nothing was sent',
    });
    calibrate.goals[0]!.succeed({});
    await pending;
    bridge.actionServer('/robot1/calibrate', 'example_msgs/action/Other');
    await pause();
    expect(await action('calibrate', { samples: 3 })).to.deep.equal({
      status: 'rejected',
      reason: 'refused_by_robot',
      error:
        '/robot1/calibrate refused the goal: action type example_msgs/action/Calibrate does not match example_msgs/action/Other',
    });
  });

  it('a goal the action server rejects, which rosbridge never answers, is refused after goal_accept_timeout_ms', async () => {
    await rt.dispose();
    const rejecting = bridge.actionServer('/robot1/calibrate', 'example_msgs/action/Calibrate', { rejectGoals: true });
    rt = await createTestRuntime({
      plugins: [ros2Plugin],
      tables: {
        ros2: {
          transport: 'rosbridge',
          url: bridge.url,
          namespace: '/robot1',
          goal_accept_timeout_ms: 300,
          sensors: [],
          skills: [SKILLS[4]],
        },
      },
    });
    expect(await action('calibrate', { samples: 3 })).to.deep.equal({
      status: 'rejected',
      reason: 'refused_by_robot',
      error:
        '/robot1/calibrate refused the goal: no feedback or result within 300 ms (no action server on /robot1/calibrate, or the bridge refused the goal); cancelled',
    });
    expect(rejecting.rejected).to.equal(1);
  });

  it("the operator's console stop cancels a running goal that does not move the robot too", async () => {
    const pending = action('calibrate', { samples: 3 });
    await eventually(() => calibrate.goals.length === 1, 3000, 'the goal');
    expect((await rt.run('stop')).output[0]).to.match(/^emergency stop: zero velocity sent to 1 drive$/);
    expect(await pending).to.deep.include({ status: 'canceled', skill: 'calibrate' });
  });

  describe('motion skills go through the safety path', () => {
    it('the e-stop refuses a motion goal and a motion service; nothing is sent', async () => {
      eStop.set({ data: true });
      await eventually(() => rt.notifications.some((l) => l.includes('emergency stop on /e_stop')), 3000, 'the e-stop');
      expect(await action('dock', {})).to.deep.equal({
        status: 'rejected',
        reason: 'emergency_stopped',
        error: 'the emergency stop on /e_stop is active; clear it first',
      });
      expect(await call(SKILL_TOOLS.service, { skill: 'gripper', request: '{"data":true}' })).to.deep.include({
        reason: 'emergency_stopped',
      });
      // A non-motion skill still runs.
      expect(await call(SKILL_TOOLS.service, { skill: 'reset_pose', request: '{}' })).to.deep.include({
        status: 'succeeded',
      });
      expect(dock.goals).to.deep.equal([]);
    });

    it('a stop cancels a running motion goal, and the result says canceled', async () => {
      const pending = action('dock', {});
      await eventually(() => dock.goals.length === 1 && dock.goals[0]!.state === 'active', 3000, 'the goal');
      dock.goals[0]!.feedback({ sees_dock: true });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(JSON.parse((await rt.callTool('stop', {})).content)).to.deep.equal({ status: 'stopped' });
      expect(await pending).to.deep.include({
        status: 'canceled',
        skill: 'dock',
        feedback: { count: 1, last: { sees_dock: true } },
      });
      expect(dock.goals[0]!.state).to.equal('canceled');
    });

    it('a stop after it was asked fences a motion goal and a motion service call off', async () => {
      const askedAt = crossThreadNow();
      await new Promise((resolve) => setTimeout(resolve, 5));
      await rt.callTool('stop', {});
      const fenced = await call(SKILL_TOOLS.action, { skill: 'dock', goal: '{}' }, { askedAt });
      expect(fenced).to.deep.include({ status: 'rejected', reason: 'superseded' });
      expect(fenced.error).to.match(/^a stop came \d+ ms after this goal was asked; nothing was sent$/);
      const call2 = await call(SKILL_TOOLS.service, { skill: 'gripper', request: '{"data":true}' }, { askedAt });
      expect(call2).to.deep.include({ status: 'rejected', reason: 'superseded' });
      expect(dock.goals).to.deep.equal([]);
      // Asked after the stop: it runs.
      await pause();
      expect(await call(SKILL_TOOLS.service, { skill: 'gripper', request: '{"data":true}' })).to.deep.include({
        status: 'succeeded',
        response: { success: true, message: 'closed' },
      });
    });

    it('the dead-man cancels a running motion goal while this thread is blocked', async () => {
      const pending = action('dock', {});
      await eventually(() => dock.goals.length === 1 && dock.goals[0]!.state === 'active', 3000, 'the goal');
      const until = Date.now() + 700;
      while (Date.now() < until) {
        // a plugin stuck in a loop: only the safety worker's thread runs
      }
      expect(await pending).to.deep.include({ status: 'canceled', skill: 'dock' });
      await eventually(
        () => rt.notifications.some((l) => /^\[safety\] stopped: runtime stalled \d+\.\d s$/.test(l)),
        3000,
        'the stall said',
      );
    });

    it('a drive cancels a running motion goal (one source of motion)', async () => {
      const pending = action('dock', {});
      await eventually(() => dock.goals.length === 1 && dock.goals[0]!.state === 'active', 3000, 'the goal');
      await rt.callTool('drive', { linear_m_s: 0.1, angular_rad_s: 0, duration_s: 1 });
      expect(await pending).to.deep.include({ status: 'canceled' });
    });
  });
});

describe('skills in the profile, refused at start-up', () => {
  const boot = (skills: unknown[], drive = true) =>
    createTestRuntime({
      plugins: [ros2Plugin],
      start: false,
      tables: {
        ros2: {
          transport: 'rosbridge',
          url: 'ws://127.0.0.1:9',
          sensors: [],
          ...(drive ? { drive: DRIVE } : {}),
          skills,
        },
      },
    }).then(
      () => undefined,
      (error: MiraError) => error,
    );

  it('a motion topic, a motion skill without a drive, an invalid schema, a duplicate id', async () => {
    const lights = SKILLS[0]!;
    const cases: Array<[unknown[], boolean, RegExp]> = [
      [
        [{ ...lights, motion: true }],
        true,
        /skill lights in the profile cannot be offered: a topic skill cannot be motion/,
      ],
      [[SKILLS[5]], false, /skill dock in the profile cannot be offered: a motion skill needs a drive table/],
      [
        [{ ...lights, schema: { type: 'nothing' } }],
        true,
        /skill lights in the profile cannot be offered: its schema is not a JSON Schema/,
      ],
      [[lights, lights], true, /skill lights in the profile cannot be offered: another skill has the same id/],
    ];
    for (const [skills, drive, message] of cases) {
      const error = await boot(skills, drive);
      expect(error?.code, String(error)).to.equal('MIRA_ERR_HARDWARE_SKILL_INVALID');
      expect(error!.message).to.match(message);
    }
  });

  it('the schema refuses a parameter skill without its node, and a topic name that is not one', async () => {
    const noNode = await boot([{ ...SKILLS[6], node: undefined }]);
    expect(noNode?.code).to.equal('MIRA_ERR_CONFIG_INVALID');
    const badName = await boot([{ ...SKILLS[0], name: 'not a topic' }]);
    expect(badName?.code).to.equal('MIRA_ERR_CONFIG_INVALID');
  });
});

describe('skills over native ROS 2 (the rclnodejs stand-in): the same results', function () {
  this.timeout(20_000);
  let rt: TestRuntime;
  const contexts: Array<{ shutdown(): void; isShutdown(): boolean }> = [];
  const native = [
    { ...SKILLS[0]!, name: '/lights', type: 'std_msgs/msg/Bool', schema: { type: 'object' } },
    { ...SKILLS[2]!, name: '/reset_pose' },
    { ...SKILLS[6]!, node: '/controller_server' },
    { ...SKILLS[5]!, name: '/dock', motion: false, timeout_ms: 800 },
  ] as unknown as SkillMapping[];
  const call = async (tool: string, args: Record<string, unknown>) =>
    JSON.parse((await rt.callTool(tool, args)).content) as Record<string, any>;
  const pause = () => new Promise((resolve) => setTimeout(resolve, 15));

  beforeEach(async () => {
    const transport = new RclnodejsTransport(`mira_skills_${process.pid}`, '', { load: async () => rclnodejs });
    const plugin: MiraPlugin<Record<string, never>> = definePlugin({
      name: 'test-rclnodejs-skills',
      version: '0.0.0',
      setup(kernel) {
        const bridge = attachRobot(kernel, transport, { sensors: [], skills: native });
        return { start: () => bridge.start(), stop: () => bridge.stop() };
      },
    });
    rt = await createTestRuntime({ plugins: [plugin] });
    const controller = await remoteNode('controller_server', '', {
      'FollowPath.max_vel_x': { type: 3, double_value: 0.26 },
    });
    const server = await remoteNode('base', '');
    server.createService('std_srvs/srv/Trigger', '/reset_pose', {}, () => ({ success: true, message: 'reset' }));
    contexts.push(controller.context, server.context);
  });
  afterEach(async () => {
    await rt.dispose();
    for (const c of contexts.splice(0)) if (!c.isShutdown()) c.shutdown();
    stopActionServers();
  });

  it('publishes, calls, sets a parameter, and refuses a missing service by reason', async () => {
    expect(await call(SKILL_TOOLS.topic, { skill: 'lights', message: '{"data":true}' })).to.deep.equal({
      status: 'published',
      skill: 'lights',
      topic: '/lights',
      type: 'std_msgs/msg/Bool',
    });
    expect(rclGraph.published.get('/lights')).to.deep.equal([{ data: true }]);
    expect(await call(SKILL_TOOLS.service, { skill: 'reset_pose', request: '{}' })).to.deep.include({
      status: 'succeeded',
      service: '/reset_pose',
      response: { success: true, message: 'reset' },
    });
    expect(await call(SKILL_TOOLS.parameter, { skill: 'max_speed', value: '0.2' })).to.deep.equal({
      status: 'set',
      skill: 'max_speed',
      node: '/controller_server',
      parameter: 'FollowPath.max_vel_x',
      value: 0.2,
    });
    const read = JSON.parse(
      (await rt.callTool('get_ros_parameters', { node: '/controller_server', filter: 'max_vel' })).content,
    );
    expect(read.parameters).to.deep.equal([{ name: 'FollowPath.max_vel_x', type: 'double', value: 0.2 }]);
    for (const c of contexts.splice(0)) c.shutdown();
    await pause();
    expect(await call(SKILL_TOOLS.service, { skill: 'reset_pose', request: '{}' })).to.deep.equal({
      status: 'rejected',
      reason: 'refused_by_robot',
      error: 'no server offers /reset_pose (waited 500 ms); nothing was sent',
    });
  });

  it('sends a goal with feedback and result, and cancels it at its time-out', async () => {
    const server = await serveAction('/dock', 'irobot_create_msgs/action/Dock');
    const pending = call(SKILL_TOOLS.action, { skill: 'dock', goal: '{}' });
    while (server.goals.length === 0) await new Promise((r) => setTimeout(r, 5));
    server.goals[0]!.feedback({ sees_dock: true });
    await new Promise((r) => setTimeout(r, 20));
    server.goals[0]!.succeed({ is_docked: true });
    expect(await pending).to.deep.include({
      status: 'succeeded',
      skill: 'dock',
      action: '/dock',
      result: { is_docked: true },
      feedback: { count: 1, last: { sees_dock: true } },
    });
    await pause();
    expect(await call(SKILL_TOOLS.action, { skill: 'dock', goal: '{}' })).to.deep.equal({
      status: 'rejected',
      reason: 'timeout',
      error: '/dock gave no result within 800 ms; the goal was cancelled',
      feedback: { count: 0 },
    });
    expect(server.goals[1]!.state).to.equal('canceled');
  });
});
