import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MiraPlugin } from '@mira/core';
import { createTestRuntime, type TestRuntime } from '@mira/core/testing';
import { REPO_ROOT } from './tools/error-reference.js';

/** The plugin guide's battery example, as written in docs/plugins.md. */
function batteryExample(): string {
  const guide = readFileSync(join(REPO_ROOT, 'docs', 'plugins.md'), 'utf8');
  const block = /```js\n(\/\/ battery-plugin\.js[\s\S]*?)```/.exec(guide);
  if (!block) throw new Error('docs/plugins.md has no ```js block starting "// battery-plugin.js"');
  return block[1]!;
}

describe("the plugin guide's battery example (docs/plugins.md)", function () {
  this.timeout(20_000);
  let dir: string;
  let plugin: MiraPlugin<any>;
  let rt: TestRuntime | undefined;
  before(async () => {
    // Where a plugin outside this repository lives: @mira/core from its node_modules.
    dir = mkdtempSync(join(tmpdir(), 'mira-guide-'));
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(dir, 'battery-plugin.js'), batteryExample());
    plugin = ((await import(pathToFileURL(join(dir, 'battery-plugin.js')).href)) as { default: MiraPlugin<any> })
      .default;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(async () => {
    await rt?.dispose();
    rt = undefined;
  });

  /** A runtime with the example, its gauge a file holding `percent` (none: no file). */
  const boot = async (percent?: string) => {
    const gauge = join(dir, 'capacity');
    rmSync(gauge, { force: true });
    if (percent !== undefined) writeFileSync(gauge, percent);
    rt = await createTestRuntime({
      plugins: [plugin],
      tables: { battery: { capacity_file: gauge, poll_ms: 100, low_percent: 15 } },
    });
    return { rt, gauge };
  };

  it('publishes readings the console, the tool, read_sensor and its own hook tap see', async () => {
    const { rt, gauge } = await boot('81\n');
    expect(await rt.run('battery')).to.deep.equal({ ok: true, output: ['battery 81% (low below 15%)'] });
    expect(JSON.parse((await rt.callTool('battery_level', {})).content)).to.deep.equal({ percent: 81 });
    writeFileSync(gauge, '12\n');
    expect(JSON.parse((await rt.callTool('read_sensor', { sensor_id: 'battery' })).content)).to.deep.include({
      status: 'fresh',
      unit: 'percent',
      value: 12,
    });
    // read published the fresh reading: it is the latest, and the tap heard it.
    expect((await rt.run('battery')).output).to.deep.equal(['battery 12% (low below 15%)']);
    expect(rt.notifications).to.include('[battery] low: 12%');
  });

  it('refuses the command with its catalogue code while the gauge cannot be read', async () => {
    const { rt, gauge } = await boot();
    const { ok, output } = await rt.run('battery');
    expect(ok).to.equal(false);
    expect(output.join('\n')).to.contain(`ACME_ERR_NO_READING: no battery reading yet from ${gauge}`);
    expect(JSON.parse((await rt.callTool('read_sensor', { sensor_id: 'battery' })).content)).to.deep.include({
      status: 'no_reading',
    });
  });
});
