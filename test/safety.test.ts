import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'smol-toml';
import { createTestRuntime, type TestRuntime } from '@mira/core/testing';
import ros2Plugin from '@mira/plugin-ros2';
import simPlugin from '@mira/plugin-sim';
import { eventually } from './conformance/transport-contract.js';
import { MiraProcess, type Seen } from './helpers/mira-process.js';
import { REPO_ROOT } from './helpers/run-mira.js';
import { startRosbridgeServer, type RosbridgeTestServer } from './helpers/rosbridge-server.js';

const PROBE = join(REPO_ROOT, 'test', 'fixtures', 'safety-probe', 'index.js');
const DRIVE = {
  topic: '/cmd_vel',
  type: 'geometry_msgs/msg/Twist',
  max_linear_m_s: 0.5,
  max_angular_rad_s: 1,
  max_duration_s: 10,
};
const BLOCK_MS = 5000;
const STALL_MS = 250;

interface Rig {
  readonly name: string;
  /** Writes the profile; `stallMs` overrides the dead-man's default. */
  profile(dir: string, stallMs?: number): void;
  twists(mira: MiraProcess): Seen[];
}

function rigs(bridge: () => RosbridgeTestServer): Rig[] {
  const write = (dir: string, plugins: string[], tables: Record<string, unknown>) =>
    writeFileSync(join(dir, 'profile.toml'), stringify({ profile: { name: 'Mira', plugins }, ...tables }));
  return [
    {
      name: 'sim',
      profile(dir, stallMs) {
        const bus = `safety-test-${randomUUID()}`;
        write(dir, ['@mira/plugin-sim', PROBE], {
          sim: { bus, drive: DRIVE, ...(stallMs ? { safety: { stall_ms: stallMs } } : {}) },
          probe: { bus },
        });
      },
      twists: (mira) => mira.probeTwists(),
    },
    {
      name: 'rosbridge',
      profile(dir, stallMs) {
        write(dir, ['@mira/plugin-ros2', PROBE], {
          ros2: {
            transport: 'rosbridge',
            url: bridge().url,
            sensors: [],
            drive: DRIVE,
            ...(stallMs ? { safety: { stall_ms: stallMs } } : {}),
          },
        });
      },
      twists: () =>
        bridge()
          .arrivals('/cmd_vel')
          .map(({ msg, at }) => ({ linear: (msg.linear as { x: number }).x, at })),
    },
  ];
}

describe('safety path: the robot stops while the main thread is blocked (real processes)', function () {
  this.timeout(60_000);
  let bridge: RosbridgeTestServer;
  let dir: string;
  beforeEach(async () => {
    bridge = await startRosbridgeServer();
    dir = mkdtempSync(join(tmpdir(), 'mira-safety-'));
  });
  afterEach(async () => {
    await bridge.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const rig of rigs(() => bridge)) {
    describe(rig.name, () => {
      it(`stops within the stall time + 100 ms when the main thread blocks, and says so when it is back`, async () => {
        rig.profile(dir);
        const mira = new MiraProcess(dir);
        if (rig.name === 'sim') await mira.until(() => mira.stderr.includes('probe: watching'), 'the probe watcher');
        mira.say('probe drive 0.3 0 8');
        await mira.until(() => rig.twists(mira).some((t) => t.linear === 0.3), 'the drive on the velocity topic');
        mira.say(`probe block ${BLOCK_MS}`);
        const blocked = await mira.until(() => mira.blockedAt(), 'the block to begin');
        await mira.until(() => mira.stdout.includes('probe: unblocked'), 'the block to end');
        const zero = rig.twists(mira).find((t) => t.at >= blocked && t.linear === 0);
        expect(zero, 'zero velocity during the block').not.to.equal(undefined);
        expect(zero!.at - blocked).to.be.at.most(STALL_MS + 100);
        // Nothing drives again after the stop, while the main thread is still blocked.
        expect(
          rig.twists(mira).filter((t) => t.at > zero!.at && t.at < blocked + BLOCK_MS && t.linear !== 0),
        ).to.deep.equal([]);
        const report = await mira.until(
          () => /\[safety\] stopped: runtime stalled (\d+\.\d) s/.exec(mira.stdout),
          'the stall report',
        );
        expect(Number(report![1])).to.be.within(4.5, 6);
        expect(await mira.quit()).to.equal(0);
      });

      it('acts on a console stop within 100 ms while the main thread is blocked', async () => {
        rig.profile(dir, 10_000); // a dead-man slower than the block: only the typed stop can stop the robot
        const mira = new MiraProcess(dir);
        if (rig.name === 'sim') await mira.until(() => mira.stderr.includes('probe: watching'), 'the probe watcher');
        mira.say('probe drive 0.3 0 9');
        await mira.until(() => rig.twists(mira).some((t) => t.linear === 0.3), 'the drive on the velocity topic');
        mira.say(`probe block ${BLOCK_MS}`);
        const blocked = await mira.until(() => mira.blockedAt(), 'the block to begin');
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const typed = mira.say('stop');
        const zero = await mira.until(
          () => rig.twists(mira).find((t) => t.at >= typed && t.linear === 0),
          'zero velocity',
        );
        expect(zero.at - typed).to.be.at.most(100);
        // Until the stop, the robot was still being driven: the block alone did not stop it.
        expect(rig.twists(mira).some((t) => t.at > blocked + 500 && t.at < typed && t.linear === 0.3)).to.equal(true);
        await mira.until(() => mira.stdout.includes('probe: unblocked'), 'the block to end');
        await mira.until(
          () => mira.stdout.includes('emergency stop: zero velocity sent to 1 drive'),
          'the stop command line',
        );
        expect(await mira.quit()).to.equal(0);
      });
    });
  }
});

describe('safety path: an emergency stop from ROS, failing closed', function () {
  this.timeout(20_000);
  let bridge: RosbridgeTestServer;
  let rt: TestRuntime;
  let relay: ReturnType<typeof setInterval> | undefined;
  beforeEach(async () => {
    bridge = await startRosbridgeServer();
  });
  afterEach(async () => {
    clearInterval(relay);
    relay = undefined;
    await rt?.dispose();
    await bridge.close();
  });

  const drive = async () =>
    JSON.parse(
      (await rt.callTool('drive', { linear_m_s: 0.2, angular_rad_s: 0, duration_s: 5 }, { utterance: 'go' })).content,
    );
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  interface Robot {
    /** The robot's e-stop relay: repeats its state every 50 ms from now on. */
    eStop(on: boolean): Promise<void>;
    /** The relay stops publishing (crashed, unplugged). */
    silence(): void;
    twists(): number[];
  }
  const cases: Array<{ name: string; boot: (safety: Record<string, unknown>) => Promise<Robot> }> = [
    {
      name: 'sim',
      boot: async (safety) => {
        rt = await createTestRuntime({
          plugins: [simPlugin],
          tables: { sim: { tick_ms: 0, drive: DRIVE, safety: { e_stop_topic: '/e_stop', ...safety } } },
        });
        const sim = rt.instance(simPlugin).transport;
        const twists: number[] = [];
        sim.subscribe('/cmd_vel', 'geometry_msgs/msg/Twist', (m) => twists.push((m.linear as { x: number }).x));
        const send = (on: boolean) => sim.publish('/e_stop', 'std_msgs/msg/Bool', { data: on });
        return {
          eStop: async (on) => {
            clearInterval(relay);
            relay = setInterval(() => void send(on), 50);
            await send(on);
          },
          silence: () => clearInterval(relay),
          twists: () => twists,
        };
      },
    },
    {
      name: 'rosbridge',
      boot: async (safety) => {
        bridge.declareTopic('/e_stop', 'std_msgs/msg/Bool');
        rt = await createTestRuntime({
          plugins: [ros2Plugin],
          tables: {
            ros2: {
              transport: 'rosbridge',
              url: bridge.url,
              sensors: [],
              drive: DRIVE,
              safety: { e_stop_topic: '/e_stop', ...safety },
            },
          },
        });
        await eventually(() => bridge.subscribers('/e_stop') > 0, 5000, 'the safety path to subscribe /e_stop');
        return {
          eStop: async (on) => {
            clearInterval(relay);
            relay = setInterval(() => bridge.publish('/e_stop', { data: on }), 50);
            bridge.publish('/e_stop', { data: on });
          },
          silence: () => clearInterval(relay),
          twists: () => bridge.published('/cmd_vel').map((m) => (m.linear as { x: number }).x),
        };
      },
    },
  ];
  for (const { name, boot } of cases) {
    it(`stops on true and refuses drives until false (${name})`, async () => {
      const robot = await boot({});
      await robot.eStop(false);
      await sleep(150);
      expect(await drive()).to.deep.include({ status: 'started' });
      await eventually(() => robot.twists().includes(0.2), 5000, 'the drive');
      await robot.eStop(true);
      await eventually(() => robot.twists().at(-1) === 0, 5000, 'zero velocity');
      await eventually(
        () => rt.notifications.includes('[safety] stopped: emergency stop on /e_stop'),
        5000,
        'the report',
      );
      const refused = await drive();
      expect(refused).to.deep.include({ status: 'rejected', reason: 'emergency_stopped' });
      const sent = robot.twists().length;
      await sleep(300);
      expect(
        robot
          .twists()
          .slice(sent)
          .every((x) => x === 0),
      ).to.equal(true);
      await robot.eStop(false);
      await eventually(
        () => rt.notifications.includes('[safety] emergency stop on /e_stop cleared'),
        5000,
        'the clearing',
      );
      expect(await drive()).to.deep.include({ status: 'started' });
    });

    it(`refuses every drive until the e-stop is heard, and says so at start-up (${name})`, async () => {
      const robot = await boot({ e_stop_timeout_ms: 300 });
      const refused = await drive();
      expect(refused).to.deep.include({ status: 'rejected', reason: 'e_stop_silent' });
      expect(refused.error).to.contain('nothing has been heard on the e-stop topic /e_stop');
      await eventually(
        () => rt.logs.some((l) => l.includes('nothing heard on the e-stop topic /e_stop within 300 ms')),
        3000,
        'the start-up line',
      );
      expect(robot.twists().filter((x) => x !== 0)).to.deep.equal([]);
      await robot.eStop(false);
      await eventually(() => rt.logs.some((l) => l.includes('e-stop topic /e_stop heard')), 3000, 'heard');
      expect(await drive()).to.deep.include({ status: 'started' });
    });

    it(`stops a drive when the e-stop falls silent, and refuses the next (${name})`, async () => {
      const robot = await boot({ e_stop_timeout_ms: 300 });
      await robot.eStop(false);
      await sleep(150);
      expect(await drive()).to.deep.include({ status: 'started' });
      await eventually(() => robot.twists().includes(0.2), 5000, 'the drive');
      robot.silence();
      const silentAt = Date.now();
      await eventually(
        () => rt.notifications.some((l) => l.includes('the e-stop topic /e_stop fell silent')),
        3000,
        'the stop on silence',
      );
      expect(Date.now() - silentAt).to.be.below(2000);
      expect(robot.twists().at(-1)).to.equal(0);
      expect(await drive()).to.deep.include({ status: 'rejected', reason: 'e_stop_silent' });
    });
  }

  it('refuses drives when the bridge refused the e-stop subscription (a type mismatch: it never says so)', async () => {
    // The ROS side publishes /e_stop as another type: rosbridge logs a TypeConflict and delivers nothing.
    bridge.declareTopic('/e_stop', 'std_msgs/msg/String');
    relay = setInterval(() => bridge.publish('/e_stop', { data: 'false' }), 50);
    rt = await createTestRuntime({
      plugins: [ros2Plugin],
      tables: {
        ros2: {
          transport: 'rosbridge',
          url: bridge.url,
          sensors: [],
          drive: DRIVE,
          safety: { e_stop_topic: '/e_stop', e_stop_timeout_ms: 300 },
        },
      },
    });
    await eventually(() => bridge.logged.some((l) => l.includes('TypeConflictException')), 5000, 'the refusal');
    expect(await drive()).to.deep.include({ status: 'rejected', reason: 'e_stop_silent' });
    await eventually(
      () => rt.logs.some((l) => l.includes('a bridge refuses a subscription of the wrong type silently')),
      3000,
      'the start-up line',
    );
    expect(bridge.published('/cmd_vel').filter((m) => (m.linear as { x: number }).x !== 0)).to.deep.equal([]);
  });
});
