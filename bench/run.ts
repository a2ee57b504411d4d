// `npm run bench`: every benchmark, each reporting ratios against a baseline measured in the same run.
//   npm run bench -- --quick         a 100,000-memory database instead of 1,000,000, for a fast look
//   npm run bench -- --only=store    one of: store, cognition, admission, hardware, notes, safety,
//                                    assertion, duplicates, search-quality, vector-scale, fleet
import { admissionBench } from './admission.bench.js';
import { assertionBench } from './assertion.bench.js';
import { cognitionBench } from './cognition.bench.js';
import { duplicatesBench } from './duplicates.bench.js';
import { hardwareBench } from './hardware.bench.js';
import { notesBench } from './notes.bench.js';
import { safetyBench } from './safety.bench.js';
import { searchQualityBench } from './search-quality.bench.js';
import { vectorScaleBench } from './vector-scale.bench.js';
import { fleetBench } from './fleet.bench.js';
import { storeBench } from './store.bench.js';

const quick = process.argv.includes('--quick');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const log = (m: string) => process.stderr.write(`bench: ${m}\n`);
const big = quick ? { entities: 10_000, memories: 100_000 } : { entities: 100_000, memories: 1_000_000 };
const small = { entities: 1_000, memories: 10_000 };

if (!only || only === 'store') await storeBench({ big, small, lookups: quick ? 2000 : 5000, creates: 300, log });
if (!only || only === 'cognition')
  await cognitionBench({ big, episodes: quick ? 200 : 500, recalls: quick ? 2000 : 5000, log });
if (!only || only === 'admission') await admissionBench({ big, decisions: quick ? 400 : 2000, log });
if (!only || only === 'hardware') await hardwareBench({ messages: quick ? 2000 : 10_000, log });
if (!only || only === 'notes') await notesBench({ notes: quick ? 20_000 : 100_000, queries: quick ? 500 : 2000, log });
if (!only || only === 'safety')
  await safetyBench({
    idleSamples: quick ? 10 : 30,
    loadedSamples: quick ? 2 : 5,
    faultSamples: quick ? 10 : 30,
    notes: 5000,
    log,
  });
if (!only || only === 'assertion') await assertionBench({ log });
if (!only || only === 'duplicates') await duplicatesBench({ notes: 5000, log });
if (!only || only === 'search-quality') await searchQualityBench({ log });
if (!only || only === 'fleet') await fleetBench({ quick, lookups: quick ? 300 : 1000, log });
if (!only || only === 'vector-scale')
  await vectorScaleBench({ notes: quick ? 20_000 : 100_000, queries: quick ? 100 : 300, log });
