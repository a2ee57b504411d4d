import { expect } from 'chai';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProfileInfo } from '@mira/core';
import type { MemoryStore } from '@mira/memory-contract';
import { SqliteMemoryStore } from '@mira/plugin-memory';
import { admit, toMatchText, type RememberProposal } from '@mira/plugin-memory-tools';
import { longerNames } from '../src/longer-names.js';

/** The longer names of `name` where it first occurs in `text`. */
const longerOf = (text: string, name: string) => {
  const start = text.indexOf(name);
  return longerNames(toMatchText(text)!, [start, start + name.length]);
};

describe('longer names: what a name may be the beginning of, at its place in the evidence', () => {
  it('takes the next words, up to three, after white space, middle dots or hyphens', () => {
    expect(longerOf('Anna Maria Luisa Rossi likes tea', 'Anna')).to.deep.equal([
      'Anna Maria',
      'Anna Maria Luisa',
      'Anna Maria Luisa Rossi',
    ]);
    expect(longerOf('Anna  Maria likes tea', 'Anna')).to.deep.equal([
      'Anna  Maria',
      'Anna  Maria likes',
      'Anna  Maria likes tea',
    ]);
    expect(longerOf('Jean-Paul Sartre writes', 'Jean')).to.deep.equal([
      'Jean-Paul',
      'Jean-Paul Sartre',
      'Jean-Paul Sartre writes',
    ]);
    expect(longerOf('トム・ハンクス が好き', 'トム')).to.deep.equal(['トム・ハンクス', 'トム・ハンクス が好き']);
    expect(longerOf('Ali·Baba sings', 'Ali')).to.deep.equal(['Ali·Baba', 'Ali·Baba sings']);
    // A word keeps its digits, combining marks, apostrophes and inner dots.
    expect(longerOf("Ada R2D2 O'Neil Jose\u0301 sings", 'Ada')).to.deep.equal([
      'Ada R2D2',
      "Ada R2D2 O'Neil",
      `Ada R2D2 O'Neil Jose\u0301`,
    ]);
  });

  it('takes nothing after a comma or another mark that is no separator', () => {
    expect(longerOf('Anna, Maria likes tea', 'Anna')).to.deep.equal([]);
    expect(longerOf('Anna (Maria) likes tea', 'Anna')).to.deep.equal([]);
    expect(longerOf('Anna', 'Anna')).to.deep.equal([]);
    // Nor from inside a character (a span never ends there; the text after it reads as no letter).
    expect(longerNames(toMatchText('A𝒜bc de')!, [0, 2])).to.deep.equal([]);
  });

  it('takes each of the next letters of the word a name ends inside, up to eight, then the words after it', () => {
    expect(longerOf('박지훈은 녹차를 좋아해요', '박지')).to.deep.equal([
      '박지훈',
      '박지훈은',
      '박지훈은 녹차를',
      '박지훈은 녹차를 좋아해요',
    ]);
    expect(longerOf('Abcdefghijklm likes tea', 'Ab')).to.deep.equal([
      'Abc',
      'Abcd',
      'Abcde',
      'Abcdef',
      'Abcdefg',
      'Abcdefgh',
      'Abcdefghi',
      'Abcdefghij',
      'Abcdefghijklm likes',
      'Abcdefghijklm likes tea',
    ]);
    // A letter with its combining mark and a digit are letters of the word; a space is not.
    expect(longerOf('Jose\u0301 likes', 'Jos')).to.deep.equal(['Jose', 'Jose\u0301', 'Jose\u0301 likes']);
    expect(longerOf('R2D2 beeps', 'R2')).to.deep.equal(['R2D', 'R2D2', 'R2D2 beeps']);
    // A character past U+FFFF is one letter.
    expect(longerOf('田中𠮷郎 likes', '田中')).to.deep.equal(['田中𠮷', '田中𠮷郎', '田中𠮷郎 likes']);
  });
});

describe('remember asks the store for the name and each longer name, and no more', () => {
  const profile: ProfileInfo = { name: 'Mira', description: '', manifestPath: '/x/profile.toml', dir: '/x' };
  let dir: string;
  let store: SqliteMemoryStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mira-longer-'));
    store = SqliteMemoryStore.open(join(dir, 'memory.sqlite3'));
    await store.createEntity({ entityType: 'person', canonicalName: 'Anna' });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The store, recording the names each named slot read asks for. */
  const recording = (asked: string[][]): MemoryStore =>
    new Proxy(store, {
      get(target, property, receiver) {
        if (property === 'findNamedSlot')
          return (names: string[], role: string, predicate: string) => {
            asked.push([...names]);
            return target.findNamedSlot(names, role, predicate);
          };
        const value = Reflect.get(target, property, receiver) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  const fact = (evidence: string, value: string): RememberProposal => ({
    kind: 'fact',
    subject: 'Anna',
    predicate: 'likes',
    value,
    evidence,
    related_entity: null,
    related_role: null,
  });

  it('reads the name with its longer names in one read, and admits when none is another entity', async () => {
    const asked: string[][] = [];
    const result = await admit(
      recording(asked),
      profile,
      'Anna likes green tea.',
      fact('Anna likes green tea', 'green tea'),
    );
    expect(result).to.deep.include({ status: 'applied', outcome: 'created' });
    expect(asked).to.deep.equal([['Anna', 'Anna likes', 'Anna likes green', 'Anna likes green tea']]);
  });

  it('leaves out a longer name longer than any name can be, and what follows it', async () => {
    // U+FB03 (ﬃ) is one letter that NFKC writes as three: the word after Anna makes a name of 257
    // characters in its matching form, while the evidence's 267 are within its bound.
    const evidence = `Anna ${'\uFB03'.repeat(84)} likes tea`;
    const asked: string[][] = [];
    const result = await admit(recording(asked), profile, `${evidence}.`, fact(evidence, 'tea'));
    expect(result).to.deep.include({ status: 'applied', outcome: 'created' });
    expect(asked).to.deep.equal([['Anna']]);
    // The longer names that fit before the first that does not are asked; past ASCII, all of them when the
    // longest fits.
    const partly = `Anna Maria ${'\uFB03'.repeat(84)} likes tea`;
    asked.length = 0;
    await admit(recording(asked), profile, `${partly}.`, fact(partly, 'tea'));
    expect(asked).to.deep.equal([['Anna', 'Anna Maria']]);
    const accented = 'Anna Maria Lúcia likes tea';
    asked.length = 0;
    await admit(recording(asked), profile, `${accented}.`, fact(accented, 'tea'));
    expect(asked).to.deep.equal([['Anna', 'Anna Maria', 'Anna Maria Lúcia', 'Anna Maria Lúcia likes']]);
  });

  it('never finds a shorter matching form for a text with more added to it (so the longest name decides)', () => {
    const units = [
      'a',
      'B',
      ' ',
      'é',
      'e',
      '\u0301',
      'ß',
      'ﬃ',
      'ᄀ',
      'ᅡ',
      'ᆨ',
      'ｶ',
      'ﾞ',
      '\u3099',
      'か',
      '㍿',
      'ﷺ',
      '\t',
      '.',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...units), { minLength: 1, maxLength: 16 }), (parts) => {
        let previous = 0;
        for (let n = 1; n <= parts.length; n += 1) {
          const form = toMatchText(parts.slice(0, n).join(''))!.form;
          const length = [...form].length;
          expect(length, JSON.stringify(parts.slice(0, n).join(''))).to.be.at.least(previous);
          previous = length;
        }
      }),
      { numRuns: 3000 },
    );
  });
});
