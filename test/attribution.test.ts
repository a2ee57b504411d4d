import { expect } from 'chai';
import type { MemoryStore } from '@mira/memory-contract';
import {
  CLAUSE_RULES,
  attribute,
  ENGLISH_CLAUSES,
  clauseRulesFor,
  crossesClause,
  oneSentence,
  toMatchText,
} from '@mira/plugin-memory-tools';
import { ATTRIBUTION_CORPUS, admitted, scoreAttribution } from './fixtures/attribution-corpus.js';
import { modelRuntime, toolMessages, type ModelRuntime } from './helpers/model-runtime.js';

describe('clause attribution on a labelled corpus', () => {
  it('has at least 150 cases in at least four languages, values that belong and values that do not', () => {
    expect(ATTRIBUTION_CORPUS.length).to.be.at.least(150);
    const languages = new Set(ATTRIBUTION_CORPUS.map((c) => c.language));
    expect(languages.size).to.be.at.least(4);
    for (const language of ['en', 'de', 'fr', 'es'])
      for (const admit of [true, false])
        expect(
          ATTRIBUTION_CORPUS.filter((c) => c.language === language && c.admit === admit).length,
          `${language} ${admit}`,
        ).to.be.at.least(8);
  });

  it('wrongly admits nothing and wrongly refuses at most 5 %', () => {
    const { wronglyAdmitted, wronglyRefused } = scoreAttribution();
    expect(wronglyAdmitted).to.deep.equal([]);
    expect(wronglyRefused.length / ATTRIBUTION_CORPUS.length, wronglyRefused.join('\n')).to.be.at.most(0.05);
  });

  it('recognises the language of the evidence by its words, English on a tie', () => {
    expect(clauseRulesFor('Anna trinkt Tee und Ben trinkt Kaffee')).to.equal(CLAUSE_RULES.de);
    expect(clauseRulesFor('Alice aime le thé et Bruno aime le café')).to.equal(CLAUSE_RULES.fr);
    expect(clauseRulesFor('Ana bebe té y Bruno bebe café')).to.equal(CLAUSE_RULES.es);
    expect(clauseRulesFor('Alice likes tea and Bob likes coffee')).to.equal(CLAUSE_RULES.en);
    // Script first: kana is Japanese, Han without kana Chinese, Hangul Korean.
    expect(clauseRulesFor('アリスは紅茶が好き')).to.equal(CLAUSE_RULES.ja);
    expect(clauseRulesFor('爱丽丝喜欢红茶')).to.equal(CLAUSE_RULES.zh);
    expect(clauseRulesFor('민수는 커피를 좋아한다')).to.equal(CLAUSE_RULES.ko);
  });

  it('finds a clause boundary by punctuation, clause words, or a complementizer before a name', () => {
    const crosses = (between: string) => crossesClause(between, ENGLISH_CLAUSES);
    expect(crosses(' likes ')).to.equal(false);
    expect(crosses(', my sister, likes ')).to.equal(false);
    expect(crosses(' (our neighbour) plays ')).to.equal(false);
    expect(crosses(' likes tea, Bob likes ')).to.equal(true);
    expect(crosses(' met Bob who likes ')).to.equal(true);
    expect(crosses(' knows that Bob likes ')).to.equal(true);
    expect(crosses(' knows that he likes ')).to.equal(true);
    expect(crosses(' likes that ')).to.equal(false);
    expect(crosses(' lives in Paris; Bob lives in ')).to.equal(true);
    expect(crosses('は紅茶が好きで、ボブは')).to.equal(true);
  });

  it('takes one sentence, with abbreviations, initials and decimals, for one', () => {
    const one = (text: string) => oneSentence(toMatchText(text)!);
    expect(one('Alice likes tea.')).to.equal(true);
    expect(one('Dr. Patel works nights')).to.equal(true);
    expect(one('J. R. Smith owns a boat')).to.equal(true);
    expect(one('Henry drinks 2.5 litres')).to.equal(true);
    expect(one('Alice likes tea. Bob likes coffee')).to.equal(false);
    expect(one('Is Erin in? Erin owns a bike')).to.equal(false);
    expect(one('Bob works in Lyon; Carol works in Nice')).to.equal(false);
    expect(one('アリスは紅茶が好き。ボブはコーヒーが好き')).to.equal(false);
  });

  it('takes each kind of closed aside for one, and each clause mark for a boundary', () => {
    const crosses = (between: string) => crossesClause(between, ENGLISH_CLAUSES);
    for (const aside of [', my sister, ', ' (my sister) ', ' — my sister — ', ' – my sister – ', '、姉、', '，姉，'])
      expect(crosses(`${aside}likes `), aside).to.equal(false);
    for (const mark of [',', ';', ':', '—', '–', '、', '，', '；', '：', ' - ', '.', '!', '?', '。', '！', '？'])
      expect(crosses(` likes tea${mark} Bob likes `), mark).to.equal(true);
    // A complementizer ends the text: nothing follows it to open a clause.
    expect(crosses(' knows that ')).to.equal(false);
    expect(crosses(' likes that old ')).to.equal(false);
    for (const word of ['and', 'but', 'or', 'because', 'although', 'while', 'who', 'whom', 'whose', 'which', 'where'])
      expect(crosses(` met Bob ${word} likes `), word).to.equal(true);
  });

  it('ends a sentence at every terminator but an initial, an abbreviation or a decimal point', () => {
    const one = (text: string) => oneSentence(toMatchText(text)!);
    for (const end of ['.', '!', '?', ';', '。', '！', '？', '；'])
      expect(one(`Alice likes tea${end} Bob likes coffee`), end).to.equal(false);
    for (const end of ['.', '!', '?', '。', '！', '？']) expect(one(`Alice likes tea${end}`), end).to.equal(true);
    expect(one('Mrs. Smith drinks tea')).to.equal(true);
    expect(one('Alice drinks tea no. 5 daily')).to.equal(true);
    expect(one('Henry drinks 2.5 litres')).to.equal(true);
    expect(one('Version 2. 5 people came')).to.equal(false);
    expect(one('Alice left at 5. Bob stayed')).to.equal(false);
    expect(one('Alice is here. Bob is too')).to.equal(false);
  });

  it('joins a second subject only with "and", right after the first, before a name or a pronoun', () => {
    const admits = (evidence: string, subject: string, value: string) =>
      admitted({ language: 'en', category: 'unit', evidence, subject, value, admit: true });
    expect(admits('Alice and Bob like tea', 'Alice', 'tea')).to.equal(true);
    expect(admits('Alice and I like tea', 'Alice', 'tea')).to.equal(true);
    expect(admits('Alice and friends like tea', 'Alice', 'tea')).to.equal(false);
    expect(admits('Alice or Bob likes tea', 'Alice', 'tea')).to.equal(false);
    expect(admits('Alice likes Bob and Carol likes tea', 'Alice', 'tea')).to.equal(false);
    expect(admits('Anna und Ben trinken Tee', 'Anna', 'Tee')).to.equal(true);
    expect(admits('Alice et Bruno aiment le thé', 'Alice', 'le thé')).to.equal(true);
    expect(admits('Ana y Bruno beben té', 'Ana', 'té')).to.equal(true);
    // The value before the subject: what stands between them decides the same way.
    expect(admits('Tea is what Alice likes', 'Alice', 'Tea')).to.equal(true);
    expect(admits('Tea is what Bob likes and Alice likes coffee', 'Alice', 'Tea')).to.equal(false);
    // A value inside the subject's own span (or the reverse) has nothing between them.
    expect(admits('Alice Springs is hot', 'Alice Springs', 'Springs')).to.equal(true);
  });

  it('chooses English on a tie and for text with no marker words', () => {
    expect(clauseRulesFor('Tee')).to.equal(ENGLISH_CLAUSES);
    expect(clauseRulesFor('')).to.equal(ENGLISH_CLAUSES);
    expect(clauseRulesFor('Alice und the')).to.equal(ENGLISH_CLAUSES);
    expect(clauseRulesFor('Anna und Ben trinken')).to.equal(CLAUSE_RULES.de);
  });

  it('scores every case it lists (each subject and value is in its evidence)', () => {
    for (const entry of ATTRIBUTION_CORPUS) expect(() => admitted(entry), entry.evidence).to.not.throw();
  });
});

describe('the value belongs to the subject’s own clause (real episodes, SDK, SQLite)', function () {
  this.timeout(20_000);
  let m: ModelRuntime;
  let store: MemoryStore;
  beforeEach(async () => {
    m = await modelRuntime();
    store = m.store();
    for (const name of ['Alice', 'Bob', 'Mira'])
      await store.createEntity({ entityType: name === 'Mira' ? 'robot' : 'person', canonicalName: name });
  });
  afterEach(() => m.dispose());

  const call = async (tool: string, utterance: string, args: Record<string, unknown>) => {
    const first = m.server.requests.length;
    m.server.push({ toolCalls: [{ name: tool, arguments: args }] }, { text: 'OK.' });
    await m.say(utterance);
    return JSON.parse(toolMessages(m.server, first + 1)[0]!) as Record<string, unknown>;
  };
  const remember = (utterance: string, subject: string, predicate: string, value: string, evidence: string) =>
    call('remember', utterance, {
      kind: 'preference',
      subject,
      predicate,
      value,
      evidence,
      related_entity: null,
      related_role: null,
    });

  for (const [utterance, subject, predicate, value] of [
    ['Alice likes tea and Bob likes coffee', 'Alice', 'likes', 'coffee'],
    ['Alice met Bob, who likes chess', 'Alice', 'likes', 'chess'],
    ['Thank you, Alice prefers green tea', 'you', 'prefers', 'green tea'],
  ] as const) {
    it(`refuses ${JSON.stringify(utterance)} for ${subject} = ${value} as subject_not_supported, writing nothing`, async () => {
      const before = m.snapshot();
      expect(await remember(utterance, subject, predicate, value, utterance)).to.deep.equal({
        status: 'rejected',
        reason: 'subject_not_supported',
        error:
          "the value is in another clause than the subject (a comma, 'and', 'who'… stands between them), so it may be someone else's; nothing was written",
      });
      expect(m.snapshot()).to.deep.equal(before);
    });
  }

  it('admits the value of the subject’s own clause in the same utterance', async () => {
    expect(
      await remember(
        'Alice likes tea and Bob likes coffee',
        'Bob',
        'likes',
        'coffee',
        'Alice likes tea and Bob likes coffee',
      ),
    ).to.deep.include({ status: 'applied', outcome: 'created' });
    expect(
      await remember('Thank you, Alice prefers green tea', 'Alice', 'prefers', 'green tea', 'Alice prefers green tea'),
    ).to.deep.include({
      status: 'applied',
    });
  });

  it('refuses evidence of two sentences as invalid_proposal, saying why', async () => {
    const before = m.snapshot();
    expect(
      await remember(
        'Alice likes tea. Bob likes coffee.',
        'Alice',
        'likes',
        'tea',
        'Alice likes tea. Bob likes coffee',
      ),
    ).to.deep.equal({
      status: 'rejected',
      reason: 'invalid_proposal',
      error:
        'the evidence holds more than one sentence; copy the one clause that states it, verbatim; nothing was written',
    });
    expect(m.snapshot()).to.deep.equal(before);
  });

  it('holds propose_supersede and propose_entity to the same clause and sentence rules', async () => {
    await store.createMemory({
      kind: 'preference',
      summary: 'Alice prefers tea',
      predicate: 'prefers',
      value: 'tea',
      sourceKind: 'console',
      links: [{ entityId: 1, role: 'subject' }],
    });
    const before = m.snapshot();
    expect(
      await call('propose_supersede', 'Alice met Bob, who prefers coffee now.', {
        memory_id: 'MEM1',
        value: 'coffee',
        evidence: 'Alice met Bob, who prefers coffee now',
      }),
    ).to.deep.include({ status: 'rejected', reason: 'subject_not_supported' });
    expect(
      await call('propose_entity', 'Meet Carol. Carol is our new nurse.', {
        entity_type: 'person',
        name: 'Carol',
        evidence: 'Meet Carol. Carol is our new nurse',
      }),
    ).to.deep.include({ status: 'rejected', reason: 'invalid_proposal' });
    expect(m.snapshot()).to.deep.equal(before);
  });
});

describe('clause attribution, rule by rule (what the corpus does not pin down)', () => {
  const text = (s: string) => toMatchText(s)!;
  /** Whether `value` is attributed to `subject` in `evidence` (their first occurrences). */
  const attributed = (evidence: string, subject: string, value: string) => {
    const s = evidence.indexOf(subject);
    const v = evidence.indexOf(value);
    return attribute(text(evidence), [[s, s + subject.length]], [[v, v + value.length]]);
  };

  it('is one sentence across decimals, initials, abbreviations and a closing mark', () => {
    for (const evidence of [
      'Ada weighs 2.5 kg',
      'Dr. Ada likes tea',
      'J. Ada likes tea',
      'Ada likes tea.',
      'Ada likes tea!?',
      'Ada likes tea.  ',
      'Ada likes e.g. tea',
    ]) {
      expect(oneSentence(text(evidence)), evidence).to.equal(true);
    }
    for (const evidence of [
      'Ada likes tea. Bob likes coffee',
      'Ada likes tea! Bob too',
      'Ada likes tea; Bob coffee',
      'Ada is 2. Bob is 3',
    ]) {
      expect(oneSentence(text(evidence)), evidence).to.equal(false);
    }
  });

  it('passes over a parenthesis closed before the value, of every kind, and stops at an open one', () => {
    expect(attributed('Ada, my sister, likes tea', 'Ada', 'tea')).to.equal(undefined);
    expect(attributed('Ada (my sister) likes tea', 'Ada', 'tea')).to.equal(undefined);
    expect(attributed('Ada — my sister — likes tea', 'Ada', 'tea')).to.equal(undefined);
    expect(attributed('Ada – my sister – likes tea', 'Ada', 'tea')).to.equal(undefined);
    expect(attributed('Ada、my sister、likes tea', 'Ada', 'tea')).to.equal(undefined);
    expect(attributed('Ada，my sister，likes tea', 'Ada', 'tea')).to.equal(undefined);
    expect(attributed('Ada, my sister likes tea', 'Ada', 'tea')).to.equal('subject_not_supported');
    expect(attributed('Ada (my sister likes tea', 'Ada', 'tea')).to.equal(undefined);
    expect(attributed('Ada — my sister likes tea', 'Ada', 'tea')).to.equal('subject_not_supported');
  });

  it('reads a complementizer as a clause only before a name or a pronoun', () => {
    expect(attributed('Ada knows that Bob likes chess', 'Ada', 'chess')).to.equal('subject_not_supported');
    expect(attributed('Ada knows that he likes chess', 'Ada', 'chess')).to.equal('subject_not_supported');
    expect(attributed('Ada likes that tea', 'Ada', 'tea')).to.equal(undefined);
    expect(attributed('Ada likes tea that', 'Ada', 'tea')).to.equal(undefined);
    expect(crossesClause(' knows that', ENGLISH_CLAUSES)).to.equal(false);
    expect(crossesClause(' knows that Bob ', ENGLISH_CLAUSES)).to.equal(true);
  });

  it('takes overlapping spans as one clause, and the value before the subject too', () => {
    // The value inside the subject's name and the reverse.
    expect(attributed('Tea Room is open', 'Tea Room', 'Tea')).to.equal(undefined);
    expect(attributed('Tea Room is open', 'Room', 'Tea Room')).to.equal(undefined);
    // Spans that only touch are not overlapping: what is between them (nothing) is read.
    expect(attribute(text('AdaTea'), [[0, 3]], [[3, 6]])).to.equal(undefined);
    // The value first: "tea, Ada likes" crosses a comma; "tea Ada likes" does not.
    expect(attributed('Green tea Ada likes', 'Ada', 'Green tea')).to.equal(undefined);
    expect(attributed('Green tea, and Ada likes', 'Ada', 'Green tea')).to.equal('subject_not_supported');
  });

  it('lets a second subject coordinated with the first share the clause, but not a clause of its own', () => {
    expect(attributed('Ada and Bob both like jazz', 'Ada', 'jazz')).to.equal(undefined);
    expect(attributed('Ada and she both like jazz', 'Ada', 'jazz')).to.equal(undefined);
    expect(attributed('Ada and bob both like jazz', 'Ada', 'jazz')).to.equal('subject_not_supported');
    expect(attributed('Ada likes tea and Bob likes jazz', 'Ada', 'jazz')).to.equal('subject_not_supported');
    expect(attributed('Ada or Bob likes jazz', 'Ada', 'jazz')).to.equal('subject_not_supported');
    expect(attributed("Ada and O'Brien like jazz", 'Ada', 'jazz')).to.equal(undefined);
  });
  it('ends a sentence at a run of marks only with more text after it, and at every mark the same way', () => {
    for (const evidence of ['Ada likes tea!!!', 'Ada likes tea?!.', 'Ada likes tea!?  ', 'Ada likes tea…']) {
      expect(oneSentence(text(evidence)), evidence).to.equal(true);
    }
    // An initial's and an abbreviation's exemption is the period's alone.
    expect(oneSentence(text('Plan B; Bob likes tea'))).to.equal(false);
    expect(oneSentence(text('Ask Dr! Bob likes tea'))).to.equal(false);
    // A decimal point has a digit right before it, not somewhere before.
    expect(oneSentence(text('Ada has 2 cats.3 dogs live here'))).to.equal(false);
  });

  it("reads a French elision with either apostrophe (qu', qu’) as the relative it is", () => {
    expect(crossesClause(" qu'", CLAUSE_RULES.fr!)).to.equal(true);
    expect(crossesClause(' qu’', CLAUSE_RULES.fr!)).to.equal(true);
  });

  it('passes over a parenthesis with commas inside, and keeps the words around an aside apart', () => {
    expect(attributed('Ada (my sister, who is 30) likes tea', 'Ada', 'tea')).to.equal(undefined);
    expect(crossesClause(' so(see above)he likes ', ENGLISH_CLAUSES)).to.equal(true);
  });

  it('takes a capital only at the start of the word after a complementizer or a coordinator', () => {
    expect(crossesClause(' likes that iPhone ', ENGLISH_CLAUSES)).to.equal(false);
    expect(attributed('Ada and iRobot both like jazz', 'Ada', 'jazz')).to.equal('subject_not_supported');
  });

  it('reads only what stands between a value before the subject and the subject', () => {
    expect(attributed('Green tea Ada likes best, by far', 'Ada', 'Green tea')).to.equal(undefined);
  });

  it('attributes when any occurrence of the subject has any occurrence of the value in its clause', () => {
    const evidence = 'Ada likes tea and Bob likes tea';
    // Ada's tea, and the second "tea" (Bob's): one pair in one clause is enough, in either list's order.
    expect(
      attribute(
        text(evidence),
        [[0, 3]],
        [
          [10, 13],
          [28, 31],
        ],
      ),
    ).to.equal(undefined);
    expect(
      attribute(
        text(evidence),
        [[0, 3]],
        [
          [28, 31],
          [10, 13],
        ],
      ),
    ).to.equal(undefined);
    const twice = 'Ada likes tea, Ada says';
    expect(
      attribute(
        text(twice),
        [
          [15, 18],
          [0, 3],
        ],
        [[10, 13]],
      ),
    ).to.equal(undefined);
  });

  it('reads a coordinated second subject after any white space, and only right after the subject', () => {
    expect(attributed('Ada  and Bob both like jazz', 'Ada', 'jazz')).to.equal(undefined);
    expect(attributed('Ada and  Bob both like jazz', 'Ada', 'jazz')).to.equal(undefined);
    expect(attributed('Ada, and Bob likes coffee', 'Ada', 'coffee')).to.equal('subject_not_supported');
  });
});
