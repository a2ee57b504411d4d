// `npm run bench`: every benchmark, each reporting ratios against a baseline measured in the same run.
// A benchmark that fails is reported and the rest still run; the run then exits 1.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { admissionBench } from './admission.bench.js';
import { startupBench } from './startup.bench.js';
import { assertionBench } from './assertion.bench.js';
import { attributionBench } from './attribution.bench.js';
import { cognitionBench } from './cognition.bench.js';
import { duplicatesBench } from './duplicates.bench.js';
import { mindViewBench } from './mind-view.bench.js';
import { filtersBench } from './filters.bench.js';
import { hardwareBench } from './hardware.bench.js';
import { lookBench } from './look.bench.js';
import { keysBench } from './keys.bench.js';
import { notesBench } from './notes.bench.js';
import { safetyBench } from './safety.bench.js';
import { searchQualityBench } from './search-quality.bench.js';
import { vectorScaleBench } from './vector-scale.bench.js';
import { fleetBench } from './fleet.bench.js';
import { storeBench } from './store.bench.js';
import { objectsBench } from './objects.bench.js';
import { transferBench } from './transfer.bench.js';
import { BENCHES } from './lib/benches.js';

const USAGE = `Usage: npm run bench -- [--quick | --smoke] [--only=<name>]

Runs Mira's benchmarks; each reports ratios against a baseline measured in the same run and writes
bench/results/<name>.{md,json,svg}.

  --quick         smaller sizes (a 100,000-memory database instead of 1,000,000), for a fast look
  --smoke         tiny sizes, figures meaningless: proves every benchmark still runs (npm test does);
                  results go to a temporary directory (or MIRA_BENCH_RESULTS), never bench/results
  --only=<name>   one benchmark: ${BENCHES.join(', ')}
  --help          this text
`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const unknown = args.filter((a) => a !== '--quick' && a !== '--smoke' && !a.startsWith('--only='));
const smoke = args.includes('--smoke');
const quick = args.includes('--quick') || smoke;
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length);
if (unknown.length > 0 || (only !== undefined && !(BENCHES as readonly string[]).includes(only))) {
  process.stderr.write(
    `bench: ${unknown.length > 0 ? `unknown option ${unknown[0]}` : `no benchmark "${only}"`}\n${USAGE}`,
  );
  process.exit(2);
}
const log = (m: string) => process.stderr.write(`bench: ${m}\n`);
if (smoke && !process.env.MIRA_BENCH_RESULTS) {
  // A smoke run's figures mean nothing: they never replace the committed results.
  process.env.MIRA_BENCH_RESULTS = mkdtempSync(join(tmpdir(), 'mira-bench-smoke-'));
  log(`smoke run: results in ${process.env.MIRA_BENCH_RESULTS}`);
}
const big = smoke
  ? { entities: 200, memories: 2_000 }
  : quick
    ? { entities: 10_000, memories: 100_000 }
    : { entities: 100_000, memories: 1_000_000 };
const small = smoke ? { entities: 100, memories: 1_000 } : { entities: 1_000, memories: 10_000 };

const fullRuns: Record<(typeof BENCHES)[number], () => Promise<void>> = {
  store: () => storeBench({ big, small, lookups: quick ? 2000 : 5000, creates: 300, log }),
  cognition: () =>
    cognitionBench({ big, episodes: quick ? 200 : 500, recalls: quick ? 2000 : 5000, turns: quick ? 20 : 60, log }),
  admission: () =>
    admissionBench({
      sizes: [
        { entities: 1_000, memories: 10_000 },
        { entities: 10_000, memories: 100_000 },
        ...(quick ? [] : [{ entities: 100_000, memories: 1_000_000 }]),
      ],
      decisions: quick ? 1000 : 4000,
      log,
    }),
  hardware: () => hardwareBench({ messages: quick ? 2000 : 10_000, log }),
  look: () => lookBench({ rounds: quick ? 8 : 20, huge: true, log }),
  notes: () =>
    notesBench({
      notes: quick ? 20_000 : 100_000,
      queries: quick ? 500 : 2000,
      fullTextSizes: quick ? [10_000, 20_000] : [10_000, 100_000],
      log,
    }),
  safety: () =>
    safetyBench({
      idleSamples: quick ? 10 : 30,
      loadedSamples: quick ? 2 : 5,
      faultSamples: quick ? 10 : 30,
      notes: 5000,
      hogSeconds: quick ? 30 : 60,
      importBytes: 28_000_000,
      log,
    }),
  assertion: () => assertionBench({ log }),
  attribution: () => attributionBench({ log }),
  keys: () => keysBench({ rounds: quick ? 300 : 1000, log }),
  duplicates: () => duplicatesBench({ notes: 5000, log }),
  'search-quality': () => searchQualityBench({ log }),
  fleet: () => fleetBench({ quick, lookups: quick ? 300 : 1000, log }),
  'vector-scale': () => vectorScaleBench({ notes: quick ? 20_000 : 100_000, queries: quick ? 100 : 300, log }),
  startup: () => startupBench({ rounds: quick ? 10 : 20, log }),
  'mind-view': () => mindViewBench({ sizes: quick ? [1000, 20_000] : [1000, 100_000], rounds: quick ? 3 : 5, log }),
  filters: () => filtersBench({ sizes: quick ? [300, 20_000] : [300, 100_000], rounds: quick ? 10 : 30, log }),
  objects: () =>
    objectsBench({ writes: quick ? 100 : 300, stored: quick ? 2000 : 10_000, recalls: quick ? 300 : 1000, log }),
  transfer: () => transferBench({ bytes: 28_000_000, rounds: quick ? 1 : 3, log }),
};

/** The same benchmarks at sizes that only prove they run. */
const smokeRuns: Record<(typeof BENCHES)[number], () => Promise<void>> = {
  ...fullRuns,
  store: () => storeBench({ big, small, lookups: 50, creates: 10, log }),
  cognition: () => cognitionBench({ big, episodes: 5, recalls: 50, turns: 4, log }),
  admission: () => admissionBench({ sizes: [small, big], decisions: 20, log }),
  hardware: () => hardwareBench({ messages: 200, log }),
  look: () => lookBench({ rounds: 1, huge: false, log }),
  notes: () => notesBench({ notes: 500, queries: 20, fullTextSizes: [200, 500], log }),
  safety: () =>
    safetyBench({
      idleSamples: 1,
      loadedSamples: 1,
      faultSamples: 1,
      notes: 200,
      hogSeconds: 6,
      importBytes: 200_000,
      log,
    }),
  keys: () => keysBench({ rounds: 5, log }),
  duplicates: () => duplicatesBench({ notes: 200, log }),
  fleet: () => fleetBench({ quick, lookups: 10, log, sizes: { small, big }, admissions: 5 }),
  'vector-scale': () => vectorScaleBench({ notes: 500, queries: 5, log }),
  startup: () => startupBench({ rounds: 1, log }),
  'mind-view': () => mindViewBench({ sizes: [500], rounds: 1, log }),
  filters: () => filtersBench({ sizes: [300, 500], rounds: 2, log }),
  objects: () => objectsBench({ writes: 5, stored: 20, recalls: 5, log }),
  transfer: () => transferBench({ bytes: 300_000, rounds: 1, log }),
};
const runs = smoke ? smokeRuns : fullRuns;

const failed: string[] = [];
for (const name of BENCHES) {
  if (only && only !== name) continue;
  try {
    await runs[name]();
  } catch (error) {
    failed.push(name);
    log(`${name} failed: ${(error as Error).stack ?? String(error)}`);
  }
}
if (failed.length > 0) {
  log(`failed: ${failed.join(', ')}`);
  process.exit(1);
}
