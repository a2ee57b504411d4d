import { expect } from 'chai';
// The console is internal to core: its tests import the sources, not the public entry point.
import type { CommandInput } from '../src/console/command.js';
import { CommandConsole, oneEditApart } from '../src/console/console.js';
import { MiraError } from '../src/errors.js';

function collect() {
  const lines: string[] = [];
  return { lines, out: { print: (l: string) => lines.push(l) } };
}

describe('CommandConsole', () => {
  let console_: CommandConsole;
  let seen: Array<{ name: string; input: CommandInput }>;

  beforeEach(() => {
    console_ = new CommandConsole();
    seen = [];
    const record = (name: string) => (input: CommandInput) => {
      seen.push({ name, input });
    };
    console_.register({ name: 'memory', summary: 'working memory', run: record('memory') }, '@mira/core');
    console_.register(
      {
        name: 'memory entity add',
        summary: 'add an entity',
        usage: '<entity_type> "<canonical name>"',
        args: { min: 2, max: 2 },
        run: record('memory entity add'),
      },
      '@mira/plugin-memory',
    );
    console_.register(
      {
        name: 'memory add',
        summary: 'add a memory',
        args: { min: 2, max: 2 },
        options: {
          link: { takesValue: true, repeatable: true, valueName: 'ENT<n>:<role>' },
          value: { takesValue: true },
          force: { takesValue: false },
        },
        run: record('memory add'),
      },
      '@mira/plugin-memory',
    );
  });

  it('dispatches to the longest registered word sequence', async () => {
    const { out } = collect();
    expect((await console_.execute('memory entity add person "Ada Lovelace"', out)).ok).to.equal(true);
    expect((await console_.execute('memory', out)).ok).to.equal(true);
    expect(seen.map((s) => s.name)).to.deep.equal(['memory entity add', 'memory']);
    expect(seen[0]!.input.args).to.deep.equal(['person', 'Ada Lovelace']);
  });

  it('collects repeatable flags in order and parses switches', async () => {
    const { out } = collect();
    const result = await console_.execute(
      'memory add fact "Ada wrote" --link ENT1:subject --value "the notes" --link ENT2:object --force',
      out,
    );
    expect(result.ok).to.equal(true);
    const { input } = seen[0]!;
    expect(input.options.get('link')).to.deep.equal(['ENT1:subject', 'ENT2:object']);
    expect(input.options.get('value')).to.deep.equal(['the notes']);
    expect(input.options.get('force')).to.deep.equal(['']);
    expect(input.args).to.deep.equal(['fact', 'Ada wrote']);
  });

  it('treats a quoted "--word" as an argument, not a flag', async () => {
    const { out } = collect();
    expect((await console_.execute('memory add fact "--link"', out)).ok).to.equal(true);
    expect(seen[0]!.input.args).to.deep.equal(['fact', '--link']);
  });

  for (const [line, code] of [
    ['memory add fact "x" --colour red', 'MIRA_ERR_CONSOLE_UNKNOWN_FLAG'],
    ['memory add fact "x" --value', 'MIRA_ERR_CONSOLE_FLAG_VALUE_MISSING'],
    ['memory add fact "x" --value a --value b', 'MIRA_ERR_CONSOLE_FLAG_REPEATED'],
    ['memory entity add person', 'MIRA_ERR_CONSOLE_USAGE'],
    ['memory entity add person "Ada', 'MIRA_ERR_CONSOLE_UNTERMINATED_QUOTE'],
  ] as const) {
    it(`prints one "error: ${code}" line for: ${line}`, async () => {
      const { lines, out } = collect();
      const result = await console_.execute(line, out);
      expect(result.ok).to.equal(false);
      expect(lines).to.have.length(1);
      expect(lines[0]).to.match(new RegExp(`^error: ${code}: \\S`));
      expect(seen).to.have.length(0);
    });
  }

  it('points to the sub-commands when a command with sub-commands gets stray words', async () => {
    const { lines, out } = collect();
    expect((await console_.execute('memory entity', out)).ok).to.equal(false);
    expect(lines).to.deep.equal(['error: MIRA_ERR_CONSOLE_USAGE: usage: memory; "help memory" lists its sub-commands']);
  });

  it('sends a line that is not a command to the utterance handler, and "say" forces it', async () => {
    const heard: string[] = [];
    console_.setUtteranceHandler(async (text) => {
      heard.push(text);
    });
    const { out } = collect();
    await console_.execute('hello there, robot', out);
    await console_.execute('say memory is a fine word', out);
    await console_.execute('"memory" with quotes is not a command', out);
    expect(heard).to.deep.equal([
      'hello there, robot',
      'memory is a fine word',
      '"memory" with quotes is not a command',
    ]);
    expect(seen).to.have.length(0);
  });

  it('refuses a command-shaped line whose first word is one edit from a command, instead of saying it', async () => {
    const heard: string[] = [];
    console_.setUtteranceHandler(async (text) => {
      heard.push(text);
    });
    const { lines, out } = collect();
    expect((await console_.execute('memroy entity add person "Ada" --verbose', out)).ok).to.equal(false);
    expect((await console_.execute('memor list --all', out)).ok).to.equal(false);
    expect(lines).to.deep.equal([
      'error: MIRA_ERR_CONSOLE_UNKNOWN_COMMAND: "memroy" is not a command; did you mean "memory"? (say … talks to the robot)',
      'error: MIRA_ERR_CONSOLE_UNKNOWN_COMMAND: "memor" is not a command; did you mean "memory"? (say … talks to the robot)',
    ]);
    // Without options, or far from any command, or forced with say, it is an utterance.
    for (const line of ['memor is a lovely word', 'please help --me', 'say memroy --x'])
      await console_.execute(line, out);
    expect(heard).to.deep.equal(['memor is a lovely word', 'please help --me', 'memroy --x']);
  });

  it("refuses a one-word line or a command's next word after a near first word, and keeps speech speech", async () => {
    console_.register({ name: 'mcp status', summary: 'mcp', run: () => {} }, 'x');
    console_.register({ name: 'followup list', summary: 'followups', run: () => {} }, 'x');
    const heard: string[] = [];
    console_.setUtteranceHandler(async (text) => {
      heard.push(text);
    });
    const { lines, out } = collect();
    const refused = {
      'memroy entity add person Ada': ['memroy', 'memory'],
      memroy: ['memroy', 'memory'],
      memo: ['memo', 'memory'],
      'memo add fact x': ['memo', 'memory'],
      mpc: ['mpc', 'mcp'],
      'follow list': ['follow', 'followup'],
    };
    for (const [line, [text, suggestion]] of Object.entries(refused)) {
      const result = await console_.execute(line, out);
      expect(result.ok, line).to.equal(false);
      expect(result.error?.code, line).to.equal('MIRA_ERR_CONSOLE_UNKNOWN_COMMAND');
      expect(lines.pop(), line).to.equal(
        `error: MIRA_ERR_CONSOLE_UNKNOWN_COMMAND: "${text}" is not a command; did you mean "${suggestion}"? (say … talks to the robot)`,
      );
    }
    // Three letters are too short to guess at ("mem"); "map" and "mop" are one letter from "mcp" but are
    // words; a capital, punctuation or quotes mark speech; a near word followed by speech is speech.
    const speech = ['mem', 'map', 'mop the floor', 'Memroy', 'memroy!', '"memroy"', 'follow me', 'memory2 is new'];
    for (const line of speech) expect((await console_.execute(line, out)).ok, line).to.equal(true);
    expect(heard).to.deep.equal(speech);
    expect(lines).to.deep.equal([]);
    expect(seen).to.deep.equal([]);
  });

  it('knows what one edit is', () => {
    for (const [a, b] of [
      ['note', 'notes'],
      ['notes', 'note'],
      ['memroy', 'memory'],
      ['memorx', 'memory'],
      ['emmory', 'memory'],
    ]) {
      expect(oneEditApart(a, b), `${a} ~ ${b}`).to.equal(true);
    }
    for (const [a, b] of [
      ['memory', 'memory'],
      ['mem', 'memory'],
      ['yromem', 'memory'],
      ['abcd', 'dcba'],
      ['help', 'plugins'],
    ]) {
      expect(oneEditApart(a, b), `${a} ~ ${b}`).to.equal(false);
    }
  });

  it('says cognition is not configured when no handler is set', async () => {
    const { lines, out } = collect();
    const result = await console_.execute('where are you?', out);
    expect(result.ok).to.equal(false);
    expect(lines).to.deep.equal([lines[0]]);
    expect(lines[0]).to.match(/^error: MIRA_ERR_COGNITION_NOT_CONFIGURED: cognition is not configured in this profile/);
  });

  it('reports an error thrown by a command as one line and keeps working', async () => {
    console_.register(
      {
        name: 'boom',
        summary: 'fails',
        run: () => {
          throw new MiraError('MIRA_ERR_TEST', 'it broke, try again');
        },
      },
      'x',
    );
    console_.register(
      {
        name: 'crash',
        summary: 'throws a plain error',
        run: () => {
          throw new TypeError('bad');
        },
      },
      'x',
    );
    const { lines, out } = collect();
    expect((await console_.execute('boom', out)).ok).to.equal(false);
    expect((await console_.execute('crash', out)).ok).to.equal(false);
    expect((await console_.execute('memory', out)).ok).to.equal(true);
    expect(lines).to.deep.equal(['error: MIRA_ERR_TEST: it broke, try again', 'error: MIRA_ERR_INTERNAL: bad']);
  });

  it('refuses a duplicate command naming both plugins', () => {
    let caught: MiraError | undefined;
    try {
      console_.register({ name: 'memory  entity add', summary: 'again', run: () => {} }, '@acme/plugin-other');
    } catch (error) {
      caught = error as MiraError;
    }
    expect(caught?.code).to.equal('MIRA_ERR_DUPLICATE_REGISTRATION');
    expect(caught?.message).to.contain('@acme/plugin-other').and.to.contain('@mira/plugin-memory');
  });

  it('generates help from registrations, for all and for one command', () => {
    const all = console_.help([]).join('\n');
    expect(all).to.contain('memory entity add <entity_type> "<canonical name>"');
    expect(all).to.contain('memory add [--link ENT<n>:<role>]... [--value <value>] [--force]');
    const one = console_.help(['memory', 'add']).join('\n');
    expect(one).to.contain('--link ENT<n>:<role> (repeatable)');
    expect(one).not.to.contain('entity');
    expect(() => console_.help(['nope'])).to.throw(MiraError, /MIRA_ERR_CONSOLE_UNKNOWN_COMMAND/);
  });
});
