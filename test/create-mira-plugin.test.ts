import { expect } from 'chai';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './helpers/run-mira.js';

const SCAFFOLD = join(REPO_ROOT, 'create-mira-plugin/index.js');

/** The environment without the outer npm's settings (npm test sets npm_config_*, which name this repository). */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
}

/** Runs a command in `cwd` and resolves to its exit status and output (never rejects on a status). */
function run(
  command: string,
  args: readonly string[],
  cwd: string,
  timeoutMs = 240_000,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe('npm create mira-plugin (create-mira-plugin)', function () {
  this.timeout(600_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-create-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * Installs (from npm's cache first, as CI's npm ci filled it) and runs the scaffold's own checks: its tests
   * (`passing` of them), `mira check`, and a console session with `lines` and what it must print.
   */
  const installAndTest = async (project: string, passing: number, lines: string, printed: RegExp) => {
    const install = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], project);
    expect(install.code, install.out).to.equal(0);
    const test = await run('npm', ['test'], project);
    expect(test.code, test.out).to.equal(0);
    expect(test.out).to.match(new RegExp(`\\b${passing} passing`));
    expect(test.out).not.to.match(/failing|pending/);
    const check = await run(
      process.execPath,
      [join(project, 'node_modules/@mira/core/bin/mira.js'), 'check', '--profile', '.'],
      project,
    );
    expect(check.code, check.out).to.equal(0);
    expect(check.out).to.contain('plugins in order:\n  1. mira-plugin-greeter\n');
    const session = await run(
      'sh',
      ['-c', `printf '${lines}\\nquit\\n' | node node_modules/@mira/core/bin/mira.js --profile .`],
      project,
    );
    expect(session.code, session.out).to.equal(0);
    expect(session.out).to.match(printed);
  };

  it('scaffolds a plugin with @mira/core linked from this checkout, which installs and passes its tests', async () => {
    const created = await run(process.execPath, [SCAFFOLD, 'greeter'], dir);
    expect(created.code, created.out).to.equal(0);
    const project = join(dir, 'greeter');
    expect(readdirSync(project).sort()).to.deep.equal(
      [
        '.gitignore',
        '.mocharc.json',
        'README.md',
        'package.json',
        'profile.toml',
        'src',
        'test',
        'tsconfig.json',
      ].sort(),
    );
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    expect(pkg.name).to.equal('mira-plugin-greeter');
    expect(pkg.dependencies['@mira/core']).to.match(/^file:.*core$/);
    const source = readFileSync(join(project, 'src/index.ts'), 'utf8');
    expect(source).to.contain("name: 'greeter_greet'").and.to.contain("configSection: 'greeter'");
    expect(source).not.to.match(/__[A-Z_]+__/);
    await installAndTest(project, 7, 'greeter uptime\\nsensors', /^up \d+ s$[\s\S]*greeter_ticks/m);
  });

  it('scaffolds one with @mira/core from a tarball made by npm pack', async () => {
    const packed = execFileSync('npm', ['pack', '--pack-destination', dir, '--silent'], {
      cwd: join(REPO_ROOT, 'core'),
      env: cleanEnv(),
      encoding: 'utf8',
    }).trim();
    const tarball = join(dir, packed.split('\n').pop()!);
    // With two of the three parts: what the flags leave out is nowhere in it, and what is left passes.
    const created = await run(process.execPath, [SCAFFOLD, 'greeter', '--core', tarball, '--tool', '--command'], dir);
    expect(created.code, created.out).to.equal(0);
    expect(created.out).to.contain('(tarball)').and.to.contain('the tool greeter_greet, the command "greeter uptime"');
    await installAndTest(join(dir, 'greeter'), 5, 'sensors', /no sensors/i);
  });

  it('leaves out the parts the flags do not name, and every marker, in every file', async () => {
    const words = { tool: /greeter_greet|greeting/, sensor: /greeter_ticks|sample_every_ms/, command: /uptime/ };
    const combinations = [['--tool'], ['--sensor'], ['--command'], ['--tool', '--sensor'], ['--sensor', '--command']];
    for (const flags of combinations) {
      const project = join(dir, `p${flags.join('')}`);
      const created = await run(process.execPath, [SCAFFOLD, project, ...flags], dir);
      expect(created.code, created.out).to.equal(0);
      const files = ['src/index.ts', 'src/errors.ts', 'test/plugin.test.ts', 'profile.toml', 'README.md'];
      const text = files.map((file) => readFileSync(join(project, file), 'utf8')).join('\n');
      expect(text, flags.join(' ')).not.to.match(/\[\/?(tool|sensor|command)\]|__[A-Z_]+__/);
      for (const [part, word] of Object.entries(words)) {
        if (flags.includes(`--${part}`)) expect(text, `${flags.join(' ')}: ${part}`).to.match(word);
        else expect(text, `${flags.join(' ')}: ${part}`).not.to.match(word);
      }
    }
  });

  it('says what to do with a directory that is taken, a missing core, or no directory, creating nothing', async () => {
    mkdirSync(join(dir, 'taken'));
    writeFileSync(join(dir, 'taken', 'x'), '');
    const cases: Array<[string[], RegExp]> = [
      [[], /give one directory to create/],
      [['taken'], /exists and is not an empty directory; choose a new one/],
      [['fresh', '--core', join(dir, 'nope')], /--core .*nope: no such file or directory/],
      [['fresh', '--core', join(dir, 'taken', 'x')], /neither a directory with a package\.json .* nor a \.tgz/],
      [['9lives'], /makes no plugin name: start the directory's name with a letter/],
      [['fresh', '--bogus'], /Unknown option '--bogus'/],
      // Names npm's validate-npm-package-name refuses for a new package.
      [['fresh', '--name', 'node_modules'], /"node_modules" is not a name npm takes .*reserved/],
      [['fresh', '--name', '~x'], /"~x" is not a name npm takes .*characters ~'!\(\)\*/],
      [['fresh', '--name', 'http'], /"http" is not a name npm takes .*core module/],
      [['fresh', '--name', '.hidden'], /starts with a period/],
      [['fresh', '--name', '@scope/.x'], /after the scope starts with a period/],
      [['fresh', '--name', 'Caps'], /capital letters/],
      [['fresh', '--name', 'a b'], /URL/],
      [['fresh', '--name', `x${'y'.repeat(214)}`], /longer than 214/],
    ];
    for (const [args, message] of cases) {
      const result = await run(process.execPath, [SCAFFOLD, ...args], dir);
      expect(result.code, args.join(' ')).to.equal(2);
      expect(result.out).to.match(message).and.to.contain('Usage: npm create mira-plugin');
    }
    expect(readdirSync(dir)).to.deep.equal(['taken']);
    const help = await run(process.execPath, [SCAFFOLD, '--help'], dir);
    expect(help.code).to.equal(0);
    expect(help.out).to.contain('--core <file.tgz>');
  });

  it("gives the scaffold this repository's versions of its development tools", () => {
    const root = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).devDependencies;
    const scaffold = JSON.parse(readFileSync(join(REPO_ROOT, 'create-mira-plugin/package.json'), 'utf8'))[
      'mira-scaffold'
    ].devDependencies;
    for (const [name, version] of Object.entries(scaffold)) expect(version, name).to.equal(root[name]);
  });
});
