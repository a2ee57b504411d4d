import { expect } from 'chai';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProfileInfo } from '@mira/core';
import { SqliteMemoryStore } from '@mira/plugin-memory';
import { admit, findWholeSpan, toMatchText } from '@mira/plugin-memory-tools';

const WORDS = [
  'Alice',
  'alice',
  'Bob',
  'tea',
  'TEA',
  'coffee',
  'prefers',
  'likes',
  'the',
  'green',
  'art',
  'cartography',
  'and',
  'Carol',
];
const profile: ProfileInfo = { name: 'Mira', description: '', manifestPath: '/x/profile.toml', dir: '/x' };

/** Oracle: does `needle` occur as a contiguous run of whole words in `hay` (case-insensitively)? */
function occurs(hay: string[], needle: string[]): boolean {
  if (needle.length === 0) return false;
  const h = hay.map((w) => w.toLowerCase());
  const n = needle.map((w) => w.toLowerCase());
  for (let i = 0; i + n.length <= h.length; i += 1) if (n.every((w, j) => h[i + j] === w)) return true;
  return false;
}

/** Where `needle` occurs as whole words in `hay` (case-insensitively): each start index. */
function starts(hay: string[], needle: string[]): number[] {
  const h = hay.map((w) => w.toLowerCase());
  const n = needle.map((w) => w.toLowerCase());
  const found: number[] = [];
  for (let i = 0; i + n.length <= h.length; i += 1) if (n.every((w, j) => h[i + j] === w)) found.push(i);
  return found;
}

/**
 * Oracle of the clause rule over this vocabulary, where "and" is the one clause word: some occurrence of the
 * subject and of the value have no "and" between them, unless it joins a second, capitalised subject right
 * after the first ("Alice and Bob likes tea"); a subject after "the" and one word takes no value after it.
 */
function sameClause(evidence: string[], subject: string, value: string[]): boolean {
  return starts(evidence, [subject]).some((s) =>
    starts(evidence, value).some((v) => {
      if (v <= s && s < v + value.length) return true;
      if (v + value.length <= s) return !evidence.slice(v + value.length, s).includes('and');
      // "the <word> Alice …": a name after an article and a word is a modifier ("the Miller house"), not the
      // subject of what follows (English `possessorBefore`).
      if (s >= 2 && evidence[s - 2]!.toLowerCase() === 'the') return false;
      let between = evidence.slice(s + 1, v);
      if (between[0] === 'and' && between.length >= 2 && /^\p{Lu}/u.test(between[1]!)) between = between.slice(2);
      return !between.includes('and');
    }),
  );
}

const words = (min: number, max: number) => fc.array(fc.constantFrom(...WORDS), { minLength: min, maxLength: max });
const slice = (source: string[]) =>
  fc.tuple(fc.nat(), fc.nat()).map(([a, b]) => {
    const start = a % source.length;
    return source.slice(start, start + 1 + (b % (source.length - start)));
  });

describe('admit() property (real SQLite file)', function () {
  this.timeout(60_000);
  let dir: string;
  let store: SqliteMemoryStore;
  let predicate = 0;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mira-admit-'));
    store = SqliteMemoryStore.open(join(dir, 'memory.sqlite3'));
    await store.createEntity({ entityType: 'person', canonicalName: 'Alice' });
    await store.createEntity({ entityType: 'person', canonicalName: 'Bob' });
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes a row only when evidence ⊆ utterance, value ⊆ evidence, subject ⊆ evidence, in one clause; rejections change nothing', async () => {
    const outcomes = { written: 0, rejected: 0 };
    // Utterances often name a known entity, and proposals often copy from them, so both outcomes are common.
    const utteranceArb = fc
      .tuple(words(0, 3), fc.constantFrom('Alice', 'alice', 'ALICE', 'Bob', 'Carol'), words(0, 4))
      .map(([a, who, b]) => [...a, who, ...b]);
    const scenario = utteranceArb.chain((utterance) =>
      fc.record({
        utterance: fc.constant(utterance),
        evidence: fc.oneof({ arbitrary: slice(utterance), weight: 4 }, { arbitrary: words(1, 4), weight: 1 }),
        pickValue: fc.oneof({ arbitrary: fc.constant(true), weight: 4 }, { arbitrary: fc.constant(false), weight: 1 }),
        randomValue: words(1, 2),
        subject: fc.oneof(
          { arbitrary: fc.constant('Alice'), weight: 4 },
          { arbitrary: fc.constant('Bob'), weight: 2 },
          { arbitrary: fc.constantFrom('Carol', 'tea'), weight: 1 },
        ),
        kind: fc.constantFrom('fact' as const, 'preference' as const),
        valueSeed: fc.tuple(fc.nat(), fc.nat()),
      }),
    );
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const value =
          s.pickValue && s.evidence.length > 0
            ? s.evidence.slice(
                s.valueSeed[0] % s.evidence.length,
                (s.valueSeed[0] % s.evidence.length) + 1 + (s.valueSeed[1] % 2),
              )
            : s.randomValue;
        predicate += 1;
        const before = await store.info();
        const result = await admit(store, profile, s.utterance.join(' '), {
          kind: s.kind,
          subject: s.subject,
          predicate: `p${predicate}`,
          value: value.join(' '),
          evidence: s.evidence.join(' '),
          related_entity: null,
          related_role: null,
        });
        const after = await store.info();
        const grounded =
          occurs(s.utterance, s.evidence) &&
          occurs(s.evidence, value) &&
          occurs(s.evidence, [s.subject]) &&
          (s.subject === 'Alice' || s.subject === 'Bob') &&
          sameClause(s.evidence, s.subject, value);
        outcomes[grounded ? 'written' : 'rejected'] += 1;
        if (grounded) {
          expect(result).to.deep.include({ status: 'applied', outcome: 'created' });
          expect(after.memories).to.equal(before.memories + 1);
          expect(after.payloads).to.equal(before.payloads + 1);
        } else {
          expect(result.status).to.equal('rejected');
          expect(after).to.deep.equal(before);
        }
      }),
      { numRuns: 300 },
    );
    // Both branches must really be exercised, or the property proves little.
    expect(outcomes.written).to.be.greaterThan(25);
    expect(outcomes.rejected).to.be.greaterThan(30);
  });
});

describe('findWholeSpan()', () => {
  const find = (hay: string, needle: string) => findWholeSpan(toMatchText(hay)!, toMatchText(needle)!);

  it('maps a match back to the original characters', () => {
    expect(find('Hello ＡＬＩＣＥ  prefers tea!', 'alice prefers tea')).to.deep.equal([6, 24]);
  });

  it('refuses a match that starts or ends inside a word', () => {
    expect(find('cartography', 'art')).to.equal(undefined);
    expect(find('art, cartography', 'art')).to.deep.equal([0, 3]);
    expect(find('teapot', 'tea')).to.equal(undefined);
  });

  it('refuses a match that covers part of one original character', () => {
    expect(find('Die Straße', 'strass')).to.equal(undefined);
    expect(find('Die Straße', 'STRASSE')).to.deep.equal([4, 10]);
  });

  it('takes word boundaries in Han, Kana, Thai, Lao, Khmer and Myanmar from ICU (Intl.Segmenter)', () => {
    expect(find('我喜欢喝红茶', '红茶')).to.deep.equal([4, 6]);
    expect(find('ฉันชอบชา', 'ชา')).to.not.equal(undefined);
    expect(find('ລາວມັກກາເຟ', 'ກາເຟ')).to.not.equal(undefined);
    expect(find('アリスは紅茶', 'アリス')).to.deep.equal([0, 3]);
    expect(find('アリスは紅茶', '紅茶')).to.deep.equal([4, 6]);
    // A fragment of a word is not the word: Ali is not Alice, 紅 (red) is not 紅茶 (tea).
    expect(find('アリスは紅茶', 'アリ')).to.equal(undefined);
    expect(find('紅茶が好き', '紅')).to.equal(undefined);
    expect(find('ฉันชอบชาเย็น', 'ชาเ')).to.equal(undefined);
    // Halfwidth kana compose first: ｶﾞｽ is the word ガス.
    expect(find('田中はｶﾞｽが好き', 'ガス')).to.deep.equal([3, 6]);
    // ICU's dictionary decides, including where it joins a verb and its object (喝茶, "drink tea").
    expect(find('我喜欢喝茶', '茶')).to.equal(undefined);
  });

  it('treats text with control characters as no evidence', () => {
    expect(toMatchText('tea\u0000')).to.equal(undefined);
  });
});
