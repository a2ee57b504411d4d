import { expect } from 'chai';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIRA_BIN, REPO_ROOT } from './helpers/run-mira.js';

// Debian 12 packages no ROS 2 `launch`: a stand-in with the real classes' names and keyword arguments
// (test/fixtures/launch-standin) builds the launch description, and the process it describes is started
// as launch starts one (Popen of the argument list, no shell) and stopped as launch stops one (SIGINT).
const LAUNCH_FILE = join(REPO_ROOT, 'ros/mira_bringup/launch/mira.launch.py');
const STANDIN = join(REPO_ROOT, 'test/fixtures/launch-standin');

interface Described {
  cmd: string[];
  cwd: string;
  shell: boolean;
  respawn: boolean;
  respawn_delay: number;
}

function launchProcesses(args: string[]): Described[] {
  return JSON.parse(
    execFileSync('python3', [join(STANDIN, 'describe.py'), LAUNCH_FILE, ...args], {
      encoding: 'utf8',
      env: { ...process.env, PYTHONPATH: STANDIN },
    }),
  ) as Described[];
}

describe('mira_bringup/mira.launch.py', function () {
  this.timeout(30_000);

  it('runs the mira command itself, no shell, with every argument intact', () => {
    const [mira, ...others] = launchProcesses([
      'profile:=/opt/my robots/rover 7',
      'namespace:=/robot1',
      'mira_dir:=/opt/mira',
    ]);
    expect(others).to.deep.equal([]);
    expect(mira).to.deep.include({ shell: false, cwd: '/opt/mira', respawn: false });
    expect(mira!.cmd).to.deep.equal([
      'node_modules/.bin/mira',
      'run',
      '--profile',
      '/opt/my robots/rover 7',
      '--ros-args',
      '-r',
      '__ns:=/robot1',
      '-r',
      '__node:=mira',
    ]);
  });

  it('passes no __ns for the empty namespace, and takes a node name, extra rules, a command and respawn', () => {
    const [mira] = launchProcesses([
      'profile:=p',
      'node_name:=mira_2',
      'ros_args:=-r cmd_vel:=/base/cmd_vel --log-level warn',
      "mira_command:=node '/opt/mira dir/core/bin/mira.js'",
      'respawn:=true',
      'respawn_delay:=5',
    ]);
    expect(mira!.cmd).to.deep.equal([
      'node',
      '/opt/mira dir/core/bin/mira.js',
      'run',
      '--profile',
      'p',
      '--ros-args',
      '-r',
      '__node:=mira_2',
      '-r',
      'cmd_vel:=/base/cmd_vel',
      '--log-level',
      'warn',
    ]);
    expect(mira).to.deep.include({ respawn: true, respawn_delay: 5 });
    expect(launchProcesses(['profile:=p', 'node_name:='])[0]!.cmd).to.deep.equal([
      'node_modules/.bin/mira',
      'run',
      '--profile',
      'p',
    ]);
  });

  it('starts a Mira that SIGINT stops in order, as ros2 launch stops it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mira launch '));
    try {
      writeFileSync(join(dir, 'profile.toml'), '[profile]\nname = "Launched"\nplugins = ["@mira/plugin-sim"]\n');
      const [mira] = launchProcesses([
        `profile:=${dir}`,
        `mira_command:=${process.execPath} ${MIRA_BIN}`,
        `mira_dir:=${REPO_ROOT}`,
      ]);
      // What launch does: Popen(cmd, cwd, shell=False), stdin not a console.
      const child = spawn(mira!.cmd[0]!, mira!.cmd.slice(1), { cwd: mira!.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const deadline = Date.now() + 20_000;
      while (!stderr.includes('running headless') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(stderr).to.contain(`running headless on profile "Launched" (${join(dir, 'profile.toml')})`);
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      child.kill('SIGINT');
      expect(await exited).to.equal(0);
      expect(stderr).to.contain('SIGINT received; stopping');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
