import { expect } from 'chai';
import { createTestRuntime, type TestRuntime } from '@mira/core/testing';
import ros2Plugin from '@mira/plugin-ros2';
import { eventually } from './conformance/transport-contract.js';
import { startRosbridgeServer, type RosbridgeTestServer } from './helpers/rosbridge-server.js';

const TWIST = 'geometry_msgs/msg/Twist';
const TWIST_STAMPED = 'geometry_msgs/msg/TwistStamped';
const DRIVE = { topic: '/cmd_vel', type: TWIST, max_linear_m_s: 0.5, max_angular_rad_s: 1, max_duration_s: 10 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a drive whose commands the bridge refuses for their type (safety worker, rosapi)', function () {
  this.timeout(40_000);
  let bridge: RosbridgeTestServer;
  let rt: TestRuntime | undefined;
  afterEach(async () => {
    await rt?.dispose();
    rt = undefined;
    await bridge.close();
  });

  const boot = async () => {
    rt = await createTestRuntime({
      plugins: [ros2Plugin],
      tables: { ros2: { transport: 'rosbridge', url: bridge.url, sensors: [], drive: DRIVE } },
    });
    return rt;
  };
  const drive = async (runtime: TestRuntime) =>
    JSON.parse(
      (await runtime.callTool('drive', { linear_m_s: 0.2, angular_rad_s: 0, duration_s: 2 }, { utterance: 'go' }))
        .content,
    );

  it('is reported as not driving, naming both types, and sends nothing', async () => {
    bridge = await startRosbridgeServer();
    // The base listens for TwistStamped (Jazzy's default for many controllers); the profile says Twist.
    bridge.declareTopic('/cmd_vel', TWIST_STAMPED);
    const runtime = await boot();
    expect(await drive(runtime)).to.deep.equal({
      status: 'rejected',
      reason: 'type_conflict',
      error:
        `not driving: the ROS graph has /cmd_vel as ${TWIST_STAMPED}, this profile drives it as ${TWIST}, and the ` +
        'bridge refuses every command of the other type (a type conflict it reports only in its own log); nothing ' +
        `was sent — set the drive's type to ${TWIST_STAMPED}, or use the topic the base listens on`,
    });
    await sleep(300);
    expect(
      bridge.ops.filter((op) => op.op === 'publish' && op.topic === '/cmd_vel' && linearX(op) !== 0),
    ).to.deep.equal([]);
    // What the real bridge says in its own log, and nothing to Mira: its echo subscription was refused too.
    expect(bridge.logged.some((l) => l.startsWith('subscribe /cmd_vel: TypeConflictException'))).to.equal(true);
    // A stop typed now says what the bridge did with its zero (refused it too), not "sent, not heard back".
    const refusedBefore = bridge.logged.filter((l) => l.startsWith('publish /cmd_vel')).length;
    const { output } = await runtime.run('stop');
    expect(output).to.deep.equal([
      `emergency stop: zero velocity written on /cmd_vel over rosbridge ${bridge.url}, but the bridge refuses it as ` +
        `it refused every drive: the ROS graph has /cmd_vel as ${TWIST_STAMPED}, this profile drives it as ${TWIST} ` +
        "(a type conflict the bridge reports only in its own log), so no command of Mira's reached the base there; " +
        `whatever moves the robot, it is not Mira — set the drive's type to ${TWIST_STAMPED}`,
    ]);
    await eventually(
      () => bridge.logged.filter((l) => l.startsWith('publish /cmd_vel')).length > refusedBefore,
      3000,
      'the bridge to refuse the zero',
    );
  });

  it('drives when the graph has the topic with the profile’s type, or does not have it yet', async () => {
    bridge = await startRosbridgeServer();
    const runtime = await boot();
    expect(await drive(runtime)).to.deep.include({ status: 'started' });
    await eventually(() => bridge.published('/cmd_vel').some((m) => linearX({ msg: m }) === 0.2), 5000, 'the drive');
    expect(bridge.ops.filter((op) => op.op === 'call_service').map((op) => op.service)).to.include(
      '/rosapi/topic_type',
    );
  });

  it('says once that it cannot tell where rosapi does not run, and drives as before', async () => {
    bridge = await startRosbridgeServer({ rosapi: false });
    bridge.declareTopic('/cmd_vel', TWIST);
    const runtime = await boot();
    expect(await drive(runtime)).to.deep.include({ status: 'started' });
    await eventually(
      () => runtime.logs.some((l) => l.includes('cannot ask the bridge the type of /cmd_vel')),
      3000,
      'the line',
    );
    expect(runtime.logs.filter((l) => l.includes('cannot ask the bridge the type'))).to.have.length(1);
    expect(runtime.logs.find((l) => l.includes('cannot ask the bridge the type'))).to.contain(
      'Service /rosapi/topic_type does not exist',
    );
  });
});

/** The linear x of a publish op, or of `{ msg }`. */
function linearX(op: { readonly msg?: unknown; readonly [key: string]: unknown }): number {
  return ((op.msg as { linear?: { x?: number } } | undefined)?.linear?.x ?? 0) as number;
}
