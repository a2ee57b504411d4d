import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runMira } from './helpers/run-mira.js';

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('memory console commands (real CLI, real SQLite file)', function () {
  this.timeout(30_000);
  let root: string;
  let profileDir: string;
  let dbPath: string;

  const writeProfile = (memoryTable: string) => {
    writeFileSync(
      join(profileDir, 'profile.toml'),
      `[profile]\nname = "Mira"\nplugins = ["@mira/plugin-memory"]\n${memoryTable}`,
    );
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'mira-memory-cli-'));
    profileDir = join(root, 'profiles', 'lab');
    mkdirSync(profileDir, { recursive: true });
    // One directory level to create: Mira creates the last level only (a deeper miss is refused).
    dbPath = join(root, 'data', 'mira-memory.sqlite3');
    writeProfile('[memory]\nenabled = true\ndatabase_path = "../../data/mira-memory.sqlite3"\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const mira = (lines: string[]) => runMira(['--profile', profileDir], `${lines.join('\n')}\n`, { cwd: tmpdir() });

  it('runs the administrative session, resolving the path against the manifest and creating its directory', async () => {
    const run = await mira([
      'memory entity add person "Ada Lovelace"',
      'memory entity add robot "Mira"',
      'memory alias add ENT1 "Countess of Lovelace"',
      'memory add fact "Ada wrote the first program" --link ENT1:subject --predicate wrote --value "the first program" --source-label "history book" --confidence 0.9',
      'memory add relationship "Mira admires Ada" --link ENT2:subject --link ENT1:Admired',
      'memory find "countess of  LOVELACE"',
      'memory show MEM1',
      'memory list ENT2',
      'memory persistent',
    ]);
    // The first creation of the store is said, with its path.
    expect(run.stderr).to.equal(`mira: memory: created a new store at ${dbPath}\n`);
    expect(run.code).to.equal(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).to.equal('ENT1 person "Ada Lovelace"');
    expect(lines[1]).to.equal('ENT2 robot "Mira"');
    expect(lines[2]).to.equal('ENT1 alias "Countess of Lovelace" added');
    expect(lines[3]).to.match(/^MEM1 fact "Ada wrote the first program"/);
    expect(lines[4]).to.match(/^MEM2 relationship "Mira admires Ada" \[ENT1 admired, ENT2 subject\]$/);
    expect(lines[5]).to.equal('ENT1 person "Ada Lovelace" (aliases: "Countess of Lovelace")');
    expect(lines.slice(6, 8)).to.deep.equal([
      '  MEM1 fact "Ada wrote the first program" wrote="the first program" [ENT1 subject]',
      '  MEM2 relationship "Mira admires Ada" [ENT1 admired, ENT2 subject]',
    ]);
    const show = run.stdout.slice(run.stdout.indexOf('MEM1 fact\n'));
    expect(show).to.contain('  summary: Ada wrote the first program\n');
    expect(show).to.contain('  predicate: wrote\n  value: the first program\n');
    expect(show).to.contain('  source: console ("history book")\n  confidence: 0.9\n  status: active\n');
    expect(show).to.match(/ {2}created: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\n/);
    expect(show).to.contain('  link: ENT1 "Ada Lovelace" as subject\n');
    expect(show).to.contain('  payload: text/plain, 27 bytes (inline)\n');
    expect(run.stdout).to.contain(
      `database: ${dbPath}\ncreated: now, by this start (a new, empty store)\nschema version: 2\nentities: 2, aliases: 1, memories: 2 (2 active), links: 3, payloads: 2`,
    );
    expect(existsSync(dbPath)).to.equal(true);
  });

  it('keeps ENT<n>/MEM<n> identities and contents in a new process on the same file', async () => {
    const first = await mira([
      'memory entity add person "Ada"',
      'memory add fact "Ada likes tea" --link ENT1:subject --predicate likes --value tea',
      'memory show MEM1',
      'memory find "ada"',
    ]);
    expect(first.code).to.equal(0);
    const second = await mira([
      'memory show MEM1',
      'memory find "ada"',
      'memory entity add person "Bob"',
      'memory add fact "Bob too" --link ENT2:subject',
    ]);
    expect(second.code).to.equal(0);
    const firstView = first.stdout.split('\n').slice(2).join('\n');
    expect(second.stdout.startsWith(firstView.trimEnd())).to.equal(true);
    expect(second.stdout).to.contain('\nENT2 person "Bob"\nMEM2 fact "Bob too" [ENT2 subject]\n');
  });

  it('prints one error line for each kind of bad input, writes nothing, and keeps going', async () => {
    await mira(['memory entity add person "Ada"']);
    const before = sha256(dbPath);
    const bad = [
      ['memory alias add ENT9 "Ghost"', 'MIRA_ERR_MEMORY_ENTITY_NOT_FOUND'],
      ['memory alias add E1 "Ghost"', 'MIRA_ERR_MEMORY_INVALID_ID'],
      ['memory alias add ENT1 "ADA"', 'MIRA_ERR_MEMORY_ALIAS_EXISTS'],
      ['memory add fact "x" --link ENT1:subject --confidence 1.2', 'MIRA_ERR_MEMORY_CONFIDENCE_RANGE'],
      ['memory add fact "x" --confidence abc', 'MIRA_ERR_MEMORY_CONFIDENCE_RANGE'],
      ['memory add fact "x" --link ENT1', 'MIRA_ERR_MEMORY_LINK_INVALID'],
      ['memory add fact "x" --link ENT1:subject --link ENT1:object', 'MIRA_ERR_MEMORY_LINK_INVALID'],
      ['memory add fact "x" --link ENT7:subject', 'MIRA_ERR_MEMORY_ENTITY_NOT_FOUND'],
      ['memory add "bad kind" "x"', 'MIRA_ERR_TOKEN_INVALID'],
      ['memory add fact "x" --predicate "has space"', 'MIRA_ERR_TOKEN_INVALID'],
      ['memory add fact ""', 'MIRA_ERR_TEXT_EMPTY'],
      ['memory entity add person ""', 'MIRA_ERR_TEXT_EMPTY'],
      ['memory entity add 9lives "Cat"', 'MIRA_ERR_TOKEN_INVALID'],
      ['memory show MEM1', 'MIRA_ERR_MEMORY_NOT_FOUND'],
      ['memory show ENT1', 'MIRA_ERR_MEMORY_INVALID_ID'],
      ['memory list ENT0', 'MIRA_ERR_MEMORY_INVALID_ID'],
      ['memory add fact "x" --value tea', 'MIRA_ERR_MEMORY_VALUE_WITHOUT_PREDICATE'],
      ['memory add fact "x" --colour red', 'MIRA_ERR_CONSOLE_UNKNOWN_FLAG'],
      // Provenance cannot be forged: only remember writes what the operator said.
      [
        'memory add fact "Ada likes tea" --link ENT1:subject --source-kind operator_statement',
        'MIRA_ERR_MEMORY_SOURCE_KIND_RESERVED',
      ],
      ['memory add fact "Ada likes tea" --source-kind OPERATOR_STATEMENT', 'MIRA_ERR_MEMORY_SOURCE_KIND_RESERVED'],
      // Invisible format characters and line breaks have no place in a name.
      ['memory entity add person "Al\u200bice"', 'MIRA_ERR_TEXT_CONTROL_CHARACTER'],
      ['memory entity add person "Al\u2060ice"', 'MIRA_ERR_TEXT_CONTROL_CHARACTER'],
      ['memory entity add person "Al\u00adice"', 'MIRA_ERR_TEXT_CONTROL_CHARACTER'],
      ['memory entity add person "\ufeffAlice"', 'MIRA_ERR_TEXT_CONTROL_CHARACTER'],
      ['memory entity add person "Al\u200dice"', 'MIRA_ERR_TEXT_CONTROL_CHARACTER'],
      ['memory alias add ENT1 "Ad\u200ea"', 'MIRA_ERR_TEXT_CONTROL_CHARACTER'],
      ['memory alias add ENT1 "Ad\ta"', 'MIRA_ERR_TEXT_CONTROL_CHARACTER'],
    ];
    const run = await mira([...bad.map(([line]) => line!), 'memory entity find "Ada"']);
    expect(run.code).to.equal(1);
    const lines = run.stdout.trim().split('\n');
    expect(lines).to.have.length(bad.length + 1);
    bad.forEach(([line, code], i) => expect(lines[i], line).to.match(new RegExp(`^error: ${code}: \\S`)));
    expect(lines.at(-1)).to.equal('ENT1 person "Ada"');
    expect(sha256(dbPath)).to.equal(before);
  });

  it('does no substring, typo or case-insensitive-prefix matching, and says a miss plainly', async () => {
    const run = await mira([
      'memory entity add person "Ada Lovelace"',
      'memory find "Ada"',
      'memory find "Ada Lovelac"',
      'memory entity find "lovelace"',
    ]);
    expect(run.stdout.trim().split('\n').slice(1)).to.deep.equal([
      'no entity is named "Ada" (exact name or alias)',
      'no entity is named "Ada Lovelac" (exact name or alias)',
      'no entity is named "lovelace" (exact name or alias)',
    ]);
  });

  for (const [what, table] of [
    ['an absent [memory] table', ''],
    ['enabled = false', '[memory]\nenabled = false\ndatabase_path = "../../data/nested/mira-memory.sqlite3"\n'],
  ] as const) {
    it(`creates no database or directory with ${what}, and the commands say memory is disabled`, async () => {
      writeProfile(table);
      const run = await mira(['memory persistent', 'memory entity add person "Ada"', 'memory find "Ada"', 'memory']);
      expect(run.code).to.equal(1);
      const lines = run.stdout.trim().split('\n');
      expect(lines[0]).to.match(/^persistent memory: disabled in this profile/);
      expect(lines[1]).to.match(/^error: MIRA_ERR_MEMORY_DISABLED: persistent memory is disabled in this profile/);
      expect(lines[2]).to.match(/^error: MIRA_ERR_MEMORY_DISABLED: /);
      expect(lines[3]).to.match(/^working memory: 0 of at most/);
      expect(existsSync(join(root, 'data'))).to.equal(false);
      expect(readdirSync(profileDir)).to.deep.equal(['profile.toml']);
    });
  }

  it('fails start-up when enabled without a database_path, creating nothing', async () => {
    writeProfile('[memory]\nenabled = true\ndatabase_path = ""\n');
    const run = await mira(['help']);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.match(
      /MIRA_ERR_CONFIG_INVALID: .*profile\.toml: plugin @mira\/plugin-memory: \[memory\] \/memory\/database_path: a non-empty path is required/,
    );
    expect(existsSync(join(root, 'data'))).to.equal(false);
  });

  it('fails start-up on an unversioned database and leaves it byte-for-byte unchanged', async () => {
    mkdirSync(join(root, 'data', 'nested'), { recursive: true });
    const db = new Database(dbPath);
    db.exec("CREATE TABLE diary (entry TEXT); INSERT INTO diary VALUES ('dear diary')");
    db.close();
    const before = sha256(dbPath);
    const run = await mira(['memory persistent']);
    expect(run.code).to.equal(1);
    expect(run.stdout).to.equal('');
    expect(run.stderr).to.contain('MIRA_ERR_STORE_UNVERSIONED').and.to.contain(dbPath);
    expect(sha256(dbPath)).to.equal(before);
  });

  it('fails start-up on a file that is not SQLite', async () => {
    mkdirSync(join(root, 'data', 'nested'), { recursive: true });
    writeFileSync(
      dbPath,
      'not a database at all, just some words that fill up more than a hundred bytes of this file to be sure\n',
    );
    const before = sha256(dbPath);
    const run = await mira(['memory persistent']);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain('MIRA_ERR_STORE_NOT_SQLITE');
    expect(sha256(dbPath)).to.equal(before);
  });

  it('keeps the working-memory commands on working memory only', async () => {
    const run = await mira(['memory entity add person "Ada"', 'memory clear', 'memory find "Ada"']);
    expect(run.code).to.equal(0);
    expect(run.stdout).to.contain(
      'working memory cleared (0 entries removed)\nENT1 person "Ada"\n  (no active memories)\n',
    );
  });
});
