import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CoreErrors } from '@mira/core';
import { MIRA_BIN, REPO_ROOT, runMira } from './helpers/run-mira.js';

/** What to do in the situation a `mira: CODE: …` line was raised in: the fix of the core wording it reads as. */
function fixOf(code: string, line: string): string {
  const entry = CoreErrors.entry(code)!;
  const wordings = [
    ...(entry.template === undefined ? [] : [{ message: entry.template, fix: entry.fix }]),
    ...Object.values(entry.situations ?? {}).map((s) => (typeof s === 'string' ? { message: s, fix: entry.fix } : s)),
  ];
  if (wordings.length === 0) return entry.fix;
  const reads = (message: string) =>
    new RegExp(
      `${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{[A-Za-z_][A-Za-z0-9_]*\\\}/g, '.*')}$`,
    ).test(line);
  const fixes = new Set(wordings.filter((w) => reads(w.message)).map((w) => w.fix));
  expect([...fixes], line).to.have.length(1);
  return [...fixes][0]!;
}

const LAB_PLUGIN = fileURLToPath(new URL('./fixtures/acme-plugin/index.js', import.meta.url));

/** What the acme fixture plugin logs over a whole run: its store opened and closed, every phase, stopped. */
const FULL_LIFECYCLE = [
  'store open',
  'start',
  'phase cognition',
  'phase attention',
  'phase temporal',
  'phase hardware',
  'stop',
  'store close',
];

describe('mira CLI', function () {
  this.timeout(30_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-cli-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const manifest = (text: string) => {
    writeFileSync(join(dir, 'profile.toml'), text);
    return join(dir, 'profile.toml');
  };

  it('says what to do with a .ts plugin (build it) and with one whose @mira/core is not installed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mira-outside-'));
    try {
      writeFileSync(join(dir, 'plugin.ts'), 'export default { name: "ts-plugin", version: "1", setup() {} };\n');
      writeFileSync(
        join(dir, 'needs-core.mjs'),
        'import { definePlugin } from "@mira/core";\nexport default definePlugin({ name: "x", version: "1", setup() {} });\n',
      );
      const check = async (plugin: string) => {
        writeFileSync(join(dir, 'profile.toml'), `[profile]\nname = "Mira"\nplugins = ["${plugin}"]\n`);
        return runMira(['check', '--profile', dir], '', { cwd: dir });
      };
      /** `mira check` refuses the plugin (exit 1), its output holding each of `parts`. */
      const refused = async (plugin: string, ...parts: string[]) => {
        const { code, stderr } = await check(plugin);
        expect(code, stderr).to.equal(1);
        for (const part of parts) expect(stderr).to.contain(part);
      };
      await refused(
        './plugin.ts',
        'MIRA_ERR_PLUGIN_LOAD_FAILED',
        '; Mira runs JavaScript: build the plugin (tsc) and name the built .js file, or its package',
      );
      await refused(
        './needs-core.mjs',
        'MIRA_ERR_PLUGIN_LOAD_FAILED',
        '; the plugin imports @mira/core, which is not installed where it lives: run npm install <path to Mira>/core there',
      );
      // A package it imports is not installed: install it; a file it imports is not there: build or fix the path.
      writeFileSync(join(dir, 'needs-package.mjs'), 'import "left-pad-not-installed";\nexport default {};\n');
      writeFileSync(join(dir, 'needs-file.mjs'), 'import "./dist/helpers.js";\nexport default {};\n');
      await refused(
        './needs-package.mjs',
        "Cannot find package 'left-pad-not-installed'",
        "what to do: install the package the message says cannot be found: npm install <name> in the plugin's directory",
      );
      await refused(
        './needs-file.mjs',
        'helpers.js',
        'what to do: a file the plugin imports is not there: build the plugin (npm run build) if it is a built file, or fix the import path the message names',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs help, memory and quit on profiles/mira-sim with exit status 0', async () => {
    const run = await runMira(['--profile', 'profiles/mira-sim'], 'help\nmemory\nquit\n');
    expect(run.code).to.equal(0);
    expect(run.stdout).to.contain('Commands:').and.to.contain('memory clear').and.to.contain('quit');
    expect(run.stdout).to.contain('working memory: 0 of at most').and.to.contain('(empty)');
  });

  it('lists the simulated battery, odometry and range with ages on profiles/mira-sim', async () => {
    const run = await runMira(['--profile', 'profiles/mira-sim'], 'sensors\nquit\n');
    expect(run.code).to.equal(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).to.match(/^battery \(battery, percent\): \{"percent":100,"voltage":12\.6\} \d+ms ago$/);
    expect(lines[1]).to.match(/^odometry \(odometry, m, rad, m\/s, rad\/s\): \{"x":0,"y":0,"yaw":0,.*\} \d+ms ago$/);
    expect(lines[2]).to.match(/^range \(range, m\): \{"range_m":4\} \d+ms ago$/);
  });

  it('validates the ROS 2 robot profile without connecting to a robot', async () => {
    const run = await runMira(['check', '--profile', 'profiles/mira']);
    expect(run.code).to.equal(0);
    expect(run.stdout).to.contain('1. @mira/plugin-ros2');
  });

  it('exits 1 at EOF when a line failed, after running every line', async () => {
    const run = await runMira(['--profile', 'profiles/mira-sim'], 'memory clear now\nhelp quit\n');
    expect(run.code).to.equal(1);
    expect(run.stdout).to.match(/^error: MIRA_ERR_CONSOLE_USAGE: usage: memory clear$/m);
    expect(run.stdout).to.contain('Stop the robot runtime');
  });

  it('says cognition is not configured for an utterance', async () => {
    const path = manifest('[profile]\nname = "Quiet"\nplugins = []\n');
    const run = await runMira(['--profile', path], 'Hello Mira\n');
    expect(run.code).to.equal(1);
    expect(run.stdout).to.match(
      /^error: MIRA_ERR_COGNITION_NOT_CONFIGURED: cognition is not configured in this profile/m,
    );
  });

  it('prints --help and --version, and exits 2 on a usage error', async () => {
    const help = await runMira(['--help']);
    expect(help.code).to.equal(0);
    expect(help.stdout).to.contain('mira --profile <dir|profile.toml>').and.to.contain('mira check');
    const version = await runMira(['--version']);
    expect(version.code).to.equal(0);
    expect(version.stdout).to.match(/^mira \d+\.\d+\.\d+\n$/);
    for (const args of [[], ['--profile'], ['--bogus'], ['check']]) {
      const bad = await runMira(args);
      expect(bad.code, args.join(' ')).to.equal(2);
      expect(bad.stderr).to.contain('MIRA_ERR_CLI_USAGE');
    }
  });

  it('loads no part of the runtime for --version, --help or a usage error, and no fleet driver for a SQLite profile', async () => {
    const register = fileURLToPath(new URL('./fixtures/record-modules/register.mjs', import.meta.url));
    const loaded = async (args: string[]) => {
      const file = join(dir, `modules-${args[0]}.txt`);
      writeFileSync(file, '');
      const run = await runMira(args, '', {
        env: { NODE_OPTIONS: `--import ${register}`, MIRA_RECORD_MODULES: file },
      });
      const urls = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      // The recorder works: the bin itself is in every list.
      expect(
        urls.some((u) => u.endsWith('/core/bin/mira.js')),
        'recorded',
      ).to.equal(true);
      return { run, mira: urls.filter((u) => !u.startsWith('node:')).map((u) => u.slice(u.indexOf('/core/') + 1)) };
    };
    for (const args of [['--version'], ['--help'], ['--bogus']]) {
      const { run, mira } = await loaded(args);
      expect(run.code, args[0]).to.equal(args[0] === '--bogus' ? 2 : 0);
      // The command line and its error type (core's catalogues and the mechanism they are built with);
      // no kernel, manifest reader, plugin or dependency. (In whatever order the loader finishes them.)
      expect([...mira].sort(), args[0]).to.deep.equal([
        'core/bin/mira.js',
        'core/dist/cli-commands.js',
        'core/dist/cli.js',
        'core/dist/cognition/errors.js',
        'core/dist/error-catalogue.js',
        'core/dist/errors.js',
        'core/dist/lifecycle.js',
        'core/dist/start-up-guard.js',
      ]);
    }
    const { run, mira } = await loaded(['check', '--profile', join(REPO_ROOT, 'profiles/mira-sim')]);
    expect(run.code).to.equal(0);
    expect(mira.some((u) => u.includes('/plugins/memory/dist/index.js'))).to.equal(true);
    expect(mira.filter((u) => /node_modules\/(typeorm|pg|@modelcontextprotocol)\//.test(u))).to.deep.equal([]);
    // Its error codes and space names are light; the store and its migrations are not loaded.
    expect(mira.filter((u) => /\/postgres\/(postgres-memory-store|migrations)/.test(u))).to.deep.equal([]);
    // Plugins that pass precompiled config validators are booted without ajv (the tools' schemas are checked
    // by the precompiled meta-schema validator), and nothing draws a progress bar.
    const precompiled = manifest(
      '[profile]\nname = "x"\nplugins = ["@mira/plugin-sim", "@mira/plugin-attention", "@mira/plugin-memory", ' +
        '"@mira/plugin-memory-tools", "@mira/plugin-notes", "@mira/plugin-mind-view", "@mira/plugin-openai"]\n' +
        '[sim]\nbattery_percent = 90\n[notes]\nenabled = true\ndatabase_path = "notes.sqlite3"\n' +
        '[mind_view]\nenabled = false\n[openai]\nmodel = "m"\n',
    );
    const booted = await loaded(['check', '--profile', precompiled]);
    expect(booted.run.code, booted.run.stderr).to.equal(0);
    for (const name of ['sim', 'notes']) {
      expect(booted.mira.some((u) => u.includes(`/plugins/${name}/dist/config-validator.generated.js`))).to.equal(true);
    }
    expect(booted.mira.filter((u) => /node_modules\/(ajv\/dist|cli-progress)\//.test(u))).to.deep.equal([]);
  });

  describe('commands that installed packages declare', () => {
    /** Writes a package under `dir`/node_modules with `files`, its package.json declaring `commands`. */
    const install = (name: string, commands: unknown, files: Record<string, string> = {}) => {
      const at = join(dir, 'node_modules', ...name.split('/'));
      mkdirSync(at, { recursive: true });
      writeFileSync(join(at, 'package.json'), JSON.stringify({ name, version: '1.0.0', mira: { commands } }));
      for (const [file, text] of Object.entries(files)) writeFileSync(join(at, file), text);
    };
    const HELLO = {
      hello: { module: './hello.js', usage: 'mira hello [words…]', summary: 'says hello with the words given' },
    };
    const HELLO_JS = `export async function run(context) {
      if (context.argv[0] === '--bad') throw context.usageError('hello takes words, not --bad');
      context.stdout.write('hello ' + context.argv.join(' ') + ' from mira ' + context.version + '\\n');
      return 3;
    }\n`;

    it('finds one from the working directory, runs it with its arguments, and lists it in --help', async () => {
      install('mira-plugin-hello', HELLO, { 'hello.js': HELLO_JS });
      const run = await runMira(['hello', 'big', 'world'], '', { cwd: dir });
      expect(run.stderr).to.equal('');
      expect(run.stdout).to.match(/^hello big world from mira \d+\.\d+\.\d+\n$/);
      expect(run.code).to.equal(3);
      const help = await runMira(['--help'], '', { cwd: dir });
      expect(help.stdout)
        .to.contain('  mira hello [words…]\n')
        .and.to.contain('says hello with the words given (mira-plugin-hello)');
      // The repository's own: mira mcp and mira memory copy come from their packages too.
      expect(help.stdout).to.contain('(@mira/plugin-mcp-server)').and.to.contain('(@mira/plugin-memory)');
      const usage = await runMira(['hello', '--bad'], '', { cwd: dir });
      expect(usage.code).to.equal(2);
      expect(usage.stderr).to.match(/^mira: MIRA_ERR_CLI_USAGE: hello takes words, not --bad\n\nUsage:/);
    });

    it('answers --help on a package command from its declaration, exit 0, without loading its module', async () => {
      // No hello.js: the help must not import the module.
      install('mira-plugin-hello', { hello: { ...HELLO.hello, help: 'words…  the words to say hello with' } });
      for (const argv of [
        ['hello', '--help'],
        ['hello', 'big', '-h'],
        ['hello', '--help', '--', 'x'],
      ]) {
        const run = await runMira(argv, '', { cwd: dir });
        expect({ code: run.code, stderr: run.stderr }, argv.join(' ')).to.deep.equal({ code: 0, stderr: '' });
        expect(run.stdout, argv.join(' ')).to.equal(
          `Usage:\n  mira hello [words…]\n${' '.repeat(45)}says hello with the words given (mira-plugin-hello)\n\n` +
            'words…  the words to say hello with\n\nmira --help lists every command.\n',
        );
      }
      // After "--" it is the command's argument, not a request for help.
      const after = await runMira(['hello', '--', '--help'], '', { cwd: dir });
      expect(after.code).to.equal(1);
      expect(after.stderr).to.match(/^mira: MIRA_ERR_CLI_COMMAND_INVALID: /);
    });

    it("answers --help on the repository's own package commands, exit 0", async () => {
      const expected: Record<string, RegExp> = {
        'memory copy --help':
          /^Usage:\n {2}mira memory copy --profile <from> --to <to>\n[^]*\(@mira\/plugin-memory\)\n\n--profile <from> {2}the robot profile[^]*\n--to <to> /,
        'memory --help': /^Usage:\n {2}mira memory copy --profile <from> --to <to>\n/,
        'memory copy -h': /^Usage:\n {2}mira memory copy --profile <from> --to <to>\n/,
        'mcp --help':
          /^Usage:\n {2}mira mcp --profile <dir\|profile\.toml>\n[^]*\(@mira\/plugin-mcp-server\)\n\n--profile /,
      };
      for (const [line, shape] of Object.entries(expected)) {
        const run = await runMira(line.split(' '), '', { cwd: dir });
        expect({ code: run.code, stderr: run.stderr }, line).to.deep.equal({ code: 0, stderr: '' });
        expect(run.stdout, line).to.match(shape);
      }
    });

    it('ignores packages outside the naming rule, and says an unknown command is unknown', async () => {
      install('hello-tools', HELLO, { 'hello.js': HELLO_JS });
      const run = await runMira(['hello'], '', { cwd: dir });
      expect(run.code).to.equal(2);
      expect(run.stderr).to.contain('mira: unknown command "hello"');
      expect(run.stdout).to.equal('');
    });

    const refusals: Array<[string, () => void, RegExp]> = [
      [
        'two packages declaring one name',
        () => {
          install('mira-plugin-hello', HELLO, { 'hello.js': HELLO_JS });
          install('@acme/mira-plugin-hi', HELLO, { 'hello.js': HELLO_JS });
        },
        /both (mira-plugin-hello and @acme\/mira-plugin-hi|@acme\/mira-plugin-hi and mira-plugin-hello) declare the command "mira hello"; uninstall one of them/,
      ],
      [
        "a package taking one of mira's own commands",
        () => install('mira-plugin-hello', { ...HELLO, check: HELLO.hello }, { 'hello.js': HELLO_JS }),
        /mira-plugin-hello\/package\.json: "mira\.commands" names "check", which is one of mira's own commands/,
      ],
      [
        'a module that is not there',
        () => install('mira-plugin-hello', HELLO),
        /the command "mira hello" of mira-plugin-hello could not be loaded from .*hello\.js: .*; reinstall mira-plugin-hello/,
      ],
      [
        'a module without run()',
        () => install('mira-plugin-hello', HELLO, { 'hello.js': 'export const go = 1;\n' }),
        /hello\.js exports no run\(context\) function/,
      ],
      [
        'a module outside its package',
        () => install('mira-plugin-hello', { hello: { ...HELLO.hello, module: '../../evil.js' } }),
        /"hello" names a module outside its package \(\.\.\/\.\.\/evil\.js\)/,
      ],
    ];
    for (const [what, setup, message] of refusals) {
      it(`refuses ${what} with MIRA_ERR_CLI_COMMAND_INVALID, exit 1`, async () => {
        setup();
        const run = await runMira(['hello'], '', { cwd: dir });
        expect(run.code).to.equal(1);
        expect(run.stderr).to.match(/^mira: MIRA_ERR_CLI_COMMAND_INVALID: /);
        expect(run.stderr).to.match(message);
        expect(run.stdout).to.equal('');
      });
    }
  });

  it('check validates the manifest and prints the plugin order', async () => {
    const path = manifest(`[profile]\nname = "Lab"\nplugins = ["${LAB_PLUGIN}"]\n[lab]\n`);
    const run = await runMira(['check', '--profile', path]);
    expect(run.code).to.equal(0);
    expect(run.stdout).to.contain('plugins in order:\n  1. @acme/mira-plugin-lab\n');
    expect(readdirSync(dir)).to.deep.equal(['profile.toml']);
  });

  describe('bad input fails start-up with exit 1, names the file, says what to do, and creates nothing', () => {
    const cases: Array<[string, string, string, Record<string, string>?, string?]> = [
      ['malformed TOML', '[profile\nname = "x"\n', 'MIRA_ERR_MANIFEST_SYNTAX'],
      ['an unknown plugin', '[profile]\nname = "x"\nplugins = ["@mira/plugin-nope"]\n', 'MIRA_ERR_PLUGIN_NOT_FOUND'],
      [
        'a module with no plugin export',
        '[profile]\nname = "x"\nplugins = ["./junk.js"]\n',
        'MIRA_ERR_PLUGIN_INVALID',
        { 'junk.js': 'export const nothing = 1;\n' },
      ],
      [
        'a plugin of the older shape (apply, start and stop on the module object)',
        '[profile]\nname = "x"\nplugins = ["./old.js"]\n',
        'MIRA_ERR_PLUGIN_INVALID',
        { 'old.js': "export default { name: 'old', version: '1', apply() {}, start() {} };\n" },
      ],
      [
        'a setup() that returns something other than an instance',
        '[profile]\nname = "x"\nplugins = ["./odd.js"]\n',
        'MIRA_ERR_PLUGIN_INVALID',
        { 'odd.js': "export default { name: 'odd', version: '1', setup() { return { start: 'soon' }; } };\n" },
        `: plugin odd: the instance's "start" must be a function`,
      ],
      [
        'a setup() that returns a value that is not an object',
        '[profile]\nname = "x"\nplugins = ["./odd.js"]\n',
        'MIRA_ERR_PLUGIN_INVALID',
        { 'odd.js': "export default { name: 'odd', version: '1', setup() { return 42; } };\n" },
        ': plugin odd: setup() must return an object ({ start?, stop? }) or nothing',
      ],
      [
        'a config value of the wrong type',
        `[profile]\nname = "x"\nplugins = ["${LAB_PLUGIN}"]\n[lab]\nevents_file = 42\n`,
        'MIRA_ERR_CONFIG_INVALID',
      ],
      [
        "a config value its plugin's precompiled validator refuses: in ajv's words, at start, as before",
        '[profile]\nname = "x"\nplugins = ["@mira/plugin-sim"]\n[sim]\nbattery_percent = 500\n',
        'MIRA_ERR_CONFIG_INVALID',
        undefined,
        ': plugin @mira/plugin-sim: [sim] /sim/battery_percent: must be <= 100',
      ],
      [
        'an unclaimed table',
        '[profile]\nname = "x"\nplugins = []\n[memory]\nenabled = true\n',
        'MIRA_ERR_CONFIG_UNKNOWN_TABLE',
      ],
      [
        'a dependency cycle',
        '[profile]\nname = "x"\nplugins = ["./a.js", "./b.js"]\n',
        'MIRA_ERR_PLUGIN_DEPENDENCY_CYCLE',
        {
          'a.js': "export default { name: 'a', version: '1', dependencies: ['b'], setup() {} };\n",
          'b.js': "export default { name: 'b', version: '1', dependencies: ['a'], setup() {} };\n",
        },
      ],
      [
        'a duplicate tool name',
        `[profile]\nname = "x"\nplugins = ["${LAB_PLUGIN}", "./dup.js"]\n`,
        'MIRA_ERR_DUPLICATE_REGISTRATION',
        {
          'dup.js':
            "export default { name: 'dup', version: '1', setup(k) { k.tools.register({ name: 'lab_temperature', description: 'x', kind: 'acquisition', origins: ['operator'], parameters: { type: 'object', properties: {}, required: [], additionalProperties: false }, run: async () => ({ content: '', display: '' }) }); } };\n",
        },
      ],
      [
        'a tool name that is not valid: the name given once, the plugin once',
        '[profile]\nname = "x"\nplugins = ["./bad.js"]\n',
        'MIRA_ERR_REGISTRATION_INVALID',
        {
          'bad.js':
            "export default { name: 'bad', version: '1', setup(k) { k.tools.register({ name: 'Lab-Temp', description: 'x', kind: 'acquisition', origins: ['operator'], parameters: { type: 'object', properties: {}, required: [], additionalProperties: false }, run: async () => ({ content: '', display: '' }) }); } };\n",
        },
        ': plugin bad: tool name "Lab-Temp" is not valid: a tool name is lower-case letters, digits and _, starting with a letter, at most 64 characters',
      ],
      [
        'a duplicate command name',
        '[profile]\nname = "x"\nplugins = ["./dup.js"]\n',
        'MIRA_ERR_DUPLICATE_REGISTRATION',
        {
          'dup.js':
            "export default { name: 'dup', version: '1', setup(k) { k.commands.register({ name: 'help', summary: 'x', run() {} }); } };\n",
        },
      ],
    ];
    for (const [what, text, code, files, says] of cases) {
      it(what, async () => {
        for (const [name, body] of Object.entries(files ?? {})) writeFileSync(join(dir, name), body);
        const path = manifest(text);
        const before = readdirSync(dir).sort();
        const run = await runMira(['--profile', path], 'help\n');
        expect(run.code).to.equal(1);
        expect(run.stdout).to.equal('');
        const lines = run.stderr.trim().split('\n');
        expect(lines).to.have.length(2);
        expect(lines[0])
          .to.match(new RegExp(`^mira: ${code}: `))
          .and.to.contain(path);
        if (says !== undefined) expect(lines[0]).to.equal(`mira: ${code}: ${path}${says}`);
        // What to do in the situation raised, on a line of its own after the one scripts match.
        expect(lines[1]).to.equal(`mira: what to do: ${fixOf(code, lines[0]!)}`);
        expect(readdirSync(dir).sort()).to.deep.equal(before);
      });
    }
  });

  it('loads a third-party plugin by path that registers a tool, a command, a store and a sensor', async () => {
    const path = manifest(`[profile]\nname = "Lab"\nplugins = ["${LAB_PLUGIN}"]\n[lab]\nevents_file = "events.log"\n`);
    const run = await runMira(
      ['--profile', path],
      'lab note "first light"\nlab read\nsensors\nhelp lab\nlab note " "\nquit\n',
    );
    expect(run.stdout).to.contain('page 1: first light');
    expect(run.stdout).to.match(/lab_thermometer \(temperature, celsius\): 21\.5 \d+ms ago/);
    expect(run.stdout).to.contain('lab note "<text>"');
    expect(run.stdout).to.contain('error: ACME_ERR_EMPTY_NOTE: the note is empty; write some text');
    expect(run.code).to.equal(1);
    const events = readFileSync(join(dir, 'events.log'), 'utf8').trim().split('\n');
    expect(events).to.deep.equal(FULL_LIFECYCLE);
  });

  it('resolves a plugin package from the manifest directory first', async () => {
    const pkgDir = join(dir, 'node_modules', '@acme', 'mira-plugin-lab');
    const { cpSync, symlinkSync, mkdirSync } = await import('node:fs');
    cpSync(fileURLToPath(new URL('./fixtures/acme-plugin/', import.meta.url)), pkgDir, { recursive: true });
    // the copied plugin imports @mira/core, which a real install would provide beside it
    mkdirSync(join(dir, 'node_modules', '@mira'), { recursive: true });
    symlinkSync(join(REPO_ROOT, 'core'), join(dir, 'node_modules', '@mira', 'core'));
    const path = manifest(
      '[profile]\nname = "Lab"\nplugins = ["@acme/mira-plugin-lab"]\n[lab]\nevents_file = "events.log"\n',
    );
    const run = await runMira(['--profile', path], 'plugins\n', { cwd: tmpdir() });
    expect(run.code).to.equal(0);
    expect(run.stdout).to.contain('@acme/mira-plugin-lab 1.2.0 (@acme/mira-plugin-lab)');
  });

  it('runs headless with mira run: stdin at /dev/null, up 30 s until SIGTERM, then the orderly stop and exit 0', async function () {
    // As systemd starts the unit in the README: stdin is /dev/null ('ignore'), and it must stay up.
    this.timeout(60_000);
    const path = manifest(`[profile]\nname = "Lab"\nplugins = ["${LAB_PLUGIN}"]\n[lab]\nevents_file = "events.log"\n`);
    const events = join(dir, 'events.log');
    const child = spawn(process.execPath, [MIRA_BIN, 'run', '--profile', path], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    let exitedEarly = false;
    const exited = new Promise<number | null>((resolve) =>
      child.on('close', (code) => {
        exitedEarly = true;
        resolve(code);
      }),
    );
    const deadline = Date.now() + 10_000;
    while (!stderr.includes('running headless') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(stderr).to.contain(`mira: running headless on profile "Lab" (${path}); SIGINT or SIGTERM stops it`);
    // A console would have read end of input and quit at once; a service stays up.
    await new Promise((r) => setTimeout(r, 30_000));
    expect(exitedEarly).to.equal(false);
    child.kill('SIGTERM');
    expect(await exited).to.equal(0);
    expect(readFileSync(events, 'utf8').trim().split('\n')).to.deep.equal(FULL_LIFECYCLE);
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} takes the same shutdown path as quit`, async () => {
      const path = manifest(
        `[profile]\nname = "Lab"\nplugins = ["${LAB_PLUGIN}"]\n[lab]\nevents_file = "events.log"\n`,
      );
      const events = join(dir, 'events.log');
      const child = spawn(process.execPath, [MIRA_BIN, '--profile', path], { stdio: ['pipe', 'pipe', 'pipe'] });
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      const deadline = Date.now() + 10_000;
      while (!(existsSync(events) && readFileSync(events, 'utf8').includes('start')) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      child.kill(signal);
      const code = await exited;
      expect(code).to.equal(0);
      expect(readFileSync(events, 'utf8').trim().split('\n')).to.deep.equal(FULL_LIFECYCLE);
    });
  }
});
