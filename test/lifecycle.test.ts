import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'smol-toml';
import { MiraProcess } from './helpers/mira-process.js';
import { MIRA_BIN, REPO_ROOT } from './helpers/run-mira.js';
import { startRosbridgeServer, type RosbridgeTestServer } from './helpers/rosbridge-server.js';

/**
 * Every way a `mira` process ends stops the robot first: a real `mira` (console or `mira run`) drives a base
 * behind the in-test rosbridge server, is ended one way or another, and the zero velocity must reach the
 * drive topic after the ending and before the process is gone, with the exit status the help text gives.
 */

const PROBE = join(REPO_ROOT, 'test', 'fixtures', 'safety-probe', 'index.js');
const DRIVE = {
  topic: '/cmd_vel',
  type: 'geometry_msgs/msg/Twist',
  max_linear_m_s: 0.5,
  max_angular_rad_s: 1,
  max_duration_s: 10,
};

interface Twist {
  readonly linear: number;
  readonly at: number;
}

describe('process lifecycle: every ending stops the robot first (real mira, in-test rosbridge)', function () {
  this.timeout(180_000);
  let bridge: RosbridgeTestServer;
  let dir: string;
  const running: MiraProcess[] = [];
  beforeEach(async () => {
    bridge = await startRosbridgeServer();
    dir = mkdtempSync(join(tmpdir(), 'mira-lifecycle-'));
  });
  afterEach(async () => {
    for (const mira of running.splice(0)) if (mira.closedAt === undefined) await mira.kill();
    await bridge.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const profile = (probe: Record<string, unknown> = {}) =>
    writeFileSync(
      join(dir, 'profile.toml'),
      stringify({
        profile: { name: 'Mira', plugins: ['@mira/plugin-ros2', PROBE] },
        ros2: { transport: 'rosbridge', url: bridge.url, sensors: [], drive: DRIVE },
        probe,
      }),
    );
  const twists = (): Twist[] =>
    bridge.arrivals('/cmd_vel').map(({ msg, at }) => ({ linear: (msg.linear as { x: number }).x, at }));
  const start = (options: { headless?: boolean; detached?: boolean } = {}) => {
    const mira = new MiraProcess(dir, {}, [], options);
    running.push(mira);
    return mira;
  };
  /** A console driving at 0.3 m/s, seen on the bridge. */
  const driving = async (options: { detached?: boolean } = {}) => {
    profile();
    const mira = start(options);
    mira.say('probe drive 0.3 0 9');
    await mira.until(() => twists().some((t) => t.linear === 0.3), 'the drive on /cmd_vel');
    return mira;
  };
  /** The zero that came after `since` and before the process was gone; nothing moved after it. */
  const stoppedBeforeExit = (mira: MiraProcess, since: number) => {
    const zero = twists().find((t) => t.at >= since && t.linear === 0);
    expect(zero, `zero velocity after the ending\nstderr:\n${mira.stderr}`).not.to.equal(undefined);
    expect(zero!.at).to.be.at.most(mira.closedAt!);
    expect(twists().filter((t) => t.at > zero!.at && t.linear !== 0)).to.deep.equal([]);
  };

  for (const [signal, status] of [
    ['SIGINT', 0],
    ['SIGTERM', 0],
    ['SIGHUP', 129],
    ['SIGQUIT', 131],
    ['SIGUSR2', 140],
  ] as const) {
    it(`${signal}: zero velocity before exit, then exit ${status}`, async () => {
      const mira = await driving();
      const sent = Date.now();
      mira.child.kill(signal);
      expect(await mira.exited).to.equal(status);
      stoppedBeforeExit(mira, sent);
      expect(mira.stderr).to.contain(`${signal} received; stopping the robot, then shutting down`);
    });
  }

  it('SIGINT to the process group and to the process at once (a terminal under ros2 launch)', async () => {
    const mira = await driving({ detached: true });
    const sent = Date.now();
    // The terminal's Ctrl-C reaches the whole process group; launch forwards its own SIGINT at once.
    // (Two at once may arrive as one: a pending signal is not queued twice.)
    process.kill(-mira.child.pid!, 'SIGINT');
    mira.child.kill('SIGINT');
    expect(await mira.exited).to.equal(0);
    stoppedBeforeExit(mira, sent);
  });

  it('a second and third signal while stopping are said, and do not skip the stop', async () => {
    profile({ hang_on_stop: 'timer' }); // the orderly stop is still running when the next signals come
    const mira = start();
    mira.say('probe drive 0.3 0 9');
    await mira.until(() => twists().some((t) => t.linear === 0.3), 'the drive on /cmd_vel');
    const sent = Date.now();
    mira.child.kill('SIGINT');
    await mira.until(() => mira.stderr.includes('SIGINT received; stopping the robot'), 'the stop to begin');
    mira.child.kill('SIGINT');
    await mira.until(() => mira.stderr.includes('SIGINT received while stopping'), 'the second SIGINT');
    mira.child.kill('SIGTERM');
    expect(await mira.exited).to.equal(5);
    stoppedBeforeExit(mira, sent);
    expect(mira.stderr).to.contain('SIGINT received while stopping (SIGINT received); the stop goes on');
    expect(mira.stderr).to.contain('SIGTERM received while stopping (SIGINT received); the stop goes on');
  });

  it('SIGTERM to a headless mira run driving: zero velocity before exit 0', async () => {
    profile({ drive_at_start: [0.3, 0, 9] });
    const mira = start({ headless: true });
    await mira.until(() => twists().some((t) => t.linear === 0.3), 'the drive on /cmd_vel');
    const sent = Date.now();
    mira.child.kill('SIGTERM');
    expect(await mira.exited).to.equal(0);
    stoppedBeforeExit(mira, sent);
  });

  it('SIGTERM during a navigation goal: the goal is cancelled before exit', async () => {
    writeFileSync(
      join(dir, 'profile.toml'),
      stringify({
        profile: { name: 'Mira', plugins: ['@mira/plugin-ros2', PROBE] },
        ros2: { transport: 'rosbridge', url: bridge.url, sensors: [], drive: DRIVE, navigation: {} },
      }),
    );
    const nav2 = bridge.actionServer('/navigate_to_pose', 'nav2_msgs/action/NavigateToPose');
    const mira = start();
    mira.say('probe goal 1 2');
    await mira.until(() => nav2.goals.length === 1 && nav2.goals[0]!.state === 'active', 'the goal at Nav2');
    await mira.until(() => mira.stdout.includes('probe: navigating'), 'the goal running');
    mira.child.kill('SIGTERM');
    expect(await mira.exited).to.equal(0);
    expect(nav2.goals[0]!.state, mira.stderr).to.equal('canceled');
  });

  for (const motion of [true, false])
    it(`SIGTERM during a ${motion ? 'motion' : 'non-motion'} skill's goal: the goal is cancelled before exit`, async () => {
      writeFileSync(
        join(dir, 'profile.toml'),
        stringify({
          profile: { name: 'Mira', plugins: ['@mira/plugin-ros2', PROBE] },
          ros2: {
            transport: 'rosbridge',
            url: bridge.url,
            sensors: [],
            drive: DRIVE,
            skills: [
              {
                id: 'dock',
                kind: 'action',
                name: '/dock',
                type: 'irobot_create_msgs/action/Dock',
                description: 'Docks',
                motion,
                schema: { type: 'object' },
              },
            ],
          },
        }),
      );
      const dock = bridge.actionServer('/dock', 'irobot_create_msgs/action/Dock');
      const mira = start();
      mira.say('probe skill dock {}');
      await mira.until(() => dock.goals.length === 1 && dock.goals[0]!.state === 'active', 'the goal at the dock');
      mira.child.kill('SIGTERM');
      expect(await mira.exited, mira.stderr).to.equal(0);
      expect(dock.goals[0]!.state, mira.stderr).to.equal('canceled');
    });

  for (const ending of ['SIGTERM', 'quit'] as const)
    it(`${ending} during a goal on a profile without a drive: the goal is cancelled at once, not at its time-out`, async () => {
      // No drive, so no safety path and no emergency stop of a drive: the skills' own cancel must end the goal.
      // The goal's time-out (10 min) is far past the orderly stop's deadline, which would exit 5 were it waited for.
      writeFileSync(
        join(dir, 'profile.toml'),
        stringify({
          profile: { name: 'Mira', plugins: ['@mira/plugin-ros2', PROBE] },
          ros2: {
            transport: 'rosbridge',
            url: bridge.url,
            sensors: [],
            skills: [
              {
                id: 'calibrate',
                kind: 'action',
                name: '/calibrate',
                type: 'example_interfaces/action/Fibonacci',
                description: 'Calibrates',
                motion: false,
                schema: { type: 'object' },
                timeout_ms: 600_000,
              },
            ],
          },
        }),
      );
      const calibrate = bridge.actionServer('/calibrate', 'example_interfaces/action/Fibonacci');
      const mira = start();
      mira.say('probe skill calibrate {}');
      await mira.until(() => calibrate.goals[0]?.state === 'active', 'the goal at the action server');
      // Feedback: the goal is running (a goal that says nothing within 5 s is given up over rosbridge).
      calibrate.goals[0]!.feedback({ sequence: [0, 1] });
      if (ending === 'SIGTERM') mira.child.kill('SIGTERM');
      else mira.say('quit');
      expect(await mira.exited, mira.stderr).to.equal(0);
      expect(calibrate.goals[0]!.state, mira.stderr).to.equal('canceled');
      expect(mira.stdout).to.contain('probe: calibrate: canceled');
    });

  it('SIGUSR1 neither ends Mira nor opens the Node inspector', async () => {
    const mira = await driving();
    mira.child.kill('SIGUSR1');
    await mira.until(() => mira.stderr.includes('SIGUSR1 ignored'), 'SIGUSR1 said to be ignored');
    // Still driving, and still a console that answers.
    mira.say('probe drive 0.2 0 9');
    await mira.until(() => twists().some((t) => t.linear === 0.2), 'a new drive after SIGUSR1');
    expect(mira.stderr).not.to.contain('Debugger listening');
    expect(await mira.quit()).to.equal(0);
  });

  it('standard output and error closed (their reader is gone): the robot stops, exit 4', async () => {
    const mira = await driving();
    mira.child.stdout.destroy();
    mira.child.stderr.destroy();
    const sent = Date.now();
    mira.say('help'); // something to print: the write finds the pipe closed (EPIPE)
    expect(await mira.exited).to.equal(4);
    stoppedBeforeExit(mira, sent);
  });

  it('an error nothing catches: the robot stops, exit 70', async () => {
    const mira = await driving();
    const sent = Date.now();
    mira.say('probe throw');
    expect(await mira.exited).to.equal(70);
    stoppedBeforeExit(mira, sent);
    expect(mira.stderr).to.contain('internal error: Error: probe: an error nothing catches');
  });

  for (const hang of ['timer', 'nothing'] as const)
    it(`a stop that hangs (on ${hang === 'timer' ? 'a live timer' : 'nothing the event loop waits for'}): the robot is stopped first, and the process exits 5 by the deadline`, async () => {
      profile({ hang_on_stop: hang });
      const mira = start();
      mira.say('probe drive 0.3 0 9');
      await mira.until(() => twists().some((t) => t.linear === 0.3), 'the drive on /cmd_vel');
      const sent = Date.now();
      mira.child.kill('SIGTERM');
      expect(await mira.exited).to.equal(5);
      stoppedBeforeExit(mira, sent);
      expect(mira.stderr).to.contain('the orderly stop did not finish within 2000 ms; exiting');
    });

  it('a stop that hangs on nothing at all (no hardware, no console, no timer): the deadline alone exits 5', async () => {
    // Only the probe: when its stop hangs, nothing else is left open, so a deadline that did not keep the event
    // loop alive (an unref'd timer) would let the process end early with another status.
    writeFileSync(
      join(dir, 'profile.toml'),
      stringify({ profile: { name: 'Mira', plugins: [PROBE] }, probe: { hang_on_stop: 'nothing' } }),
    );
    // Headless (stdin is no console's): nothing reads a line either.
    const mira = start({ headless: true });
    await mira.until(() => mira.stderr.includes('running headless'), 'the service running');
    mira.child.kill('SIGTERM');
    // (With an unref'd deadline the loop empties with the stop's promise unsettled: exit 13.)
    expect(await mira.exited).to.equal(5);
    expect(mira.stderr).to.contain('the orderly stop did not finish within 2000 ms; exiting');
  });

  it('its parent dies (launch, a supervisor, a shell): noticed, the robot stops, the process ends', async () => {
    profile({ drive_at_start: [0.3, 0, 9] });
    // A parent that starts a headless Mira (stdin ignored, as launch does) and shares its output with it,
    // then is killed outright: nothing on Mira's side closes, only its parent is gone.
    const parent = spawn(
      process.execPath,
      [
        '-e',
        `const { spawn } = require('node:child_process');
         const mira = spawn(process.execPath, [${JSON.stringify(MIRA_BIN)}, 'run', '--profile', ${JSON.stringify(dir)}],
           { cwd: ${JSON.stringify(REPO_ROOT)}, stdio: ['ignore', 'inherit', 'inherit'] });
         process.stdout.write('pid ' + mira.pid + '\\n');
         setInterval(() => {}, 1 << 30);`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    parent.stdout.on('data', (d) => (out += d));
    parent.stderr.on('data', (d) => (out += d));
    try {
      const deadline = Date.now() + 120_000;
      while (!/^pid \d+$/m.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      const pid = Number(/^pid (\d+)$/m.exec(out)![1]);
      while (!twists().some((t) => t.linear === 0.3) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(
        twists().some((t) => t.linear === 0.3),
        out,
      ).to.equal(true);
      const killed = Date.now();
      parent.kill('SIGKILL');
      // Mira is nobody's child here now: it must notice on its own, stop the robot and end.
      const alive = () => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      const gone = Date.now();
      expect(alive()).to.equal(false);
      const zero = twists().find((t) => t.at >= killed && t.linear === 0);
      expect(zero, out).not.to.equal(undefined);
      expect(zero!.at).to.be.at.most(gone);
      expect(twists().filter((t) => t.at > zero!.at && t.linear !== 0)).to.deep.equal([]);
      expect(out).to.match(/the parent process \(\d+\) died; stopping the robot, then shutting down/);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});

describe('the stop fence: a drive asked before a stop never runs after it (real mira, in-test rosbridge)', function () {
  this.timeout(180_000);
  let bridge: RosbridgeTestServer;
  let dir: string;
  let mira: MiraProcess | undefined;
  beforeEach(async () => {
    bridge = await startRosbridgeServer();
    dir = mkdtempSync(join(tmpdir(), 'mira-fence-'));
    writeFileSync(
      join(dir, 'profile.toml'),
      stringify({
        profile: { name: 'Mira', plugins: ['@mira/plugin-ros2', PROBE] },
        // A dead-man slower than the block: only the typed stop can stop the robot.
        ros2: { transport: 'rosbridge', url: bridge.url, sensors: [], drive: DRIVE, safety: { stall_ms: 10_000 } },
      }),
    );
  });
  afterEach(async () => {
    if (mira && mira.closedAt === undefined) await mira.kill();
    await bridge.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const twists = (): Twist[] =>
    bridge.arrivals('/cmd_vel').map(({ msg, at }) => ({ linear: (msg.linear as { x: number }).x, at }));
  const FENCED = /^probe: rejected superseded .*a stop came \d+ ms after this drive was asked; nothing was sent/m;

  it('at start-up: a drive typed just before a stop never moves the robot after the zero', async () => {
    mira = new MiraProcess(dir);
    // Both lines wait in the pipe while Mira starts. Which reaches the safety path first depends on the
    // threads: the drive is refused by the fence, or it starts and the stop's zero ends it — never the
    // other way round (the whole drive running after the stop's zero, as it once did).
    mira.say('probe drive 0.3 0 5');
    mira.say('stop');
    const said = await mira.until(() => /^probe: (.*)$/m.exec(mira!.stdout)?.[1], 'the drive to be answered');
    await mira.until(() => mira!.stdout.includes('emergency stop: zero velocity sent'), 'the stop');
    await new Promise((r) => setTimeout(r, 1000));
    const seen = twists();
    const firstZero = seen.findIndex((t) => t.linear === 0);
    expect(firstZero, 'a zero was sent').to.be.at.least(0);
    expect(seen.slice(firstZero).filter((t) => t.linear !== 0)).to.deep.equal([]);
    if (said.startsWith('rejected')) {
      // Fenced off on arrival, or reached by the stop while its link was being checked: nothing sent either way.
      expect(said).to.match(
        /"reason":"superseded".*(a stop came \d+ ms after this drive was asked|a stop, another drive or a navigation goal came before this drive was sent); nothing was sent/,
      );
      expect(seen.filter((t) => t.linear !== 0)).to.deep.equal([]);
    }
    expect(await mira.quit()).to.equal(0);
  });

  it('with the main thread blocked: a drive asked before a typed stop is refused when the thread is back', async () => {
    mira = new MiraProcess(dir);
    // One line: block the main thread 3 s, then drive at once; the stop typed meanwhile goes straight to
    // the safety path, and the drive reaches it afterwards, before the main thread has read the stop.
    mira.say('probe block 3000 0.3 0 5');
    await mira.until(() => mira!.blockedAt(), 'the block to begin');
    await new Promise((r) => setTimeout(r, 500));
    mira.say('stop');
    await mira.until(() => FENCED.exec(mira!.stdout), 'the drive refused by the fence');
    expect(twists().filter((t) => t.linear !== 0)).to.deep.equal([]);
    // A drive typed after the stop is the operator's new word: it runs.
    mira.say('probe drive 0.2 0 5');
    await mira.until(() => twists().some((t) => t.linear === 0.2), 'the later drive');
    expect(await mira.quit()).to.equal(0);
  });

  it('with the main thread blocked: a drive asked before an e-stop pressed and released meanwhile is refused', async () => {
    bridge.declareTopic('/e_stop', 'std_msgs/msg/Bool');
    writeFileSync(
      join(dir, 'profile.toml'),
      stringify({
        profile: { name: 'Mira', plugins: ['@mira/plugin-ros2', PROBE] },
        ros2: {
          transport: 'rosbridge',
          url: bridge.url,
          sensors: [],
          drive: DRIVE,
          safety: { stall_ms: 10_000, e_stop_topic: '/e_stop', e_stop_timeout_ms: 1000 },
        },
      }),
    );
    const relay = bridge.repeat('/e_stop', { data: false }, 50);
    try {
      mira = new MiraProcess(dir);
      // Drives are refused until the e-stop topic has been heard (e_stop_silent): a drive typed while Mira's
      // subscription waits for the relay's first message is asked again, only for that refusal.
      const silent = () => mira!.stdout.split('\n').filter((l) => l.includes('"reason":"e_stop_silent"')).length;
      for (let tries = 0; ; tries += 1) {
        const before = silent();
        mira.say('probe drive 0.1 0 1');
        await mira.until(
          () => twists().some((t) => t.linear === 0.1) || silent() > before,
          'a drive, or its refusal before the e-stop is heard',
        );
        if (twists().some((t) => t.linear === 0.1)) break;
        expect(tries, 'the e-stop still unheard').to.be.below(50);
        await new Promise((r) => setTimeout(r, 200));
      }
      mira.say('probe block 3000 0.3 0 5');
      await mira.until(() => mira!.blockedAt(), 'the block to begin');
      await new Promise((r) => setTimeout(r, 300));
      relay.set({ data: true });
      await new Promise((r) => setTimeout(r, 300));
      relay.set({ data: false });
      await mira.until(() => FENCED.exec(mira!.stdout), 'the drive refused by the fence');
      expect(twists().filter((t) => t.linear === 0.3)).to.deep.equal([]);
      expect(await mira.quit()).to.equal(0);
    } finally {
      relay.stop();
    }
  });
});
