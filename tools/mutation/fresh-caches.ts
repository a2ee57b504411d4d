// Loaded first by the mutation run's mocha (tools/mutation/mocharc.cjs): a root hook that forgets the
// text rules' memos before every test. Stryker switches mutants inside one process, so a memo made by an
// earlier test (with no mutant, or another) would be read instead of the mutated code, and the mutant
// would survive untested. `npm test` does not load this file: there the memos are what they are for.
import { clearRuleCaches } from '@mira/plugin-memory-tools';

beforeEach(() => clearRuleCaches());
