import { expect } from 'chai';
import { isMiraError } from '@mira/core';
import { MAX_VALUE_LENGTH, memoryRef, prepareMemory, type Memory, type Proposal } from '@mira/memory-contract';
import { formatIds, parseIds, proposalFromColumns, type ProposalColumns } from '../src/rows.js';
import {
  assertDecidable,
  assertEntityNameFree,
  assertSlotUnchanged,
  prepareProposal,
  rejectReason,
  slotFactIds,
  toProposal,
  writtenMemory,
} from '../src/rules.js';

const NOW = new Date('2026-06-01T08:00:00.000Z');

/** The code and message (without the code before it) a call throws. */
function thrown(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error) {
    if (isMiraError(error)) return { code: error.code, message: error.message.replace(`${error.code}: `, '') };
    throw error;
  }
  throw new Error('expected a MiraError');
}

const entityProposal = {
  kind: 'entity' as const,
  entityType: 'person',
  name: 'Carol',
  evidence: 'Meet Carol',
  utterance: 'Meet Carol.',
};
const supersede = {
  kind: 'supersede' as const,
  memoryId: 7,
  value: 'tea',
  evidence: 'Ada likes tea now',
  utterance: 'Ada likes tea now.',
};

const COLUMNS: ProposalColumns = {
  id: 4,
  kind: 'supersede',
  entity_type: null,
  name: null,
  memory_id: 7,
  value: 'tea',
  slot_ids: '7,12',
  evidence: 'Ada likes tea now',
  utterance: 'Ada likes tea now. And more.',
  decision: 'pending',
  created_at: '2026-06-01T07:00:00.000Z',
  expires_at: '2026-06-08T07:00:00.000Z',
  decided_at: null,
  reason: null,
  result: null,
};

function proposal(overrides: Partial<Proposal> = {}): Proposal {
  return { ...toProposal(proposalFromColumns(COLUMNS), NOW), ...overrides };
}

const memory = (id: number, kind = 'fact', status: Memory['status'] = 'active'): Memory => ({
  id,
  ref: memoryRef(id),
  kind,
  summary: 's',
  predicate: 'likes',
  value: 'v',
  source: { kind: 'console', label: null },
  confidence: null,
  status,
  createdAt: NOW.toISOString(),
  supersededBy: null,
  supersededAt: null,
  supersedes: null,
  links: [],
  payloads: [],
});

describe('the store rules, one by one', () => {
  describe('prepareProposal', () => {
    it('keeps what was said, and expires after the TTL given, or the default', () => {
      const p = prepareProposal({ ...entityProposal, ttlMs: 60_000 }, NOW, 1);
      expect(p).to.include({ kind: 'entity', entityType: 'person', name: 'Carol', nameKey: 'carol', memoryId: null });
      expect(p.expiresAt).to.equal('2026-06-01T08:01:00.000Z');
      expect(prepareProposal(entityProposal, NOW, 1000).expiresAt).to.equal('2026-06-01T08:00:01.000Z');
      const s = prepareProposal(supersede, NOW, 1000);
      expect(s).to.include({ kind: 'supersede', memoryId: 7, value: 'tea', name: null, entityType: null });
    });

    it('refuses an expiry that is not a positive number of milliseconds', () => {
      for (const ttlMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
        expect(thrown(() => prepareProposal({ ...entityProposal, ttlMs }, NOW, 1000))).to.deep.equal({
          code: 'MIRA_ERR_CONFIG_INVALID',
          message: `a proposal's expiry must be positive, not ${ttlMs}`,
        });
      }
      expect(prepareProposal({ ...entityProposal, ttlMs: 1 }, NOW, 1000).expiresAt).to.equal(
        '2026-06-01T08:00:00.001Z',
      );
    });

    it('names the empty or over-long field', () => {
      expect(thrown(() => prepareProposal({ ...entityProposal, evidence: '  ' }, NOW, 1))).to.deep.equal({
        code: 'MIRA_ERR_TEXT_EMPTY',
        message: 'evidence is empty',
      });
      expect(thrown(() => prepareProposal({ ...entityProposal, utterance: '' }, NOW, 1)).message).to.equal(
        'utterance is empty',
      );
      expect(thrown(() => prepareProposal({ ...supersede, value: '' }, NOW, 1)).message).to.equal('value is empty');
      expect(
        thrown(() => prepareProposal({ ...supersede, value: 'x'.repeat(MAX_VALUE_LENGTH + 1) }, NOW, 1)),
      ).to.deep.equal({
        code: 'MIRA_ERR_TEXT_TOO_LONG',
        message: `value is longer than ${MAX_VALUE_LENGTH} characters; shorten it`,
      });
      // Counted in characters, not UTF-16 units: an emoji is one.
      expect(prepareProposal({ ...supersede, value: '😀'.repeat(MAX_VALUE_LENGTH) }, NOW, 1).value).to.have.length(
        2 * MAX_VALUE_LENGTH,
      );
      expect(
        thrown(() => prepareProposal({ ...entityProposal, utterance: 'u'.repeat(8001) }, NOW, 1)).message,
      ).to.equal('utterance is longer than 8000 characters; shorten it');
      expect(thrown(() => prepareProposal({ ...entityProposal, name: '' }, NOW, 1)).code).to.equal(
        'MIRA_ERR_TEXT_EMPTY',
      );
      // Missing (null) as empty: never a default.
      expect(thrown(() => prepareProposal({ ...entityProposal, name: null }, NOW, 1))).to.deep.equal({
        code: 'MIRA_ERR_TEXT_EMPTY',
        message: 'name is empty; give a non-empty name',
      });
      expect(thrown(() => prepareProposal({ ...entityProposal, entityType: null }, NOW, 1)).message).to.include(
        'entity type',
      );
      expect(thrown(() => prepareProposal({ ...entityProposal, evidence: null as never }, NOW, 1)).message).to.equal(
        'evidence is empty',
      );
      expect(thrown(() => prepareProposal({ ...entityProposal, entityType: '' }, NOW, 1)).message).to.include(
        'entity type',
      );
    });

    it('refuses another kind, and a memory ID that is not a positive integer', () => {
      expect(thrown(() => prepareProposal({ ...supersede, kind: 'merge' as never }, NOW, 1))).to.deep.equal({
        code: 'MIRA_ERR_TOKEN_INVALID',
        message: 'a proposal is "entity" or "supersede", not "merge"',
      });
      for (const memoryId of [0, -3, 1.5, Number.NaN]) {
        expect(thrown(() => prepareProposal({ ...supersede, memoryId }, NOW, 1))).to.deep.equal({
          code: 'MIRA_ERR_MEMORY_INVALID_ID',
          message: `memory id ${memoryId} is not a positive integer`,
        });
      }
      expect(prepareProposal({ ...supersede, memoryId: 1 }, NOW, 1).memoryId).to.equal(1);
    });
  });

  it('toProposal: expired once its time has passed undecided, and what was said beyond the evidence hidden then', () => {
    const pending = proposal();
    expect([pending.status, pending.utterance]).to.deep.equal(['pending', 'Ada likes tea now. And more.']);
    const at = proposalFromColumns(COLUMNS);
    const expired = toProposal({ ...at, expiresAt: NOW.toISOString() }, NOW);
    expect([expired.status, expired.utterance]).to.deep.equal(['expired', 'Ada likes tea now']);
    const decided = toProposal({ ...at, decision: 'rejected' }, NOW);
    expect([decided.status, decided.utterance]).to.deep.equal(['rejected', 'Ada likes tea now']);
  });

  it('assertDecidable: a decided proposal says how it was decided; an expired one can be rejected, not accepted', () => {
    expect(thrown(() => assertDecidable(proposal({ decision: 'accepted', result: 'MEM9' }), false))).to.deep.equal({
      code: 'MIRA_ERR_MEMORY_PROPOSAL_DECIDED',
      message: 'P4 was already accepted (MEM9); nothing changed',
    });
    expect(thrown(() => assertDecidable(proposal({ decision: 'rejected' }), true)).message).to.equal(
      'P4 was already rejected; nothing changed',
    );
    const expired = proposal({ status: 'expired' });
    expect(thrown(() => assertDecidable(expired, true)).code).to.equal('MIRA_ERR_MEMORY_PROPOSAL_EXPIRED');
    expect(() => assertDecidable(expired, false)).not.to.throw();
    expect(() => assertDecidable(proposal(), true)).not.to.throw();
  });

  it('slotFactIds: the facts and preferences of a slot, in numeric order', () => {
    expect(slotFactIds([memory(12), memory(9, 'preference'), memory(100), memory(3, 'event')])).to.deep.equal([
      9, 12, 100,
    ]);
    expect(slotFactIds([])).to.deep.equal([]);
  });

  it('assertSlotUnchanged: the same IDs in the same order, and the old memory still active', () => {
    const p = proposal(); // slot 7, 12
    expect(() => assertSlotUnchanged(p, memory(7), [7, 12])).not.to.throw();
    for (const now of [[7], [7, 12, 13], [7, 13], [12, 7]]) {
      expect(thrown(() => assertSlotUnchanged(p, memory(7), now))).to.deep.equal({
        code: 'MIRA_ERR_MEMORY_PROPOSAL_STALE',
        message:
          'P4 replaces MEM7, which has changed its slot since the proposal; nothing was applied. Reject it with "memory reject P4"',
      });
    }
    expect(thrown(() => assertSlotUnchanged(p, memory(7, 'fact', 'superseded'), [7, 12])).message).to.equal(
      'P4 replaces MEM7, which is superseded now since the proposal; nothing was applied. Reject it with "memory reject P4"',
    );
    expect(thrown(() => assertSlotUnchanged(p, undefined, [7, 12])).code).to.equal('MIRA_ERR_MEMORY_PROPOSAL_STALE');
  });

  it('assertEntityNameFree: names who holds the name now, in the right number', () => {
    const p = proposal({ kind: 'entity', name: 'Carol' });
    expect(() => assertEntityNameFree(p, [])).not.to.throw();
    expect(thrown(() => assertEntityNameFree(p, [3])).message).to.equal(
      'P4 proposes "Carol", but ENT3 has that name or alias since the proposal; nothing was applied. Reject it with "memory reject P4"',
    );
    expect(thrown(() => assertEntityNameFree(p, [3, 5])).message).to.include('ENT3, ENT5 have that name');
  });

  it('rejectReason: display form, none for empty, bounded', () => {
    expect(rejectReason(null)).to.equal(null);
    expect(rejectReason(undefined)).to.equal(null);
    expect(rejectReason('   ')).to.equal(null);
    expect(rejectReason('  not   what she said ')).to.equal('not what she said');
    expect(rejectReason('r'.repeat(MAX_VALUE_LENGTH))).to.have.length(MAX_VALUE_LENGTH);
    expect(thrown(() => rejectReason('r'.repeat(MAX_VALUE_LENGTH + 1)))).to.deep.equal({
      code: 'MIRA_ERR_TEXT_TOO_LONG',
      message: `reason is longer than ${MAX_VALUE_LENGTH} characters; shorten it`,
    });
  });

  it('writtenMemory: links ordered by entity, then role, as the stores read them back', () => {
    const m = prepareMemory({
      kind: 'relationship',
      summary: 'Ada and Bob share a dock',
      sourceKind: 'console',
      links: [
        { entityId: 5, role: 'subject' },
        { entityId: 2, role: 'object' },
      ],
    });
    const link = (entityId: number, role: string) => ({ entityId, entityRef: `ENT${entityId}`, entityName: 'x', role });
    const written = writtenMemory(m, {
      id: 3,
      createdAt: NOW.toISOString(),
      links: [link(5, 'subject'), link(2, 'object'), link(5, 'object')] as never,
      payloadId: 1,
      byteSize: 24,
    });
    expect(written.links.map((l) => `${l.entityId}:${l.role}`)).to.deep.equal(['2:object', '5:object', '5:subject']);
    expect(written).to.include({ ref: 'MEM3', status: 'active', supersedes: null });
    expect(written.payloads).to.deep.equal([
      {
        id: 1,
        payloadKind: 'inline_text',
        mediaType: 'text/plain',
        byteSize: 24,
        objectRef: null,
        sha256: null,
        createdAt: NOW.toISOString(),
      },
    ]);
  });

  it('slot_ids are stored comma-separated, as files of every version hold them', () => {
    expect(formatIds([10, 123, 7])).to.equal('10,123,7');
    expect(parseIds('10,123,7')).to.deep.equal([10, 123, 7]);
    expect(parseIds('')).to.deep.equal([]);
    expect(parseIds(null)).to.deep.equal([]);
    expect(proposalFromColumns({ ...COLUMNS, id: '4', memory_id: '7', slot_ids: '10,123' }).slotIds).to.deep.equal([
      10, 123,
    ]);
  });
});
