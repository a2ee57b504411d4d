// The Mind view's Memories tab in Chromium at 1,000 and 100,000 notes: the first page (navigation to 100
// cards and the count drawn), then a filter, a sort, the next page and a page deep in the scope, each from
// the action to the cards drawn. The server sends one page at a time (sorted, filtered, counted and paged in
// SQL), so the 100,000-note scope should cost about what the 1,000-note one does. Targets: first page ≤ 1 s
// at 100,000 notes; a filter there within 1.5× of the small scope (issue 51 says 300 notes: a filter in a
// third of 300 notes fills one page, so there is no next page to time; bench/filters.bench.ts times the
// store's part at 300).
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { createTestRuntime } from '@mira/core/testing';
import memoryPlugin from '@mira/plugin-memory';
import mindViewPlugin from '@mira/plugin-mind-view';
import notesPlugin from '@mira/plugin-notes';
import { generate } from './notes.bench.js';
import { markdownTable, writeResults } from './lib/report.js';
import { fmt, loadAverage, summarize } from './lib/stats.js';

const CHROMIUM = '/usr/bin/chromium';
/**
 * The filter typed in each round, a new one every round (the server keeps the counts of a filter it has
 * seen, so a filter typed again would time a lookup): each is in a third of the notes, in their labels.
 */
const FILTERS = ['fact', 'event', 'preference', 'act', 'vent'] as const;

async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.body.dataset.loading);
}

/** Milliseconds from `act` to the page settled with cards drawn. */
async function timed(page: Page, act: () => Promise<unknown>): Promise<bigint> {
  const start = process.hrtime.bigint();
  await act();
  await settle(page);
  await page.waitForSelector('.card');
  return process.hrtime.bigint() - start;
}

export async function mindViewBench(options: {
  readonly sizes: readonly number[];
  readonly rounds: number;
  readonly log: (m: string) => void;
}): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    options.log(`mind-view: skipped, ${CHROMIUM} is not installed (apt-get install chromium)`);
    return;
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const rows: Array<Record<string, string | number>> = [];
  const raw: Record<string, unknown> = {};
  try {
    for (const size of options.sizes) {
      const source = generate(size, options.log);
      const dir = mkdtempSync(join(tmpdir(), 'mira-bench-mind-view-'));
      copyFileSync(source, join(dir, 'notes.sqlite3'));
      const rt = await createTestRuntime({
        dir,
        plugins: [memoryPlugin, notesPlugin, mindViewPlugin],
        tables: {
          memory: { enabled: true, database_path: 'memory.sqlite3' },
          notes: { enabled: true, database_path: 'notes.sqlite3' },
          mind_view: { enabled: true, port: 0 },
        },
      });
      try {
        const { token, port } = rt.instance(mindViewPlugin).server!;
        const url = `http://127.0.0.1:${port}/?scope=default#token=${token}`;
        options.log(`mind-view: ${options.rounds} rounds at ${size} notes…`);
        const samples = { first: [] as bigint[], filter: [] as bigint[], sort: [] as bigint[], next: [] as bigint[] };
        const deep: bigint[] = [];
        for (let round = 0; round < options.rounds; round += 1) {
          const page = await (await browser.newContext()).newPage();
          samples.first.push(
            await timed(page, async () => {
              await page.goto(url);
              await page.waitForFunction(() =>
                /^\d+ of \d+ notes/.test(document.getElementById('count')!.textContent!),
              );
            }),
          );
          samples.filter.push(await timed(page, () => page.fill('#filter', FILTERS[round % FILTERS.length]!)));
          samples.sort.push(await timed(page, () => page.selectOption('#sort', 'longest')));
          samples.next.push(await timed(page, () => page.click('#next-page')));
          // Unfiltered, as deep as ten pages in (the cursor, not an offset: each page costs what the second did).
          await timed(page, () => page.fill('#filter', ''));
          for (let p = 1; p < 10 && (await page.isEnabled('#next-page')); p += 1) {
            await timed(page, () => page.click('#next-page'));
          }
          deep.push(await timed(page, () => page.click('#prev-page')));
          await page.context().close();
        }
        const stats = Object.fromEntries(Object.entries({ ...samples, deep }).map(([k, v]) => [k, summarize(v)]));
        raw[size] = stats;
        for (const [what, label] of [
          ['first', 'first page (navigation to 100 cards and the count)'],
          ['filter', `filter (${FILTERS.slice(0, options.rounds).join(', ')}: a new word each round)`],
          ['sort', 'sort by length'],
          ['next', 'next page'],
          ['deep', 'a page ten deep (unfiltered, by cursor)'],
        ] as const) {
          const s = stats[what]!;
          rows.push({ notes: size, action: label, 'p50 ms': fmt(s.p50 / 1000), 'slowest ms': fmt(s.p99 / 1000) });
        }
      } finally {
        await rt.dispose();
        rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    await browser.close();
  }
  const largest = options.sizes.at(-1)!;
  const smallest = options.sizes[0]!;
  const p50 = (size: number, what = 'first') => (raw[size] as Record<string, { p50: number }>)[what]!.p50 / 1000;
  const met = p50(largest) <= 1000;
  const filterRatio = p50(largest, 'filter') / p50(smallest, 'filter');
  const md = `# The Mind view in Chromium

The Memories tab on ${options.sizes.join(' and ')} notes (the notes benchmark's corpus, three labels), ${options.rounds}
rounds each in headless Chromium, from the action to the cards drawn. The server sends one page of 100 at a
time, sorted, filtered, counted and paged (by cursor) in SQL. Target: first page ≤ 1 s at ${largest} notes
(${met ? 'met' : 'MISSED'}: ${fmt(p50(largest))} ms p50; ${fmt(p50(largest) / p50(smallest), 2)}× the ${smallest}-note scope); a filter
there within 1.5× of the ${smallest}-note scope (${filterRatio <= 1.5 ? 'met' : 'MISSED'}: ${fmt(p50(largest, 'filter'))} ms p50, ${fmt(filterRatio, 2)}×).
Load average (1 / 5 / 15 min): ${loadAverage()}.

${markdownTable(rows)}
`;
  writeResults('mind-view', md, raw);
  process.stdout.write(`${md}\n`);
}
