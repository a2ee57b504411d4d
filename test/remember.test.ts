import { expect } from 'chai';
import type { MemoryStore } from '@mira/memory-contract';
import { NOT_ASSERTED_WHY, REMEMBER_REASONS, type NotAsserted } from '@mira/plugin-memory-tools';
import { groundingOf, withoutGrounding } from '@mira/core/testing';
import { modelRuntime, toolMessages, type ModelRuntime } from './helpers/model-runtime.js';

type Proposal = {
  kind: string;
  subject: string;
  predicate: string;
  value: string;
  evidence: string;
  related_entity: string | null;
  related_role: string | null;
};

const fact = (subject: string, predicate: string, value: string, evidence: string, kind = 'fact'): Proposal => ({
  kind,
  subject,
  predicate,
  value,
  evidence,
  related_entity: null,
  related_role: null,
});
const relationship = (
  subject: string,
  predicate: string,
  related: string,
  role: string,
  evidence: string,
  value = related,
): Proposal => ({
  kind: 'relationship',
  subject,
  predicate,
  value,
  evidence,
  related_entity: related,
  related_role: role,
});

describe('remember: operator-grounded admission (real episode, SDK, scripted server, SQLite)', function () {
  this.timeout(20_000);
  let m: ModelRuntime;
  let store: MemoryStore;
  const spoken: string[] = [];

  beforeEach(async () => {
    m = await modelRuntime();
    store = m.store();
    spoken.length = 0;
    await store.createEntity({ entityType: 'person', canonicalName: 'Alice' });
    await store.createEntity({ entityType: 'person', canonicalName: 'Bob' });
    await store.createEntity({ entityType: 'robot', canonicalName: 'Mira' });
  });
  afterEach(() => m.dispose());

  /**
   * Says `utterance` in one operator turn in which the model proposes `proposal`; returns the console line
   * and the JSON result the model received.
   */
  async function propose(utterance: string, proposal: Proposal | Record<string, unknown>) {
    spoken.push(
      utterance,
      ...Object.values(proposal).filter((v): v is string => typeof v === 'string' && v.length > 3),
    );
    const first = m.server.requests.length;
    m.server.push({ toolCalls: [{ name: 'remember', arguments: proposal }] }, { text: 'Noted.' });
    const { output } = await m.say(utterance);
    const content = toolMessages(m.server, first + 1)[0]!;
    return { line: output[0]!, result: JSON.parse(content) as Record<string, unknown>, content };
  }

  /** Runs a rejected proposal and checks the database did not change. */
  async function expectRejected(
    utterance: string,
    proposal: Proposal | Record<string, unknown>,
    reason: string,
    conflicting?: string[],
  ) {
    const before = m.snapshot();
    const { line, result } = await propose(utterance, proposal);
    expect(line).to.equal(`[remember] rejected ${reason}`);
    // The whole result: a conflict lists the conflicting memories, no other rejection carries any.
    expect(result).to.deep.equal({
      status: 'rejected',
      reason,
      error: result.error,
      ...(conflicting ? { conflicting_memory_ids: conflicting } : {}),
    });
    expect(result.error)
      .to.be.a('string')
      .and.match(/^[a-z][^\n]{20,280}$/);
    // remember's own explanations (the engine's schema check words its own) say that nothing was written.
    if (reason !== 'invalid_tool_arguments') expect(result.error).to.match(/nothing was written$/);
    expect(m.snapshot()).to.deep.equal(before);
    return result;
  }

  afterEach(() => {
    // Results never echo the utterance, evidence, values or arguments.
    for (const request of m.server.requests) {
      for (const message of request.body.messages.filter((x) => x.role === 'tool')) {
        // The result as the tool gave it: the runtime's grounding block rides on the last one of a step.
        const content = withoutGrounding(message.content!);
        if (!content.startsWith('{"status"')) continue; // recall renderings are text and may quote memory
        const parsed = JSON.parse(content);
        expect(parsed.status).to.be.oneOf(['applied', 'rejected']);
        for (const text of spoken) {
          if (['Alice', 'Bob', 'Mira', 'fact', 'preference', 'relationship', 'subject'].includes(text)) continue;
          expect(content, `result echoes ${JSON.stringify(text)}`).not.to.contain(text);
        }
      }
    }
  });

  it("admits a preference stated in the current utterance, grounded in the operator's own wording", async () => {
    m.clock.advance(61_000);
    const { line, result, content } = await propose(
      'Remember that Alice prefers tea, please.',
      fact('alice', 'Prefers', 'TEA', 'alice prefers tea', 'preference'),
    );
    expect(line).to.equal('[remember] applied/created MEM1');
    expect(content).to.equal('{"status":"applied","outcome":"created","memory_id":"MEM1"}');
    expect(result).to.deep.equal({ status: 'applied', outcome: 'created', memory_id: 'MEM1' });
    const memory = (await store.getMemory(1))!;
    expect(memory).to.deep.include({
      kind: 'preference',
      summary: 'Alice prefers tea',
      predicate: 'prefers',
      value: 'tea',
      confidence: null,
      status: 'active',
    });
    expect(memory.source).to.deep.equal({ kind: 'operator_statement', label: null });
    expect(memory.createdAt).to.equal('2026-05-01T09:01:01.000Z');
    expect(memory.links.map((l) => [l.entityName, l.role])).to.deep.equal([['Alice', 'subject']]);
    expect((await store.getPayloads(1)).map((p) => [p.mediaType, p.payloadKind, p.text])).to.deep.equal([
      ['text/plain', 'inline_text', 'Alice prefers tea'],
    ]);
    const show = (await m.say('memory show MEM1')).output.join('\n');
    expect(show)
      .to.contain('summary: Alice prefers tea')
      .and.to.contain('source: operator_statement')
      .and.to.contain('payload: text/plain, 17 bytes (inline)');
  });

  it('admits a relationship with the related link role normalised', async () => {
    const { line } = await propose(
      'Alice works with Bob.',
      relationship('Alice', 'works_with', 'Bob', 'Colleague', 'Alice works with Bob'),
    );
    expect(line).to.equal('[remember] applied/created MEM1');
    const memory = (await store.getMemory(1))!;
    expect(memory.links.map((l) => [l.entityName, l.role])).to.deep.equal([
      ['Alice', 'subject'],
      ['Bob', 'colleague'],
    ]);
    expect(memory.value).to.equal('Bob');
  });

  describe('one test per rejection reason, each leaving the database unchanged', () => {
    it('invalid_tool_arguments', async () => {
      await expectRejected(
        'Alice prefers tea',
        { ...fact('Alice', 'prefers', 'tea', 'Alice prefers tea'), kind: 'opinion' },
        'invalid_tool_arguments',
      );
      await expectRejected(
        'Alice prefers tea',
        { subject: 'Alice', predicate: 'prefers', value: 'tea', evidence: 'Alice prefers tea' },
        'invalid_tool_arguments',
      );
    });
    it('invalid_proposal', async () => {
      await expectRejected(
        'Alice prefers tea',
        fact('Alice', 'prefers tea', 'tea', 'Alice prefers tea'),
        'invalid_proposal',
      );
      await expectRejected(
        'Alice prefers tea',
        fact('Alice', 'prefers', 'tea', 'Alice prefers\u0007 tea'),
        'invalid_proposal',
      );
      await expectRejected(
        'Alice prefers tea',
        fact('Alice', 'prefers', '  ', 'Alice prefers tea'),
        'invalid_proposal',
      );
      await expectRejected(
        `Alice prefers ${'very '.repeat(60)}strong tea`,
        fact('Alice', 'prefers', 'tea', `Alice prefers ${'very '.repeat(60)}strong tea`),
        'invalid_proposal',
      );
    });
    it('evidence_not_in_utterance', async () => {
      await expectRejected(
        'Alice prefers tea',
        fact('Alice', 'prefers', 'coffee', 'Alice prefers coffee'),
        'evidence_not_in_utterance',
      );
    });
    it('value_not_supported', async () => {
      await expectRejected(
        'Alice prefers tea. Bob prefers coffee.',
        fact('Alice', 'prefers', 'coffee', 'Alice prefers tea'),
        'value_not_supported',
      );
    });
    it('subject_not_supported', async () => {
      await expectRejected(
        'Alice prefers tea',
        fact('Bob', 'prefers', 'tea', 'Alice prefers tea'),
        'subject_not_supported',
      );
      // A subject absent from the evidence is said as such, not as a value in another clause.
      const { result } = await propose('Alice prefers tea', fact('Bob', 'prefers', 'tea', 'Alice prefers tea'));
      expect(result.error).to.equal('the subject does not occur as a whole span in the evidence; nothing was written');
    });
    it('subject_not_found (admission never creates entities)', async () => {
      await expectRejected(
        'Carol prefers tea',
        fact('Carol', 'prefers', 'tea', 'Carol prefers tea'),
        'subject_not_found',
      );
      expect(await store.findEntities('Carol')).to.deep.equal([]);
    });
    it('subject_ambiguous', async () => {
      await store.createEntity({ entityType: 'person', canonicalName: 'Sam' });
      await store.createEntity({ entityType: 'dog', canonicalName: 'SAM' });
      await expectRejected('Sam prefers tea', fact('Sam', 'prefers', 'tea', 'Sam prefers tea'), 'subject_ambiguous');
    });
    it('related_fields_incomplete', async () => {
      await expectRejected(
        'Alice works with Bob',
        { ...relationship('Alice', 'works_with', 'Bob', 'colleague', 'Alice works with Bob'), related_role: null },
        'related_fields_incomplete',
      );
      await expectRejected(
        'Alice works with Bob',
        { ...relationship('Alice', 'works_with', 'Bob', 'colleague', 'Alice works with Bob'), related_entity: null },
        'related_fields_incomplete',
      );
    });
    it('related_entity_invalid_for_kind', async () => {
      await expectRejected(
        'Alice works with Bob',
        {
          ...fact('Alice', 'works_with', 'Bob', 'Alice works with Bob'),
          related_entity: 'Bob',
          related_role: 'colleague',
        },
        'related_entity_invalid_for_kind',
      );
    });
    it('related_entity_not_supported', async () => {
      await expectRejected(
        'Alice works with Bob',
        relationship('Alice', 'works_with', 'Mira', 'colleague', 'Alice works with Bob', 'Bob'),
        'related_entity_not_supported',
      );
    });
    it('relationship_value_mismatch', async () => {
      await store.createEntity({ entityType: 'company', canonicalName: 'Acme' });
      await expectRejected(
        'Alice works with Bob at Acme',
        relationship('Alice', 'works_with', 'Bob', 'colleague', 'Alice works with Bob at Acme', 'Acme'),
        'relationship_value_mismatch',
      );
    });
    it('related_entity_not_found', async () => {
      await expectRejected(
        'Alice works with Dave',
        relationship('Alice', 'works_with', 'Dave', 'colleague', 'Alice works with Dave'),
        'related_entity_not_found',
      );
    });
    it('related_entity_ambiguous', async () => {
      await store.createEntity({ entityType: 'person', canonicalName: 'Sam' });
      const dog = await store.createEntity({ entityType: 'dog', canonicalName: 'Rex' });
      await store.addAlias(dog.id, 'Sam');
      await expectRejected(
        'Alice works with Sam',
        relationship('Alice', 'works_with', 'Sam', 'colleague', 'Alice works with Sam'),
        'related_entity_ambiguous',
      );
    });
    it('conflict, listing only the existing memory identities', async () => {
      expect(
        (await propose('Alice prefers tea', fact('Alice', 'prefers', 'tea', 'Alice prefers tea', 'preference'))).line,
      ).to.equal('[remember] applied/created MEM1');
      await expectRejected(
        'Alice prefers coffee',
        fact('Alice', 'prefers', 'coffee', 'Alice prefers coffee', 'preference'),
        'conflict',
        ['MEM1'],
      );
    });
    it('backend_failure', async () => {
      const before = m.snapshot();
      await store.close();
      const { line, result } = await propose('Alice prefers tea', fact('Alice', 'prefers', 'tea', 'Alice prefers tea'));
      expect(line).to.equal('[remember] rejected backend_failure');
      expect(result.reason).to.equal('backend_failure');
      expect(m.snapshot()).to.deep.equal(before);
      const logged = m.rt.logs.find((l) => l.startsWith('remember: persistent memory could not be written:'));
      expect(logged)
        .to.contain('MIRA_ERR_MEMORY_CLOSED')
        .and.to.match(/\n\s+at /);
    });
    it('covers every reason the specification lists', () => {
      // The specification's 15, and evidence_not_asserted.
      expect(REMEMBER_REASONS).to.have.length(16);
      expect(REMEMBER_REASONS).to.include('evidence_not_asserted');
    });
  });

  describe('limits and exact rules', () => {
    const applied = (memoryId: string, outcome = 'created') => ({ status: 'applied', outcome, memory_id: memoryId });

    it('admits evidence of exactly 280 characters and refuses 281', async () => {
      const at = (n: number) => `Alice prefers tea ${'z'.repeat(n - 18)}`;
      expect(at(280)).to.have.length(280);
      await expectRejected(at(281), fact('Alice', 'prefers', 'tea', at(281)), 'invalid_proposal');
      expect((await propose(at(280), fact('Alice', 'prefers', 'tea', at(280)))).result).to.deep.equal(applied('MEM1'));
    });

    it('admits a value of exactly 256 characters (counted as characters, not UTF-16 units) and refuses 257', async () => {
      // U+20000 is one character and two UTF-16 units, and NFKC keeps it. The model's tokenizer has no piece for
      // it (four byte tokens each): a proposal of its value and evidence takes over 2,000 tokens to generate.
      await m.dispose();
      m = await modelRuntime({ openai: { max_tokens: 4096 } });
      store = m.store();
      await store.createEntity({ entityType: 'person', canonicalName: 'Alice' });
      const value = (n: number) => '\u{20000}'.repeat(n);
      const say = (n: number) => `Alice prefers ${value(n)}`;
      await expectRejected(say(257), fact('Alice', 'prefers', value(257), say(257)), 'invalid_proposal');
      expect((await propose(say(256), fact('Alice', 'prefers', value(256), say(256)))).result).to.deep.equal(
        applied('MEM1'),
      );
    });

    it('lists at most five conflicting memories, the oldest first', async () => {
      for (const drink of ['tea', 'coffee', 'cocoa', 'juice', 'water', 'milk']) {
        await store.createMemory({
          kind: 'preference',
          summary: `Alice prefers ${drink}`,
          predicate: 'prefers',
          value: drink,
          sourceKind: 'console',
          links: [{ entityId: 1, role: 'subject' }],
        });
      }
      await expectRejected(
        'Alice prefers lemonade',
        fact('Alice', 'prefers', 'lemonade', 'Alice prefers lemonade'),
        'conflict',
        ['MEM1', 'MEM2', 'MEM3', 'MEM4', 'MEM5'],
      );
    });

    it('refuses subject as the related role, whatever its case', async () => {
      await expectRejected(
        'Alice works with Bob',
        relationship('Alice', 'works_with', 'Bob', 'Subject', 'Alice works with Bob'),
        'invalid_proposal',
      );
    });

    it('takes an empty or blank related field as missing', async () => {
      for (const blank of ['', '   ']) {
        await expectRejected(
          'Alice works with Bob',
          relationship('Alice', 'works_with', 'Bob', blank, 'Alice works with Bob'),
          'related_fields_incomplete',
        );
        await expectRejected(
          'Alice works with Bob',
          { ...relationship('Alice', 'works_with', 'Bob', 'colleague', 'Alice works with Bob'), related_entity: blank },
          'related_fields_incomplete',
        );
      }
    });

    it('refuses a fact or preference with only one of the related fields set', async () => {
      await expectRejected(
        'Alice works with Bob',
        { ...fact('Alice', 'works_with', 'Bob', 'Alice works with Bob'), related_entity: 'Bob' },
        'related_entity_invalid_for_kind',
      );
      await expectRejected(
        'Alice works with Bob',
        { ...fact('Alice', 'works_with', 'Bob', 'Alice works with Bob', 'preference'), related_role: 'colleague' },
        'related_entity_invalid_for_kind',
      );
    });

    it('knows a relationship again when the related entity has the lower ID', async () => {
      const said = 'Bob works with Alice';
      const rel = relationship('Bob', 'works_with', 'Alice', 'colleague', said);
      expect((await propose(said, rel)).result).to.deep.equal(applied('MEM1'));
      expect((await propose(said, rel)).result).to.deep.equal(applied('MEM1', 'duplicate'));
      // Another role is another relationship.
      expect((await propose(said, { ...rel, related_role: 'mentor' })).result).to.deep.equal(applied('MEM2'));
    });

    it('compares values by matching form for duplicates, and needs the same links', async () => {
      await store.createMemory({
        kind: 'fact',
        summary: 'Alice prefers TEA',
        predicate: 'prefers',
        value: 'TEA',
        sourceKind: 'console',
        links: [{ entityId: 1, role: 'subject' }],
      });
      expect(
        (await propose('Alice prefers tea', fact('Alice', 'prefers', 'tea', 'Alice prefers tea'))).result,
      ).to.deep.equal(applied('MEM1', 'duplicate'));
      await store.createMemory({
        kind: 'fact',
        summary: 'Alice drinks tea with Bob',
        predicate: 'drinks',
        value: 'tea',
        sourceKind: 'console',
        links: [
          { entityId: 1, role: 'subject' },
          { entityId: 2, role: 'companion' },
        ],
      });
      // The same value with other links is neither a duplicate nor a conflict.
      expect(
        (await propose('Alice drinks tea', fact('Alice', 'drinks', 'tea', 'Alice drinks tea'))).result,
      ).to.deep.equal(applied('MEM3'));
    });

    it('does not take a fact for a duplicate of a relationship', async () => {
      const said = 'Alice works with Bob';
      expect((await propose(said, fact('Alice', 'works_with', 'Bob', said))).result).to.deep.equal(applied('MEM1'));
      expect((await propose(said, relationship('Alice', 'works_with', 'Bob', 'colleague', said))).result).to.deep.equal(
        applied('MEM2'),
      );
    });

    it('does not take a fact with the same links for a duplicate of a relationship', async () => {
      await store.createMemory({
        kind: 'fact',
        summary: 'Alice works with Bob',
        predicate: 'works_with',
        value: 'Bob',
        sourceKind: 'console',
        links: [
          { entityId: 1, role: 'subject' },
          { entityId: 2, role: 'colleague' },
        ],
      });
      const said = 'Alice works with Bob';
      expect((await propose(said, relationship('Alice', 'works_with', 'Bob', 'colleague', said))).result).to.deep.equal(
        applied('MEM2'),
      );
    });

    it('lets a Korean related entity end inside a word, where the particle attaches', async () => {
      const ali = await store.createEntity({ entityType: 'person', canonicalName: '앨리스' });
      await store.createEntity({ entityType: 'person', canonicalName: '밥' });
      const said = '앨리스는 밥과 일한다';
      const { result } = await propose(said, relationship('앨리스', 'works_with', '밥', 'colleague', said));
      expect(result).to.deep.equal(applied('MEM1'));
      expect((await store.getMemory(1))!.links.map((l) => l.entityName)).to.deep.equal(['앨리스', '밥']);
      expect(ali.ref).to.equal('ENT4');
    });

    it('keeps relationships out of the fact and preference slot', async () => {
      const said = 'Alice works with Bob';
      expect((await propose(said, relationship('Alice', 'works_with', 'Bob', 'colleague', said))).result).to.deep.equal(
        applied('MEM1'),
      );
      // A fact under the same predicate neither duplicates nor conflicts with the relationship.
      expect((await propose(said, fact('Alice', 'works_with', 'Bob', said))).result).to.deep.equal(applied('MEM2'));
      expect(
        (await propose('Alice works with Mira', fact('Alice', 'works_with', 'Mira', 'Alice works with Mira'))).result,
      ).to.deep.include({ status: 'rejected', reason: 'conflict', conflicting_memory_ids: ['MEM2'] });
    });

    it('admits Latin next to Japanese, decomposed input and characters outside the BMP', async () => {
      await store.createEntity({ entityType: 'person', canonicalName: 'Zoë' });
      const cases: Array<[string, Proposal, string, string]> = [
        [
          'Aliceは紅茶が好き',
          fact('Alice', 'likes', '紅茶', 'Aliceは紅茶が好き', 'preference'),
          '紅茶',
          'Aliceは紅茶が好き',
        ],
        [
          'Zoe\u0308 prefers cafe\u0301',
          fact('Zoë', 'prefers', 'café', 'Zoe\u0308 prefers cafe\u0301'),
          'café',
          'Zoë prefers café',
        ],
        [
          'Alice collects 𝒜 stamps',
          fact('Alice', 'collects', '𝒜', 'Alice collects 𝒜 stamps'),
          'A',
          'Alice collects A stamps',
        ],
      ];
      let n = 0;
      for (const [said, proposal, value, summary] of cases) {
        n += 1;
        expect((await propose(said, proposal)).result, said).to.deep.equal(applied(`MEM${n}`));
        expect(await store.getMemory(n)).to.deep.include({ value, summary });
      }
    });
  });

  describe('only asserted statements are admitted (evidence_not_asserted), in several scripts', () => {
    beforeEach(async () => {
      await store.createEntity({ entityType: 'person', canonicalName: 'アリス' });
      await store.createEntity({ entityType: 'person', canonicalName: '민수' });
      await store.createEntity({ entityType: 'person', canonicalName: '田中' });
    });
    const notAsserted: Array<[string, Proposal]> = [
      ['Is it true that Alice prefers coffee?', fact('Alice', 'prefers', 'coffee', 'Alice prefers coffee')],
      ['Does Bob ride a kayak?', fact('Bob', 'rides', 'kayak', 'Bob ride a kayak')],
      ['Alice prefers tea? I am not sure.', fact('Alice', 'prefers', 'tea', 'Alice prefers tea')],
      ['Alice prefers tea?!', fact('Alice', 'prefers', 'tea', 'Alice prefers tea')],
      ['¿Alice prefiere té', fact('Alice', 'prefiere', 'té', 'Alice prefiere té')],
      ['¿Bob canta en un coro?', fact('Bob', 'canta_en', 'un coro', 'Bob canta en un coro')],
      ['アリスは紅茶が好きですか？', fact('アリス', 'likes', '紅茶', 'アリスは紅茶が好き')],
      ['민수는 커피를 좋아하나요?', fact('민수', 'likes', '커피', '민수는 커피를 좋아하나요')],
      ['هل يحب Bob الشاي؟', fact('Bob', 'likes', 'الشاي', 'يحب Bob الشاي')],
      ["Never store this: Alice's PIN is 1234", fact('Alice', 'pin', '1234', "Alice's PIN is 1234")],
      ["Don't remember this, but Bob rides a kayak.", fact('Bob', 'rides', 'kayak', 'Bob rides a kayak')],
      ['Do not save that: Bob sings in a choir.', fact('Bob', 'sings_in', 'a choir', 'Bob sings in a choir')],
      ['Bob rides a kayak, off the record.', fact('Bob', 'rides', 'kayak', 'Bob rides a kayak')],
      ['Alice prefers coffee. Forget it.', fact('Alice', 'prefers', 'coffee', 'Alice prefers coffee')],
    ];
    for (const [utterance, proposal] of notAsserted) {
      it(`refuses ${JSON.stringify(utterance)}`, async () => {
        await expectRejected(utterance, proposal, 'evidence_not_asserted');
      });
    }
    const asserted: Array<[string, Proposal]> = [
      ['Bob rides a kayak. Can you note that?', fact('Bob', 'rides', 'kayak', 'Bob rides a kayak')],
      ['Alice certainly collects stamps', fact('Alice', 'collects', 'stamps', 'Alice certainly collects stamps')],
      ['Frankly, Bob sings in a choir', fact('Bob', 'sings_in', 'a choir', 'Bob sings in a choir')],
      ["Don't forget that Alice likes tea", fact('Alice', 'likes', 'tea', 'Alice likes tea')],
      ['We never keep cats at home. Alice likes dogs.', fact('Alice', 'likes', 'dogs', 'Alice likes dogs')],
      ['Alice prefers tea!', fact('Alice', 'prefers', 'tea', 'Alice prefers tea')],
      ['アリスは紅茶が好きです。', fact('アリス', 'likes', '紅茶', 'アリスは紅茶が好き')],
      ['민수는 커피를 좋아한다', fact('민수', 'likes', '커피', '민수는 커피를 좋아한다')],
      ['田中はｶﾞｽが好き', fact('田中', 'likes', 'ガス', '田中はｶﾞｽが好き')],
    ];
    for (const [utterance, proposal] of asserted) {
      it(`admits ${JSON.stringify(utterance)}`, async () => {
        const { line, result } = await propose(utterance, proposal);
        expect(result).to.deep.include({ status: 'applied', outcome: 'created' });
        expect(line).to.match(/^\[remember\] applied\/created MEM\d+$/);
      });
    }

    it("stores the value and summary in the operator's own wording, across NFKC", async () => {
      const { result } = await propose('田中はｶﾞｽが好き', fact('田中', 'likes', 'ガス', '田中はｶﾞｽが好き'));
      const memory = (await store.getMemory(Number(String(result.memory_id).slice(3))))!;
      expect(memory.value).to.equal('ガス');
      expect(memory.summary).to.equal('田中はガスが好き');
    });

    it('matches a Korean value at the start of a word, never inside one', async () => {
      await expectRejected(
        '민수는 커피를 좋아한다',
        fact('민수', 'likes', '피', '민수는 커피를 좋아한다'),
        'value_not_supported',
      );
      await expectRejected(
        '민수는 커피를 좋아한다',
        fact('수', 'likes', '커피', '민수는 커피를 좋아한다'),
        'subject_not_supported',
      );
    });

    it('matches a Japanese name or value only as a whole word, never a fragment of one', async () => {
      await store.createEntity({ entityType: 'person', canonicalName: 'アリ' });
      // アリ (Ali) is a person of its own; the memory about アリス (Alice) is not hers.
      await expectRejected(
        'アリスは紅茶が好き',
        fact('アリ', 'likes', '紅茶', 'アリスは紅茶が好き'),
        'subject_not_supported',
      );
      // 紅 (red) is not 紅茶 (tea).
      await expectRejected(
        'アリスは紅茶が好き',
        fact('アリス', 'likes', '紅', 'アリスは紅茶が好き'),
        'value_not_supported',
      );
      const { result } = await propose('アリは紅茶が好き', fact('アリ', 'likes', '紅茶', 'アリは紅茶が好き'));
      expect(result).to.deep.include({ status: 'applied', outcome: 'created' });
    });

    it('matches the same halfwidth kana whatever else the utterance holds', async () => {
      // The segmenter path (an accent elsewhere) and the fast path (plain text) must agree.
      const { result: plain } = await propose('田中はﾊﾟﾝが好き', fact('田中', 'likes', 'パン', '田中はﾊﾟﾝが好き'));
      expect(plain).to.deep.include({ outcome: 'created' });
      const { result: accented } = await propose(
        'Café: 田中はﾊﾟﾝが好き',
        fact('田中', 'likes', 'パン', '田中はﾊﾟﾝが好き'),
      );
      expect(accented).to.deep.include({ outcome: 'duplicate' });
    });

    it('refuses evidence holding an invisible format character', async () => {
      await expectRejected(
        'Alice likes\u200b tea',
        fact('Alice', 'likes', 'tea', 'Alice likes\u200b tea'),
        'invalid_proposal',
      );
    });
  });

  describe('a name that begins another known name, and languages beyond English', () => {
    const LONGER = "another known entity's name starts with this one at the same place in the evidence";

    it('never gives a Korean name what is said of a longer name it begins (박지 in 박지훈은)', async () => {
      await store.createEntity({ entityType: 'person', canonicalName: '박지' });
      await store.createEntity({ entityType: 'person', canonicalName: '박지훈' });
      // 훈은 is not particles: 박지 does not end there.
      await expectRejected(
        '박지훈은 녹차를 좋아해요',
        fact('박지', 'likes', '녹차', '박지훈은 녹차를 좋아해요'),
        'subject_not_supported',
      );
      const { result } = await propose(
        '박지훈은 녹차를 좋아해요',
        fact('박지훈', 'likes', '녹차', '박지훈은 녹차를 좋아해요'),
      );
      expect(result).to.deep.include({ status: 'applied', outcome: 'created' });
      expect((await store.getMemory(1))!.links.map((l) => l.entityName)).to.deep.equal(['박지훈']);
      // Before a particle the shorter name is a name of its own.
      const { result: own } = await propose(
        '박지는 홍차를 좋아해요',
        fact('박지', 'likes', '홍차', '박지는 홍차를 좋아해요'),
      );
      expect(own).to.deep.include({ status: 'applied', outcome: 'created' });
    });

    it('refuses a Korean name that a longer known name holds before a particle, as ambiguous', async () => {
      await store.createEntity({ entityType: 'person', canonicalName: '민' });
      await store.createEntity({ entityType: 'person', canonicalName: '민이' });
      // 민이는 reads as 민 + 이 + 는 and as 민이 + 는: the longer known name makes it ambiguous.
      const result = await expectRejected(
        '민이는 녹차를 좋아해요',
        fact('민', 'likes', '녹차', '민이는 녹차를 좋아해요'),
        'subject_ambiguous',
      );
      expect(result.error).to.equal(`${LONGER}, so the evidence may be about that one; nothing was written`);
    });

    it('never cuts a Chinese personal name into characters (张 is not in 张伟喜欢绿茶)', async () => {
      await store.createEntity({ entityType: 'person', canonicalName: '张' });
      await expectRejected('张伟喜欢绿茶', fact('张', 'likes', '绿茶', '张伟喜欢绿茶'), 'subject_not_supported');
      await store.createEntity({ entityType: 'person', canonicalName: '张伟' });
      const { result } = await propose('张伟喜欢绿茶', fact('张伟', 'likes', '绿茶', '张伟喜欢绿茶'));
      expect(result).to.deep.include({ status: 'applied', outcome: 'created' });
      // 张 before a word that follows a name (说, "says") is a name; a longer known name there is not.
      const { result: own } = await propose('张是老师', fact('张', 'is', '老师', '张是老师'));
      expect(own).to.deep.include({ status: 'applied', outcome: 'created' });
      // Nor is a related entity cut out of a longer name: a relationship's value is read by the same rule for
      // a name as its related entity, so the value is refused first.
      await store.createEntity({ entityType: 'person', canonicalName: '李娜' });
      await expectRejected(
        '李娜认识张伟',
        relationship('李娜', 'knows', '张', 'friend', '李娜认识张伟'),
        'value_not_supported',
      );
    });

    it('refuses a name with spaces that begins a longer known name at the same place, unless it is an alias', async () => {
      const anna = await store.createEntity({ entityType: 'person', canonicalName: 'Anna' });
      await store.createEntity({ entityType: 'person', canonicalName: 'Anna Maria' });
      await expectRejected(
        'Anna Maria likes tea',
        fact('Anna', 'likes', 'tea', 'Anna Maria likes tea'),
        'subject_ambiguous',
      );
      const { result } = await propose(
        'Anna Maria likes tea',
        fact('Anna Maria', 'likes', 'tea', 'Anna Maria likes tea'),
      );
      expect(result).to.deep.include({ status: 'applied', outcome: 'created' });
      // A longer name of the same entity is no ambiguity.
      await store.addAlias(anna.id, 'Anna Karenina');
      const { result: alias } = await propose(
        'Anna Karenina likes coffee',
        fact('Anna', 'drinks', 'coffee', 'Anna Karenina likes coffee'),
      );
      expect(alias).to.deep.include({ status: 'applied', outcome: 'created' });
    });

    it('refuses a related entity that begins a longer known name, as related_entity_ambiguous', async () => {
      await store.createEntity({ entityType: 'person', canonicalName: 'Bobby' });
      await store.createEntity({ entityType: 'person', canonicalName: 'Bob Marley' });
      await expectRejected(
        'Alice works with Bob Marley',
        relationship('Alice', 'works_with', 'Bob', 'colleague', 'Alice works with Bob Marley'),
        'related_entity_ambiguous',
      );
    });

    it('refuses evidence in a script whose assertion rules Mira does not have, saying so and which', async () => {
      await store.createEntity({ entityType: 'person', canonicalName: 'Άννα' });
      const result = await expectRejected(
        'Η Άννα πίνει τσάι',
        fact('Άννα', 'drinks', 'τσάι', 'Η Άννα πίνει τσάι'),
        'evidence_not_asserted',
      );
      expect(result.error).to.match(
        /^the utterance is in a language the assertion rules do not read \(it reads as Greek;/,
      );
    });

    it('admits a plain statement in Russian, and refuses its negation under a positive predicate', async () => {
      await store.createEntity({ entityType: 'person', canonicalName: 'Анна' });
      const { result } = await propose('Анна любит чай', fact('Анна', 'likes', 'чай', 'Анна любит чай'));
      expect(result).to.deep.include({ status: 'applied', outcome: 'created' });
      const negated = await expectRejected(
        'Анна не любит кофе',
        fact('Анна', 'likes', 'кофе', 'Анна не любит кофе'),
        'evidence_not_asserted',
      );
      expect(negated.error).to.match(/^the evidence is negated/);
    });

    it('refuses Latin text in a language without rules, saying so, and admits a name in its letters in English', async () => {
      // "Anna never drinks coffee" in Czech: read with the English rules it was stored as Anna drinking coffee.
      await store.createEntity({ entityType: 'person', canonicalName: 'Anna' });
      const result = await expectRejected(
        'Anna nikdy nepije kávu',
        fact('Anna', 'drinks', 'kávu', 'Anna nikdy nepije kávu'),
        'evidence_not_asserted',
      );
      expect(result.error).to.match(
        /^the utterance is in a language the assertion rules do not read \(it reads as Czech;/,
      );
      await store.createEntity({ entityType: 'person', canonicalName: 'Łukasz' });
      const { result: english } = await propose('Łukasz likes tea', fact('Łukasz', 'likes', 'tea', 'Łukasz likes tea'));
      expect(english).to.deep.include({ status: 'applied', outcome: 'created' });
    });

    const asserted: Array<[string, Proposal, string]> = [
      ['Anna', fact('Anna', 'not_drinks', 'Kaffee', 'Anna trinkt keinen Kaffee'), 'Anna trinkt keinen Kaffee'],
      ['Paul', fact('Paul', 'likes', 'le thé', 'Paul aime le thé'), 'Paul aime le thé'],
      ['Lucía', fact('Lucía', 'not_eats', 'carne', 'Lucía no come carne'), 'Lucía no come carne'],
      ['Marco', fact('Marco', 'plays', 'il pianoforte', 'Marco suona il pianoforte'), 'Marco suona il pianoforte'],
      ['João', fact('João', 'drinks', 'café', 'O João toma café'), 'O João toma café'],
      ['Sanne', fact('Sanne', 'not_eats', 'vlees', 'Sanne eet geen vlees'), 'Sanne eet geen vlees'],
      ['佐藤', fact('佐藤', 'likes', '紅茶', '佐藤さんは紅茶が好きです'), '佐藤さんは紅茶が好きです'],
      ['王芳', fact('王芳', 'lives_in', '上海', '王芳住在上海'), '王芳住在上海'],
      ['지민', fact('지민', 'likes', '녹차', '지민 씨는 녹차를 좋아해요'), '지민 씨는 녹차를 좋아해요'],
    ];
    for (const [name, proposal, said] of asserted) {
      it(`admits ${JSON.stringify(said)}`, async () => {
        await store.createEntity({ entityType: 'person', canonicalName: name });
        const { result } = await propose(said, proposal);
        expect(result).to.deep.include({ status: 'applied', outcome: 'created' });
      });
    }

    const notAsserted: Array<[string, string, Proposal, NotAsserted]> = [
      [
        'Anna',
        'Ich glaube, Anna trinkt keinen Kaffee',
        fact('Anna', 'not_drinks', 'Kaffee', 'Anna trinkt keinen Kaffee'),
        'hedge',
      ],
      [
        'Paolo',
        'Si Paolo vient, il aime le thé',
        fact('Paolo', 'likes', 'le thé', 'Si Paolo vient, il aime le thé'),
        'condition',
      ],
      [
        'Carlos',
        'Carlos dice que Lucía odia el cilantro',
        fact('Carlos', 'hates', 'el cilantro', 'Carlos dice que Lucía odia el cilantro'),
        'reported',
      ],
      [
        'Marco',
        'Non salvarlo: Marco ha dei debiti',
        fact('Marco', 'has', 'dei debiti', 'Marco ha dei debiti'),
        'do_not_keep',
      ],
      ['Ana', 'A Ana não gosta de pimenta', fact('Ana', 'likes', 'pimenta', 'A Ana não gosta de pimenta'), 'negated'],
      [
        'Pieter',
        'Heeft Pieter eigenlijk een hond',
        fact('Pieter', 'has', 'een hond', 'Heeft Pieter eigenlijk een hond'),
        'question',
      ],
      ['佐藤', '佐藤さんはたぶん紅茶が好き', fact('佐藤', 'likes', '紅茶', '佐藤さんはたぶん紅茶が好き'), 'hedge'],
      ['李娜', '李娜养狗吗', fact('李娜', 'has', '养狗', '李娜养狗吗'), 'question'],
      [
        '박 선생님',
        '박 선생님이 커피를 좋아한다고 들었어요',
        fact('박 선생님', 'likes', '커피', '박 선생님이 커피를 좋아한다고 들었어요'),
        'reported',
      ],
    ];
    for (const [name, said, proposal, cue] of notAsserted) {
      it(`refuses ${JSON.stringify(said)} (${cue})`, async () => {
        await store.createEntity({ entityType: 'person', canonicalName: name });
        const result = await expectRejected(said, proposal, 'evidence_not_asserted');
        expect(result.error).to.equal(
          `${NOT_ASSERTED_WHY[cue]}; only what the operator states is remembered; nothing was written`,
        );
      });
    }

    it("gives a possessor's relative the value, never the possessor", async () => {
      await store.createEntity({ entityType: 'person', canonicalName: '李娜' });
      await store.createEntity({ entityType: 'person', canonicalName: '王芳' });
      const said = '李娜的朋友王芳喜欢咖啡';
      await expectRejected(said, fact('李娜', 'likes', '咖啡', said), 'subject_not_supported');
      const { result } = await propose(said, fact('王芳', 'likes', '咖啡', said));
      expect(result).to.deep.include({ status: 'applied', outcome: 'created' });
      expect((await store.getMemory(1))!.links.map((l) => l.entityName)).to.deep.equal(['王芳']);
      await expectRejected(
        "Alice's friend Bob likes tea",
        fact('Alice', 'likes', 'tea', "Alice's friend Bob likes tea"),
        'subject_not_supported',
      );
    });
  });

  describe('self-reference', () => {
    for (const word of ['you', 'your', 'yours', 'yourself'] as const) {
      it(`"${word}" denotes the runtime self when exactly one entity matches the profile name`, async () => {
        const utterance = {
          you: 'Remember that you prefer the blue dock.',
          your: 'Remember that your favourite dock is blue.',
          yours: 'The blue dock is yours.',
          yourself: 'Remember to keep yourself near the blue dock.',
        }[word];
        const evidence = {
          you: 'you prefer the blue dock',
          your: 'your favourite dock is blue',
          yours: 'The blue dock is yours',
          yourself: 'keep yourself near the blue dock',
        }[word];
        const { line } = await propose(utterance, fact(word, 'prefers_dock', 'blue', evidence));
        expect(line).to.equal('[remember] applied/created MEM1');
        const memory = (await store.getMemory(1))!;
        expect(memory.links.map((l) => [l.entityName, l.role])).to.deep.equal([['Mira', 'subject']]);
        expect(memory.summary).to.equal(evidence); // the operator's second-person wording is kept
      });
    }

    it('rejects with subject_not_found when no entity is the runtime self', async () => {
      await m.dispose();
      m = await modelRuntime({ name: 'Rover' });
      store = m.store();
      await store.createEntity({ entityType: 'person', canonicalName: 'Alice' });
      await expectRejected(
        'You prefer the blue dock',
        fact('you', 'prefers_dock', 'blue dock', 'You prefer the blue dock'),
        'subject_not_found',
      );
      expect(await store.findEntities('Rover')).to.deep.equal([]);
    });

    it('rejects with subject_ambiguous when two entities match the profile name', async () => {
      const other = await store.createEntity({ entityType: 'ship', canonicalName: 'Starship' });
      await store.addAlias(other.id, 'mira');
      await expectRejected(
        'You prefer the blue dock',
        fact('you', 'prefers_dock', 'blue dock', 'You prefer the blue dock'),
        'subject_ambiguous',
      );
    });

    for (const word of ['I', 'me', 'my', 'mine', 'myself']) {
      it(`does not map the operator's "${word}" to the runtime self`, async () => {
        await expectRejected(
          `${word} like the blue dock`,
          fact(word, 'likes', 'blue dock', `${word} like the blue dock`),
          'subject_not_found',
        );
      });
    }

    it('applies no pronoun mapping to the related entity', async () => {
      await expectRejected(
        'Alice works with you',
        relationship('Alice', 'works_with', 'you', 'colleague', 'Alice works with you'),
        'related_entity_not_found',
      );
    });
  });

  describe('evidence comes only from the current utterance', () => {
    it('rejects evidence from a previous turn', async () => {
      m.server.push({ text: 'Nice.' });
      await m.say('Alice prefers tea.');
      await expectRejected(
        'Remember that.',
        fact('Alice', 'prefers', 'tea', 'Alice prefers tea'),
        'evidence_not_in_utterance',
      );
    });

    it("rejects evidence from a recalled memory's text", async () => {
      await m.say('memory add fact "Alice likes jazz" --link ENT1:subject --predicate likes --value jazz');
      const before = m.snapshot();
      m.server.push(
        { toolCalls: [{ name: 'recall_memory', arguments: { query: 'Alice' } }] },
        { toolCalls: [{ name: 'remember', arguments: fact('Alice', 'likes', 'jazz', 'Alice likes jazz') }] },
        { text: 'Done.' },
      );
      const { output } = await m.say('What does Alice like? Keep that in mind.');
      expect(output).to.deep.equal([
        '[recall_memory] hit ENT1',
        '[remember] rejected evidence_not_in_utterance',
        'Mira: Done.',
      ]);
      expect(m.snapshot()).to.deep.equal(before);
    });

    it("rejects evidence taken from the assistant's own reply", async () => {
      m.server.push({ text: 'I believe Bob prefers coffee.' });
      await m.say('What do you think Bob drinks?');
      await expectRejected(
        'Yes, remember that.',
        fact('Bob', 'prefers', 'coffee', 'Bob prefers coffee'),
        'evidence_not_in_utterance',
      );
    });

    it('rejects evidence from working memory even when the turn is still in it', async () => {
      m.rt.app.kernel.workingMemory.add('operator', 'Bob prefers cocoa', m.clock.now());
      await expectRejected(
        'Please store it',
        fact('Bob', 'prefers', 'cocoa', 'Bob prefers cocoa'),
        'evidence_not_in_utterance',
      );
    });

    it("rejects evidence from the runtime's grounding, though it rides on the operator's message", async () => {
      // A changing grounding section (as a sensor or plugin may add) that reads like a statement.
      m.rt.app.kernel.hooks.grounding.tap('test-visitor-log', (grounding) => ({
        sections: [...grounding.sections, { source: 'visitor-log', text: 'Alice prefers coffee.' }],
      }));
      const first = m.server.requests.length;
      await expectRejected(
        'What does Alice prefer? Remember it.',
        fact('Alice', 'prefers', 'coffee', 'Alice prefers coffee'),
        'evidence_not_in_utterance',
      );
      // The words were in the message the model read, after the operator's, and admission did not see them.
      const opening = m.server.requests[first]!.body.messages.at(-1)!;
      expect(opening.role).to.equal('user');
      expect(withoutGrounding(opening.content!)).to.equal('What does Alice prefer? Remember it.');
      expect(groundingOf(opening.content!)).to.contain('[visitor-log]\nAlice prefers coffee.');
    });

    it('requires whole spans: "art" does not occur in "cartography"', async () => {
      await expectRejected(
        'Alice loves cartography',
        fact('Alice', 'loves', 'art', 'Alice loves cartography'),
        'value_not_supported',
      );
      await expectRejected(
        'Malice prefers tea',
        fact('Alice', 'prefers', 'tea', 'Malice prefers tea'),
        'subject_not_supported',
      );
      await expectRejected(
        'Alice prefers tea',
        fact('Alice', 'prefers', 'tea', 'lice prefers tea'),
        'evidence_not_in_utterance',
      );
    });

    it('needs no word boundary next to scripts written without spaces', async () => {
      await store.createEntity({ entityType: 'person', canonicalName: 'アリス' });
      const { line } = await propose('アリスは紅茶が好きです', fact('アリス', 'likes', '紅茶', 'アリスは紅茶が好き'));
      expect(line).to.equal('[remember] applied/created MEM1');
      expect((await store.getMemory(1))!.summary).to.equal('アリスは紅茶が好き');
    });

    it('compares with NFKC, collapsed white space and case folding', async () => {
      const { line } = await propose('ＡＬＩＣＥ   prefers\tTEA', fact('alice', 'prefers', 'tea', 'Alice prefers tea'));
      expect(line).to.equal('[remember] applied/created MEM1');
      expect((await store.getMemory(1))!.summary).to.equal('ALICE prefers TEA');
    });
  });

  describe('duplicates and conflicts', () => {
    it('treats the same predicate, value and links as a duplicate across fact and preference', async () => {
      expect(
        (await propose('Alice prefers tea', fact('Alice', 'prefers', 'tea', 'Alice prefers tea', 'preference'))).line,
      ).to.equal('[remember] applied/created MEM1');
      const before = m.snapshot();
      const again = await propose(
        'As I said, ALICE PREFERS TEA.',
        fact('Alice', 'PREFERS', 'Tea', 'ALICE PREFERS TEA', 'fact'),
      );
      expect(again.line).to.equal('[remember] applied/duplicate MEM1');
      expect(again.content).to.equal('{"status":"applied","outcome":"duplicate","memory_id":"MEM1"}');
      expect(m.snapshot()).to.deep.equal(before);
    });

    it('rejects a different value for the same predicate across fact and preference', async () => {
      await propose('Alice prefers tea', fact('Alice', 'prefers', 'tea', 'Alice prefers tea', 'fact'));
      await expectRejected(
        'Alice prefers coffee',
        fact('Alice', 'Prefers', 'coffee', 'Alice prefers coffee', 'preference'),
        'conflict',
        ['MEM1'],
      );
    });

    it('collapses capitalisation variants of predicate and role for relationships', async () => {
      expect(
        (
          await propose(
            'Alice works with Bob',
            relationship('Alice', 'works_with', 'Bob', 'colleague', 'Alice works with Bob'),
          )
        ).line,
      ).to.equal('[remember] applied/created MEM1');
      expect(
        (
          await propose(
            'alice works with bob',
            relationship('ALICE', 'Works_With', 'bob', 'COLLEAGUE', 'alice works with bob'),
          )
        ).line,
      ).to.equal('[remember] applied/duplicate MEM1');
      expect(
        (
          await propose(
            'Alice works with Mira',
            relationship('Alice', 'works_with', 'Mira', 'colleague', 'Alice works with Mira'),
          )
        ).line,
      ).to.equal('[remember] applied/created MEM2');
      expect(
        (
          await propose(
            'Alice works with Bob',
            relationship('Alice', 'works_with', 'Bob', 'mentor', 'Alice works with Bob'),
          )
        ).line,
      ).to.equal('[remember] applied/created MEM3');
    });

    it('never updates, deletes or supersedes existing memory', async () => {
      await propose('Alice prefers tea', fact('Alice', 'prefers', 'tea', 'Alice prefers tea'));
      const original = await store.getMemory(1);
      await propose('Alice prefers coffee now', fact('Alice', 'prefers', 'coffee', 'Alice prefers coffee'));
      expect(await store.getMemory(1)).to.deep.equal(original);
      expect((await store.info()).memories).to.equal(1);
    });
  });

  describe('episode rules', () => {
    it('admits at most one proposal per episode', async () => {
      const before = m.snapshot();
      m.server.push(
        {
          toolCalls: [
            { name: 'remember', arguments: fact('Alice', 'prefers', 'tea', 'Alice prefers tea') },
            { name: 'remember', arguments: fact('Bob', 'prefers', 'coffee', 'Bob prefers coffee') },
          ],
        },
        { text: 'Done.' },
      );
      const { output } = await m.say('Alice prefers tea and Bob prefers coffee');
      expect(output).to.deep.equal([
        '[remember] applied/created MEM1',
        '[remember] rejected invalid_proposal',
        'Mira: Done.',
      ]);
      // The second is refused by its result; the tools offered stay the same (the prompt prefix too).
      expect(m.server.requests.at(-1)!.body.tools).to.deep.equal(m.server.requests.at(-2)!.body.tools);
      expect(m.snapshot().counts.memories).to.equal(before.counts.memories + 1);
    });

    for (const origin of ['attention', 'initiative', 'goal', 'temporal', 'monitor'] as const) {
      it(`is not offered to ${origin} episodes, and a forced call writes nothing`, async () => {
        const before = m.snapshot();
        m.server.push(
          { toolCalls: [{ name: 'remember', arguments: fact('Alice', 'prefers', 'tea', 'Alice prefers tea') }] },
          { text: 'ok' },
        );
        const lines: string[] = [];
        await m.rt.app.kernel.cognition.run({
          origin,
          trigger: 'Alice prefers tea',
          out: { print: (l) => lines.push(l) },
        });
        expect(m.server.requests.at(-2)!.toolNames).to.include('recall_memory').and.not.to.include('remember');
        expect(lines[0]).to.equal('[remember] rejected invalid_proposal');
        expect(m.snapshot()).to.deep.equal(before);
      });
    }

    it('writes nothing without an explicit remember call: no transcript mining', async () => {
      const before = m.snapshot();
      m.server.push({ text: 'Tea, noted.' });
      await m.say('Alice prefers tea, remember that!');
      expect(m.snapshot()).to.deep.equal(before);
    });

    it("describes the rules to the model in the tool's description", async () => {
      m.server.push({ text: 'ok' });
      await m.say('hi');
      const remember = m.server.requests.at(-1)!.body.tools!.find((t) => t.function.name === 'remember')!;
      for (const rule of [
        'Propose one durable fact, preference, or simple relationship that the operator states in the current message about an entity that already exists.',
        'its result is the only confirmation of a write.',
        'not a hedge (maybe, perhaps, probably, might, I think, I wonder)',
        'not a condition (if, unless, suppose, imagine), not what someone else says or claims',
        'use a predicate with the not_ prefix (not_eats)',
        'If the operator only hints, ask them to state the fact plainly instead of proposing it.',
      ])
        expect(remember.function.description).to.contain(rule);
      expect(remember.function.strict).to.equal(true);
    });

    it('tells the model that only a result in the current turn confirms a write', async () => {
      m.server.push({ text: 'ok' });
      await m.say('hi');
      const system = m.server.requests.at(-1)!.body.messages[0]!.content!;
      expect(system).to.contain('Only a remember result in this turn confirms a write');
    });
  });
});

describe('remember: one boundary rule for a name, wherever it stands', function () {
  this.timeout(20_000);
  let m: ModelRuntime;
  beforeEach(async () => {
    m = await modelRuntime();
    await m.store().createEntity({ entityType: 'person', canonicalName: 'Anna' });
    await m.store().createEntity({ entityType: 'person', canonicalName: '민수' });
  });
  afterEach(() => m.dispose());

  const say = async (utterance: string, proposal: Proposal) => {
    m.server.push({ toolCalls: [{ name: 'remember', arguments: proposal }] }, { text: 'ok' });
    return (await m.rt.run(utterance)).output[0];
  };

  it('takes a Latin name with a Korean particle as the name, as a Hangul one, in the subject and the related entity', async () => {
    expect(await say('Anna는 커피를 좋아해요', fact('Anna', 'likes', '커피', 'Anna는 커피를 좋아해요'))).to.equal(
      '[remember] applied/created MEM1',
    );
    expect(
      await say('민수는 Anna를 알아요', relationship('민수', 'knows', 'Anna', 'friend', '민수는 Anna를 알아요')),
    ).to.equal('[remember] applied/created MEM2');
    // Never a name inside a longer word: Anna is not in Annabel은.
    await m.store().createEntity({ entityType: 'person', canonicalName: 'Annabel' });
    expect(await say('Annabel은 차를 좋아해요', fact('Anna', 'likes', '차', 'Annabel은 차를 좋아해요'))).to.equal(
      '[remember] rejected subject_not_supported',
    );
  });

  it('reads a Hebrew or Arabic name beside a direction mark (RLM, LRM, ALM) as the name; other bidi controls refuse', async () => {
    await m.store().createEntity({ entityType: 'person', canonicalName: 'דני' });
    await m.store().createEntity({ entityType: 'person', canonicalName: 'سامي' });
    // The mark in the operator's words and in the evidence the model copied, or only in the operator's words.
    expect(await say('דני\u200f אוהב קפה', fact('דני', 'likes', 'קפה', 'דני\u200f אוהב קפה'))).to.equal(
      '[remember] applied/created MEM1',
    );
    expect(await say('\u200fسامي\u061c يحب القهوة', fact('سامي', 'likes', 'القهوة', 'سامي يحب القهوة'))).to.equal(
      '[remember] applied/created MEM2',
    );
    // A mark between a Latin and a Hebrew word stands between two words: Anna is whole there.
    expect(await say('Anna\u200fשותה תה', fact('Anna', 'drinks', 'תה', 'Anna\u200fשותה תה'))).to.equal(
      '[remember] applied/created MEM3',
    );
    const written = await m.store().getMemory(1);
    expect(written?.summary).to.equal('דני אוהב קפה');
    // An override (RLO) or an isolate is still no admission evidence.
    expect(await say('דני\u202e אוהב תה', fact('דני', 'likes', 'תה', 'דני\u202e אוהב תה'))).to.equal(
      '[remember] rejected invalid_proposal',
    );
    expect(await say('דני\u2067 אוהב תה', fact('דני', 'likes', 'תה', 'דני\u2067 אוהב תה'))).to.equal(
      '[remember] rejected invalid_proposal',
    );
  });

  it('takes a Swedish name before its genitive -s as the name, in the subject and the related entity', async () => {
    await m.store().createEntity({ entityType: 'person', canonicalName: 'Elsa' });
    await m.store().createEntity({ entityType: 'person', canonicalName: 'Erik' });
    const colour = fact('Elsa', 'favourite_colour', 'gul', 'Elsas favoritfärg är gul');
    expect(await say('Elsas favoritfärg är gul.', colour)).to.equal('[remember] applied/created MEM1');
    const brother = relationship('Erik', 'brother_of', 'Elsa', 'sibling', 'Erik är Elsas bror');
    expect(await say('Erik är Elsas bror.', brother)).to.equal('[remember] applied/created MEM2');
    // The possessor is not the subject: Elsas bror is Erik, not Elsa.
    expect(await say('Elsas bror är läkare.', fact('Elsa', 'is', 'läkare', 'Elsas bror är läkare'))).to.equal(
      '[remember] rejected subject_not_supported',
    );
  });
});
