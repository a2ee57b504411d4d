// A sampled check that tests can fail for what they exercise: N tests drawn at random from the in-process
// suites of the mutation run (tools/mutation/mocharc.cjs), one break each.
//
//   node tools/mutation/sample.mjs [--count 12] [--seed <n>]
//
// For each drawn test: it runs alone with V8's coverage on, and its file once more beside an empty test; one
// function of the repository's sources that the test itself called (more often than that second run does) is
// drawn (by name, found again in the TypeScript with the compiler's own parser); that function's body starts
// with a `throw` for the second run; the file is restored after it, whatever happens. A test that still passes
// with a function it ran broken is printed as such: it cannot fail for that function. The sources are loaded
// as TypeScript (the `mira-source` condition, through tsx), so no build is involved. It edits sources in place
// for a moment: run it alone, not beside `npm test`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(import.meta.url);
const MOCHA = require.resolve('mocha/bin/mocha.js', { paths: [ROOT] });
const BREAK = "throw new Error('sampled break');";

const USAGE = 'Usage: node tools/mutation/sample.mjs [--count 12] [--seed <n>]';
let options;
try {
  options = parseArgs({
    options: { count: { type: 'string', default: '12' }, seed: { type: 'string' }, help: { type: 'boolean' } },
  }).values;
} catch (error) {
  process.stderr.write(`sample: ${error.message}\n${USAGE}\n`);
  process.exit(2);
}
if (options.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const count = Number(options.count);
const seed = options.seed === undefined ? Date.now() % 1_000_000 : Number(options.seed);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(seed)) {
  process.stderr.write(`sample: --count and --seed take whole numbers\n${USAGE}\n`);
  process.exit(2);
}

/** mulberry32: a small seeded generator, so a sample can be drawn again. */
function random(state) {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const next = random(seed);
const pick = (items) => items[Math.floor(next() * items.length)];

/** The suite's spec files (globs of one `*` in the file name), the root hook first. */
function specFiles() {
  const { spec } = require(join(ROOT, 'tools/mutation/mocharc.cjs'));
  return spec.flatMap((pattern) => {
    if (!pattern.includes('*')) return [pattern];
    const dir = pattern.slice(0, pattern.lastIndexOf('/'));
    const suffix = pattern.slice(pattern.lastIndexOf('*') + 1);
    return readdirSync(join(ROOT, dir))
      .filter((f) => f.endsWith(suffix))
      .map((f) => `${dir}/${f}`);
  });
}

/** Every `it('…')` of a test file whose title is a plain string literal, by the compiler's parser. */
function testsOf(file) {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const titles = [];
  const visit = (node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'it' &&
      node.arguments[0] &&
      (ts.isStringLiteral(node.arguments[0]) || ts.isNoSubstitutionTemplateLiteral(node.arguments[0]))
    ) {
      titles.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return titles.map((title) => ({ file, title }));
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A test that does nothing, for the run that measures what loading a file and the root hook call. */
const EMPTY = join(mkdtempSync(join(tmpdir(), 'mira-sample-empty-')), 'empty.mjs');
writeFileSync(EMPTY, "it('the sample\\'s empty test', () => {});\n");
process.on('exit', () => rmSync(dirname(EMPTY), { recursive: true, force: true }));

/**
 * Runs one test alone, or with `none` an empty test beside its file instead (the root hook runs once for it, as
 * for the test); with `coverage`, V8 writes what ran there.
 */
function runTest(test, coverage, none = false) {
  const [hook] = specFiles();
  const result = spawnSync(
    process.execPath,
    [
      MOCHA,
      '--no-config',
      '--node-option',
      'import=tsx',
      '--node-option',
      'conditions=mira-source',
      '--extension',
      'ts',
      '--timeout',
      '60000',
      '--grep',
      none ? "^the sample's empty test$" : `${escape(test.title)}$`,
      hook,
      test.file,
      ...(none ? [EMPTY] : []),
    ],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, ...(coverage ? { NODE_V8_COVERAGE: coverage } : {}) },
      timeout: 300_000,
    },
  );
  const passing = Number(/(\d+) passing/.exec(result.stdout)?.[1] ?? 0);
  const failing = Number(/(\d+) failing/.exec(result.stdout)?.[1] ?? 0);
  return { passing, failing, status: result.status };
}

/** Each named function of the repository's sources (not tests) that ran, with its calls, from V8's coverage. */
function calls(coverage) {
  const ran = new Map();
  for (const name of readdirSync(coverage)) {
    const { result } = JSON.parse(readFileSync(join(coverage, name), 'utf8'));
    for (const script of result) {
      if (!script.url.startsWith('file://')) continue;
      const file = relative(ROOT, fileURLToPath(script.url));
      if (!/^(core|plugins\/[^/]+)\/src\/.*\.ts$/.test(file) || file.endsWith('.generated.ts')) continue;
      for (const fn of script.functions) {
        if (!fn.functionName || fn.ranges[0].count === 0) continue;
        const key = `${file}\0${fn.functionName}`;
        ran.set(key, { file, name: fn.functionName, count: (ran.get(key)?.count ?? 0) + fn.ranges[0].count });
      }
    }
  }
  return ran;
}

/**
 * The functions the test itself called: more often than loading its file and the root hook's call for one
 * (empty) test call them.
 */
function ranFunctions(withTest, loading) {
  return [...withTest.entries()].filter(([key, fn]) => fn.count > (loading.get(key)?.count ?? 0)).map(([, fn]) => fn);
}

/** The name a function-like node is known by in V8's coverage, or undefined. */
function nameOf(node) {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText();
  if (ts.isGetAccessorDeclaration(node) && node.name) return `get ${node.name.getText()}`;
  if ((ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && ts.isVariableDeclaration(node.parent)) {
    return node.parent.name.getText();
  }
  if ((ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && ts.isPropertyAssignment(node.parent)) {
    return node.parent.name.getText();
  }
  return undefined;
}

/** The file's text with `name`'s body starting with the break, or undefined when no such function is found. */
function broken(file, name) {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  let found;
  const visit = (node) => {
    if (found) return;
    const fn = ts.isFunctionLike(node) && 'body' in node && node.body ? node : undefined;
    if (fn && nameOf(fn) === name) found = fn;
    else ts.forEachChild(node, visit);
  };
  visit(source);
  if (!found) return undefined;
  const { body } = found;
  const line = source.getLineAndCharacterOfPosition(found.getStart()).line + 1;
  if (ts.isBlock(body)) {
    const at = body.getStart() + 1;
    return { line, text: `${text.slice(0, at)} ${BREAK} ${text.slice(at)}` };
  }
  // An arrow function's expression body becomes a block that throws first.
  return {
    line,
    text: `${text.slice(0, body.getStart())}{ ${BREAK} return (${body.getText()}); }${text.slice(body.getEnd())}`,
  };
}

const tests = specFiles().slice(1).flatMap(testsOf);
process.stdout.write(`sample: ${count} of ${tests.length} tests, seed ${seed} (again: --seed ${seed})\n`);
const rows = [];
const seen = new Set();
while (rows.length < count && seen.size < tests.length) {
  const test = pick(tests);
  const key = `${test.file}\0${test.title}`;
  if (seen.has(key)) continue;
  seen.add(key);
  const coverage = mkdtempSync(join(tmpdir(), 'mira-sample-'));
  const loading = mkdtempSync(join(tmpdir(), 'mira-sample-'));
  let row;
  try {
    const before = runTest(test, coverage);
    if (before.passing !== 1 || before.failing !== 0) continue; // not one passing test alone (a hook, a skip)
    runTest(test, loading, true);
    const candidates = ranFunctions(calls(coverage), calls(loading));
    let chosen;
    for (let tries = 0; tries < 20 && !chosen && candidates.length > 0; tries += 1) {
      const fn = pick(candidates);
      const edit = broken(fn.file, fn.name);
      if (edit) chosen = { ...fn, ...edit };
    }
    if (!chosen) {
      row = { test, verdict: 'ran no function of the sources that can be found by name' };
    } else {
      const original = readFileSync(join(ROOT, chosen.file), 'utf8');
      const restore = () => writeFileSync(join(ROOT, chosen.file), original);
      const interrupted = () => {
        restore();
        process.exit(130);
      };
      process.once('SIGINT', interrupted);
      try {
        writeFileSync(join(ROOT, chosen.file), chosen.text);
        const after = runTest(test);
        row = {
          test,
          broke: `${chosen.file}:${chosen.line} ${chosen.name}`,
          verdict: after.failing > 0 ? 'failed: it can fail' : 'PASSED: it cannot fail for this break',
        };
      } finally {
        restore();
        process.removeListener('SIGINT', interrupted);
      }
    }
  } finally {
    rmSync(coverage, { recursive: true, force: true });
    rmSync(loading, { recursive: true, force: true });
  }
  rows.push(row);
  process.stdout.write(`${rows.length}. ${row.test.file}: ${row.test.title}\n   ${row.broke ?? ''} → ${row.verdict}\n`);
}
const failed = rows.filter((r) => r.verdict.startsWith('failed')).length;
process.stdout.write(`sample: ${failed} of ${rows.length} tests failed on their break\n`);
process.exitCode = failed === rows.length ? 0 : 1;
