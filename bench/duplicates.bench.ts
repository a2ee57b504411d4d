// Find duplicates over 5,000 notes: MinHash/LSH (the store's method) against comparing every pair
// with the rule it replaced (word-set Jaccard ≥ 0.85), on the same notes.
import Database from 'better-sqlite3';
import { comparable } from '../plugins/notes/src/text.js';
import { nearDuplicatePairs } from '../plugins/notes/src/near-duplicates.js';
import { generate } from './notes.bench.js';
import { markdownTable, writeResults } from './lib/report.js';

export async function duplicatesBench(options: {
  readonly notes: number;
  readonly log: (m: string) => void;
}): Promise<void> {
  const path = generate(20_000, options.log);
  const db = new Database(path, { readonly: true });
  const texts = db.prepare('SELECT content FROM notes ORDER BY id LIMIT ?').pluck().all(options.notes) as string[];
  db.close();
  options.log(`duplicates: ${texts.length} notes…`);
  const forms = texts.map(comparable);
  const t0 = performance.now();
  const lsh = nearDuplicatePairs(forms);
  const lshMs = performance.now() - t0;
  const t1 = performance.now();
  const words = forms.map((f) => new Set(f.split(' ')));
  let allPairs = 0;
  for (let i = 0; i < words.length; i += 1) {
    for (let j = i + 1; j < words.length; j += 1) {
      const a = words[i]!;
      const b = words[j]!;
      let shared = 0;
      for (const w of a) if (b.has(w)) shared += 1;
      if (forms[i] === forms[j] || shared / (a.size + b.size - shared) >= 0.85) allPairs += 1;
    }
  }
  const allMs = performance.now() - t1;
  const rows = [
    {
      method: 'MinHash/LSH (store)',
      notes: texts.length,
      ms: lshMs.toFixed(0),
      pairs: lsh.length,
      'ratio to all pairs': (lshMs / allMs).toFixed(3),
    },
    {
      method: 'every pair, word Jaccard (before)',
      notes: texts.length,
      ms: allMs.toFixed(0),
      pairs: allPairs,
      'ratio to all pairs': '1.000',
    },
  ];
  const md = [
    '# Find duplicates',
    '',
    `${texts.length} notes of the notes benchmark corpus. Target: the store's method at most 1 s (${lshMs <= 1000 ? 'met' : 'MISSED'}).`,
    '',
    markdownTable(rows),
    '',
  ].join('\n');
  writeResults('duplicates', md, { rows });
  process.stdout.write(`${md}\n`);
}
