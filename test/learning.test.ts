import { expect } from 'chai';
import type { MemoryStore } from '@mira/memory-contract';
import { NOT_ASSERTED_WHY, PENDING_NOTE, PROPOSE_REASONS } from '@mira/plugin-memory-tools';
import { modelRuntime, toolMessages, type ModelRuntime, type ModelRuntimeOptions } from './helpers/model-runtime.js';

const DAY = 24 * 60 * 60 * 1000;

describe('supervised learning: proposals from conversation, decided by the operator (real episodes, SDK, SQLite)', function () {
  this.timeout(20_000);
  let m: ModelRuntime;
  let store: MemoryStore;

  beforeEach(() => open());

  /** A fresh runtime with Alice, Bob and Mira, and two memories of Alice. */
  async function open(options: ModelRuntimeOptions = {}) {
    m = await modelRuntime(options);
    store = m.store();
    await store.createEntity({ entityType: 'person', canonicalName: 'Alice' });
    await store.createEntity({ entityType: 'person', canonicalName: 'Bob' });
    await store.createEntity({ entityType: 'robot', canonicalName: 'Mira' });
    await store.createMemory({
      kind: 'preference',
      summary: 'Alice prefers tea',
      predicate: 'prefers',
      value: 'tea',
      sourceKind: 'console',
      links: [{ entityId: 1, role: 'subject' }],
    });
    await store.createMemory({
      kind: 'relationship',
      summary: 'Alice works with Bob',
      predicate: 'works_with',
      value: 'Bob',
      sourceKind: 'console',
      links: [
        { entityId: 1, role: 'subject' },
        { entityId: 2, role: 'colleague' },
      ],
    });
  }
  afterEach(() => m.dispose());

  /** One operator turn in which the model calls `tool` with `args`; the console line and the JSON result. */
  async function call(tool: string, utterance: string, args: Record<string, unknown>) {
    const first = m.server.requests.length;
    m.server.push({ toolCalls: [{ name: tool, arguments: args }] }, { text: 'Noted.' });
    const { output } = await m.say(utterance);
    const content = toolMessages(m.server, first + 1)[0]!;
    return { line: output[0]!, result: JSON.parse(content) as Record<string, unknown>, output };
  }

  /** A rejected call: the whole result, the console line, and nothing durable changed. */
  async function expectRejected(
    tool: string,
    utterance: string,
    args: Record<string, unknown>,
    reason: string,
    extra: Record<string, unknown> = {},
  ) {
    const before = m.snapshot();
    const { line, result } = await call(tool, utterance, args);
    expect(result).to.deep.equal({ status: 'rejected', reason, error: result.error, ...extra });
    expect(result.error).to.be.a('string').and.have.length.within(10, 300);
    expect(line).to.equal(`[${tool}] rejected ${reason}${extra.entity_id ? ` ${extra.entity_id as string}` : ''}`);
    expect(m.snapshot()).to.deep.equal(before);
  }

  const entity = (name: string, evidence: string, entity_type = 'person') => ({ entity_type, name, evidence });
  const supersede = (memory_id: string, value: string, evidence: string) => ({ memory_id, value, evidence });

  describe('propose_entity', () => {
    it('stores a pending proposal, changes no memory, and the accept creates the entity as "memory entity add" would', async () => {
      const before = m.snapshot();
      const { line, result } = await call(
        'propose_entity',
        'Meet Carol. Carol is our new nurse.',
        entity('Carol', 'Carol is our new nurse'),
      );
      expect(result).to.deep.equal({ status: 'pending', proposal_id: 'P1', note: PENDING_NOTE });
      expect(line).to.equal('[propose_entity] pending P1: accept with "memory accept P1"');
      const after = m.snapshot();
      expect({ ...after.counts, proposals: 0 }).to.deep.equal(before.counts);
      expect(after.counts.proposals).to.equal(1);
      expect(await store.findEntities('Carol')).to.deep.equal([]);

      expect((await m.say('memory pending')).output).to.deep.equal([
        'P1 entity person "Carol"',
        '  evidence: "Carol is our new nurse"',
        '  said: "Meet Carol. Carol is our new nurse."',
        '  proposed 2026-05-01T09:00:00.000Z; expires 2026-05-08T09:00:00.000Z',
      ]);
      expect((await m.say('memory accept P1')).output).to.deep.equal(['ENT4 person "Carol"', 'P1 accepted']);
      expect((await m.say('memory entity find "carol"')).output).to.deep.equal(['ENT4 person "Carol"']);
      expect((await m.say('memory pending')).output).to.deep.equal(['no proposals await a decision']);

      // Now remember can admit what the operator says about her.
      const remembered = await call('remember', 'Carol works nights.', {
        kind: 'fact',
        subject: 'Carol',
        predicate: 'works',
        value: 'nights',
        evidence: 'Carol works nights',
        related_entity: null,
        related_role: null,
      });
      expect(remembered.result).to.deep.equal({ status: 'applied', outcome: 'created', memory_id: 'MEM3' });
    });

    it('keeps the operator’s own wording of the name, not the model’s', async () => {
      await call('propose_entity', 'This is Dr. Ōe, our surgeon.', entity('dr. ōe', 'This is Dr. Ōe, our surgeon'));
      expect((await store.getProposal(1))!.name).to.equal('Dr. Ōe');
    });

    it('answers entity_exists with the ID when the name is already known', async () => {
      await store.addAlias(1, 'Ali');
      await expectRejected(
        'propose_entity',
        'Ali is back from holiday.',
        entity('Ali', 'Ali is back from holiday'),
        'entity_exists',
        { entity_id: 'ENT1' },
      );
    });

    const refusals: Array<[string, string, Record<string, unknown>, string]> = [
      [
        'evidence not in the utterance',
        'Meet Carol.',
        entity('Carol', 'Carol is our new nurse'),
        'evidence_not_in_utterance',
      ],
      ['a question', 'Is Carol our new nurse?', entity('Carol', 'Carol our new nurse'), 'evidence_not_asserted'],
      ['a hedge', 'Maybe Carol is our new nurse.', entity('Carol', 'Carol is our new nurse'), 'evidence_not_asserted'],
      [
        "the operator's do-not-keep",
        'Carol is our new nurse, but do not remember that.',
        entity('Carol', 'Carol is our new nurse'),
        'evidence_not_asserted',
      ],
      [
        'a name not in the evidence',
        'Carol is our new nurse.',
        entity('Caroline', 'Carol is our new nurse'),
        'name_not_supported',
      ],
      [
        'a name that is only part of a word',
        'Caroline is our new nurse.',
        entity('Carol', 'Caroline is our new nurse'),
        'name_not_supported',
      ],
      [
        'a bad entity type',
        'Carol is our new nurse.',
        entity('Carol', 'Carol is our new nurse', 'a person'),
        'invalid_proposal',
      ],
      ['an empty name', 'Carol is our new nurse.', entity(' ', 'Carol is our new nurse'), 'invalid_proposal'],
      [
        'a name a thousand times too long',
        'Carol is our new nurse.',
        // Of words the model has a piece for: 257,000 characters of one letter would be 257,000 tokens.
        entity('nurse '.repeat(42_834).slice(0, 257_000), 'Carol is our new nurse'),
        'invalid_proposal',
      ],
    ];
    for (const [what, utterance, args, reason] of refusals) {
      it(`refuses ${what} with ${reason}, changing nothing`, async () => {
        if ((args.name as string).length > 100_000) {
          // 257,000 characters are some 43,000 tokens: a model writes them only under a limit that high (the
          // server cuts an answer at max_tokens, mid-arguments).
          await m.dispose();
          await open({ openai: { max_tokens: 131_072 }, server: { contextTokens: 262_144 } });
        }
        await expectRejected('propose_entity', utterance, args, reason);
      });
    }

    it('refuses a message too long to keep with its proposal, saying so, instead of failing', async () => {
      const long = `Carol is our new nurse. ${'The ward is busy today. '.repeat(400)}`;
      const before = m.snapshot();
      const { result, line } = await call('propose_entity', long, entity('Carol', 'Carol is our new nurse'));
      expect(result).to.deep.equal({
        status: 'rejected',
        reason: 'invalid_proposal',
        error:
          "the operator's message is over 8,000 characters, more than a proposal keeps; ask the operator to state it in a shorter message; nothing was proposed",
      });
      expect(line).to.equal('[propose_entity] rejected invalid_proposal');
      expect(m.snapshot()).to.deep.equal(before);
    });

    it('marks a proposal stale in memory pending once its name is taken, and the accept refuses it', async () => {
      await call('propose_entity', 'Meet Dave. Dave is our porter.', entity('Dave', 'Dave is our porter'));
      await call(
        'propose_supersede',
        'Alice prefers coffee now.',
        supersede('MEM1', 'coffee', 'Alice prefers coffee now'),
      );
      await call(
        'propose_supersede',
        'Alice prefers cocoa now.',
        supersede('MEM1', 'cocoa', 'Alice prefers cocoa now'),
      );
      await m.say('memory entity add person "Dave"');
      await m.say('memory accept P3');
      const listed = (await m.say('memory pending')).output;
      expect(listed.filter((l) => l.startsWith('  stale:'))).to.deep.equal([
        '  stale: ENT4 has this name now; it can no longer be accepted (memory reject P1 clears it)',
        '  stale: MEM1 is superseded now; it can no longer be accepted (memory reject P2 clears it)',
      ]);
      const refused = await m.say('memory accept P1');
      expect(refused.ok).to.equal(false);
      expect(refused.output[0]).to.match(/^error: MIRA_ERR_MEMORY_PROPOSAL_STALE: /);
      expect(await store.findEntities('Dave')).to.have.length(1);
    });

    it('refuses a pronoun as an entity name, in a proposal and on the console', async () => {
      for (const [utterance, name] of [
        ['You are our new nurse.', 'You'],
        ['Yourself is a name here.', 'Yourself'],
        ['Me is the new porter.', 'Me'],
      ] as const) {
        const before = m.snapshot();
        const { result } = await call('propose_entity', utterance, entity(name, utterance.slice(0, -1)));
        expect(result, utterance).to.deep.equal({
          status: 'rejected',
          reason: 'invalid_proposal',
          error:
            'the name is a pronoun (you, me, we…), which means whoever speaks or is spoken to, not one entity (you is the robot itself); nothing was proposed',
        });
        expect(m.snapshot()).to.deep.equal(before);
      }
      const added = await m.say('memory entity add person "you"');
      expect(added.output).to.deep.equal([
        'error: MIRA_ERR_MEMORY_NAME_IS_PRONOUN: "you" is a pronoun: it means whoever speaks or is spoken to, so it cannot be the canonical name of one entity; give the entity\'s own name',
      ]);
      const alias = await m.say('memory alias add ENT1 "ourselves"');
      expect(alias.output[0]).to.match(
        /^error: MIRA_ERR_MEMORY_NAME_IS_PRONOUN: "ourselves" is a pronoun: .* cannot be the alias of one entity/,
      );
    });

    it('names the cue that decided an evidence_not_asserted', async () => {
      for (const [utterance, cue] of [
        ['Maybe Carol is our new nurse.', 'hedge'],
        ['Carol is our new nurse?', 'question'],
        ['Bruno says Carol is our new nurse.', 'reported'],
      ] as const) {
        const { result } = await call('propose_entity', utterance, entity('Carol', 'Carol is our new nurse'));
        expect(result.error, utterance).to.equal(
          `${NOT_ASSERTED_WHY[cue]}; only what the operator states can be proposed; nothing was proposed`,
        );
      }
    });
  });

  describe('propose_supersede', () => {
    it('takes you for the robot when its entity has the profile name as an alias, as remember does', async () => {
      const r = await modelRuntime({ name: 'Rover' });
      try {
        const rover = await r.store().createEntity({ entityType: 'robot', canonicalName: 'Rover Unit Seven' });
        await r.store().addAlias(rover.id, 'Rover');
        await r.store().createMemory({
          kind: 'preference',
          summary: 'Rover prefers quiet rooms',
          predicate: 'prefers',
          value: 'quiet rooms',
          sourceKind: 'console',
          links: [{ entityId: rover.id, role: 'subject' }],
        });
        const first = r.server.requests.length;
        r.server.push(
          {
            toolCalls: [
              {
                name: 'propose_supersede',
                arguments: { memory_id: 'MEM1', value: 'busy rooms', evidence: 'you prefer busy rooms now' },
              },
            ],
          },
          { text: 'Noted.' },
        );
        await r.say('From today you prefer busy rooms now.');
        expect(JSON.parse(toolMessages(r.server, first + 1)[0]!)).to.deep.equal({
          status: 'pending',
          proposal_id: 'P1',
          note: PENDING_NOTE,
        });
      } finally {
        await r.dispose();
      }
    });

    it('proposes, and the accept supersedes the old memory and keeps its history', async () => {
      const { result, line } = await call(
        'propose_supersede',
        'Alice prefers coffee now.',
        supersede('MEM1', 'coffee', 'Alice prefers coffee now'),
      );
      expect(result).to.deep.equal({ status: 'pending', proposal_id: 'P1', note: PENDING_NOTE });
      expect(line).to.equal('[propose_supersede] pending P1: accept with "memory accept P1"');
      expect((await store.getMemory(1))!.status).to.equal('active');
      expect((await m.say('memory pending')).output[0]).to.equal('P1 supersede MEM1 prefers "tea" → "coffee"');

      m.clock.advance(60_000);
      expect((await m.say('memory accept P1')).output).to.deep.equal([
        'MEM3 preference "Alice prefers coffee now" prefers="coffee" [ENT1 subject]',
        'MEM1 superseded by MEM3 (history: memory history MEM3)',
        'P1 accepted',
      ]);
      const history = [
        'MEM1 preference "Alice prefers tea" prefers="tea" [ENT1 subject]',
        '  superseded by MEM3 at 2026-05-01T09:01:00.000Z; created 2026-05-01T09:00:00.000Z from console',
        'MEM3 preference "Alice prefers coffee now" prefers="coffee" [ENT1 subject]',
        '  current; created 2026-05-01T09:01:00.000Z from operator_statement; supersedes MEM1',
      ];
      expect((await m.say('memory history MEM1')).output).to.deep.equal(history);
      expect((await m.say('memory history MEM3')).output).to.deep.equal(history);
      expect((await m.say('memory history ENT1')).output).to.deep.equal([
        'ENT1 person "Alice"',
        ...history.map((l) => `  ${l}`),
        '  MEM2 relationship "Alice works with Bob" works_with="Bob" [ENT1 subject, ENT2 colleague]',
        '    current; created 2026-05-01T09:00:00.000Z from console',
      ]);
      // Lists and recall show the current memory only, and say what it replaced.
      expect((await m.say('memory list ENT1')).output.join('\n')).not.to.contain('MEM1');
      const first = m.server.requests.length;
      m.server.push({ toolCalls: [{ name: 'recall_memory', arguments: { query: 'Alice' } }] }, { text: 'Coffee.' });
      await m.say('What does Alice like?');
      const recall = toolMessages(m.server, first + 1)[0]!;
      expect(recall).to.contain('MEM3 preference: "Alice prefers coffee now"');
      expect(recall).to.contain('supersedes MEM1');
      expect(recall).not.to.contain('"Alice prefers tea"');
      // The new value is now the slot: remember agrees with it, and conflicts with the old one.
      const again = await call('remember', 'Alice prefers tea.', {
        kind: 'preference',
        subject: 'Alice',
        predicate: 'prefers',
        value: 'tea',
        evidence: 'Alice prefers tea',
        related_entity: null,
        related_role: null,
      });
      expect(again.result).to.deep.include({
        status: 'rejected',
        reason: 'conflict',
        conflicting_memory_ids: ['MEM3'],
      });
    });

    it('accepts the memory’s subject by alias, and the robot itself as "you"', async () => {
      await store.addAlias(1, 'Ali');
      expect(
        (await call('propose_supersede', 'Ali prefers cocoa.', supersede('MEM1', 'cocoa', 'Ali prefers cocoa'))).result
          .status,
      ).to.equal('pending');
      await store.createMemory({
        kind: 'fact',
        summary: 'Mira charges at dock A',
        predicate: 'charges_at',
        value: 'dock A',
        sourceKind: 'console',
        links: [{ entityId: 3, role: 'subject' }],
      });
      const you = await call(
        'propose_supersede',
        'You charge at dock B from today.',
        supersede('MEM3', 'dock B', 'You charge at dock B'),
      );
      expect(you.result).to.deep.equal({ status: 'pending', proposal_id: 'P2', note: PENDING_NOTE });
    });

    const refusals: Array<[string, string, Record<string, unknown>, string]> = [
      [
        'a value not in the evidence',
        'Alice prefers coffee now.',
        supersede('MEM1', 'cocoa', 'Alice prefers coffee now'),
        'value_not_supported',
      ],
      [
        "evidence that does not name the memory's subject",
        'Bob prefers coffee now.',
        supersede('MEM1', 'coffee', 'Bob prefers coffee now'),
        'subject_not_supported',
      ],
      [
        'the value it already has',
        'Alice prefers tea.',
        supersede('MEM1', 'tea', 'Alice prefers tea'),
        'value_unchanged',
      ],
      [
        'a memory that does not exist',
        'Alice prefers coffee now.',
        supersede('MEM99', 'coffee', 'Alice prefers coffee now'),
        'memory_not_found',
      ],
      [
        'a relationship',
        'Alice works with Carol now.',
        supersede('MEM2', 'Carol', 'Alice works with Carol now'),
        'memory_not_supersedable',
      ],
      [
        'a malformed memory ID',
        'Alice prefers coffee now.',
        supersede('1', 'coffee', 'Alice prefers coffee now'),
        'invalid_proposal',
      ],
      [
        'a question',
        'Does Alice prefer coffee now?',
        supersede('MEM1', 'coffee', 'Alice prefer coffee now'),
        'evidence_not_asserted',
      ],
      [
        'a condition',
        'If Alice prefers coffee now, make some.',
        supersede('MEM1', 'coffee', 'Alice prefers coffee now'),
        'evidence_not_asserted',
      ],
      [
        'evidence not in the utterance',
        'Alice is here.',
        supersede('MEM1', 'coffee', 'Alice prefers coffee now'),
        'evidence_not_in_utterance',
      ],
    ];
    for (const [what, utterance, args, reason] of refusals) {
      it(`refuses ${what} with ${reason}, changing nothing`, () =>
        expectRejected('propose_supersede', utterance, args, reason));
    }

    it('refuses a memory that was superseded already', async () => {
      await call(
        'propose_supersede',
        'Alice prefers coffee now.',
        supersede('MEM1', 'coffee', 'Alice prefers coffee now'),
      );
      await m.say('memory accept P1');
      await expectRejected(
        'propose_supersede',
        'Alice prefers cocoa now.',
        supersede('MEM1', 'cocoa', 'Alice prefers cocoa now'),
        'memory_not_supersedable',
      );
    });
  });

  describe('the operator decides', () => {
    it('rejects with a reason; a decided proposal cannot be decided again', async () => {
      await call('propose_entity', 'Carol is our new nurse.', entity('Carol', 'Carol is our new nurse'));
      const before = m.snapshot();
      expect((await m.say('memory reject P1 "she is a visitor"')).output).to.deep.equal([
        'P1 rejected: she is a visitor',
      ]);
      const accept = await m.say('memory accept P1');
      expect(accept.ok).to.equal(false);
      expect(accept.output[0]).to.match(/^error: MIRA_ERR_MEMORY_PROPOSAL_DECIDED: P1 was already rejected/);
      expect({ ...m.snapshot().counts }).to.deep.equal(before.counts);
      expect(await store.findEntities('Carol')).to.deep.equal([]);
    });

    it('never applies an expired proposal', async () => {
      await call('propose_entity', 'Carol is our new nurse.', entity('Carol', 'Carol is our new nurse'));
      m.clock.advance(7 * DAY);
      expect((await m.say('memory pending')).output).to.deep.equal([
        'no proposals await a decision',
        '1 expired without a decision and can no longer be accepted: P1 (memory reject P<n> clears one)',
      ]);
      const accept = await m.say('memory accept P1');
      expect(accept.output[0]).to.match(
        /^error: MIRA_ERR_MEMORY_PROPOSAL_EXPIRED: P1 expired at 2026-05-08T09:00:00.000Z/,
      );
      expect(await store.findEntities('Carol')).to.deep.equal([]);
    });

    it('explains a bad or unknown proposal ID', async () => {
      expect((await m.say('memory accept MEM1')).output[0]).to.match(
        /^error: MIRA_ERR_MEMORY_INVALID_ID: "MEM1" is not a proposal id; write P<n>/,
      );
      expect((await m.say('memory reject P7')).output[0]).to.match(
        /^error: MIRA_ERR_MEMORY_PROPOSAL_NOT_FOUND: there is no proposal P7/,
      );
    });
  });

  describe('who may propose', () => {
    it('offers the proposal tools to operator episodes only, once per episode each', async () => {
      m.server.push(
        {
          toolCalls: [
            { name: 'propose_entity', arguments: entity('Carol', 'Carol is our new nurse') },
            { name: 'propose_entity', arguments: entity('Dan', 'Dan is our new porter') },
          ],
        },
        { text: 'Noted.' },
      );
      const { output } = await m.say('Carol is our new nurse. Dan is our new porter.');
      expect(output.slice(0, 2)).to.deep.equal([
        '[propose_entity] pending P1: accept with "memory accept P1"',
        '[propose_entity] rejected invalid_proposal',
      ]);
      expect(m.server.requests[0]!.toolNames).to.include.members(['propose_entity', 'propose_supersede']);
      // A spent budget is said by the result; the tools offered stay the same (the prompt prefix too).
      expect(m.server.requests[1]!.body.tools).to.deep.equal(m.server.requests[0]!.body.tools);

      const before = m.snapshot();
      m.server.push(
        { toolCalls: [{ name: 'propose_entity', arguments: entity('Eve', 'Eve is new') }] },
        { text: 'ok' },
      );
      const lines: string[] = [];
      await m.rt.app.kernel.cognition.run({
        origin: 'attention',
        trigger: 'Eve is new',
        out: { print: (l) => lines.push(l) },
      });
      expect(m.server.requests.at(-2)!.toolNames).not.to.include.members(['propose_entity']);
      expect(m.server.requests.at(-2)!.toolNames).not.to.include('propose_supersede');
      expect(lines[0]).to.equal('[propose_entity] rejected invalid_proposal');
      expect(m.snapshot()).to.deep.equal(before);
    });

    it('has a stable, documented set of reasons', () => {
      expect(PROPOSE_REASONS).to.include.members([
        'evidence_not_in_utterance',
        'evidence_not_asserted',
        'entity_exists',
        'value_unchanged',
        'memory_not_supersedable',
      ]);
    });
  });
});
