import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { expect } from 'chai';
import { ManualClock, type MiraError } from '@mira/core';
import type { Memory, MemoryStore, SlotMemory } from '@mira/memory-contract';

/** What a store factory gives the contract suite. */
export interface StoreUnderTest {
  readonly store: MemoryStore;
  /** Closes the store and opens a new instance on the same data (a restart). */
  reopen(): Promise<MemoryStore>;
  /** Releases everything (the data may be deleted). */
  dispose(): Promise<void>;
  /**
   * From now on, reading any payload's body fails (from outside the store, as another connection would
   * arrange it); every other column reads as before.
   */
  makeBodiesUnreadable(): Promise<void>;
  /** Every proposal's utterance column as stored, by ID, read from outside the store. */
  storedUtterances(): Promise<Record<number, string>>;
  /** Changes the stored bytes of an object (from outside the store: a failing disk, a hand edit). */
  corruptObject(sha256: string): Promise<void>;
  /** Deletes an object's bytes from outside the store. */
  removeObject(sha256: string): Promise<void>;
  /** Makes every stored object look `ms` older, as time passing would (from outside the store). */
  ageObjects(ms: number): Promise<void>;
}

/**
 * Where the SQLite store beside `dir` keeps the object `sha256`, as its documented layout says:
 * `objects/sha256/<first two hex digits>/<the other 62>`.
 */
export function objectFile(dir: string, sha256: string): string {
  return join(dir, 'objects', 'sha256', sha256.slice(0, 2), sha256.slice(2));
}

/** Bytes that begin as a PNG image does (its 8-byte signature), `size` long, varied by `seed`. */
export function pngBytes(size: number, seed = 1): Buffer {
  const bytes = Buffer.alloc(size);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  for (let i = 8; i < size; i += 1) bytes[i] = (i * 31 + seed * 17) & 0xff;
  return bytes;
}

/** Makes a fresh, empty store whose timestamps come from `clock`. */
export type StoreFactory = (clock: ManualClock) => Promise<StoreUnderTest>;

/** The error a promise rejects with; fails the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<MiraError> {
  try {
    await promise;
  } catch (error) {
    return error as MiraError;
  }
  throw new Error('expected the call to be rejected');
}

/**
 * The `MemoryStore` contract: every implementation runs these cases.
 *
 * @example
 * describeMemoryStoreContract('SqliteMemoryStore', async (clock) => { … });
 */
export function describeMemoryStoreContract(name: string, factory: StoreFactory): void {
  describe(`MemoryStore contract: ${name}`, () => {
    let clock: ManualClock;
    let sut: StoreUnderTest;
    let store: MemoryStore;

    /**
     * Anna and Anna Maria with a hundred names and aliases between them in the indexes' order (Anna B<i>,
     * each also Anna C<i>): more than one range read of names takes. `each` is called for every one between.
     */
    const annaAmongMany = async (each: (entityId: number, i: number) => Promise<unknown> = async () => {}) => {
      const anna = await store.createEntity({ entityType: 'person', canonicalName: 'Anna' });
      const between: number[] = [];
      for (let i = 0; i < 50; i++) {
        const other = await store.createEntity({ entityType: 'person', canonicalName: `Anna B${i}` });
        await store.addAlias(other.id, `Anna C${i}`);
        between.push(other.id);
        await each(other.id, i);
      }
      const maria = await store.createEntity({ entityType: 'person', canonicalName: 'Anna Maria' });
      return { anna, between, maria };
    };

    beforeEach(async () => {
      clock = new ManualClock('2026-03-01T12:00:00.000Z');
      sut = await factory(clock);
      store = sut.store;
    });
    afterEach(() => sut.dispose());

    describe('#createEntity()', () => {
      it('renders integer keys as ENT<n> in creation order and keeps the display form', async () => {
        const a = await store.createEntity({ entityType: 'person', canonicalName: '  Ada   Lovelace ' });
        const b = await store.createEntity({ entityType: 'Robot', canonicalName: 'Mira' });
        expect([a.ref, b.ref]).to.deep.equal([`ENT${a.id}`, `ENT${b.id}`]);
        expect(b.id).to.be.greaterThan(a.id);
        expect(a.canonicalName).to.equal('Ada Lovelace');
        expect(a.nameKey).to.equal('ada lovelace');
        expect(b.entityType).to.equal('robot');
        expect(a.createdAt).to.equal('2026-03-01T12:00:00.000Z');
      });

      it('rejects a bad entity type, an empty name and control characters', async () => {
        expect((await rejection(store.createEntity({ entityType: 'a person', canonicalName: 'x' }))).code).to.equal(
          'MIRA_ERR_TOKEN_INVALID',
        );
        expect((await rejection(store.createEntity({ entityType: 'person', canonicalName: '   ' }))).code).to.equal(
          'MIRA_ERR_TEXT_EMPTY',
        );
        expect(
          (await rejection(store.createEntity({ entityType: 'person', canonicalName: 'A\u0007da' }))).code,
        ).to.equal('MIRA_ERR_TEXT_CONTROL_CHARACTER');
        expect(
          (await rejection(store.createEntity({ entityType: 'person', canonicalName: 'x'.repeat(257) }))).code,
        ).to.equal('MIRA_ERR_TEXT_TOO_LONG');
        expect((await store.info()).entities).to.equal(0);
      });
    });

    describe('#findEntities()', () => {
      it('matches canonical names and aliases by exact normalised key only', async () => {
        const street = await store.createEntity({ entityType: 'place', canonicalName: 'Hauptstraße' });
        await store.addAlias(street.id, 'Main Street');
        expect((await store.findEntities('HAUPTSTRASSE')).map((e) => e.id)).to.deep.equal([street.id]);
        expect((await store.findEntities(' main\tstreet ')).map((e) => e.id)).to.deep.equal([street.id]);
        for (const near of ['Hauptstrasse ', 'Haupt', 'Main St', 'Main Streets', 'Hauptstrase']) {
          if (near.trim().toLowerCase() === 'hauptstrasse') continue;
          expect(await store.findEntities(near), near).to.deep.equal([]);
        }
      });

      it('returns every exact match in entity-ID order, once each', async () => {
        const one = await store.createEntity({ entityType: 'person', canonicalName: 'Sam' });
        const two = await store.createEntity({ entityType: 'person', canonicalName: 'Samantha' });
        const three = await store.createEntity({ entityType: 'dog', canonicalName: 'SAM' });
        await store.addAlias(two.id, 'sam');
        await store.addAlias(one.id, 'Sammy');
        const found = await store.findEntities('Sam');
        expect(found.map((e) => e.id)).to.deep.equal([one.id, two.id, three.id]);
        expect(await store.findEntityIds(' SAM ')).to.deep.equal([one.id, two.id, three.id]);
        expect(await store.findEntityIds('Sammy')).to.deep.equal([one.id]);
        expect(await store.findEntityIds('Samuel')).to.deep.equal([]);
        expect(found[1]!.aliases.map((a) => a.alias)).to.deep.equal(['sam']);
        // Each name's IDs at once, in the names' order, as findEntityIds gives them one by one.
        expect(await store.findEntityIdsOfEach(['Samuel', ' SAM ', 'Sammy', 'Sam'])).to.deep.equal([
          [],
          [one.id, two.id, three.id],
          [one.id],
          [one.id, two.id, three.id],
        ]);
        expect(await store.findEntityIdsOfEach([])).to.deep.equal([]);
      });

      it('finds each name however the names sort and however many other names lie between them', async () => {
        // A character past U+FFFF sorts before U+E000 in UTF-16 but after it in code points (the indexes' order).
        const pua = await store.createEntity({ entityType: 'thing', canonicalName: 'x\uE000' });
        const emoji = await store.createEntity({ entityType: 'thing', canonicalName: 'x😀' });
        expect(await store.findEntityIdsOfEach(['x\uE000', 'x😀', 'x'])).to.deep.equal([[pua.id], [emoji.id], []]);
        expect(await store.findEntityIdsOfEach(['x😀', 'x\uE000'])).to.deep.equal([[emoji.id], [pua.id]]);
        // A name and its longer names with a hundred names and aliases between them.
        const { anna, between, maria } = await annaAmongMany();
        await store.addAlias(anna.id, 'Anna Maria');
        expect(await store.findEntityIdsOfEach(['Anna', 'Anna Maria', 'Anna Mar', 'Anna B7'])).to.deep.equal([
          [anna.id],
          [anna.id, maria.id],
          [],
          [between[7]!],
        ]);
        expect((await rejection(store.findEntityIdsOfEach(['Sam', '']))).code).to.equal(
          (await rejection(store.findEntityIds(''))).code,
        );
      });
    });

    describe('#findNamedSlot()', () => {
      const said = (
        entityId: number,
        predicate: string,
        value: string,
        others: Array<{ entityId: number; role: string }> = [],
      ) =>
        store.createMemory({
          kind: 'preference',
          summary: `said ${value}`,
          predicate,
          value,
          sourceKind: 'operator_statement',
          links: [{ entityId, role: 'subject' }, ...others],
        });
      /** What admitToSlot hands decide for the slot, read on its own. */
      const slotAlone = async (entityId: number, predicate: string) =>
        (
          (await store.admitToSlot({ entityId, role: 'subject', predicate }, (existing) => ({ answer: existing }))) as {
            answer: SlotMemory[];
          }
        ).answer;

      it('finds each name as findEntityIdsOfEach does, and the slot of the first when one entity has it', async () => {
        const sam = await store.createEntity({ entityType: 'person', canonicalName: 'Sam' });
        const samMaria = await store.createEntity({ entityType: 'person', canonicalName: 'Sam Maria' });
        await store.addAlias(sam.id, 'Sammy');
        const bob = await store.createEntity({ entityType: 'person', canonicalName: 'Bob' });
        const tea = await said(sam.id, 'prefers', 'tea');
        const coffee = await said(sam.id, 'prefers', 'coffee', [{ entityId: bob.id, role: 'friend' }]);
        await said(sam.id, 'likes', 'jazz');
        await said(samMaria.id, 'prefers', 'water');
        const milk = await said(bob.id, 'prefers', 'milk', [{ entityId: sam.id, role: 'friend' }]);
        const names = [' SAM ', 'Sam Maria', 'Sammy', 'Samuel', 'Sam M'];
        const found = await store.findNamedSlot(names, 'subject', 'prefers');
        expect(found.ids).to.deep.equal(await store.findEntityIdsOfEach(names));
        expect(found.ids).to.deep.equal([[sam.id], [samMaria.id], [sam.id], [], []]);
        expect(found.read?.slot).to.deep.equal({ entityId: sam.id, role: 'subject', predicate: 'prefers' });
        // (A memory's links come in no particular order.)
        const linksSorted = (memories: readonly SlotMemory[] | undefined) =>
          memories?.map((m) => ({
            ...m,
            links: [...m.links].sort((a, b) => a.entityId - b.entityId || a.role.localeCompare(b.role)),
          }));
        expect(linksSorted(found.read?.memories)).to.deep.equal(linksSorted(await slotAlone(sam.id, 'prefers')));
        expect(found.read?.memories.map((m) => m.id)).to.deep.equal([tea.id, coffee.id]);
        expect(found.read?.memories[1]!.links).to.have.deep.members([
          { entityId: sam.id, role: 'subject' },
          { entityId: bob.id, role: 'friend' },
        ]);
        // An alias of the same entity is one entity; an empty slot is read as empty; role and predicate are
        // tokens, normalised as a memory's are.
        const byAlias = await store.findNamedSlot(['Sammy', 'Sam'], 'Subject', 'PREFERS');
        expect(byAlias.read?.memories.map((m) => m.id)).to.deep.equal([tea.id, coffee.id]);
        expect((await store.findNamedSlot(['Sam'], 'subject', 'drinks')).read).to.deep.equal({
          slot: { entityId: sam.id, role: 'subject', predicate: 'drinks' },
          memories: [],
        });
        // Under another role, the memories that link the entity in that role.
        const asFriend = await store.findNamedSlot(['Sam'], 'friend', 'prefers');
        expect(asFriend.read?.memories.map((m) => m.id)).to.deep.equal([milk.id]);
        expect(await store.findNamedSlot([], 'subject', 'prefers')).to.deep.equal({ ids: [], read: undefined });
        expect((await rejection(store.findNamedSlot([], 'a role', 'prefers'))).code).to.equal('MIRA_ERR_TOKEN_INVALID');
        // A role or predicate that is no token is refused, naming which.
        const badRole = await rejection(store.findNamedSlot(['Sam'], 'a role', 'prefers'));
        expect(badRole.code).to.equal('MIRA_ERR_TOKEN_INVALID');
        expect(badRole.message).to.match(/\brole\b/);
        const badPredicate = await rejection(store.findNamedSlot(['Sam'], 'subject', 'likes?'));
        expect(badPredicate.code).to.equal('MIRA_ERR_TOKEN_INVALID');
        expect(badPredicate.message).to.match(/\bpredicate\b/);
      });

      it('reads no slot for a name no entity or several entities have', async () => {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        const other = await store.createEntity({ entityType: 'robot', canonicalName: 'Ada 2' });
        await said(ada.id, 'prefers', 'tea');
        expect(await store.findNamedSlot(['Grace'], 'subject', 'prefers')).to.deep.equal({
          ids: [[]],
          read: undefined,
        });
        await store.addAlias(other.id, 'ADA');
        expect(await store.findNamedSlot(['Ada', 'Ada 2'], 'subject', 'prefers')).to.deep.equal({
          ids: [[ada.id, other.id], [other.id]],
          read: undefined,
        });
      });

      it('reads the slot however many names lie between the name and its longer names', async () => {
        const { anna, between, maria } = await annaAmongMany((id, i) => said(id, 'prefers', `tea ${i}`));
        const tea = await said(anna.id, 'prefers', 'tea');
        const names = ['Anna', 'Anna Maria', 'Anna B7'];
        const found = await store.findNamedSlot(names, 'subject', 'prefers');
        expect(found.ids).to.deep.equal([[anna.id], [maria.id], [between[7]!]]);
        expect(found.read?.memories.map((m) => m.id)).to.deep.equal([tea.id]);
        // The name last in byte order, its longer names before it.
        const last = await store.findNamedSlot(['Anna Maria', 'Anna'], 'subject', 'prefers');
        expect(last.ids).to.deep.equal([[maria.id], [anna.id]]);
        expect(last.read).to.deep.equal({
          slot: { entityId: maria.id, role: 'subject', predicate: 'prefers' },
          memories: [],
        });
        // Names and aliases past what one range read takes (aliases are read after names) count too: the
        // name itself an alias.
        const zoe = await store.createEntity({ entityType: 'person', canonicalName: 'Zoe' });
        await store.addAlias(zoe.id, 'Anna Mark');
        await store.addAlias(anna.id, 'Anna Maria');
        const milk = await said(zoe.id, 'prefers', 'milk');
        const aliased = await store.findNamedSlot(['Anna Mark', 'Anna', 'Anna Maria'], 'subject', 'prefers');
        expect(aliased.ids).to.deep.equal([[zoe.id], [anna.id], [anna.id, maria.id]]);
        expect(aliased.read?.memories.map((m) => m.id)).to.deep.equal([milk.id]);
        // …and read no slot for a name that none or several entities have.
        expect(await store.findNamedSlot(['Anna Nobody', 'Anna'], 'subject', 'prefers')).to.deep.equal({
          ids: [[], [anna.id]],
          read: undefined,
        });
        // (Anna Maria is Anna's alias too: two entities.)
        expect(await store.findNamedSlot(['Anna Maria', 'Anna'], 'subject', 'prefers')).to.deep.equal({
          ids: [[anna.id, maria.id], [anna.id]],
          read: undefined,
        });
      });

      it('hands admitToSlot its read, which decides on it, and a write into a slot changed since decides again', async () => {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        await store.createEntity({ entityType: 'person', canonicalName: 'Bob' });
        const slot = { entityId: ada.id, role: 'subject', predicate: 'prefers' };
        const read = (await store.findNamedSlot(['Ada'], 'subject', 'prefers')).read!;
        // Written after the read: a decision to answer is made on the read…
        const coffee = await said(ada.id, 'prefers', 'coffee');
        const tea = {
          kind: 'preference',
          summary: 'Ada prefers tea',
          predicate: 'prefers',
          value: 'tea',
          sourceKind: 'operator_statement',
        };
        const seen: number[][] = [];
        const decide = (existing: readonly SlotMemory[]) => {
          seen.push(existing.map((m) => m.id));
          return existing.length === 0
            ? { create: { ...tea, links: [{ entityId: ada.id, role: 'subject' }] } }
            : { answer: existing.map((m) => m.id) };
        };
        // …and a decision to write is made again under the lock, on what the slot holds by then.
        expect(await store.admitToSlot(slot, decide, read)).to.deep.equal({ answer: [coffee.id] });
        expect(seen).to.deep.equal([[], [coffee.id]]);
        expect((await store.listActiveMemories(ada.id)).memories.map((m) => m.id)).to.deep.equal([coffee.id]);
        // A read of another slot is not taken for this one.
        const bobs = (await store.findNamedSlot(['Bob'], 'subject', 'prefers')).read!;
        seen.length = 0;
        expect(await store.admitToSlot(slot, decide, bobs)).to.deep.equal({ answer: [coffee.id] });
        expect(seen).to.deep.equal([[coffee.id]]);
        const other = (await store.findNamedSlot(['Ada'], 'subject', 'likes')).read!;
        seen.length = 0;
        await store.admitToSlot(slot, decide, other);
        expect(seen).to.deep.equal([[coffee.id]]);
      });
    });

    describe('#addAlias()', () => {
      it('refuses an alias whose key the entity already has, as name or alias', async () => {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada Lovelace' });
        await store.addAlias(ada.id, 'Ada');
        expect((await rejection(store.addAlias(ada.id, 'ADA'))).code).to.equal('MIRA_ERR_MEMORY_ALIAS_EXISTS');
        expect((await rejection(store.addAlias(ada.id, 'ada  lovelace'))).code).to.equal(
          'MIRA_ERR_MEMORY_ALIAS_EXISTS',
        );
        expect((await store.info()).aliases).to.equal(1);
      });

      it('allows an alias that names another entity and says which', async () => {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        const lovelace = await store.createEntity({ entityType: 'person', canonicalName: 'Ada Lovelace' });
        const added = await store.addAlias(lovelace.id, 'ada');
        expect(added.alsoNames.map((e) => e.id)).to.deep.equal([ada.id]);
        expect(added.alias.alias).to.equal('ada');
      });

      it('refuses an unknown entity', async () => {
        expect((await rejection(store.addAlias(999, 'x'))).code).to.equal('MIRA_ERR_MEMORY_ENTITY_NOT_FOUND');
      });
    });

    describe('#createMemory()', () => {
      it('stores links, provenance and exactly one inline text/plain payload holding the summary', async () => {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        const tea = await store.createEntity({ entityType: 'drink', canonicalName: 'Tea' });
        clock.advance(1000);
        const memory = await store.createMemory({
          kind: 'Preference',
          summary: ' Ada   prefers tea ',
          links: [
            { entityId: tea.id, role: 'Object' },
            { entityId: ada.id, role: 'subject' },
          ],
          predicate: 'Prefers',
          value: 'tea',
          sourceKind: 'console',
          sourceLabel: 'kitchen log',
          confidence: 0.75,
        });
        expect(memory.ref).to.equal(`MEM${memory.id}`);
        expect(memory).to.deep.include({
          kind: 'preference',
          summary: 'Ada prefers tea',
          predicate: 'prefers',
          value: 'tea',
          confidence: 0.75,
          status: 'active',
        });
        expect(memory.source).to.deep.equal({ kind: 'console', label: 'kitchen log' });
        expect(memory.createdAt).to.equal('2026-03-01T12:00:01.000Z');
        expect(memory.links.map((l) => [l.entityId, l.role, l.entityName])).to.deep.equal([
          [ada.id, 'subject', 'Ada'],
          [tea.id, 'object', 'Tea'],
        ]);
        expect(memory.payloads).to.have.length(1);
        expect(memory.payloads[0]).to.deep.include({
          payloadKind: 'inline_text',
          mediaType: 'text/plain',
          byteSize: 15,
          objectRef: null,
          sha256: null,
        });
        const payloads = await store.getPayloads(memory.id);
        expect(payloads.map((p) => p.text)).to.deep.equal(['Ada prefers tea']);
      });

      it('counts payload size in UTF-8 bytes', async () => {
        const memory = await store.createMemory({ kind: 'fact', summary: 'Grüße 👋', sourceKind: 'console' });
        expect(memory.payloads[0]!.byteSize).to.equal(Buffer.byteLength('Grüße 👋'));
      });

      for (const [what, input, code] of [
        ['confidence above 1', { confidence: 1.01 }, 'MIRA_ERR_MEMORY_CONFIDENCE_RANGE'],
        ['confidence below 0', { confidence: -0.1 }, 'MIRA_ERR_MEMORY_CONFIDENCE_RANGE'],
        ['confidence NaN', { confidence: Number.NaN }, 'MIRA_ERR_MEMORY_CONFIDENCE_RANGE'],
        ['a bad kind', { kind: 'two words' }, 'MIRA_ERR_TOKEN_INVALID'],
        ['a bad predicate', { predicate: 'likes-tea' }, 'MIRA_ERR_TOKEN_INVALID'],
        ['a bad role', { links: [{ entityId: 1, role: '' }] }, 'MIRA_ERR_TOKEN_INVALID'],
        [
          'a link to a missing entity',
          { links: [{ entityId: 424242, role: 'subject' }] },
          'MIRA_ERR_MEMORY_ENTITY_NOT_FOUND',
        ],
        ['a value without predicate', { value: 'tea' }, 'MIRA_ERR_MEMORY_VALUE_WITHOUT_PREDICATE'],
        ['an empty summary', { summary: ' ' }, 'MIRA_ERR_TEXT_EMPTY'],
        ['a summary with a bidi override', { summary: 'evil \u202e text' }, 'MIRA_ERR_TEXT_CONTROL_CHARACTER'],
      ] as const) {
        it(`rejects ${what} and writes nothing`, async () => {
          await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
          const error = await rejection(
            store.createMemory({ kind: 'fact', summary: 'Ada likes tea', sourceKind: 'console', ...input }),
          );
          expect(error.code).to.equal(code);
          const info = await store.info();
          expect([info.memories, info.links, info.payloads]).to.deep.equal([0, 0, 0]);
        });
      }
    });

    describe('recall reads no payload bodies', () => {
      it('finds, lists, gets and shows memories with their payload metadata while bodies cannot be read', async () => {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        const tea = await store.createMemory({
          kind: 'fact',
          summary: 'Ada drinks green tea',
          predicate: 'drinks',
          value: 'green tea',
          sourceKind: 'console',
          links: [{ entityId: ada.id, role: 'subject' }],
        });
        await sut.makeBodiesUnreadable();
        expect((await store.findEntities('ada')).map((e) => e.id)).to.deep.equal([ada.id]);
        const { memories } = await store.listActiveMemories(ada.id, { newest: 8 });
        expect(memories.map((m) => m.id)).to.deep.equal([tea.id]);
        const [of] = await store.listActiveMemoriesOf([ada.id], { newest: 8 });
        expect(of!.memories).to.deep.equal(memories);
        expect((await store.listMemoryHistory(ada.id)).map((m) => m.id)).to.deep.equal([tea.id]);
        expect((await store.findActiveBySlot(ada.id, 'subject', 'drinks')).map((m) => m.id)).to.deep.equal([tea.id]);
        expect(memories[0]!.payloads).to.have.length(1);
        expect(memories[0]!.payloads[0]).to.deep.include({ payloadKind: 'inline_text', mediaType: 'text/plain' });
        expect((await store.getMemory(tea.id))!.payloads).to.have.length(1);
        // Only asking for the bodies reads them, and that now fails.
        let failed = false;
        await store.getPayloads(tea.id).catch(() => (failed = true));
        expect(failed).to.equal(true);
      });
    });

    describe('#listActiveMemories()', () => {
      it('returns the newest N in ascending ID order with the total', async () => {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        const ids: number[] = [];
        for (let i = 0; i < 12; i += 1) {
          ids.push(
            (
              await store.createMemory({
                kind: 'fact',
                summary: `fact ${i}`,
                sourceKind: 'console',
                links: [{ entityId: ada.id, role: 'subject' }],
              })
            ).id,
          );
        }
        const newest = await store.listActiveMemories(ada.id, { newest: 8 });
        expect(newest.total).to.equal(12);
        expect(newest.memories.map((m) => m.id)).to.deep.equal(ids.slice(4));
        const all = await store.listActiveMemories(ada.id);
        expect(all.memories.map((m) => m.id)).to.deep.equal(ids);
      });

      it('lists several entities at once, in the order asked, as listing each would', async () => {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        const bob = await store.createEntity({ entityType: 'person', canonicalName: 'Bob' });
        const eve = await store.createEntity({ entityType: 'person', canonicalName: 'Eve' });
        for (let i = 0; i < 5; i += 1) {
          await store.createMemory({
            kind: 'fact',
            summary: `Ada fact ${i}`,
            sourceKind: 'console',
            links: [{ entityId: ada.id, role: 'subject' }],
          });
        }
        // One memory about two entities shows under each.
        await store.createMemory({
          kind: 'fact',
          summary: 'Bob met Ada',
          sourceKind: 'console',
          links: [
            { entityId: bob.id, role: 'subject' },
            { entityId: ada.id, role: 'object' },
          ],
        });
        const asked = [bob.id, 424242, ada.id, eve.id];
        const together = await store.listActiveMemoriesOf(asked, { newest: 3 });
        const oneByOne = [];
        for (const id of asked) oneByOne.push(await store.listActiveMemories(id, { newest: 3 }));
        expect(together).to.deep.equal(oneByOne);
        expect(together.map((n) => [n.memories.length, n.total])).to.deep.equal([
          [1, 1],
          [0, 0],
          [3, 6],
          [0, 0],
        ]);
        expect(together[2]!.memories.map((m) => m.summary)).to.deep.equal(['Ada fact 3', 'Ada fact 4', 'Bob met Ada']);
        expect(await store.listActiveMemoriesOf([ada.id])).to.deep.equal([await store.listActiveMemories(ada.id)]);
        expect(await store.listActiveMemoriesOf([])).to.deep.equal([]);
      });

      it('links an entity at most once per memory: two roles for one entity are refused, nothing written', async () => {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        const error = await rejection(
          store.createMemory({
            kind: 'fact',
            summary: 'Ada taught Ada',
            sourceKind: 'console',
            links: [
              { entityId: ada.id, role: 'subject' },
              { entityId: ada.id, role: 'object' },
            ],
          }),
        );
        expect(error.code).to.equal('MIRA_ERR_MEMORY_LINK_INVALID');
        expect(error.message).to.contain(
          `ENT${ada.id} is linked twice, as subject and as object; link an entity once per memory`,
        );
        const info = await store.info();
        expect([info.memories, info.links, info.payloads]).to.deep.equal([0, 0, 0]);
      });
    });

    describe('#recall()', () => {
      it('answers what findEntities and listActiveMemoriesOf of the first entities answer', async () => {
        const sams = [];
        for (let i = 0; i < 3; i += 1)
          sams.push(await store.createEntity({ entityType: 'person', canonicalName: 'Sam' }));
        const samuel = await store.createEntity({ entityType: 'person', canonicalName: 'Samuel' });
        await store.addAlias(samuel.id, 'SAM');
        await store.addAlias(samuel.id, 'Sammy');
        const kitchen = await store.createEntity({ entityType: 'place', canonicalName: 'Kitchen' });
        for (let i = 0; i < 5; i += 1) {
          await store.createMemory({
            kind: i % 2 ? 'preference' : 'fact',
            summary: `Sam fact ${i}`,
            predicate: `p_${i}`,
            value: i === 3 ? null : `v ${i}`,
            sourceKind: 'console',
            sourceLabel: i === 1 ? 'the operator' : null,
            confidence: i === 2 ? 0.7 : null,
            links: [
              { entityId: sams[i % 2 === 0 ? 0 : 2]!.id, role: 'subject' },
              { entityId: kitchen.id, role: 'location' },
            ],
          });
        }
        await store.createMemory({
          kind: 'fact',
          summary: 'Samuel met Sam',
          sourceKind: 'console',
          links: [
            { entityId: samuel.id, role: 'subject' },
            { entityId: sams[0]!.id, role: 'object' },
          ],
        });
        const found = await store.findEntities('sam');
        expect(found.map((e) => e.id)).to.deep.equal([...sams.map((e) => e.id), samuel.id]);
        for (const entities of [1, 3, 4, 5]) {
          const recalled = await store.recall('sam', { entities, newest: 2 });
          expect(recalled).to.deep.equal({
            entities: found,
            newest: await store.listActiveMemoriesOf(
              found.slice(0, entities).map((e) => e.id),
              { newest: 2 },
            ),
          });
        }
        const three = await store.recall('sam', { entities: 3, newest: 2 });
        expect(three.newest.map((n) => [n.memories.map((m) => m.summary), n.total])).to.deep.equal([
          [['Sam fact 4', 'Samuel met Sam'], 4],
          [[], 0],
          [['Sam fact 1', 'Sam fact 3'], 2],
        ]);
        expect(await store.recall('Nobody', { entities: 5, newest: 8 })).to.deep.equal({ entities: [], newest: [] });
      });

      it('refuses a name findEntities refuses, with the same code', async () => {
        const name = 'x'.repeat(257);
        const [recall, find] = [
          await rejection(store.recall(name, { entities: 5, newest: 8 })),
          await rejection(store.findEntities(name)),
        ];
        expect(recall.code).to.equal(find.code);
      });
    });

    describe('#findActiveBySlot()', () => {
      it('finds active memories of one entity, role and predicate', async () => {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        const bob = await store.createEntity({ entityType: 'person', canonicalName: 'Bob' });
        const m1 = await store.createMemory({
          kind: 'preference',
          summary: 'Ada prefers tea',
          predicate: 'prefers',
          value: 'tea',
          sourceKind: 'console',
          links: [{ entityId: ada.id, role: 'subject' }],
        });
        await store.createMemory({
          kind: 'preference',
          summary: 'Bob prefers tea',
          predicate: 'prefers',
          value: 'tea',
          sourceKind: 'console',
          links: [{ entityId: bob.id, role: 'subject' }],
        });
        await store.createMemory({
          kind: 'fact',
          summary: 'Ada lives here',
          predicate: 'lives_in',
          value: 'here',
          sourceKind: 'console',
          links: [{ entityId: ada.id, role: 'subject' }],
        });
        expect((await store.findActiveBySlot(ada.id, 'subject', 'prefers')).map((m) => m.id)).to.deep.equal([m1.id]);
        expect(await store.findActiveBySlot(ada.id, 'object', 'prefers')).to.deep.equal([]);
      });
    });

    describe('#admitToSlot()', () => {
      const tea = (entityId: number) => ({
        kind: 'preference',
        summary: 'Ada prefers tea',
        predicate: 'prefers',
        value: 'tea',
        sourceKind: 'operator_statement',
        links: [{ entityId, role: 'subject' }],
      });

      it('hands decide the slot and writes the memory it returns, which is in the slot from then on', async () => {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        const seen: number[][] = [];
        const first = await store.admitToSlot(
          { entityId: ada.id, role: 'subject', predicate: 'prefers' },
          (existing) => {
            seen.push(existing.map((m) => m.id));
            return { create: tea(ada.id) };
          },
        );
        expect('created' in first && first.created.summary).to.equal('Ada prefers tea');
        const second = await store.admitToSlot(
          { entityId: ada.id, role: 'subject', predicate: 'prefers' },
          (existing) => {
            seen.push(existing.map((m) => m.id));
            return { answer: 'duplicate' };
          },
        );
        expect(second).to.deep.equal({ answer: 'duplicate' });
        expect(seen).to.deep.equal([[], ['created' in first ? first.created.id : -1]]);
        expect((await store.listActiveMemories(ada.id)).memories).to.have.length(1);
      });

      it('writes nothing when decide answers, throws, or returns an invalid memory', async () => {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        const slot = { entityId: ada.id, role: 'subject', predicate: 'prefers' };
        expect(await store.admitToSlot(slot, () => ({ answer: 42 }))).to.deep.equal({ answer: 42 });
        let thrown: unknown;
        try {
          await store.admitToSlot(slot, () => {
            throw new Error('decided badly');
          });
        } catch (error) {
          thrown = error;
        }
        expect(thrown).to.be.instanceOf(Error);
        let code: string | undefined;
        try {
          await store.admitToSlot(slot, () => ({ create: { ...tea(ada.id), confidence: 7 } }));
        } catch (error) {
          code = (error as MiraError).code;
        }
        expect(code).to.equal('MIRA_ERR_MEMORY_CONFIDENCE_RANGE');
        expect((await store.listActiveMemories(ada.id)).memories).to.deep.equal([]);
      });

      it('writes a memory of several links as createMemory does: each link named, sorted by entity', async () => {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        const bob = await store.createEntity({ entityType: 'person', canonicalName: 'Bob' });
        const cat = await store.createEntity({ entityType: 'pet', canonicalName: 'Cat' });
        const links = [
          { entityId: ada.id, role: 'subject' },
          { entityId: cat.id, role: 'pet' },
          { entityId: bob.id, role: 'friend' },
        ];
        const knows = { kind: 'relationship', summary: 'Ada and Bob share Cat', predicate: 'shares', value: 'Cat' };
        const outcome = await store.admitToSlot({ entityId: ada.id, role: 'subject', predicate: 'shares' }, () => ({
          create: { ...knows, sourceKind: 'operator_statement', links },
        }));
        const created = 'created' in outcome ? outcome.created : undefined;
        expect(created?.links.map((l) => [l.entityName, l.role])).to.deep.equal([
          ['Ada', 'subject'],
          ['Bob', 'friend'],
          ['Cat', 'pet'],
        ]);
        expect(created).to.deep.equal(await store.getMemory(created!.id));
        const direct = await store.createMemory({ ...knows, sourceKind: 'operator_statement', links });
        const shape = (m: Memory) => ({ ...m, id: 0, ref: '', payloads: m.payloads.map((p) => ({ ...p, id: 0 })) });
        expect(shape(created!)).to.deep.equal(shape(direct));
      });

      it('refuses a memory linked to an entity that does not exist, writing nothing', async () => {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        const before = await store.info();
        let code: string | undefined;
        try {
          await store.admitToSlot({ entityId: ada.id, role: 'subject', predicate: 'prefers' }, () => ({
            create: { ...tea(ada.id), links: [...tea(ada.id).links, { entityId: 9999, role: 'friend' }] },
          }));
        } catch (error) {
          code = (error as MiraError).code;
        }
        expect(code).to.equal('MIRA_ERR_MEMORY_ENTITY_NOT_FOUND');
        expect((await store.listActiveMemories(ada.id)).memories).to.deep.equal([]);
        expect(await store.info()).to.deep.equal(before);
      });
    });

    describe('details every caller relies on', () => {
      const fact = (entityId: number, summary: string, extra: Record<string, unknown> = {}) =>
        store.createMemory({
          kind: 'fact',
          summary,
          sourceKind: 'console',
          links: [{ entityId, role: 'subject' }],
          ...extra,
        });

      it('answers the alias it added (not the first), with the entity holding all its aliases', async () => {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada Lovelace' });
        const first = await store.addAlias(ada.id, 'Ada');
        clock.advance(5000);
        const second = await store.addAlias(ada.id, ' Countess ');
        expect(second.alias).to.deep.equal({
          id: second.alias.id,
          entityId: ada.id,
          alias: 'Countess',
          aliasKey: 'countess',
          createdAt: '2026-03-01T12:00:05.000Z',
        });
        expect(second.alias.id).to.be.greaterThan(first.alias.id);
        expect(second.entity.aliases.map((a) => a.alias)).to.deep.equal(['Ada', 'Countess']);
        expect(second.alsoNames).to.deep.equal([]);
        expect(await store.getEntity(ada.id)).to.deep.equal(second.entity);
      });

      it('lists no memories for newest: 0 but still counts them; a larger newest lists all', async () => {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        const ids = [(await fact(ada.id, 'one')).id, (await fact(ada.id, 'two')).id, (await fact(ada.id, 'three')).id];
        expect(await store.listActiveMemories(ada.id, { newest: 0 })).to.deep.equal({ memories: [], total: 3 });
        const one = await store.listActiveMemories(ada.id, { newest: 1 });
        expect([one.memories.map((m) => m.id), one.total]).to.deep.equal([[ids[2]], 3]);
        const many = await store.listActiveMemories(ada.id, { newest: 50 });
        expect([many.memories.map((m) => m.id), many.total]).to.deep.equal([ids, 3]);
        expect(await store.listActiveMemories(424242)).to.deep.equal({ memories: [], total: 0 });
      });

      it('counts every row in info, the active memories apart', async () => {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        const bob = await store.createEntity({ entityType: 'person', canonicalName: 'Bob' });
        await store.addAlias(ada.id, 'Countess');
        const tea = await fact(ada.id, 'Ada prefers tea', { kind: 'preference', predicate: 'prefers', value: 'tea' });
        await store.createMemory({
          kind: 'relationship',
          summary: 'Ada knows Bob',
          sourceKind: 'console',
          links: [
            { entityId: ada.id, role: 'subject' },
            { entityId: bob.id, role: 'friend' },
          ],
        });
        await store.acceptProposal(
          (
            await store.createProposal({
              kind: 'supersede',
              memoryId: tea.id,
              value: 'cocoa',
              evidence: 'Ada prefers cocoa',
              utterance: 'Ada prefers cocoa',
            })
          ).id,
        );
        expect(await store.info()).to.deep.include({
          entities: 2,
          aliases: 1,
          memories: 3,
          activeMemories: 2,
          links: 4,
          payloads: 3,
        });
      });

      it('moves the revision with every write and not with a read', async () => {
        const r0 = await store.revision();
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        const r1 = await store.revision();
        await store.findEntities('Ada');
        await store.listActiveMemories(ada.id);
        expect(await store.revision()).to.equal(r1);
        await fact(ada.id, 'Ada writes');
        const r2 = await store.revision();
        await store.addAlias(ada.id, 'Countess');
        const r3 = await store.revision();
        const p = await store.createProposal({
          kind: 'entity',
          entityType: 'person',
          name: 'Carol',
          evidence: 'Carol',
          utterance: 'Carol',
        });
        const r4 = await store.revision();
        await store.rejectProposal(p.id);
        const r5 = await store.revision();
        expect(new Set([r0, r1, r2, r3, r4, r5]).size).to.equal(6);
      });

      it('pages entities in ID order, of one type if asked, keeping the page size within 1 to 500', async () => {
        const made = [];
        for (let i = 0; i < 7; i += 1)
          made.push(await store.createEntity({ entityType: i % 2 ? 'robot' : 'person', canonicalName: `E${i}` }));
        const page = await store.listEntities({ offset: 2, limit: 3 });
        expect([page.entities.map((e) => e.canonicalName), page.total]).to.deep.equal([['E2', 'E3', 'E4'], 7]);
        const robots = await store.listEntities({ entityType: 'robot' });
        expect([robots.entities.map((e) => e.canonicalName), robots.total]).to.deep.equal([['E1', 'E3', 'E5'], 3]);
        expect((await store.listEntities({ limit: 0 })).entities.map((e) => e.canonicalName)).to.deep.equal(['E0']);
        expect((await store.listEntities({ offset: -5, limit: 2 })).entities.map((e) => e.canonicalName)).to.deep.equal(
          ['E0', 'E1'],
        );
        expect((await store.listEntities()).entities).to.have.length(7);
        expect((await store.listEntities({ entityType: 'ghost' })).total).to.equal(0);
        for (let i = 7; i < 505; i += 1) await store.createEntity({ entityType: 'thing', canonicalName: `T${i}` });
        expect((await store.listEntities({ limit: 10_000 })).entities).to.have.length(500);
        expect((await store.listEntities()).entities).to.have.length(50);
      });

      it('finds IDs by name and by alias, each once, in ID order', async () => {
        const a = await store.createEntity({ entityType: 'person', canonicalName: 'Sam' });
        const b = await store.createEntity({ entityType: 'dog', canonicalName: 'Rex' });
        await store.addAlias(b.id, 'SAM');
        const c = await store.createEntity({ entityType: 'person', canonicalName: 'Samuel' });
        await store.addAlias(c.id, 'sam');
        expect(await store.findEntityIds('sAm')).to.deep.equal([a.id, b.id, c.id]);
        expect((await store.findEntities('sam')).map((e) => e.id)).to.deep.equal([a.id, b.id, c.id]);
        expect(await store.findEntityIds('Sa m')).to.deep.equal([]);
      });

      it('reads payload bodies and misses cleanly', async () => {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        const m = await fact(ada.id, 'Ada writes', { payloadText: 'Ada writes notes' });
        expect((await store.getPayloads(m.id)).map((p) => [p.text, p.byteSize])).to.deep.equal([
          ['Ada writes notes', 16],
        ]);
        expect(await store.getPayloads(424242)).to.deep.equal([]);
        expect(await store.getMemory(424242)).to.equal(undefined);
        expect(await store.getEntity(424242)).to.equal(undefined);
        expect(await store.getProposal(424242)).to.equal(undefined);
      });

      it('names the field and the entity in every refusal, in the same words on every backend', async () => {
        const message = async (promise: Promise<unknown>) => (await rejection(promise)).message;
        expect(await message(store.createEntity({ entityType: 'a person', canonicalName: 'Ada' }))).to.match(
          /^MIRA_ERR_TOKEN_INVALID: entity type must be a token/,
        );
        expect(await message(store.createEntity({ entityType: 'person', canonicalName: ' ' }))).to.match(
          /^MIRA_ERR_TEXT_EMPTY: canonical name is empty/,
        );
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada Lovelace' });
        expect(await message(store.addAlias(ada.id, '\t'))).to.match(
          /^MIRA_ERR_TEXT_CONTROL_CHARACTER: alias contains/,
        );
        expect(await message(store.addAlias(ada.id, 'ADA  LOVELACE'))).to.equal(
          `MIRA_ERR_MEMORY_ALIAS_EXISTS: ${ada.ref} "Ada Lovelace" is already named "ADA LOVELACE" (same exact key); nothing was added`,
        );
        expect(await message(store.addAlias(999, 'Ada'))).to.equal(
          'MIRA_ERR_MEMORY_ENTITY_NOT_FOUND: there is no entity ENT999; find one with "memory entity find"',
        );
        expect(
          await message(
            store.createMemory({
              kind: 'fact',
              summary: 'x',
              sourceKind: 'console',
              links: [{ entityId: 77, role: 'subject' }],
            }),
          ),
        ).to.equal('MIRA_ERR_MEMORY_ENTITY_NOT_FOUND: there is no entity ENT77; find one with "memory entity find"');
        const twin = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        await store.addAlias(twin.id, 'Countess');
        await store.addAlias(ada.id, 'Countess');
        expect(
          await message(
            store.createProposal({
              kind: 'entity',
              entityType: 'person',
              name: 'countess',
              evidence: 'x',
              utterance: 'x',
            }),
          ),
        ).to.equal(
          `MIRA_ERR_MEMORY_ENTITY_EXISTS: "countess" already names ${ada.ref}, ${twin.ref}; nothing was proposed`,
        );
        await store.close();
        expect(await message(store.info())).to.equal('MIRA_ERR_MEMORY_CLOSED: the memory store is closed');
      });

      it('refuses every call once closed, with MIRA_ERR_MEMORY_CLOSED', async () => {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        await store.close();
        const calls: Array<() => Promise<unknown>> = [
          () => store.info(),
          () => store.createEntity({ entityType: 'person', canonicalName: 'Bob' }),
          () => store.addAlias(ada.id, 'Countess'),
          () => store.getEntity(ada.id),
          () => store.findEntities('Ada'),
          () => store.findEntityIds('Ada'),
          () => store.listEntities(),
          () => store.revision(),
          () => store.createMemory({ kind: 'fact', summary: 'x', sourceKind: 'console' }),
          () => store.getMemory(1),
          () => store.getPayloads(1),
          () => store.listActiveMemories(ada.id),
          () => store.findActiveBySlot(ada.id, 'subject', 'prefers'),
          () => store.admitToSlot({ entityId: ada.id, role: 'subject', predicate: 'p' }, () => ({ answer: 1 })),
          () => store.listMemoryHistory(ada.id),
          () =>
            store.createProposal({ kind: 'entity', entityType: 'person', name: 'C', evidence: 'C', utterance: 'C' }),
          () => store.getProposal(1),
          () => store.listProposals(),
          () => store.acceptProposal(1),
          () => store.rejectProposal(1),
        ];
        for (const call of calls) expect((await rejection(call())).code).to.equal('MIRA_ERR_MEMORY_CLOSED');
        await store.close(); // twice is fine
      });
    });

    describe('proposals', () => {
      const DAY = 24 * 60 * 60 * 1000;
      const said = 'Alice prefers coffee now.';
      async function aliceWithTea() {
        const alice = await store.createEntity({ entityType: 'person', canonicalName: 'Alice' });
        const tea = await store.createMemory({
          kind: 'preference',
          summary: 'Alice prefers tea',
          predicate: 'prefers',
          value: 'tea',
          sourceKind: 'console',
          links: [{ entityId: alice.id, role: 'subject' }],
        });
        return { alice, tea };
      }
      const supersede = (memoryId: number, value = 'coffee') => ({
        kind: 'supersede' as const,
        memoryId,
        value,
        evidence: 'Alice prefers coffee now',
        utterance: said,
      });

      it('stores an entity proposal as pending and changes nothing else; accept creates the entity', async () => {
        const before = await store.info();
        const p = await store.createProposal({
          kind: 'entity',
          entityType: 'Person',
          name: ' Carol ',
          evidence: 'Carol is our new nurse',
          utterance: 'Meet Carol. Carol is our new nurse.',
        });
        expect(p).to.deep.include({
          ref: `P${p.id}`,
          kind: 'entity',
          status: 'pending',
          decision: 'pending',
          entityType: 'person',
          name: 'Carol',
          memoryId: null,
          value: null,
          evidence: 'Carol is our new nurse',
          utterance: 'Meet Carol. Carol is our new nurse.',
          createdAt: '2026-03-01T12:00:00.000Z',
          expiresAt: '2026-03-08T12:00:00.000Z',
          decidedAt: null,
          reason: null,
          result: null,
        });
        expect(await store.info()).to.deep.equal(before);
        expect(await store.findEntities('Carol')).to.deep.equal([]);
        expect((await store.listProposals({ status: 'pending' })).map((x) => x.ref)).to.deep.equal([p.ref]);

        clock.advance(60_000);
        const accepted = await store.acceptProposal(p.id);
        if (!('entity' in accepted)) throw new Error('expected an entity');
        expect(accepted.entity).to.deep.include({
          entityType: 'person',
          canonicalName: 'Carol',
          nameKey: 'carol',
          createdAt: '2026-03-01T12:01:00.000Z',
        });
        expect(await store.findEntities('carol')).to.deep.equal([accepted.entity]);
        expect(accepted.proposal).to.deep.include({
          status: 'accepted',
          decidedAt: '2026-03-01T12:01:00.000Z',
          result: accepted.entity.ref,
        });
        expect((await rejection(store.acceptProposal(p.id))).code).to.equal('MIRA_ERR_MEMORY_PROPOSAL_DECIDED');
        expect((await rejection(store.rejectProposal(p.id))).code).to.equal('MIRA_ERR_MEMORY_PROPOSAL_DECIDED');
        expect((await store.info()).entities).to.equal(before.entities + 1);
      });

      it('refuses an entity proposal for a name that already names an entity, storing nothing', async () => {
        const { alice } = await aliceWithTea();
        await store.addAlias(alice.id, 'Ali');
        const error = await rejection(
          store.createProposal({ kind: 'entity', entityType: 'person', name: 'ALI', evidence: 'x', utterance: 'x' }),
        );
        expect(error.code).to.equal('MIRA_ERR_MEMORY_ENTITY_EXISTS');
        expect(error.message).to.contain(alice.ref);
        expect(await store.listProposals()).to.deep.equal([]);
      });

      it('refuses as stale an entity proposal whose name or alias was taken since, changing nothing', async () => {
        const p = await store.createProposal({
          kind: 'entity',
          entityType: 'person',
          name: 'Dave',
          evidence: 'Dave',
          utterance: 'Dave',
        });
        const q = await store.createProposal({
          kind: 'entity',
          entityType: 'person',
          name: 'Davy',
          evidence: 'Davy',
          utterance: 'Davy',
        });
        const dave = await store.createEntity({ entityType: 'person', canonicalName: 'DAVE' });
        await store.addAlias(dave.id, 'Davy');
        const before = await store.info();
        for (const proposal of [p, q]) {
          const error = await rejection(store.acceptProposal(proposal.id));
          expect(error.code).to.equal('MIRA_ERR_MEMORY_PROPOSAL_STALE');
          expect(error.message).to.contain(
            `${proposal.ref} proposes "${proposal.name}", but ${dave.ref} has that name or alias`,
          );
        }
        expect(await store.info()).to.deep.equal(before);
        expect((await store.findEntities('dave')).map((e) => e.id)).to.deep.equal([dave.id]);
        expect((await store.getProposal(p.id))!.status).to.equal('pending');
      });

      it('accepting a supersede marks the old memory superseded and creates the new one in its place', async () => {
        const { alice, tea } = await aliceWithTea();
        const p = await store.createProposal(supersede(tea.id));
        expect(p).to.deep.include({ kind: 'supersede', memoryId: tea.id, value: 'coffee', slotIds: [tea.id] });
        clock.advance(1000);
        const accepted = await store.acceptProposal(p.id);
        if (!('memory' in accepted)) throw new Error('expected a memory');
        const now = '2026-03-01T12:00:01.000Z';
        expect(accepted.memory).to.deep.include({
          kind: 'preference',
          summary: 'Alice prefers coffee now',
          predicate: 'prefers',
          value: 'coffee',
          source: { kind: 'operator_statement', label: null },
          status: 'active',
          supersedes: tea.id,
          supersededBy: null,
          supersededAt: null,
          createdAt: now,
        });
        expect(accepted.memory.links.map((l) => [l.entityId, l.role])).to.deep.equal([[alice.id, 'subject']]);
        expect(accepted.superseded).to.deep.include({
          id: tea.id,
          status: 'superseded',
          supersededBy: accepted.memory.id,
          supersededAt: now,
          value: 'tea',
          supersedes: null,
        });
        expect(await store.getMemory(tea.id)).to.deep.equal(accepted.superseded);
        expect(await store.getMemory(accepted.memory.id)).to.deep.equal(accepted.memory);
        expect(accepted.proposal).to.deep.include({ status: 'accepted', result: accepted.memory.ref });
        expect((await store.listActiveMemories(alice.id)).memories.map((m) => m.id)).to.deep.equal([
          accepted.memory.id,
        ]);
        expect((await store.findActiveBySlot(alice.id, 'subject', 'prefers')).map((m) => m.id)).to.deep.equal([
          accepted.memory.id,
        ]);
        expect((await store.listMemoryHistory(alice.id)).map((m) => [m.id, m.status])).to.deep.equal([
          [tea.id, 'superseded'],
          [accepted.memory.id, 'active'],
        ]);
        // History is kept: superseding again chains on.
        const again = await store.acceptProposal(
          (await store.createProposal(supersede(accepted.memory.id, 'water'))).id,
        );
        if (!('memory' in again)) throw new Error('expected a memory');
        expect(again.superseded).to.deep.include({ id: accepted.memory.id, supersedes: tea.id, status: 'superseded' });
        expect((await store.info()).memories).to.equal(3);
      });

      it('refuses an accept, changing nothing, when the slot changed since the proposal', async () => {
        const { alice, tea } = await aliceWithTea();
        const p = await store.createProposal(supersede(tea.id));
        await store.createMemory({
          kind: 'fact',
          summary: 'Alice prefers juice',
          predicate: 'prefers',
          value: 'juice',
          sourceKind: 'console',
          links: [{ entityId: alice.id, role: 'subject' }],
        });
        const before = await store.info();
        const error = await rejection(store.acceptProposal(p.id));
        expect(error.code).to.equal('MIRA_ERR_MEMORY_PROPOSAL_STALE');
        expect(await store.info()).to.deep.equal(before);
        expect((await store.getMemory(tea.id))!.status).to.equal('active');
        expect((await store.getProposal(p.id))!.status).to.equal('pending');
      });

      it('applies one of two proposals for the same memory; the other is stale', async () => {
        const { tea } = await aliceWithTea();
        const first = await store.createProposal(supersede(tea.id, 'coffee'));
        const second = await store.createProposal(supersede(tea.id, 'cocoa'));
        await store.acceptProposal(second.id);
        const error = await rejection(store.acceptProposal(first.id));
        expect(error.code).to.equal('MIRA_ERR_MEMORY_PROPOSAL_STALE');
        expect(error.message).to.match(/superseded now/);
        expect((await store.info()).memories).to.equal(2);
      });

      it('expires an undecided proposal: it can no longer be accepted, only rejected', async () => {
        const { tea } = await aliceWithTea();
        const p = await store.createProposal(supersede(tea.id));
        clock.advance(7 * DAY - 1);
        expect((await store.getProposal(p.id))!.status).to.equal('pending');
        clock.advance(1);
        expect((await store.getProposal(p.id))!.status).to.equal('expired');
        expect(await store.listProposals({ status: 'pending' })).to.deep.equal([]);
        expect((await rejection(store.acceptProposal(p.id))).code).to.equal('MIRA_ERR_MEMORY_PROPOSAL_EXPIRED');
        expect((await store.getMemory(tea.id))!.status).to.equal('active');
        const rejected = await store.rejectProposal(p.id, '  too late  ');
        expect(rejected).to.deep.include({ status: 'rejected', reason: 'too late', result: null });
      });

      it('refuses to propose superseding what is not an active fact or preference', async () => {
        const { alice, tea } = await aliceWithTea();
        const bob = await store.createEntity({ entityType: 'person', canonicalName: 'Bob' });
        const rel = await store.createMemory({
          kind: 'relationship',
          summary: 'Alice knows Bob',
          predicate: 'knows',
          value: 'Bob',
          sourceKind: 'console',
          links: [
            { entityId: alice.id, role: 'subject' },
            { entityId: bob.id, role: 'friend' },
          ],
        });
        expect((await rejection(store.createProposal(supersede(rel.id)))).code).to.equal(
          'MIRA_ERR_MEMORY_NOT_SUPERSEDABLE',
        );
        expect((await rejection(store.createProposal(supersede(9999)))).code).to.equal('MIRA_ERR_MEMORY_NOT_FOUND');
        await store.acceptProposal((await store.createProposal(supersede(tea.id))).id);
        expect((await rejection(store.createProposal(supersede(tea.id)))).code).to.equal(
          'MIRA_ERR_MEMORY_NOT_SUPERSEDABLE',
        );
        expect((await rejection(store.acceptProposal(424242))).code).to.equal('MIRA_ERR_MEMORY_PROPOSAL_NOT_FOUND');
        expect((await store.listProposals()).map((p) => p.status)).to.deep.equal(['accepted']);
      });

      it('keeps what was said only while a proposal waits: its evidence alone once decided or expired', async () => {
        const { tea } = await aliceWithTea();
        const withSecret = (extra: string) => ({
          kind: 'entity' as const,
          entityType: 'person',
          evidence: 'she is our new nurse',
          utterance: `Meet her: she is our new nurse. ${extra}`,
        });
        const rejected = await store.createProposal({ ...withSecret('The door code is 4821.'), name: 'Carol' });
        const accepted = await store.createProposal({ ...withSecret('My PIN is 1234.'), name: 'Dora' });
        const expiring = await store.createProposal({ ...withSecret('The safe opens with 77.'), name: 'Erin' });
        expect((await store.getProposal(rejected.id))!.utterance).to.equal(
          'Meet her: she is our new nurse. The door code is 4821.',
        );
        await store.rejectProposal(rejected.id, null);
        await store.acceptProposal(accepted.id);
        clock.advance(7 * DAY);
        // Shown no more once expired, even before anything erased it.
        expect((await store.getProposal(expiring.id))!.utterance).to.equal('she is our new nurse');
        // The next proposal erases what the expired one kept.
        const waiting = await store.createProposal(supersede(tea.id));
        for (const p of [rejected, accepted, expiring])
          expect((await store.getProposal(p.id))!.utterance, p.ref).to.equal('she is our new nurse');
        const stored = await sut.storedUtterances();
        expect([stored[rejected.id], stored[accepted.id], stored[expiring.id]]).to.deep.equal(
          Array(3).fill('she is our new nurse'),
        );
        expect(stored[waiting.id]).to.equal(said);
        expect(JSON.stringify(stored)).not.to.match(/4821|1234|77/);
      });

      it('erases at open what a decided proposal of before kept of what was said', async () => {
        await aliceWithTea();
        const p = await store.createProposal({
          kind: 'entity',
          entityType: 'person',
          name: 'Carol',
          evidence: 'Carol is here',
          utterance: 'Carol is here. The door code is 4821.',
        });
        clock.advance(7 * DAY);
        store = await sut.reopen();
        expect((await sut.storedUtterances())[p.id]).to.equal('Carol is here');
      });

      it('keeps proposals and supersession across a restart', async () => {
        const { tea } = await aliceWithTea();
        const applied = await store.createProposal(supersede(tea.id));
        await store.acceptProposal(applied.id);
        const waiting = await store.createProposal({
          kind: 'entity',
          entityType: 'person',
          name: 'Carol',
          evidence: 'Carol is here',
          utterance: 'Carol is here',
        });
        const listed = await store.listProposals();
        const old = await store.getMemory(tea.id);
        store = await sut.reopen();
        expect(await store.listProposals()).to.deep.equal(listed);
        expect(await store.getMemory(tea.id)).to.deep.equal(old);
        expect((await store.getProposal(waiting.id))!.status).to.equal('pending');
      });
    });

    describe('object payloads', () => {
      const snapshot = async (entityId: number, bytes: Buffer, mediaType = 'image/png') =>
        store.createMemory({
          kind: 'observation',
          summary: 'the shelf, seen from the door',
          links: [{ entityId, role: 'subject' }],
          sourceKind: 'sensor_observation',
          sourceLabel: 'camera front',
          object: { bytes, mediaType },
        });

      it('keeps the bytes once per SHA-256 however many memories refer to them, and returns them verified', async () => {
        const shelf = await store.createEntity({ entityType: 'place', canonicalName: 'Shelf' });
        const bytes = pngBytes(200_000);
        const one = await snapshot(shelf.id, bytes);
        const two = await snapshot(shelf.id, bytes);
        const digest = createHash('sha256').update(bytes).digest('hex');
        for (const memory of [one, two]) {
          const object = memory.payloads.find((p) => p.payloadKind === 'object_ref')!;
          expect(object).to.include({ mediaType: 'image/png', byteSize: 200_000, sha256: digest });
          expect(object.objectRef).to.equal(`sha256:${digest}`);
          expect((await store.getMemory(memory.id))!.payloads).to.deep.equal(memory.payloads);
          const read = (await store.readObject(memory.id))!;
          expect(read.sha256).to.equal(digest);
          expect(read.mediaType).to.equal('image/png');
          expect(read.bytes.equals(bytes)).to.equal(true);
        }
        expect(await store.objectUsage()).to.deep.equal({ objects: 1, bytes: 200_000 });
        await snapshot(shelf.id, pngBytes(1000, 2));
        expect(await store.objectUsage()).to.deep.equal({ objects: 2, bytes: 201_000 });
        // The text payload is there too: a snapshot's memory reads as any other.
        expect((await store.getPayloads(one.id)).map((p) => [p.payloadKind, p.text])).to.deep.equal([
          ['inline_text', 'the shelf, seen from the door'],
          ['object_ref', null],
        ]);
      });

      it('refuses bytes that changed since they were stored, and a later write of the same bytes repairs them', async () => {
        const shelf = await store.createEntity({ entityType: 'place', canonicalName: 'Shelf' });
        const bytes = pngBytes(5000);
        const memory = await snapshot(shelf.id, bytes);
        const digest = memory.payloads[1]!.sha256!;
        await sut.corruptObject(digest);
        const error = await rejection(store.readObject(memory.id));
        expect(error.code).to.equal('MIRA_ERR_MEMORY_OBJECT_CORRUPT');
        expect(error.message).to.contain(digest);
        // The memory itself reads as before: nothing but readObject touches an object.
        expect((await store.getMemory(memory.id))!.summary).to.equal('the shelf, seen from the door');
        await snapshot(shelf.id, bytes);
        expect((await store.readObject(memory.id))!.bytes.equals(bytes)).to.equal(true);
      });

      it('says an object is missing, and answers undefined for a memory without one', async () => {
        const shelf = await store.createEntity({ entityType: 'place', canonicalName: 'Shelf' });
        const memory = await snapshot(shelf.id, pngBytes(3000));
        await sut.removeObject(memory.payloads[1]!.sha256!);
        expect((await rejection(store.readObject(memory.id))).code).to.equal('MIRA_ERR_MEMORY_OBJECT_MISSING');
        const plain = await store.createMemory({ kind: 'fact', summary: 'Shelf is oak', sourceKind: 'console' });
        expect(await store.readObject(plain.id)).to.equal(undefined);
        expect((await rejection(store.readObject(9999))).code).to.equal('MIRA_ERR_MEMORY_NOT_FOUND');
      });

      it('never loads an object to list or recall memories', async () => {
        const shelf = await store.createEntity({ entityType: 'place', canonicalName: 'Shelf' });
        const memory = await snapshot(shelf.id, pngBytes(3000));
        await sut.removeObject(memory.payloads[1]!.sha256!);
        const [listed] = await store.listActiveMemoriesOf([shelf.id], { newest: 8 });
        expect(listed!.memories.map((m) => m.id)).to.deep.equal([memory.id]);
        expect((await store.listMemoryHistory(shelf.id)).map((m) => m.id)).to.deep.equal([memory.id]);
        expect((await store.getMemory(memory.id))!.payloads[1]!.byteSize).to.equal(3000);
      });

      it('refuses an empty, oversized, unknown or mislabelled object and writes nothing', async () => {
        const shelf = await store.createEntity({ entityType: 'place', canonicalName: 'Shelf' });
        const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
        for (const [bytes, mediaType, says] of [
          [Buffer.alloc(0), 'image/png', 'empty'],
          [pngBytes(4 * 1024 * 1024 + 1), 'image/png', 'over the cap'],
          [Buffer.from('GIF89a...'), 'image/gif', 'not one Mira keeps'],
          [jpeg, 'image/png', 'image/jpeg, not image/png'],
          [Buffer.from('not an image'), 'image/jpeg', 'no image Mira reads'],
        ] as const) {
          const error = await rejection(snapshot(shelf.id, bytes, mediaType));
          expect(error.code, says).to.equal('MIRA_ERR_MEMORY_OBJECT_INVALID');
          expect(error.message, says).to.contain(says);
        }
        expect((await store.info()).memories).to.equal(0);
        expect(await store.objectUsage()).to.deep.equal({ objects: 0, bytes: 0 });
        expect((await snapshot(shelf.id, jpeg, 'image/jpeg')).payloads[1]!.mediaType).to.equal('image/jpeg');
      });

      it('stores the object before the rows: a failed write leaves only an object, which collection removes', async () => {
        const shelf = await store.createEntity({ entityType: 'place', canonicalName: 'Shelf' });
        const kept = await snapshot(shelf.id, pngBytes(2000, 1));
        // A link to an entity that does not exist fails the transaction after the object is stored.
        expect((await rejection(snapshot(shelf.id + 100, pngBytes(3000, 2)))).code).to.equal(
          'MIRA_ERR_MEMORY_ENTITY_NOT_FOUND',
        );
        expect((await store.info()).memories).to.equal(1);
        expect(await store.objectUsage()).to.deep.equal({ objects: 2, bytes: 5000 });
        // Within the grace period a write in progress may still refer to it: kept.
        expect(await store.collectObjects()).to.deep.equal({ objects: 0, bytes: 0 });
        expect(await store.collectObjects(0)).to.deep.equal({ objects: 1, bytes: 3000 });
        expect(await store.objectUsage()).to.deep.equal({ objects: 1, bytes: 2000 });
        expect((await store.readObject(kept.id))!.bytes.equals(pngBytes(2000, 1))).to.equal(true);
      });

      it('makes an object it stores again young, so a collection meanwhile cannot take it from the new rows', async () => {
        const shelf = await store.createEntity({ entityType: 'place', canonicalName: 'Shelf' });
        const bytes = pngBytes(3000, 7);
        // An orphan from a write that failed, an hour ago.
        await rejection(snapshot(shelf.id + 100, bytes));
        await sut.ageObjects(60 * 60 * 1000);
        // A write of the same bytes stores nothing new, but between its object and its rows another
        // process's collection may run (here: the rows fail again, so nothing refers to the object yet).
        await rejection(snapshot(shelf.id + 100, bytes));
        expect(await store.collectObjects()).to.deep.equal({ objects: 0, bytes: 0 });
        await sut.ageObjects(60 * 60 * 1000);
        expect(await store.collectObjects()).to.deep.equal({ objects: 1, bytes: 3000 });
      });

      it('keeps objects across a restart', async () => {
        const shelf = await store.createEntity({ entityType: 'place', canonicalName: 'Shelf' });
        const memory = await snapshot(shelf.id, pngBytes(4000));
        store = await sut.reopen();
        expect((await store.readObject(memory.id))!.bytes.equals(pngBytes(4000))).to.equal(true);
        expect(await store.objectUsage()).to.deep.equal({ objects: 1, bytes: 4000 });
      });
    });

    describe('restart', () => {
      it('keeps ENT<n> and MEM<n> identities and contents after closing and reopening', async () => {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        await store.addAlias(ada.id, 'Countess');
        const memory = await store.createMemory({
          kind: 'fact',
          summary: 'Ada wrote notes',
          sourceKind: 'console',
          links: [{ entityId: ada.id, role: 'subject' }],
        });
        const before = await store.getEntity(ada.id);
        expect(before?.aliases.map((a) => a.alias)).to.deep.equal(['Countess']);
        const reopened = await sut.reopen();
        expect(await reopened.getEntity(ada.id)).to.deep.equal(before);
        expect((await reopened.findEntities('countess')).map((e) => e.ref)).to.deep.equal([ada.ref]);
        expect(await reopened.getMemory(memory.id)).to.deep.equal(memory);
        const next = await reopened.createEntity({ entityType: 'person', canonicalName: 'Bob' });
        expect(next.id).to.equal(ada.id + 1);
      });

      it('never reuses an ID', async () => {
        const first = await store.createEntity({ entityType: 'person', canonicalName: 'A' });
        const reopened = await sut.reopen();
        const second = await reopened.createEntity({ entityType: 'person', canonicalName: 'B' });
        expect(second.id).to.be.greaterThan(first.id);
      });
    });

    describe('#close()', () => {
      it('may be called twice and then refuses work', async () => {
        await store.close();
        await store.close();
        expect((await rejection(store.info())).code).to.equal('MIRA_ERR_MEMORY_CLOSED');
      });
    });
  });
}
