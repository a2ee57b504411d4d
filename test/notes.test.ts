import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { ManualClock } from '@mira/core';
import {
  createTestRuntime,
  hashedBagOfWords,
  startScriptedModelServer,
  type ScriptedModelServer,
  type TestRuntime,
  withoutGrounding,
} from '@mira/core/testing';
import notesPlugin, { SqliteNotesStore, NOTES_STORE } from '@mira/plugin-notes';
import openaiPlugin from '@mira/plugin-openai';

// A toy semantic embedder: drinks share a dimension, so "beverage" is near "tea" without sharing a word.
const CONCEPTS: Record<string, number> = {
  tea: 0,
  coffee: 0,
  beverage: 0,
  drink: 0,
  dock: 1,
  door: 1,
  charger: 1,
  alice: 2,
  bob: 3,
};
function conceptEmbed(text: string): number[] {
  const v = new Array<number>(8).fill(0);
  for (const w of text.toLowerCase().match(/\p{L}+/gu) ?? []) v[CONCEPTS[w] ?? 4 + (w.length % 4)]! += 1;
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

describe('note memory (real SQLite file, real SDK for embeddings)', function () {
  this.timeout(20_000);
  let rt: TestRuntime;
  let server: ScriptedModelServer;
  let clock: ManualClock;
  const callTool = async (name: string, args: Record<string, unknown>) =>
    // Each direct call stands for an episode of its own (per-episode note budgets start afresh).
    JSON.parse((await rt.callTool(name, args, { utterance: 'x' })).content) as Record<string, any>;
  const dbPath = () => join(rt.dir, 'notes.sqlite3');
  const dbHash = () => {
    const db = new Database(dbPath(), { readonly: true });
    const rows = ['notes', 'note_labels', 'scopes'].map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all());
    db.close();
    return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
  };

  async function boot(
    embedding: Record<string, unknown> | undefined,
    scope = 'default',
    embed: (t: string) => number[] = conceptEmbed,
    openai: Record<string, unknown> = {},
  ) {
    server = await startScriptedModelServer([], { embed });
    clock = new ManualClock('2026-06-10T12:00:00.000Z');
    rt = await createTestRuntime({
      clock,
      plugins: [notesPlugin, openaiPlugin],
      tables: {
        notes: {
          enabled: true,
          database_path: 'notes.sqlite3',
          scope,
          ...(embedding ? { embedding: { base_url: server.url, ...embedding } } : {}),
        },
        openai: { model: 'scripted', base_url: server.url, max_retries: 0, ...openai },
      },
    });
  }
  afterEach(async () => {
    await rt.dispose();
    await server.close();
  });

  it('refuses a mistyped command with its options instead of saying it, keys included, to the model', async () => {
    await boot(undefined);
    const result = await rt.run('note save "vault code 9999" --key s3cr3t');
    expect(result).to.deep.equal({
      ok: false,
      output: [
        'error: MIRA_ERR_CONSOLE_UNKNOWN_COMMAND: "note" is not a command; did you mean "notes"? (say … talks to the robot)',
      ],
    });
    expect(server.requests).to.deep.equal([]);
    expect(rt.app.kernel.workingMemory.entries()).to.deep.equal([]);
  });

  it('refuses a mistyped command without options, and a near one-word line, but says speech to the model', async () => {
    await boot(undefined);
    const refusals = {
      'notse search kitchen': ['notse', 'notes'],
      sensor: ['sensor', 'sensors'],
      plug: ['plug', 'plugins'],
      stpo: ['stpo', 'stop'],
    };
    for (const [line, [text, suggestion]] of Object.entries(refusals)) {
      expect(await rt.run(line), line).to.deep.equal({
        ok: false,
        output: [
          `error: MIRA_ERR_CONSOLE_UNKNOWN_COMMAND: "${text}" is not a command; did you mean "${suggestion}"? (say … talks to the robot)`,
        ],
      });
    }
    expect(server.requests).to.deep.equal([]);
    expect(rt.app.kernel.workingMemory.entries()).to.deep.equal([]);
    // A one-word line far from every command, a capitalised word, and a near first word followed by
    // speech rather than a command's next word all reach the model.
    const speech = ['Hello', 'Thanks!', 'thanks', 'Sensor check please', 'note that the door sticks'];
    for (const _ of speech) server.push({ text: 'Yes.' });
    for (const line of speech) expect((await rt.run(line)).ok, line).to.equal(true);
    expect(server.requests.map((r) => withoutGrounding(r.body.messages.at(-1)!.content!))).to.deep.equal(speech);
  });

  describe('saving', () => {
    beforeEach(() => boot(undefined));

    it('saves through a model episode, stamps the day, and shows unlabeled', async () => {
      server.push(
        {
          toolCalls: [
            {
              name: 'save_memory',
              arguments: { content: 'Bob walks the dog at seven', label: null, private_key: null },
            },
          ],
        },
        { text: 'Saved.' },
      );
      const { output } = await rt.run('Bob walks the dog at seven, keep that in mind');
      expect(output[0]).to.equal('[save_memory] saved N1');
      const result = JSON.parse(withoutGrounding(server.requests[1]!.body.messages.at(-1)!.content!));
      expect(result).to.deep.equal({ status: 'saved', memory_id: 1, day: '2026-06-10', labels: ['unlabeled'] });
      const description = server.requests[0]!.body.tools!.find((t) => t.function.name === 'save_memory')!.function
        .description;
      expect(description).to.contain('at most 450 characters').and.to.contain("never write today's date");
    });

    it('trims an over-cap save, saves it, and says what was cut and to skip update_memory', async () => {
      const text = `${'lorem ipsum '.repeat(50)}the end`;
      const result = await callTool('save_memory', { content: text, label: 'fact', private_key: null });
      expect(result.status).to.equal('saved');
      expect(result.trimmed).to.equal(true);
      expect(result.cut)
        .to.be.a('string')
        .and.match(/the end$/);
      expect(result.advice).to.contain('Skip update_memory unless the cut part is critical');
      const saved = (await callTool('get_recent_memories', { count: 1, label: null, private_key: null })).notes[0];
      expect([...saved.content].length).to.be.at.most(512);
    });

    it('shows ages: minutes, days, then the calendar day', async () => {
      await callTool('save_memory', { content: 'The charger is in the hall', label: null, private_key: null });
      clock.advance(3 * 24 * 3_600_000);
      expect(
        (await callTool('get_recent_memories', { count: null, label: null, private_key: null })).notes[0].age,
      ).to.equal('3d ago');
      clock.advance(6 * 24 * 3_600_000);
      expect(
        (await callTool('get_recent_memories', { count: null, label: null, private_key: null })).notes[0].age,
      ).to.equal('2026-06-10');
    });
  });

  describe('correct under scopes and keys', () => {
    it('keeps the text as written, and still finds it by its compatibility form', async () => {
      await boot(undefined);
      const saved = await callTool('save_memory', {
        content: '  20 m² ﬁle ＡＢＣ ①  ',
        label: null,
        private_key: null,
      });
      const notes = rt.app.kernel.store(NOTES_STORE);
      expect(notes.get(saved.memory_id, { scopes: ['default'], key: null, operator: true })!.content).to.equal(
        '20 m² ﬁle ＡＢＣ ①',
      );
      const found = await callTool('search_memory', { query: 'file abc', label: null, private_key: null });
      expect(found.notes.map((n: any) => n.content)).to.deep.equal(['20 m² ﬁle ＡＢＣ ①']);
      expect((await rt.run(`notes show N${saved.memory_id}`)).output.join('\n')).to.contain('20 m² ﬁle ＡＢＣ ①');
    });

    it('orders newest by creation time, so imported old notes do not come first', async () => {
      await boot(undefined);
      const notes = rt.app.kernel.store(NOTES_STORE);
      await notes.save('default', 'written today', null, null);
      await notes.importNotes({
        format: 'mira-notes',
        version: 1,
        scope: 'default',
        exported_at: '2026-06-01T00:00:00.000Z',
        notes: [
          {
            content: 'written in 2020',
            labels: [],
            private_key: null,
            created_at: '2020-01-01T00:00:00.000Z',
            updated_at: '2020-01-01T00:00:00.000Z',
          },
        ],
      });
      const recent = await callTool('get_recent_memories', { count: null, label: null, private_key: null });
      expect(recent.notes.map((n: any) => n.content)).to.deep.equal(['written today', 'written in 2020']);
      expect((await rt.run('notes recent')).output[0]).to.contain('written today');
    });

    it("never combines notes with different keys, which would spread a key's labels", async () => {
      await boot(undefined);
      const notes = rt.app.kernel.store(NOTES_STORE);
      const open = await notes.save('default', 'The dock is on level 2', 'place', null);
      const keyed = await notes.save('default', 'The dock code is 4711', 'secret', 'k-9');
      const result = await rt.run(`notes combine N${open.note.id} N${keyed.note.id}`);
      expect(result.ok).to.equal(false);
      expect(result.output[0]).to.match(/^error: MIRA_ERR_NOTES_KEY_MISMATCH: /);
      expect(notes.get(open.note.id, { scopes: ['default'], key: null, operator: true })!.labels).to.deep.equal([
        'place',
      ]);
      expect(notes.get(keyed.note.id, { scopes: ['default'], key: null, operator: true })).not.to.equal(undefined);
    });

    it('never combines a note of the session scope with a shared global note, in either order: the global one stays', async () => {
      await boot(undefined, 'kitchen');
      const notes = rt.app.kernel.store(NOTES_STORE);
      const shared = await notes.save('global', 'The wifi password is on the fridge', 'house', null);
      const local = await notes.save('kitchen', 'the wifi password is on the fridge!', 'kitchen', null);
      const all = { scopes: ['kitchen', 'global'], key: null, operator: true };
      for (const [keep, drop] of [
        [local.note.id, shared.note.id],
        [shared.note.id, local.note.id],
      ]) {
        const result = await rt.run(`notes combine N${keep} N${drop}`);
        expect(result.ok).to.equal(false);
        // The console answers as the page does: the global note is read-only from the kitchen's session.
        expect(result.output[0]).to.match(/^error: MIRA_ERR_NOTES_READ_ONLY_SCOPE: /);
      }
      expect(notes.get(shared.note.id, all)).to.deep.equal(shared.note);
      expect(notes.get(local.note.id, all)).to.deep.equal(local.note);
      // Two notes of one scope still combine.
      const again = await notes.save('kitchen', 'The wifi password is on the fridge', 'wifi', null);
      expect((await rt.run(`notes combine N${local.note.id} N${again.note.id}`)).ok).to.equal(true);
      expect(notes.get(again.note.id, all)).to.equal(undefined);
    });
  });

  describe('the global overlay is read-only from a scope session in the console too', () => {
    it('refuses notes edit and notes delete of a global note from another scope, and changes nothing', async () => {
      await boot(undefined, 'work');
      const notes = rt.app.kernel.store(NOTES_STORE);
      const shared = await notes.save('global', 'The lab closes at six', 'house', null);
      const all = { scopes: ['work', 'global'], key: null, operator: true };
      for (const line of [
        `notes delete N${shared.note.id}`,
        `notes edit N${shared.note.id} "The lab closes at five"`,
      ]) {
        const result = await rt.run(line);
        expect(result.ok, line).to.equal(false);
        expect(result.output[0], line).to.equal(
          `error: MIRA_ERR_NOTES_READ_ONLY_SCOPE: note ${shared.note.id} is in the shared "global" scope, which is read-only from this scope`,
        );
      }
      expect(notes.get(shared.note.id, all)).to.deep.equal(shared.note);
      // Two global notes combined from another scope's session: refused as read-only, both stay.
      const twin = await notes.save('global', 'The lab closes at six!', 'house', null);
      const combined = await rt.run(`notes combine N${shared.note.id} N${twin.note.id}`);
      expect(combined.output[0]).to.match(/^error: MIRA_ERR_NOTES_READ_ONLY_SCOPE: /);
      expect(notes.get(twin.note.id, all)).to.deep.equal(twin.note);
      // From a session on the global scope it is the session's own.
      await rt.run('notes scope global');
      expect((await rt.run(`notes delete N${shared.note.id}`)).output).to.deep.equal([`N${shared.note.id} deleted`]);
    });

    it('never proposes a pair of a scope note and a global note, and still pairs the scope’s own', async () => {
      await boot(undefined, 'kitchen');
      const notes = rt.app.kernel.store(NOTES_STORE);
      const shared = await notes.save('global', 'The wifi password is on the fridge', 'house', null);
      await notes.save('global', 'The wifi password is on the fridge!', 'house', null);
      const local = await notes.save('kitchen', 'the wifi password is on the fridge.', 'kitchen', null);
      const other = await notes.save('kitchen', 'The wifi password is on the fridge', 'wifi', null);
      const shown = (await rt.run('notes duplicates')).output.filter((line) => / ~ /.test(line));
      expect(shown).to.deep.equal([`N${local.note.id} ~ N${other.note.id} (similarity 1.00)`]);
      expect(shown.join('\n')).not.to.contain(`N${shared.note.id}`);
    });
  });

  it('tells the model what note memory is for, in a notes-only profile', async () => {
    await boot(undefined, 'kitchen');
    server.push({ text: 'Hello.' });
    await rt.run('Hello');
    // Guidance, the same all session: with the instructions in the first message, not in the changing tail.
    const system = server.requests[0]!.body.messages[0]!.content!;
    expect(system).to.contain('[notes]\nNote memory (scope "kitchen"');
    expect(server.requests[0]!.body.messages.at(-1)!.content).not.to.contain('[notes]');
    expect(system).to.contain('save_memory when the operator tells you something worth keeping');
  });

  describe('import is all-or-nothing and bounded', () => {
    const exportWith = (notes: Array<Record<string, unknown>>, scope = 'fresh') => ({
      format: 'mira-notes',
      version: 1,
      scope,
      exported_at: '2026-06-01T00:00:00.000Z',
      notes,
    });
    const note = (content: string, extra: Record<string, unknown> = {}) => ({
      content,
      labels: [],
      private_key: null,
      created_at: '2024-01-01T00:00:00.000Z',
      updated_at: '2024-01-01T00:00:00.000Z',
      ...extra,
    });

    it('refuses a device or pipe at once, without reading it', async () => {
      await boot(undefined);
      const started = Date.now();
      const result = await rt.run('notes import /dev/zero');
      expect(Date.now() - started).to.be.below(1000);
      expect(result.output[0]).to.match(
        /^error: MIRA_ERR_NOTES_IMPORT_INVALID: \/dev\/zero cannot be imported: it is not a regular file/,
      );
    });

    for (const [what, bad] of [
      ['a date that is no instant', note('x', { created_at: '2024-13-45T99:99:99Z' })],
      ['30 February', note('x', { created_at: '2024-02-30T10:00:00Z' })],
      ['an empty key', note('x', { private_key: '' })],
    ] as const) {
      it(`refuses a file with ${what} whole, creating nothing, not even its scope`, async () => {
        await boot(undefined);
        const file = join(rt.dir, 'bad.json');
        writeFileSync(file, JSON.stringify(exportWith([note('a fine note'), bad])));
        const result = await rt.run(`notes import ${file}`);
        expect(result.ok).to.equal(false);
        expect(result.output[0]).to.match(/^error: MIRA_ERR_NOTES_IMPORT_INVALID: /);
        expect(rt.app.kernel.store(NOTES_STORE).scopes()).not.to.include('fresh');
      });
    }

    it('says how many notes were trimmed', async () => {
      await boot(undefined);
      const file = join(rt.dir, 'long.json');
      writeFileSync(file, JSON.stringify(exportWith([note('word '.repeat(150).trim()), note('short')])));
      expect((await rt.run(`notes import ${file}`)).output).to.deep.equal([
        'imported 2 notes, 0 already present, 1 trimmed to 512 characters',
      ]);
    });
  });

  describe('bounded guessing and key hygiene', () => {
    const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });

    it('stops a model that guesses keys: 1,000 deletes in one answer, and the note survives', async () => {
      // 1,000 calls are some 21,000 tokens: a model writes them only under a limit that high (the server cuts
      // an answer at max_tokens, mid-arguments).
      await boot(undefined, 'default', conceptEmbed, { max_tokens: 24_576 });
      const notes = rt.app.kernel.store(NOTES_STORE);
      const { note } = await notes.save('default', 'The vault code is 4711', 'secret', 'guess778');
      const guesses = Array.from({ length: 1000 }, (_, i) =>
        call('delete_memory', { memory_id: note.id, private_key: `guess${i}` }),
      );
      server.push({ toolCalls: guesses }, { text: 'I could not delete it.' });
      const { output } = await rt.run('Delete the vault note');
      const lines = output.filter((l) => l.startsWith('[delete_memory]'));
      expect(lines).to.have.length(1000);
      // Four writes per episode; each wrong key also counts toward the scope's limit across episodes.
      expect(lines.slice(0, 4)).to.deep.equal(Array(4).fill('[delete_memory] rejected not_found'));
      expect(new Set(lines.slice(4))).to.deep.equal(new Set(['[delete_memory] rejected budget_exhausted']));
      expect(notes.get(note.id, { scopes: ['default'], key: null, operator: true })?.content).to.equal(
        'The vault code is 4711',
      );
    });

    it('bounds key guessing across episodes and restarts: 5 wrong keys per 15 minutes lock the scope', async () => {
      await boot(undefined);
      const notes = rt.app.kernel.store(NOTES_STORE);
      const { note } = await notes.save('default', 'The vault code is 4711', 'secret', '0147');
      await notes.save('default', 'The vault is in the basement', null, null);
      // Thirty episodes, one guess each (the attack): the first five miss, then the scope is locked.
      const reasons: string[] = [];
      for (let i = 100; i < 130; i++) {
        const result = await callTool('update_memory', {
          memory_id: note.id,
          content: 'overwritten',
          label: null,
          private_key: `0${i}`,
        });
        reasons.push(result.reason);
      }
      expect(reasons).to.deep.equal([...Array(5).fill('not_found'), ...Array(25).fill('budget_exhausted')]);
      // The right key too, and reads as well as writes.
      const right = await callTool('search_memory', { query: 'vault', label: null, private_key: '0147' });
      expect(right).to.deep.include({ status: 'rejected', reason: 'budget_exhausted' });
      expect(right.error).to.equal(
        '5 wrong keys of the model\'s own in scope "default"; keys it chose are refused until 2026-06-10T12:15:00.000Z (one the operator types still works; or "notes unlock default"); nothing was done',
      );
      // Calls without a key go on as before.
      const open = await callTool('search_memory', { query: 'vault', label: null, private_key: null });
      expect(open.notes.map((n: { content: string }) => n.content)).to.deep.equal(['The vault is in the basement']);

      // The lockout is in the file: a restarted runtime keeps it, and the console shows it.
      const first = rt;
      await first.stop();
      rt = await createTestRuntime({
        clock,
        dir: first.dir,
        plugins: [notesPlugin],
        tables: { notes: { enabled: true, database_path: 'notes.sqlite3' } },
      });
      try {
        const again = await callTool('get_recent_memories', { count: null, label: null, private_key: '0147' });
        expect(again).to.deep.include({ status: 'rejected', reason: 'budget_exhausted' });
        expect((await rt.run('notes status')).output).to.include(
          'locked: scope default for the model\'s own keys — 5 wrong keys within the window; keyed calls refused until 2026-06-10T12:15:00.000Z ("notes unlock default" ends it)',
        );
        // Another scope is not locked by this one's misses.
        await rt.run('notes scope lab');
        const lab = await callTool('search_memory', { query: 'vault', label: null, private_key: 'x' });
        expect(lab.status).to.equal('none');
        await rt.run('notes scope default');
        // The window passes: the right key works again, and the note was never changed.
        clock.advance(15 * 60_000);
        const after = await callTool('search_memory', { query: 'vault code', label: null, private_key: '0147' });
        expect(after.notes.map((n: { content: string }) => n.content)).to.include('The vault code is 4711');
        expect((await rt.run('notes status')).output.filter((l) => l.startsWith('locked:'))).to.deep.equal([]);
        // The operator ends a lockout at once.
        for (let i = 0; i < 5; i++) await callTool('delete_memory', { memory_id: note.id, private_key: `guess${i}` });
        expect(await callTool('search_memory', { query: 'vault', label: null, private_key: '0147' })).to.deep.include({
          reason: 'budget_exhausted',
        });
        expect((await rt.run('notes unlock')).output).to.deep.equal([
          'scope default: unlocked; its 5 wrong keys are forgotten',
        ]);
        const unlocked = await callTool('search_memory', { query: 'vault code', label: null, private_key: '0147' });
        expect(unlocked.status).to.equal('found');
        expect((await rt.run('notes unlock nowhere')).output).to.deep.equal([
          'error: MIRA_ERR_NOTES_SCOPE_INVALID: there is no scope "nowhere"; "notes status" lists them',
        ]);
      } finally {
        await rt.dispose();
        rt = first;
      }
    });

    it('counts wrong-key searches, which find exactly what no key finds', async () => {
      await boot(undefined);
      const notes = rt.app.kernel.store(NOTES_STORE);
      await notes.save('default', 'The dock code is 4711', 'secret', 'k-9');
      await notes.save('default', 'The dock is by the window', null, null);
      const none = await callTool('search_memory', { query: 'dock', label: null, private_key: null });
      for (let i = 0; i < 5; i++) {
        expect(await callTool('search_memory', { query: 'dock', label: null, private_key: `k-${i}` })).to.deep.equal(
          none,
        );
      }
      expect(await callTool('search_memory', { query: 'dock', label: null, private_key: 'k-9' })).to.deep.include({
        reason: 'budget_exhausted',
      });
      // Five guesses in one message are counted too (the message has two information-gathering calls).
      await rt.run('notes unlock');
      const guesses = Array.from({ length: 2 }, (_, i) => ({
        name: 'search_memory',
        arguments: { query: 'dock', label: null, private_key: `m-${i}` },
      }));
      server.push({ toolCalls: guesses }, { text: 'Nothing.' });
      await rt.run('What is the dock code?');
      expect(notes.keyLockout('default')).to.equal(undefined);
      expect((await rt.run('notes unlock')).output).to.deep.equal([
        'scope default: was not locked; 2 wrong keys forgotten',
      ]);
    });

    it('allows at most 4 note writes per episode', async () => {
      await boot(undefined);
      const saves = Array.from({ length: 6 }, (_, i) =>
        call('save_memory', { content: `note ${i}`, label: null, private_key: null }),
      );
      server.push({ toolCalls: saves }, { text: 'Saved.' });
      const { output } = await rt.run('Save six notes');
      expect(output.filter((l) => l.startsWith('[save_memory]'))).to.deep.equal([
        '[save_memory] saved N1',
        '[save_memory] saved N2',
        '[save_memory] saved N3',
        '[save_memory] saved N4',
        '[save_memory] rejected budget_exhausted',
        '[save_memory] rejected budget_exhausted',
      ]);
      // A new episode has its own budget.
      server.push({ toolCalls: [saves[0]!] }, { text: 'Saved.' });
      expect((await rt.run('One more')).output[0]).to.equal('[save_memory] saved N5');
    });

    it('refuses keys that are empty, invisible or too long, and stores nothing', async () => {
      await boot(undefined);
      for (const key of ['\u202e', 'a\u0000b', 'x'.repeat(129), 'tab\tkey', '\u200b']) {
        const result = await callTool('save_memory', { content: 'secret stuff', label: null, private_key: key });
        expect(result, JSON.stringify(key)).to.deep.include({ status: 'rejected', reason: 'invalid_key' });
      }
      const line = await rt.run('notes save "secret stuff" --key ""');
      expect(line.ok).to.equal(false);
      expect(line.output[0]).to.match(/^error: MIRA_ERR_NOTES_KEY_INVALID: /);
      expect(rt.app.kernel.store(NOTES_STORE).count({ scopes: ['default'], key: null, operator: true })).to.equal(0);
    });

    it('answers not_found for a keyed note out of reach, right key or not (no oracle)', async () => {
      await boot(undefined);
      const notes = rt.app.kernel.store(NOTES_STORE);
      const { note } = await notes.save('global', 'Shared door code 1234', 'secret', 'k-1');
      for (const key of ['k-1', 'wrong']) {
        const result = await callTool('update_memory', {
          memory_id: note.id,
          content: 'changed',
          label: null,
          private_key: key,
        });
        expect(result, key).to.deep.include({ status: 'rejected', reason: 'not_found' });
      }
    });

    it('bounds a search query: 512 characters for the model, a clear error on the console, at once', async () => {
      await boot(undefined);
      server.push(
        { toolCalls: [call('search_memory', { query: 'x'.repeat(513), label: null, private_key: null })] },
        { text: 'ok' },
      );
      expect((await rt.run('Search')).output[0]).to.equal('[search_memory] rejected invalid_tool_arguments');
      const started = Date.now();
      const result = await rt.run(`notes search "${'word '.repeat(200_000)}"`);
      expect(Date.now() - started).to.be.below(2000);
      expect(result.output[0]).to.match(/^error: MIRA_ERR_NOTES_QUERY_TOO_LONG: /);
    });
  });

  describe('private keys', () => {
    beforeEach(async () => {
      await boot(undefined);
      await callTool('save_memory', {
        content: 'The safe code is in the blue book',
        label: 'secret',
        private_key: 'k-123',
      });
      await callTool('save_memory', { content: 'The blue door leads to the dock', label: 'place', private_key: null });
    });

    it('hides a keyed note from search, recent and labels without the key, and shows it with the key', async () => {
      expect(
        (await callTool('search_memory', { query: 'blue', label: null, private_key: null })).notes.map(
          (n: any) => n.memory_id,
        ),
      ).to.deep.equal([2]);
      expect(
        (await callTool('search_memory', { query: 'blue', label: null, private_key: 'wrong' })).notes.map(
          (n: any) => n.memory_id,
        ),
      ).to.deep.equal([2]);
      expect(
        (await callTool('search_memory', { query: 'safe code', label: null, private_key: 'k-123' })).notes.map(
          (n: any) => n.memory_id,
        ),
      ).to.deep.equal([1]);
      expect(
        (await callTool('get_recent_memories', { count: 10, label: null, private_key: null })).notes,
      ).to.have.length(1);
      expect(
        (await callTool('get_recent_memories', { count: 10, label: 'secret', private_key: null })).status,
      ).to.equal('none');
      expect(
        (await callTool('get_recent_memories', { count: 10, label: null, private_key: 'k-123' })).notes,
      ).to.have.length(2);
    });

    it('still finds a visible note when hidden notes fill the whole full-text candidate pool', async () => {
      // Keyed notes are indexed apart from unkeyed ones, so what can fill the pool a search without a key
      // ranks is another scope's notes (the same index): 60 of them, each a better match than the visible one.
      await rt.run('notes scope other');
      for (let i = 0; i < 60; i += 1) await rt.run(`notes save "blue blue blue note ${i}" --label place`);
      await rt.run('notes scope default');
      const found = await callTool('search_memory', { query: 'blue', label: null, private_key: null });
      expect(found.notes.map((n: any) => n.memory_id)).to.deep.equal([2]);
      // With a label the filter is joined before the page is read (the other way to refill the pool).
      const labelled = await callTool('search_memory', { query: 'blue', label: 'place', private_key: null });
      expect(labelled.notes.map((n: any) => n.memory_id)).to.deep.equal([2]);
      // With a key, the keyed index is read too: notes under another key fill its pool, and the note under
      // this key (and the unkeyed one) are still found.
      for (let i = 0; i < 60; i += 1) await rt.run(`notes save "blue blue blue keyed ${i}" --key k-other`);
      const withKey = await callTool('search_memory', { query: 'blue', label: null, private_key: 'k-123' });
      expect(withKey.notes.map((n: any) => n.memory_id).sort()).to.deep.equal([1, 2]);
    });

    it('refuses update and delete of a keyed note without the key, as if it did not exist', async () => {
      const before = dbHash();
      const update = await callTool('update_memory', {
        memory_id: 1,
        content: 'overwritten',
        label: null,
        private_key: null,
      });
      const remove = await callTool('delete_memory', { memory_id: 1, private_key: 'wrong' });
      const missing = await callTool('delete_memory', { memory_id: 99, private_key: null });
      expect(update.reason).to.equal('not_found');
      // A keyed note without its key answers exactly like a note that does not exist.
      expect({ ...remove, error: null }).to.deep.equal({ ...missing, error: null });
      expect(remove.error).to.equal('there is no note 1');
      expect(missing.error).to.equal('there is no note 99');
      expect(dbHash()).to.equal(before);
      expect((await callTool('delete_memory', { memory_id: 1, private_key: 'k-123' })).status).to.equal('deleted');
    });

    it('stores only a digest for matching, while the operator console sees the plaintext key', async () => {
      const db = new Database(dbPath(), { readonly: true });
      const row = db.prepare('SELECT private_key, key_digest FROM notes WHERE id = 1').get() as {
        private_key: string;
        key_digest: string;
      };
      db.close();
      expect(row.key_digest).to.equal(createHash('sha256').update('k-123').digest('hex'));
      expect((await rt.run('notes show N1')).output[0]).to.contain('key "k-123"');
    });
  });

  describe('scopes', () => {
    it('reads the session scope and global, writes only the session scope, and never global', async () => {
      await boot(undefined, 'work');
      await rt.run('notes save "Everyone: the lab closes at six" --global');
      await rt.run('notes scope home');
      await rt.run('notes save "Home: the cat is called Miso"');
      await rt.run('notes scope work');
      await callTool('save_memory', { content: 'Work: the printer is on floor two', label: null, private_key: null });
      const seen = (await callTool('get_recent_memories', { count: 10, label: null, private_key: null })).notes.map(
        (n: any) => n.content,
      );
      expect(seen).to.deep.equal(['Work: the printer is on floor two', 'Everyone: the lab closes at six']);
      const globalNote = (await callTool('search_memory', { query: 'lab', label: null, private_key: null })).notes[0];
      expect(globalNote.scope).to.equal('global');
      const before = dbHash();
      expect((await callTool('delete_memory', { memory_id: globalNote.memory_id, private_key: null })).reason).to.equal(
        'read_only_scope',
      );
      expect(
        (
          await callTool('update_memory', {
            memory_id: globalNote.memory_id,
            content: 'changed',
            label: null,
            private_key: null,
          })
        ).reason,
      ).to.equal('read_only_scope');
      expect(dbHash()).to.equal(before);
    });

    it('refuses model saves when the session scope is global', async () => {
      await boot(undefined, 'global');
      expect((await callTool('save_memory', { content: 'x y z', label: null, private_key: null })).reason).to.equal(
        'read_only_scope',
      );
    });
  });

  describe('search', () => {
    describe('full text finds what people mean', () => {
      const found = async (query: string) =>
        (await callTool('search_memory', { query, label: null, private_key: null })).notes.map((n: any) => n.content);
      beforeEach(async () => {
        await boot(undefined);
        for (const content of [
          'Alice drinks green tea',
          'The charger is behind the door',
          'Alice is allergic to peanuts',
          'Bob is in the kitchen',
          'Meet at the Café Luna',
        ])
          await callTool('save_memory', { content, label: null, private_key: null });
      });

      it('matches word forms: plurals and -ing forms find their stem', async () => {
        expect(await found('teas')).to.deep.equal(['Alice drinks green tea']);
        expect(await found('charging')).to.deep.equal(['The charger is behind the door']);
        expect(await found('peanut')).to.deep.equal(['Alice is allergic to peanuts']);
      });

      it('matches a word by its root both ways, as the last word and before others: charger and charging', async () => {
        await callTool('save_memory', { content: 'The robot is on its charging dock', label: null, private_key: null });
        // "charger" as the last word is a prefix, which cannot reach the stem "charg" the index holds for
        // "charging": its root can.
        expect(await found('where is your charger')).to.have.members([
          'The robot is on its charging dock',
          'The charger is behind the door',
        ]);
        // Before another word too; the note with every word first.
        expect((await found('charger dock'))[0]).to.equal('The robot is on its charging dock');
        expect((await found('charging door'))[0]).to.equal('The charger is behind the door');
        // A root shorter than five letters is no prefix: "router" does not find "routine".
        await callTool('save_memory', {
          content: 'Our morning routine starts at seven',
          label: null,
          private_key: null,
        });
        expect((await callTool('search_memory', { query: 'router', label: null, private_key: null })).status).to.equal(
          'none',
        );
      });

      it('finds a flag emoji, and tells one flag from another', async () => {
        await callTool('save_memory', { content: 'Tea from 🇬🇧 in the top cupboard', label: null, private_key: null });
        await callTool('save_memory', { content: 'Coffee from 🇮🇹 by the sink', label: null, private_key: null });
        expect(await found('🇬🇧')).to.deep.equal(['Tea from 🇬🇧 in the top cupboard']);
        expect(await found('🇮🇹')).to.deep.equal(['Coffee from 🇮🇹 by the sink']);
      });

      it('takes the last word as a prefix, and ignores diacritics', async () => {
        expect(await found('charg')).to.deep.equal(['The charger is behind the door']);
        expect(await found('kitch')).to.deep.equal(['Bob is in the kitchen']);
        expect(await found('cafe')).to.deep.equal(['Meet at the Café Luna']);
      });

      it('ranks notes with every word first, then notes with any, and never matches on stop-words alone', async () => {
        // Every note but one has "is", "the" or "to" in it: none of them may come back for those words.
        expect(await found('is Alice allergic to anything')).to.deep.equal([
          'Alice is allergic to peanuts',
          'Alice drinks green tea',
        ]);
        expect(await callTool('search_memory', { query: 'is it the', label: null, private_key: null })).to.deep.include(
          { status: 'none', notes: [] },
        );
      });
    });

    it('finds a Korean noun followed by a particle, and emoji, in a file indexed before either was', async () => {
      await boot(undefined);
      const notes = rt.app.kernel.store(NOTES_STORE);
      const saved = new Map<string, number>();
      for (const content of [
        '커피를 아침마다 마신다',
        '커피는 부엌 선반에 있다',
        '차를 좋아한다',
        '고양이가 소파에서 잔다',
        '부엌에서 라디오를 듣는다',
        'Morning ☕️ with Alice on the porch',
        '👍🏽 the new vacuum works',
        'The pizza menu is on the fridge',
      ])
        saved.set(content, (await notes.save('default', content, null, null)).note.id);
      await rt.stop();
      // A file indexed as before: emoji were dropped from its index. It is indexed anew once, at open.
      const db = new Database(dbPath());
      db.prepare("UPDATE meta SET value = 'segmented-keyed-2' WHERE key = 'text_index'").run();
      db.exec("DELETE FROM notes_fts WHERE rowid IN (SELECT id FROM notes WHERE content LIKE 'Morning%')");
      db.close();
      const before = dbHash();
      const reopened = SqliteNotesStore.open(dbPath());
      const viewer = { scopes: ['default', 'global'], key: null, operator: false };
      const search = async (query: string) =>
        (await reopened.search(viewer, query)).hits.map((h) => h.note.content).sort();
      try {
        // One and two syllables, then a particle written inside the word.
        expect(await search('커피')).to.deep.equal(['커피는 부엌 선반에 있다', '커피를 아침마다 마신다']);
        expect(await search('차')).to.deep.equal(['차를 좋아한다']);
        expect(await search('커피를')).to.deep.equal(['커피는 부엌 선반에 있다', '커피를 아침마다 마신다']);
        expect(await search('고양이')).to.deep.equal(['고양이가 소파에서 잔다']);
        expect(await search('부엌')).to.deep.equal(['부엌에서 라디오를 듣는다', '커피는 부엌 선반에 있다']);
        expect(await search('라디오')).to.deep.equal(['부엌에서 라디오를 듣는다']);
        expect(await search('소파')).to.deep.equal(['고양이가 소파에서 잔다']);
        // Emoji with or without their variation selector or skin tone, alone or beside words.
        expect(await search('☕')).to.deep.equal(['Morning ☕️ with Alice on the porch']);
        expect(await search('☕️ Alice')).to.deep.equal(['Morning ☕️ with Alice on the porch']);
        expect(await search('👍')).to.deep.equal(['👍🏽 the new vacuum works']);
        expect(await search('🍕')).to.deep.equal([]);
      } finally {
        reopened.close();
      }
      // Every note is kept as it was.
      expect(dbHash()).to.equal(before);
    });

    it('breaks a tie in hybrid ranking for the note that holds the words, not a vector neighbour alone', async () => {
      // The only note with "basil" is far from the query in meaning; a later note without the word is near it.
      await boot({ provider: 'openai', model: 'toy-embed' }, 'default', (text) =>
        text === 'basil' || text.startsWith('Pesto') ? [1, 0, 0, 0] : [0, 1, 0, 0],
      );
      await callTool('save_memory', {
        content: 'The jar of basil seeds is in the shed',
        label: null,
        private_key: null,
      });
      await callTool('save_memory', { content: 'Pesto recipe from grandma', label: null, private_key: null });
      const result = await callTool('search_memory', { query: 'basil', label: null, private_key: null });
      expect(result.mode).to.equal('hybrid');
      // Both ranked first of their lists: equal fused scores.
      expect(result.notes.map((n: any) => n.content)).to.deep.equal([
        'The jar of basil seeds is in the shed',
        'Pesto recipe from grandma',
      ]);
    });

    it('rebuilds the text index of a file from before stemming once, keeping every note as it was', async () => {
      await boot(undefined);
      await callTool('save_memory', { content: 'Alice drinks green tea', label: 'preference', private_key: null });
      await rt.stop();
      const db = new Database(dbPath());
      db.exec('DROP TABLE notes_fts');
      db.exec("CREATE VIRTUAL TABLE notes_fts USING fts5(content, labels, tokenize = 'unicode61 remove_diacritics 2')");
      db.exec("INSERT INTO notes_fts (rowid, content, labels) SELECT id, content, 'preference' FROM notes");
      db.close();
      const before = dbHash();
      const reopened = SqliteNotesStore.open(dbPath());
      try {
        const viewer = { scopes: ['default', 'global'], key: null, operator: false };
        expect((await reopened.search(viewer, 'teas')).hits.map((h) => h.note.content)).to.deep.equal([
          'Alice drinks green tea',
        ]);
        expect((await reopened.search(viewer, 'preferences')).hits.map((h) => h.note.labels)).to.deep.equal([
          ['preference'],
        ]);
      } finally {
        reopened.close();
      }
      expect(dbHash()).to.equal(before);
      const check = new Database(dbPath(), { readonly: true });
      expect(check.prepare("SELECT sql FROM sqlite_schema WHERE name = 'notes_fts'").pluck().get()).to.contain(
        "'porter unicode61 remove_diacritics 2'",
      );
      check.close();
    });

    it('is full-text only without an embedder, and says so', async () => {
      await boot(undefined);
      await callTool('save_memory', { content: 'Alice drinks green tea', label: 'preference', private_key: null });
      const result = await callTool('search_memory', { query: 'tea', label: null, private_key: null });
      expect(result.mode).to.equal('full-text');
      expect(result.note).to.contain('no embedder is configured');
      expect(server.embeddingRequests).to.deep.equal([]);
    });

    it('saves and searches full-text when the embedding server is down, logging the cause', async () => {
      await boot({ provider: 'openai', model: 'toy-embed', base_url: 'http://127.0.0.1:9/v1', timeout_ms: 2000 });
      const saved = await callTool('save_memory', {
        content: 'Alice drinks green tea',
        label: null,
        private_key: null,
      });
      expect(saved.status).to.equal('saved');
      const result = await callTool('search_memory', { query: 'tea', label: null, private_key: null });
      expect(result.notes.map((n: any) => n.content)).to.deep.equal(['Alice drinks green tea']);
      expect(result.mode).to.equal('full-text');
      const logged = rt.logs.filter((line) => line.startsWith('notes: the embedder failed while'));
      // Search does not ask the embedder while no note has a vector; the failed save is logged once.
      expect(logged.map((line) => line.split(';')[0])).to.deep.equal([
        'notes: the embedder failed while saving a note',
      ]);
      expect(logged[0]).to.match(/\n\s+at /);
    });

    for (const [what, scope, key] of [
      ['250 nearer notes in another scope', 'other', null],
      ['250 nearer notes under a key', 'default', 'k-secret'],
    ] as const) {
      it(`finds a visible note by meaning past ${what}`, async () => {
        await boot({ provider: 'openai', model: 'toy-embed' });
        await callTool('save_memory', { content: 'Alice drinks green tea', label: null, private_key: null });
        const notes = rt.app.kernel.store(NOTES_STORE);
        const near = Array.from({ length: 250 }, (_, i) => ({
          content: `coffee tea beverage ${'x'.repeat(1 + (i % 7))}`,
          labels: [],
          private_key: key,
          created_at: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
          updated_at: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
        }));
        await notes.importNotes({
          format: 'mira-notes',
          version: 1,
          scope,
          exported_at: '2026-01-01T00:00:00.000Z',
          notes: near,
        });
        const result = await callTool('search_memory', { query: 'beverage', label: null, private_key: null });
        expect(result.mode).to.equal('hybrid');
        expect(result.notes.map((n: any) => n.content)).to.deep.equal(['Alice drinks green tea']);
      });
    }

    for (const [table, ddl, copy] of [
      [
        'note_vectors',
        'CREATE VIRTUAL TABLE note_vectors USING vec0(embedding float[8] distance_metric=cosine)',
        'INSERT INTO note_vectors (rowid, embedding) SELECT id, embedding FROM note_vectors_v3',
      ],
      [
        'note_vectors_v2',
        'CREATE VIRTUAL TABLE note_vectors_v2 USING vec0(embedding float[8] distance_metric=cosine, scope text, key_digest text)',
        "INSERT INTO note_vectors_v2 (rowid, embedding, scope, key_digest) SELECT id, embedding, 'default', '' FROM note_vectors_v3",
      ],
    ] as const) {
      it(`moves the vectors of a file from before (sqlite-vec table ${table}) once, and still finds by meaning`, async () => {
        await boot({ provider: 'openai', model: 'toy-embed' });
        await callTool('save_memory', { content: 'Alice drinks green tea', label: null, private_key: null });
        await rt.stop();
        // Make the file look like one written before: the vectors in the old sqlite-vec table.
        const db = new Database(dbPath());
        sqliteVec.load(db);
        db.exec(ddl);
        db.exec(copy);
        db.exec('DROP TABLE note_vectors_v3');
        db.close();
        const reopened = SqliteNotesStore.open(dbPath(), {
          embedder: {
            name: 'openai:toy-embed',
            destination: 'x',
            embed: async (t) => t.map((x) => Float32Array.from(conceptEmbed(x))),
          },
        });
        try {
          const { hits, mode } = await reopened.search(
            { scopes: ['default', 'global'], key: null, operator: false },
            'beverage',
          );
          expect(mode).to.equal('hybrid');
          expect(hits.map((h) => h.note.content)).to.deep.equal(['Alice drinks green tea']);
        } finally {
          reopened.close();
        }
        const check = new Database(dbPath(), { readonly: true });
        expect(
          check
            .prepare("SELECT name FROM sqlite_schema WHERE name LIKE 'note_vectors%' AND type = 'table' ORDER BY name")
            .pluck()
            .all(),
        ).to.deep.equal(['note_vectors_v3']);
        check.close();
      });
    }

    it('fuses full-text and vector similarity, finding meaning without shared words', async () => {
      await boot({ provider: 'openai', model: 'toy-embed' });
      await callTool('save_memory', { content: 'Alice drinks green tea', label: 'preference', private_key: null });
      await callTool('save_memory', { content: 'The charger is behind the door', label: 'place', private_key: null });
      await callTool('save_memory', { content: 'Bob likes coffee', label: 'preference', private_key: 'bobkey' });
      const semantic = await callTool('search_memory', { query: 'beverage', label: null, private_key: null });
      expect(semantic.mode).to.equal('hybrid');
      expect(semantic.notes.map((n: any) => n.content)[0]).to.equal('Alice drinks green tea');
      expect(semantic.notes.map((n: any) => n.content)).not.to.include('Bob likes coffee'); // keyed: not without the key
      const both = await callTool('search_memory', { query: 'door', label: null, private_key: null });
      expect(both.notes[0].content).to.equal('The charger is behind the door'); // first in text and in meaning
      const filtered = await callTool('search_memory', { query: 'door', label: 'place', private_key: null });
      expect(filtered.notes.map((n: any) => n.content)).to.deep.equal(['The charger is behind the door']);
      // No place is anything like a beverage: the nearest one is not a match.
      const unlike = await callTool('search_memory', { query: 'beverage', label: 'place', private_key: null });
      expect(unlike).to.deep.include({ status: 'none', notes: [] });
      expect(server.embeddingRequests.at(-1)).to.deep.equal({ model: 'toy-embed', input: ['beverage'] });
    });

    it('answers none for a nonsense query: a vector neighbour below the similarity floor is not a match', async () => {
      await boot({ provider: 'openai', model: 'toy-embed' });
      await callTool('save_memory', { content: 'Alice drinks green tea', label: null, private_key: null });
      await callTool('save_memory', { content: 'The charger is behind the door', label: null, private_key: null });
      // "zzzz qqqq" shares no word and no concept with either note (cosine similarity 0).
      const nonsense = await callTool('search_memory', { query: 'zzzz qqqq', label: null, private_key: null });
      expect(nonsense).to.deep.include({ status: 'none', mode: 'hybrid', notes: [] });
      expect((await rt.run('notes search "zzzz qqqq"')).output).to.deep.equal(['0 found (hybrid)']);
      // Similar enough (0.5) is still found by meaning alone.
      const near = await callTool('search_memory', { query: 'beverage', label: null, private_key: null });
      expect(near.notes.map((n: any) => n.content)).to.deep.equal(['Alice drinks green tea']);
    });

    it('takes the similarity floor from [notes.embedding] min_similarity', async () => {
      // "beverage" is 0.5 similar to the tea note: above a 0.3 floor, below a 0.6 one.
      await boot({ provider: 'openai', model: 'toy-embed', min_similarity: 0.6 });
      await callTool('save_memory', { content: 'Alice drinks green tea', label: null, private_key: null });
      const strict = await callTool('search_memory', { query: 'beverage', label: null, private_key: null });
      expect(strict).to.deep.include({ status: 'none', notes: [] });
      const exact = await callTool('search_memory', { query: 'tea', label: null, private_key: null });
      expect(exact.notes.map((n: any) => n.content)).to.deep.equal(['Alice drinks green tea']);
    });

    it('embeds keyed notes too, and notes status says where note text goes', async () => {
      await boot({ provider: 'openai', model: 'toy-embed' });
      await callTool('save_memory', { content: 'secret stuff here', label: null, private_key: 'k' });
      expect(server.embeddingRequests.map((r) => r.input[0])).to.include('secret stuff here');
      const status = (await rt.run('notes status')).output.join('\n');
      expect(status).to.contain(
        `note text, keyed notes included, is sent to ${server.url}/embeddings (model toy-embed)`,
      );
    });

    it('detects a changed embedder and searches full-text only until notes reembed', async () => {
      await boot({ provider: 'openai', model: 'toy-embed' });
      await callTool('save_memory', { content: 'Alice drinks green tea', label: null, private_key: null });
      const dir = rt.dir;
      await rt.app.stop();
      await server.close();
      server = await startScriptedModelServer([], { embed: (t) => hashedBagOfWords(t, 16) });
      rt = await createTestRuntime({
        dir,
        clock,
        plugins: [notesPlugin],
        tables: {
          notes: {
            enabled: true,
            database_path: 'notes.sqlite3',
            embedding: { provider: 'openai', model: 'other-embed', base_url: server.url },
          },
        },
      });
      const before = await callTool('search_memory', { query: 'tea', label: null, private_key: null });
      expect(before.mode).to.equal('full-text');
      expect(before.note).to.contain('stored vectors come from openai:toy-embed, not openai:other-embed');
      expect((await rt.run('notes status')).output.join('\n')).to.contain('run "notes reembed"');
      // On a terminal the console shows a bar while notes are embedded.
      const bars: Array<{ label: string; total: number; done: number[]; stopped: boolean }> = [];
      const printed: string[] = [];
      await rt.app.execute('notes reembed', {
        print: (line) => printed.push(line),
        progress: (label, total) => {
          const bar = { label, total, done: [] as number[], stopped: false };
          bars.push(bar);
          return { update: (n) => bar.done.push(n), stop: () => (bar.stopped = true) };
        },
      });
      expect(printed).to.deep.equal(['re-embedded 1 notes with openai:other-embed']);
      expect(bars).to.deep.equal([{ label: 'embedding notes', total: 1, done: [0, 1], stopped: true }]);
      expect((await callTool('search_memory', { query: 'tea', label: null, private_key: null })).mode).to.equal(
        'hybrid',
      );
    });
  });

  describe('export, import and duplicates', () => {
    beforeEach(() => boot(undefined));

    it('round-trips a scope through export and import, idempotently', async () => {
      await rt.run('notes save "Alice drinks green tea" --label preference,tea');
      await rt.run('notes save "The dock code is 4711" --key k1');
      clock.advance(60_000);
      await rt.run('notes save "Bob is away in June" --label event');
      expect((await rt.run('notes export backup.json')).output[0]).to.match(
        /^exported 3 notes of scope "default" to .*backup\.json$/,
      );
      const exported = JSON.parse(readFileSync(join(rt.dir, 'backup.json'), 'utf8'));
      expect((await rt.run('notes import backup.json --scope copy')).output).to.deep.equal([
        'imported 3 notes, 0 already present',
      ]);
      expect((await rt.run('notes import backup.json --scope copy')).output).to.deep.equal([
        'imported 0 notes, 3 already present',
      ]);
      await rt.run('notes scope copy');
      await rt.run('notes export copy.json');
      const copied = JSON.parse(readFileSync(join(rt.dir, 'copy.json'), 'utf8'));
      expect(copied.notes).to.deep.equal(exported.notes);
      expect(copied.scope).to.equal('copy');
    });

    it('writes nothing for a malformed import file', async () => {
      await rt.run('notes save "Alice drinks green tea"');
      const before = dbHash();
      const good = {
        content: 'fine',
        labels: [],
        private_key: null,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      };
      writeFileSync(
        join(rt.dir, 'bad.json'),
        JSON.stringify({
          format: 'mira-notes',
          version: 1,
          scope: 'default',
          notes: [good, { ...good, created_at: 'yesterday' }],
        }),
      );
      writeFileSync(join(rt.dir, 'junk.json'), '{ not json');
      for (const file of ['bad.json', 'junk.json', 'missing.json']) {
        const { ok, output } = await rt.run(`notes import ${file}`);
        expect(ok).to.equal(false);
        expect(output[0]).to.match(/^error: MIRA_ERR_NOTES_IMPORT_INVALID: .*nothing was imported$/);
      }
      expect(dbHash()).to.equal(before);
    });

    it('finds near-identical notes, not different ones, and combines a pair', async () => {
      await rt.run('notes save "Alice prefers green tea in the morning" --label preference');
      await rt.run('notes save "alice prefers green tea, in the morning!" --label tea');
      await rt.run('notes save "Alice prefers black coffee in the evening"');
      const found = (await rt.run('notes duplicates')).output;
      expect(found[0]).to.equal('N1 ~ N2 (similarity 1.00)');
      expect(found.filter((l) => / ~ /.test(l))).to.have.length(1);
      expect((await rt.run('notes combine N1 N2')).output[0]).to.match(
        /^N1 · .* · preference, tea · Alice prefers green tea in the morning$/,
      );
      expect((await rt.run('notes duplicates')).output).to.deep.equal(['no near-identical notes']);
      expect((await rt.run('notes show N2')).ok).to.equal(false);
    });

    it('compares one label (or the unlabeled) alone', async () => {
      const store = rt.app.kernel.store(NOTES_STORE);
      await store.save('default', 'Water the basil on the kitchen sill', 'plants', null);
      await store.save('default', 'water the basil on the kitchen sill!', 'plants', null);
      await store.save('default', 'The spare fuse is in the hall drawer', 'house', null);
      await store.save('default', 'the spare fuse is in the hall drawer.', null, null);
      await store.save('default', 'The spare fuse is in the hall drawer', null, null);
      const viewer = { scopes: ['default'], key: null, operator: true };
      expect(await store.duplicates(viewer)).to.have.length(4);
      const ids = async (label: string) =>
        (await store.duplicates(viewer, { label })).map((p) => [p.a.id, p.b.id].sort((x, y) => x - y));
      expect(await ids('plants')).to.deep.equal([[1, 2]]);
      expect(await ids('unlabeled')).to.deep.equal([[4, 5]]);
      expect(await ids('house')).to.deep.equal([]);
      // The console compares one label with --label.
      const found = (await rt.run('notes duplicates --label plants')).output.filter((l) => / ~ /.test(l));
      expect(found).to.deep.equal(['N1 ~ N2 (similarity 1.00)']);
      expect((await rt.run('notes duplicates --label house')).output).to.deep.equal(['no near-identical notes']);
      expect(store.labelCounts(viewer)).to.deep.equal({
        total: 5,
        labels: [
          { label: 'plants', count: 2 },
          { label: 'unlabeled', count: 2 },
          { label: 'house', count: 1 },
        ],
      });
    });

    it('shows the progress of a duplicates scan on a terminal, from 0 to the end of its work', async () => {
      const store = rt.app.kernel.store(NOTES_STORE);
      const at = new Date(Date.UTC(2025, 0, 1)).toISOString();
      const count = 1_200;
      await store.importNotes({
        format: 'mira-notes',
        version: 1,
        scope: 'default',
        exported_at: at,
        notes: Array.from({ length: count }, (_, i) => ({
          content: i < 2 ? 'Water the basil on the kitchen sill' : `Bin ${i} holds part ${i * 7919}`,
          labels: [],
          private_key: null,
          created_at: at,
          updated_at: at,
        })),
      });
      const bars: Array<{ label: string; total: number; done: number[]; stopped: boolean }> = [];
      const printed: string[] = [];
      await rt.app.execute('notes duplicates', {
        print: (line) => printed.push(line),
        progress: (label, total) => {
          const bar = { label, total, done: [] as number[], stopped: false };
          bars.push(bar);
          return { update: (n) => bar.done.push(n), stop: () => (bar.stopped = true) };
        },
      });
      expect(printed[0]).to.equal('N1 ~ N2 (similarity 1.00)');
      expect(bars).to.have.length(1);
      const [bar] = bars;
      // Work units: each note's facts, then each of the 17 bucket keys' passes over every note.
      expect(bar).to.include({ label: 'comparing notes', total: count * 18, stopped: true });
      expect(bar!.done[0]).to.equal(0);
      expect(bar!.done.at(-1)).to.equal(count * 18);
      expect(bar!.done.every((n, i) => i === 0 || n >= bar!.done[i - 1]!)).to.equal(true);
      expect(bar!.done.length).to.be.above(20);
    });

    it('pages every order across a scope and global from their indexes, each note once; old files get the indexes at open', async () => {
      const store = rt.app.kernel.store(NOTES_STORE);
      const at = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString();
      // Ties everywhere: three creation times, four lengths, notes in both scopes.
      for (let i = 0; i < 23; i += 1) {
        const scope = i % 3 === 0 ? 'global' : 'default';
        await store.save(
          scope,
          `note ${'x'.repeat(i % 4)} ${String(i).padStart(2, '0')}`,
          ['b', 'a', null][i % 3]!,
          null,
          at(i % 3),
        );
      }
      await rt.stop();
      // A file from before: no order indexes. Opening it adds them and changes no note.
      const db = new Database(dbPath());
      db.exec('DROP INDEX notes_by_scope_created; DROP INDEX notes_by_scope_length');
      db.close();
      const before = dbHash();
      const reopened = SqliteNotesStore.open(dbPath());
      try {
        const viewer = { scopes: ['default', 'global'], key: null, operator: true };
        const rows = reopened.browse(viewer, { limit: 500 }).notes;
        expect(rows).to.have.length(23);
        const sorted: Record<string, (a: (typeof rows)[0], b: (typeof rows)[0]) => number> = {
          newest: (a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id,
          oldest: (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id,
          longest: (a, b) => b.content.length - a.content.length || b.id - a.id,
          shortest: (a, b) => a.content.length - b.content.length || b.id - a.id,
          label: (a, b) => (a.labels[0] ?? 'unlabeled').localeCompare(b.labels[0] ?? 'unlabeled') || b.id - a.id,
        };
        for (const [sort, compare] of Object.entries(sorted)) {
          for (const filter of ['', 'xx']) {
            const expected = [...rows]
              .filter((n) => n.content.includes(filter))
              .sort(compare)
              .map((n) => n.id);
            const seen: number[] = [];
            let after: string | null = null;
            do {
              const page = reopened.browse(viewer, { sort: sort as 'newest', filter, after, limit: 4 });
              seen.push(...page.notes.map((n) => n.id));
              after = page.next;
            } while (after !== null);
            expect(seen, `${sort} ${filter}`).to.deep.equal(expected);
          }
        }
        expect(reopened.browse(viewer, { filter: 'xx', label: 'a' }).counts).to.deep.equal({
          total: 23,
          matching: 4,
          labels: [
            { label: 'a', count: 8 },
            { label: 'b', count: 8 },
            { label: 'unlabeled', count: 7 },
          ],
        });
      } finally {
        reopened.close();
      }
      expect(dbHash()).to.equal(before);
      const check = new Database(dbPath(), { readonly: true });
      const plan = (order: string) =>
        check
          .prepare(`EXPLAIN QUERY PLAN SELECT * FROM notes n WHERE n.scope = 'default' ORDER BY ${order} LIMIT 5`)
          .all()
          .map((r: any) => r.detail)
          .join(' | ');
      // Read in order from an index, never sorted whole.
      expect(plan('n.created_at DESC, n.id DESC'))
        .to.match(/USING INDEX notes_by_scope_created/)
        .and.not.match(/TEMP B-TREE/);
      expect(plan('length(n.content) ASC, n.id ASC'))
        .to.match(/USING INDEX notes_by_scope_length/)
        .and.not.match(/TEMP B-TREE/);
      check.close();
    });

    it('counts a page afresh whenever notes change, here or through another connection to the file', async () => {
      const store = rt.app.kernel.store(NOTES_STORE);
      const viewer = { scopes: ['default', 'global'], key: null, operator: true };
      await store.save('default', 'The kettle is descaled monthly', 'kitchen', null);
      const counts = () => store.browse(viewer, { sort: 'newest', limit: 10 }).counts;
      expect(counts()).to.deep.equal({ total: 1, matching: 1, labels: [{ label: 'kitchen', count: 1 }] });
      // Another sort, the same notes: the same counts.
      expect(store.browse(viewer, { sort: 'longest' }).counts).to.deep.equal(counts());
      // Another process writes (another connection to the same file).
      const other = SqliteNotesStore.open(dbPath());
      try {
        await other.save('global', 'Bins go out on Tuesday', null, null);
      } finally {
        other.close();
      }
      expect(counts()).to.deep.equal({
        total: 2,
        matching: 2,
        labels: [
          { label: 'kitchen', count: 1 },
          { label: 'unlabeled', count: 1 },
        ],
      });
      // This connection writes.
      store.delete(1, viewer, undefined);
      expect(counts()).to.deep.equal({ total: 1, matching: 1, labels: [{ label: 'unlabeled', count: 1 }] });
      expect(store.browse(viewer, { label: 'kitchen' }).counts).to.deep.equal({
        total: 1,
        matching: 0,
        labels: [{ label: 'unlabeled', count: 1 }],
      });
    });

    it('lists labels most common first', async () => {
      await rt.run('notes save "a b" --label fact,tea');
      await rt.run('notes save "c d" --label tea');
      await rt.run('notes save "e f"');
      expect((await rt.run('notes labels')).output).to.deep.equal(['tea 2', 'fact 1']);
    });
  });

  it('creates no file and answers disabled when [notes] is off', async () => {
    server = await startScriptedModelServer();
    rt = await createTestRuntime({
      plugins: [notesPlugin],
      tables: { notes: { enabled: false, database_path: 'notes.sqlite3' } },
    });
    expect((await rt.run('notes status')).output[0]).to.match(/^notes: disabled in this profile/);
    expect((await rt.run('notes recent')).output[0]).to.match(/^error: MIRA_ERR_NOTES_DISABLED: /);
    expect(rt.app.kernel.tools.get('save_memory')).to.equal(undefined);
    expect(existsSync(dbPath())).to.equal(false);
  });
});
