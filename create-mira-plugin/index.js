#!/usr/bin/env node
// npm create mira-plugin <dir> [-- --core <path|tarball>] [--name <package name>] [--tool] [--sensor] [--command]
//
// Scaffolds a Mira plugin outside the Mira repository: a tool with a strict schema, a sensor, a console
// command (all three, or those the flags name), a config table, mocha tests with @mira/core/testing, a
// tsconfig and a build. Plain JavaScript with no dependencies, so it runs before anything is installed.
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));
const TEMPLATE = join(HERE, 'template');
const SELF = JSON.parse(readFileSync(join(HERE, 'package.json'), 'utf8'));

const USAGE = `Usage: npm create mira-plugin <dir> [-- --core <path|tarball>] [--name <package name>] [--tool] [--sensor] [--command]
       node <mira>/create-mira-plugin/index.js <dir> [--core <path|tarball>] [--name <package name>] [parts]

Creates <dir> (it must not exist, or be empty) with a Mira plugin: src/index.ts (a tool, a sensor,
a console command, a config table), src/errors.ts (its error catalogue), test/plugin.test.ts,
tsconfig.json, .mocharc.json, a profile.toml to try it, and a package.json whose @mira/core
comes from --core:

  --tool            a tool the model calls (with a strict schema)
  --sensor          a sensor (read_sensor, the console's "sensors", the model's grounding)
  --command         a console command
                    (the parts: any of the three flags gives only those; none gives all three)

  --core <path>     a Mira checkout's core/ directory (default: the core/ beside this script,
                    when it runs from a Mira checkout), installed as a link
  --core <file.tgz> a tarball made by npm pack in core/
  --name <name>     the package name (default: mira-plugin-<dir name>; use the mira-plugin-
                    prefix, or @scope/mira-plugin-…, so mira finds commands it may declare)

Then: cd <dir> && npm install && npm test`;

/** Writes `message` and the usage to stderr and exits 2. */
function usageError(message) {
  process.stderr.write(`create-mira-plugin: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      core: { type: 'string' },
      name: { type: 'string' },
      tool: { type: 'boolean' },
      sensor: { type: 'boolean' },
      command: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
} catch (error) {
  usageError(error.message);
}
if (parsed.values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (parsed.positionals.length !== 1) usageError('give one directory to create, e.g. npm create mira-plugin greeter');

const target = resolve(parsed.positionals[0]);
if (existsSync(target) && (!statSync(target).isDirectory() || readdirSync(target).length > 0)) {
  usageError(`${target} exists and is not an empty directory; choose a new one`);
}

const short = basename(target)
  .toLowerCase()
  .replace(/^mira-plugin-/, '')
  .replace(/[^a-z0-9]+/g, '_')
  .replace(/^_+|_+$/g, '');
if (!/^[a-z][a-z0-9_]{0,30}$/.test(short)) {
  usageError(`"${basename(target)}" makes no plugin name: start the directory's name with a letter (a-z)`);
}
const name = parsed.values.name ?? `mira-plugin-${short.replaceAll('_', '-')}`;
const problems = npmNameProblems(name);
if (problems.length > 0) {
  usageError(`"${name}" is not a name npm takes for a new package: ${problems.join('; ')}`);
}

// Where @mira/core comes from: a directory (linked) or a tarball (copied in by npm).
const defaultCore = join(HERE, '..', 'core');
const core = parsed.values.core === undefined ? defaultCore : resolve(parsed.values.core);
if (!existsSync(core)) {
  usageError(
    parsed.values.core === undefined
      ? 'no Mira checkout beside this script: give --core <path to Mira>/core, or a tarball from npm pack in core/'
      : `--core ${parsed.values.core}: no such file or directory`,
  );
}
const coreIsTarball = statSync(core).isFile();
if (coreIsTarball ? !core.endsWith('.tgz') : !existsSync(join(core, 'package.json'))) {
  usageError(`--core ${core} is neither a directory with a package.json (Mira's core/) nor a .tgz from npm pack`);
}
const coreManifest = coreIsTarball ? undefined : JSON.parse(readFileSync(join(core, 'package.json'), 'utf8'));
if (coreManifest && coreManifest.name !== '@mira/core') {
  usageError(`--core ${core} is ${coreManifest.name}, not @mira/core; give Mira's core/ directory`);
}
if (coreManifest && !existsSync(join(core, 'dist', 'index.js'))) {
  usageError(`${core} is not built (no dist/); run npm ci (or npm run build) in the Mira checkout first`);
}
// A relative file: spec keeps a project beside the checkout movable with it; far away, the path is absolute.
const near = relative(target, core);
const coreSpec = `file:${near.startsWith(join('..', '..', '..')) ? core : near}`;

// The parts the plugin has: those the flags name, or all three.
const ALL_PARTS = ['tool', 'sensor', 'command'];
const named = ALL_PARTS.filter((part) => parsed.values[part]);
const parts = new Set(named.length > 0 ? named : ALL_PARTS);

const placeholders = {
  __NAME__: name,
  __SECTION__: short,
  __TOOL__: `${short}_greet`,
  __SENSOR__: `${short}_ticks`,
  __CODE_PREFIX__: short.toUpperCase(),
  __CORE_IMPORTS__: [
    'definePlugin',
    ...(parts.has('tool') ? ['defineTool'] : []),
    ...(parts.has('sensor') ? ['type SensorReading'] : []),
  ].join(', '),
  __TEST_TABLE__: parts.has('tool') ? "{ greeting: 'Hi' }" : '{}',
};

/**
 * The template's text for these parts: lines between a part's markers (`// [tool]` … `// [/tool]`, or with
 * `#` or `<!-- -->`) are kept only when the part is chosen, and the marker lines always go.
 */
function keepParts(text) {
  const marker = /^\s*(?:\/\/|#|<!--)\s*\[(\/?)(tool|sensor|command)\]\s*(?:-->)?\s*$/;
  const kept = [];
  let skipping;
  for (const line of text.split('\n')) {
    const found = marker.exec(line);
    if (found) {
      const [, end, part] = found;
      if (!end && !parts.has(part)) skipping = part;
      else if (end && skipping === part) skipping = undefined;
      continue;
    }
    if (skipping === undefined) kept.push(line);
  }
  return kept.join('\n');
}
const fill = (text) => keepParts(text).replace(/__[A-Z_]+?__/g, (key) => placeholders[key] ?? key);

mkdirSync(target, { recursive: true });
const copy = (from, to) => {
  for (const entry of readdirSync(from)) {
    const source = join(from, entry);
    // npm leaves .gitignore out of a package: the template keeps it as "gitignore".
    const destination = join(to, entry === 'gitignore' ? '.gitignore' : entry);
    if (statSync(source).isDirectory()) {
      mkdirSync(destination, { recursive: true });
      copy(source, destination);
    } else writeFileSync(destination, fill(readFileSync(source, 'utf8')));
  }
};
copy(TEMPLATE, target);

const offers = [
  ...(parts.has('tool') ? [`the tool ${placeholders.__TOOL__}`] : []),
  ...(parts.has('sensor') ? [`the sensor ${placeholders.__SENSOR__}`] : []),
  ...(parts.has('command') ? [`the command "${short} uptime"`] : []),
];
const pkg = {
  name,
  version: '0.1.0',
  description: `A Mira plugin: ${offers.join(', ')}`,
  type: 'module',
  exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './package.json': './package.json' },
  files: ['dist'],
  scripts: { build: 'tsc -p .', test: 'tsc -p . && mocha' },
  dependencies: { '@mira/core': coreSpec },
  devDependencies: SELF['mira-scaffold'].devDependencies,
  engines: { node: '>=20.19' },
  // tsx's esbuild installs its binary in a script (npm 11 asks before running install scripts).
  allowScripts: { esbuild: true },
};
writeFileSync(join(target, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);

const shown = isAbsolute(parsed.positionals[0]) ? target : parsed.positionals[0];
process.stdout.write(`Created ${name} in ${target}
  @mira/core from ${core}${coreIsTarball ? ' (tarball)' : ' (linked)'}
  ${[...offers, `the table [${short}]`].join(', ')}

Next:
  cd ${shown}
  npm install
  npm test
  npx mira check --profile .
`);

/**
 * Why npm would not take `name` for a new package: the rules of npm's own validate-npm-package-name (7.x),
 * its errors and the warnings that make a name invalid for new packages, restated here because this
 * script runs before anything is installed.
 */
function npmNameProblems(name) {
  const problems = [];
  if (name.length === 0) problems.push('it is empty');
  if (name.startsWith('.')) problems.push('it starts with a period');
  if (name.startsWith('-')) problems.push('it starts with a hyphen');
  if (name.startsWith('_')) problems.push('it starts with an underscore');
  if (name.trim() !== name) problems.push('it has leading or trailing spaces');
  if (['node_modules', 'favicon.ico'].includes(name.toLowerCase())) problems.push(`${name} is reserved`);
  if (builtinModules.includes(name.toLowerCase())) problems.push(`${name} is a core module of Node.js`);
  if (name.length > 214) problems.push('it is longer than 214 characters');
  if (name.toLowerCase() !== name) problems.push('it has capital letters');
  if (/[~'!()*]/.test(name.split('/').slice(-1)[0])) problems.push("it has one of the characters ~'!()*");
  if (encodeURIComponent(name) !== name) {
    const scoped = /^(?:@([^/]+?)[/])?([^/]+?)$/.exec(name);
    if (scoped && scoped[2].startsWith('.')) problems.push('its name after the scope starts with a period');
    const urlSafe =
      scoped && encodeURIComponent(scoped[1]) === scoped[1] && encodeURIComponent(scoped[2]) === scoped[2];
    if (!urlSafe) problems.push('it has characters a URL cannot hold as they are');
  }
  return problems;
}
