import { expect } from 'chai';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import Database from 'better-sqlite3';
import { stringify } from 'smol-toml';
import { ManualClock } from '@mira/core';
import { createTestRuntime, type TestRuntime } from '@mira/core/testing';
import notesPlugin, { KeyGuard, NOTES_STORE, SqliteNotesStore, typedBy } from '@mira/plugin-notes';
import { MIRA_BIN } from './helpers/run-mira.js';

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('the key guard: wrong keys per scope and origin, kept beside the notes file', function () {
  this.timeout(20_000);
  let rt: TestRuntime;
  let clock: ManualClock;
  let noteId: number;
  const search = async (
    key: string | null,
    origin: 'operator' | 'attention' | 'initiative' = 'operator',
    utterance?: string,
  ) =>
    JSON.parse(
      (
        await rt.callTool(
          'search_memory',
          { query: 'vault code', label: null, private_key: key },
          { origin, ...(utterance === undefined ? {} : { utterance }) },
        )
      ).content,
    ) as Record<string, any>;

  beforeEach(async () => {
    clock = new ManualClock('2026-06-10T12:00:00.000Z');
    rt = await createTestRuntime({
      clock,
      plugins: [notesPlugin],
      tables: { notes: { enabled: true, database_path: 'notes.sqlite3' } },
    });
    noteId = (await rt.app.kernel.store(NOTES_STORE).save('default', 'The vault code is 4711', 'secret', '0147')).note
      .id;
  });
  afterEach(async () => {
    await rt.dispose();
  });

  it("30 autonomous guesses lock autonomous episodes only: the operator's episode with the right key still works", async () => {
    const answers: string[] = [];
    for (let i = 0; i < 30; i++) {
      const answer = await search(`g${i}`, i % 2 ? 'attention' : 'initiative');
      answers.push(answer.reason ?? answer.status);
    }
    expect(answers).to.deep.equal([...Array(5).fill('none'), ...Array(25).fill('budget_exhausted')]);
    // The right key too, from an autonomous episode: guessing waits out the window.
    const refused = await search('0147', 'attention');
    expect(refused).to.deep.include({ status: 'rejected', reason: 'budget_exhausted' });
    expect(refused.error).to.equal(
      '5 wrong keys from autonomous episodes in scope "default"; their keyed calls there are refused until 2026-06-10T12:15:00.000Z (or the operator\'s "notes unlock default"); nothing was done',
    );
    // The operator's own episodes are not locked: the right key reads, and the right key deletes.
    const mine = await search('0147', 'operator');
    expect(mine.notes.map((n: { content: string }) => n.content)).to.deep.equal(['The vault code is 4711']);
    expect((await rt.run('notes status')).output).to.include(
      'locked: scope default for autonomous episodes — 5 wrong keys within the window; keyed calls refused until 2026-06-10T12:15:00.000Z ("notes unlock default" ends it)',
    );
    const removed = JSON.parse(
      (await rt.callTool('delete_memory', { memory_id: noteId, private_key: '0147' }, { origin: 'operator' })).content,
    );
    expect(removed).to.deep.equal({ status: 'deleted', memory_id: noteId });
  });

  it("the model's own guesses in operator episodes lock only the model's keys: the key the operator types still works", async () => {
    // The model guesses inside the operator's episodes (its keys are in no word the operator said).
    const said = 'show me the vault note';
    for (let i = 0; i < 5; i++) expect((await search(`g${i}`, 'operator', said)).status, `guess ${i}`).to.equal('none');
    expect(await search('0147', 'operator', said)).to.deep.include({ reason: 'budget_exhausted' });
    expect((await search('0147', 'operator', said)).error).to.equal(
      '5 wrong keys of the model\'s own in scope "default"; keys it chose are refused until 2026-06-10T12:15:00.000Z (one the operator types still works; or "notes unlock default"); nothing was done',
    );
    // The operator types the right key in their message: it is the operator's, and it reads and deletes.
    const typed = await search('0147', 'operator', 'the vault note, key 0147.');
    expect(typed.notes.map((n: { content: string }) => n.content)).to.deep.equal(['The vault code is 4711']);
    // Nor are autonomous episodes locked by the model's operator-episode guesses.
    expect((await search('0147', 'attention')).status).to.equal('found');
    expect((await rt.run('notes status')).output.filter((l) => l.startsWith('locked:'))).to.deep.equal([
      'locked: scope default for the model\'s own keys — 5 wrong keys within the window; keyed calls refused until 2026-06-10T12:15:00.000Z ("notes unlock default" ends it)',
    ]);
    expect((await rt.run('notes unlock')).output).to.deep.equal([
      'scope default: unlocked; its 5 wrong keys are forgotten',
    ]);
    expect((await search('0147', 'operator', said)).status).to.equal('found');
  });

  it("the operator's typed misses lock only the keys the operator types, never the model's nor another origin's", async () => {
    for (let i = 0; i < 5; i++) expect((await search(`t${i}`, 'operator', `my key is t${i}`)).status).to.equal('none');
    expect(await search('0147', 'operator', 'my key is 0147')).to.deep.include({ reason: 'budget_exhausted' });
    expect((await search('0147', 'operator')).status).to.equal('found');
    expect((await search('0147', 'attention')).status).to.equal('found');
    expect((await rt.run('notes status')).output.filter((l) => l.startsWith('locked:'))).to.deep.equal([
      'locked: scope default for keys the operator typed — 5 wrong keys within the window; keyed calls refused until 2026-06-10T12:15:00.000Z ("notes unlock default" ends it)',
    ]);
    // Refused calls are not misses, and a delete with a typed wrong key counts as a typed miss.
    expect((await rt.run('notes unlock')).output).to.deep.equal([
      'scope default: unlocked; its 5 wrong keys are forgotten',
    ]);
    const wrongDelete = JSON.parse(
      (
        await rt.callTool(
          'delete_memory',
          { memory_id: noteId, private_key: 'nope' },
          { origin: 'operator', utterance: 'delete it, the key is nope' },
        )
      ).content,
    );
    expect(wrongDelete).to.deep.include({ reason: 'not_found' });
    await new Promise((resolve) => setImmediate(resolve));
    expect((rt.app.kernel.store(NOTES_STORE) as SqliteNotesStore).keyLockouts()).to.deep.equal([]);
    expect(readFileSync((rt.app.kernel.store(NOTES_STORE) as SqliteNotesStore).keyGuard.file, 'utf8')).to.match(
      /"origin":"operator"\}\n$/,
    );
  });

  it('takes a key as typed by the operator only as a word of its own in the current utterance', () => {
    expect(typedBy('the key is 0147', '0147')).to.equal(true);
    expect(typedBy("the key is '0147'.", '0147')).to.equal(true);
    expect(typedBy('(0147) is the key', '0147')).to.equal(true);
    expect(typedBy('the key is 01478', '0147')).to.equal(false);
    expect(typedBy('the key is x0147', '0147')).to.equal(false);
    expect(typedBy('show me the vault note', 'vault-note')).to.equal(false);
    expect(typedBy('anything', '')).to.equal(false);
  });

  it('keeps misses in a 0600 file of its own in a 0700 directory, never in the notes file, and a restart keeps them', async () => {
    const notesFile = join(rt.dir, 'notes.sqlite3');
    for (let i = 0; i < 5; i++) await search(`g${i}`, 'attention');
    await new Promise((resolve) => setImmediate(resolve));
    const store = rt.app.kernel.store(NOTES_STORE);
    expect(store).to.be.instanceOf(SqliteNotesStore);
    const guard = (store as SqliteNotesStore).keyGuard.file;
    expect(guard).to.equal(`${notesFile}.key-guard/misses`);
    expect(mode(`${notesFile}.key-guard`)).to.equal('700');
    expect(mode(guard)).to.equal('600');
    expect(readFileSync(guard, 'utf8').trim().split('\n')).to.have.length(5);
    const db = new Database(notesFile, { readonly: true });
    try {
      expect(db.prepare("SELECT name FROM sqlite_schema WHERE name LIKE '%miss%'").all()).to.deep.equal([]);
    } finally {
      db.close();
    }
    const first = rt;
    await first.stop();
    rt = await createTestRuntime({
      clock,
      dir: first.dir,
      plugins: [notesPlugin],
      tables: { notes: { enabled: true, database_path: 'notes.sqlite3' } },
    });
    try {
      expect(await search('0147', 'attention')).to.deep.include({ reason: 'budget_exhausted' });
      expect((await search('0147', 'operator')).status).to.equal('found');
    } finally {
      await rt.dispose();
      rt = first;
    }
  });
});

describe('KeyGuard (its file shared by processes)', () => {
  let dir: string;
  let clock: ManualClock;
  const limits = { misses: 5, windowMs: 15 * 60_000 };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-key-guard-'));
    clock = new ManualClock('2026-06-10T12:00:00.000Z');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("counts another guard's misses on the same file, per origin, and forgets them as the window passes", () => {
    const logs: string[] = [];
    const a = new KeyGuard(join(dir, 'notes.sqlite3'), limits, clock, (m) => logs.push(m));
    const b = new KeyGuard(join(dir, 'notes.sqlite3'), limits, clock, (m) => logs.push(m));
    for (let i = 0; i < 3; i++) a.recordMiss('default', 'mcp');
    a.flush();
    clock.advance(60_000);
    for (let i = 0; i < 2; i++) b.recordMiss('default', 'mcp');
    // Counted in b at once (before its write), and in a once written.
    expect(b.lockout('default', 'mcp')).to.deep.equal({
      scope: 'default',
      origin: 'mcp',
      misses: 5,
      until: new Date('2026-06-10T12:15:00.000Z'),
    });
    expect(a.lockout('default', 'mcp')).to.equal(undefined);
    b.flush();
    expect(a.lockout('default', 'mcp')?.misses).to.equal(5);
    expect(a.lockout('default', 'autonomous')).to.equal(undefined);
    expect(a.lockout('default', 'operator')).to.equal(undefined);
    expect(a.lockout('lab', 'mcp')).to.equal(undefined);
    clock.advance(14 * 60_000 + 1);
    expect(a.lockout('default', 'mcp')).to.equal(undefined);
    expect(logs).to.deep.equal([]);
  });

  it('compacts a grown file with a rename, keeping only what is in the window, and leaves no temporary file', () => {
    const guard = new KeyGuard(join(dir, 'notes.sqlite3'), { misses: 1000, windowMs: 60_000 }, clock, () => {});
    for (let i = 0; i < 1500; i++) {
      guard.recordMiss('default', 'autonomous');
      guard.flush();
      clock.advance(100);
    }
    const lines = readFileSync(guard.file, 'utf8').trim().split('\n');
    // 64 KB of lines at most (about 1,000), then rewritten with the last minute's: never all 1,500.
    expect(lines.length).to.be.below(1500);
    // The last minute's misses are all there: those after 12:01:30, 100 ms apart.
    expect(guard.clear('default')).to.equal(599);
    expect(mode(guard.file)).to.equal('600');
    expect(existsSync(join(dir, 'notes.sqlite3.key-guard'))).to.equal(true);
    expect(readdirSync(join(dir, 'notes.sqlite3.key-guard'))).to.deep.equal(['misses']);
  });

  it('makes a guard directory and file that group or others could read owner-only, saying so', () => {
    const guardDir = join(dir, 'notes.sqlite3.key-guard');
    mkdirSync(guardDir, { mode: 0o755 });
    chmodSync(guardDir, 0o755);
    writeFileSync(join(guardDir, 'misses'), '');
    chmodSync(join(guardDir, 'misses'), 0o644);
    const logs: string[] = [];
    const guard = new KeyGuard(join(dir, 'notes.sqlite3'), limits, clock, (m) => logs.push(m));
    guard.recordMiss('default', 'mcp');
    guard.flush();
    expect([mode(guardDir), mode(guard.file)]).to.deep.equal(['700', '600']);
    expect(logs).to.deep.equal([
      `notes: made owner-only (chmod 700) what group or others could read: ${guardDir} (was 0755)`,
      `notes: made owner-only (chmod 600) what group or others could read: ${guard.file} (was 0644)`,
    ]);
    expect(readFileSync(guard.file, 'utf8').trim().split('\n')).to.have.length(1);
  });

  it('leaves a foreign file at its path alone, says so, and still counts in the process', () => {
    writeFileSync(join(dir, 'notes.sqlite3.key-guard'), 'not ours');
    const logs: string[] = [];
    const guard = new KeyGuard(join(dir, 'notes.sqlite3'), limits, clock, (m) => logs.push(m));
    for (let i = 0; i < 5; i++) guard.recordMiss('default', 'mcp');
    guard.flush();
    expect(readFileSync(join(dir, 'notes.sqlite3.key-guard'), 'utf8')).to.equal('not ours');
    expect(guard.lockout('default', 'mcp')?.misses).to.equal(5);
    expect(logs.some((l) => l.includes('exists and is not a directory; it was left as it is'))).to.equal(true);
  });
});

describe('mira mcp: the wrong-key budget survives restarts (real processes)', function () {
  this.timeout(120_000);
  let dir: string;
  let notes: SqliteNotesStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mira-mcp-guard-'));
    // The console: mira mcp reads beside it.
    notes = SqliteNotesStore.open(join(dir, 'notes.sqlite3'));
    await notes.save('default', 'The dock code is 4711', 'secret', 'k-9');
    writeFileSync(
      join(dir, 'profile.toml'),
      stringify({
        profile: { name: 'Mira', plugins: ['@mira/plugin-notes'] },
        notes: { enabled: true, database_path: 'notes.sqlite3' },
      }),
    );
  });
  afterEach(() => {
    notes.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function session(keys: readonly string[]): Promise<string[]> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MIRA_BIN, 'mcp', '--profile', dir],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'guesser', version: '1.0.0' });
    await client.connect(transport);
    try {
      const answers: string[] = [];
      for (const key of keys) {
        const result = await client.callTool({
          name: 'search_notes',
          arguments: { query: 'dock code', scope: 'default', private_key: key },
        });
        const answer = JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as Record<string, string>;
        answers.push(answer.reason ?? answer.status);
      }
      return answers;
    } finally {
      await client.close();
    }
  }

  it('10 restarts with 5 guesses each give 5 guesses in all, lock MCP only, and change nothing in the notes file', async () => {
    const file = join(dir, 'notes.sqlite3');
    const before = [sha(file), existsSync(`${file}-wal`) ? sha(`${file}-wal`) : null];
    const answers: string[] = [];
    for (let run = 0; run < 10; run++) {
      answers.push(...(await session(Array.from({ length: 5 }, (_, i) => `g${run}-${i}`))));
    }
    expect(answers).to.deep.equal([...Array(5).fill('none'), ...Array(45).fill('budget_exhausted')]);
    // The right key is refused over MCP too, in a fresh process.
    expect(await session(['k-9'])).to.deep.equal(['budget_exhausted']);
    // The console's own episodes, and autonomous ones, are not locked by an MCP client.
    expect(notes.keyLockout('default', 'operator')).to.equal(undefined);
    expect(notes.keyLockout('default', 'autonomous')).to.equal(undefined);
    expect(notes.keyLockouts()).to.have.length(1);
    expect(notes.keyLockouts()[0]).to.deep.include({ scope: 'default', origin: 'mcp', misses: 5 });
    expect([sha(file), existsSync(`${file}-wal`) ? sha(`${file}-wal`) : null]).to.deep.equal(before);
    expect(mode(`${file}.key-guard/misses`)).to.equal('600');
    // The operator ends it, and the next process sees that.
    expect(notes.clearKeyMisses('default')).to.equal(5);
    expect(await session(['k-9'])).to.deep.equal(['found']);
  });
});
