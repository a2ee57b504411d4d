// Lists the mutants that survived (or had no test) in the last report, one line each:
// node tools/mutation/survivors.mjs [file-substring]
// MUTATION_REPORT names another report file (the tests point it at one that is not there).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const path = process.env.MUTATION_REPORT ?? fileURLToPath(new URL('./reports/mutation.json', import.meta.url));
if (!existsSync(path)) {
  // A fresh clone has no report: say how to make one, not Node's ENOENT stack.
  process.stderr.write(`survivors: no mutation report at ${path}; run npm run mutate first\n`);
  process.exit(1);
}
const report = JSON.parse(readFileSync(path, 'utf8'));
const only = process.argv[2];
for (const [file, { mutants, source }] of Object.entries(report.files)) {
  if (only && !file.includes(only)) continue;
  const lines = source.split('\n');
  for (const m of mutants) {
    if (m.status !== 'Survived' && m.status !== 'NoCoverage') continue;
    const { start, end } = m.location;
    const original = lines[start.line - 1].trim();
    const replaced = m.replacement ?? '';
    console.log(`${file}:${start.line}:${start.column} ${m.status} ${m.mutatorName}: ${original.slice(0, 110)}`);
    console.log(
      `    → ${replaced.replace(/\s+/g, ' ').slice(0, 140)}${end.line !== start.line ? ' (multi-line)' : ''}`,
    );
  }
}
