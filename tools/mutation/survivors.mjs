// Lists the mutants that survived (or had no test) in the last report, one line each:
// node tools/mutation/survivors.mjs [file-substring]
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(new URL('./reports/mutation.json', import.meta.url), 'utf8'));
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
