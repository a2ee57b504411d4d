import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { locateManifest, readManifest, type MiraError } from '@mira/core';
import { runMira } from './helpers/run-mira.js';

function rejection(fn: () => unknown): MiraError {
  try {
    fn();
  } catch (error) {
    return error as MiraError;
  }
  throw new Error('expected an error');
}

describe('profiles as packages, with layers and variables', () => {
  let dir: string;
  const write = (path: string, text: string) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
    return join(dir, path);
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-layers-'));
    // A robot model's profile, shipped as a package in a project's node_modules.
    write(
      'node_modules/@acme/profile-rover/package.json',
      JSON.stringify({ name: '@acme/profile-rover', version: '1.0.0', mira: { profile: 'profile.toml' } }),
    );
    write(
      'node_modules/@acme/profile-rover/profile.toml',
      [
        '[profile]',
        'name = "Rover"',
        'description = "An Acme rover"',
        'plugins = ["@mira/plugin-sim", "@mira/plugin-memory", "./local-plugin.js", "@mira/plugin-openai"]',
        '[memory]',
        'enabled = true',
        'database_path = "data/memory.sqlite3"',
        '[[attention.monitors]]',
        'id = "battery_low"',
        'sensor = "battery"',
        'below = 20',
        '[[attention.monitors]]',
        'id = "obstacle"',
        'sensor = "range"',
        'below = 0.3',
        '[openai]',
        'model = "gpt-4.1-mini"',
        'timeout_ms = 60000',
      ].join('\n'),
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('resolves --profile <package> from the working directory, with paths inside the package', () => {
    const path = locateManifest('@acme/profile-rover', dir);
    expect(path).to.equal(join(dir, 'node_modules/@acme/profile-rover/profile.toml'));
    const manifest = readManifest(path, {});
    expect(manifest.name).to.equal('Rover');
    expect(manifest.plugins).to.include(join(dir, 'node_modules/@acme/profile-rover/local-plugin.js'));
    expect(manifest.tables.memory!.database_path).to.equal(
      join(dir, 'node_modules/@acme/profile-rover/data/memory.sqlite3'),
    );
  });

  it('layers manifests: tables key by key, arrays replaced, plugins merged with removal, paths per layer', () => {
    const robot = write(
      'robots/r7/profile.toml',
      [
        '[profile]',
        'extends = ["@acme/profile-rover"]',
        'name = "Rover 7"',
        'plugins = ["!@mira/plugin-openai", "@mira/plugin-notes", "@mira/plugin-memory"]',
        '[memory]',
        'database_path = "r7.sqlite3"',
        '[[attention.monitors]]',
        'id = "battery_low"',
        'sensor = "battery"',
        'below = 15',
        '[openai]',
        'timeout_ms = 5000',
      ].join('\n'),
    );
    const manifest = readManifest(robot, {});
    expect(manifest.name).to.equal('Rover 7');
    expect(manifest.description).to.equal('An Acme rover'); // kept from the layer below
    expect(manifest.plugins).to.deep.equal([
      '@mira/plugin-sim',
      '@mira/plugin-memory',
      join(dir, 'node_modules/@acme/profile-rover/local-plugin.js'),
      '@mira/plugin-notes',
    ]);
    expect(manifest.tables.memory).to.deep.equal({ enabled: true, database_path: join(dir, 'robots/r7/r7.sqlite3') });
    expect(manifest.tables.attention!.monitors).to.deep.equal([{ id: 'battery_low', sensor: 'battery', below: 15 }]);
    expect(manifest.tables.openai).to.deep.equal({ model: 'gpt-4.1-mini', timeout_ms: 5000 });
    expect(manifest.layers.origins.get('openai.model')).to.equal(
      join(dir, 'node_modules/@acme/profile-rover/profile.toml'),
    );
    expect(manifest.layers.origins.get('openai.timeout_ms')).to.equal(robot);
  });

  it('expands ${VARIABLES} from the environment, with defaults; an unset one is an error naming it', () => {
    const robot = write(
      'fleet/profile.toml',
      [
        '[profile]',
        'extends = ["../node_modules/@acme/profile-rover"]',
        'name = "${ROBOT_NAME}"',
        '[memory]',
        'database_path = "/var/lib/mira/${ROBOT_NAME:-robot}.sqlite3"',
        '[openai]',
        'model = "${MODEL:-gpt-4.1-mini}"',
        'base_url = "http://$${literal}/v1"',
      ].join('\n'),
    );
    const manifest = readManifest(robot, { ROBOT_NAME: 'rover-12' });
    expect(manifest.name).to.equal('rover-12');
    expect(manifest.tables.memory!.database_path).to.equal('/var/lib/mira/rover-12.sqlite3');
    expect(manifest.tables.openai).to.deep.include({ model: 'gpt-4.1-mini', base_url: 'http://${literal}/v1' });
    const error = rejection(() => readManifest(robot, {}));
    expect(error.code).to.equal('MIRA_ERR_MANIFEST_INVALID');
    expect(error.detail).to.equal(
      `${robot}: profile.name uses \${ROBOT_NAME}, which is not set; export ROBOT_NAME=… or write \${ROBOT_NAME:-default}`,
    );
  });

  it('refuses a cycle and a missing layer, naming the chain', () => {
    const a = write('a/profile.toml', '[profile]\nname = "A"\nextends = ["../b"]');
    write('b/profile.toml', '[profile]\nname = "B"\nextends = ["../a/profile.toml"]');
    const cycle = rejection(() => readManifest(a, {}));
    expect(cycle.detail).to.equal(
      `extends cycle: ${a} → ${join(dir, 'b/profile.toml')} → ${a}; remove one of the links`,
    );
    const c = write('c/profile.toml', '[profile]\nname = "C"\nextends = ["@acme/no-such-profile"]');
    const missing = rejection(() => readManifest(c, {}));
    expect(missing.code).to.equal('MIRA_ERR_MANIFEST_NOT_FOUND');
    expect(missing.message).to.contain(
      `${c}: extends "@acme/no-such-profile", which is neither a path nor an installed`,
    );
  });

  it('mira check --explain prints each key with its file, and variables as written (never their values)', async () => {
    write(
      'node_modules/@acme/profile-rover/profile.toml',
      ['[profile]', 'name = "Rover"', 'plugins = ["@mira/plugin-memory"]', '[memory]', 'enabled = false'].join('\n'),
    );
    const robot = write(
      'r9/profile.toml',
      ['[profile]', 'extends = ["@acme/profile-rover"]', 'name = "${ROBOT_NAME}"'].join('\n'),
    );
    const run = await runMira(['check', '--profile', robot, '--explain'], '', {
      cwd: dir,
      env: { ROBOT_NAME: 'secret-name-123' },
      timeoutMs: 20_000,
    });
    expect(run.stderr).to.equal('');
    expect(run.code).to.equal(0);
    const explained = run.stdout.slice(run.stdout.indexOf('merged manifest'));
    expect(explained).to.contain(`name = "\${ROBOT_NAME}"    # ${robot}`);
    expect(explained).to.contain(`enabled = false    # ${join(dir, 'node_modules/@acme/profile-rover/profile.toml')}`);
    // What comes from the environment (names, passwords, URLs) is shown as the variable, never its value.
    expect(explained).not.to.contain('secret-name-123');
  });

  it('ships example profiles as packages: a ROS 2 diff-drive robot, the simulator, and a fleet-member layer', async () => {
    for (const name of ['@mira/profile-ros2-diff-drive', '@mira/profile-sim']) {
      const run = await runMira(['check', '--profile', name], '', { timeoutMs: 20_000 });
      expect(run.stderr, name).to.equal('');
      expect(run.code, name).to.equal(0);
    }
    const robot = write(
      'rover7/profile.toml',
      '[profile]\nextends = ["@mira/profile-ros2-diff-drive", "@mira/profile-fleet-member"]\n',
    );
    const env = { ROBOT_NAME: 'rover7', ROBOT_NAMESPACE: '/rover7', MIRA_SPACE: 'ward-3' };
    const manifest = readManifest(robot, env);
    expect(manifest.name).to.equal('rover7');
    expect(manifest.tables.memory).to.deep.include({ backend: 'postgres', space: 'ward-3', url_env: 'MIRA_PG_URL' });
    expect(manifest.tables.ros2).to.deep.include({ namespace: '/rover7', transport: 'rosbridge' });
    const checked = await runMira(['check', '--profile', robot], '', { env, timeoutMs: 20_000 });
    expect(checked.code).to.equal(0);
    const unset = await runMira(['check', '--profile', robot], '', {
      env: { ROBOT_NAME: 'rover7' },
      timeoutMs: 20_000,
    });
    expect(unset.code).to.equal(1);
    expect(unset.stderr).to.contain('memory.space uses ${MIRA_SPACE}, which is not set');
  });
});
