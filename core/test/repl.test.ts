import { expect } from 'chai';
import { PassThrough } from 'node:stream';
// The console and REPL are internal to core: their tests import the sources.
import { CommandConsole } from '../src/console/console.js';
import { progressOf } from '../src/console/progress.js';
import { startRepl } from '../src/console/repl.js';
import { CoreErrors, MiraError } from '../src/errors.js';

describe('startRepl()', () => {
  it('runs lines in order, and an immediate line (the emergency stop) while another line is still running', async () => {
    const commands = new CommandConsole();
    const events: string[] = [];
    let release!: () => void;
    commands.register(
      {
        name: 'slow',
        summary: 'takes a while',
        run: () =>
          new Promise<void>((resolve) => {
            events.push('slow begins');
            release = () => {
              events.push('slow ends');
              resolve();
            };
          }),
      },
      'test',
    );
    commands.register(
      {
        name: 'stop',
        summary: 'emergency stop',
        run: () => {
          events.push('stop');
        },
      },
      'test',
    );
    commands.register(
      {
        name: 'after',
        summary: 'later',
        run: () => {
          events.push('after');
        },
      },
      'test',
    );
    const input = new PassThrough();
    const output = new PassThrough();
    const repl = startRepl(commands, { input, output, interactive: false, immediate: new Set(['stop']) });
    input.write('slow\nafter\n');
    await new Promise((r) => setTimeout(r, 20));
    input.write('stop\n');
    await new Promise((r) => setTimeout(r, 20));
    expect(events).to.deep.equal(['slow begins', 'stop']);
    release();
    input.end();
    expect(await repl.done).to.equal(true);
    expect(events).to.deep.equal(['slow begins', 'stop', 'slow ends', 'after']);
  });

  it('reports failure at the end when any line failed', async () => {
    const commands = new CommandConsole();
    const input = new PassThrough();
    const output = new PassThrough();
    const repl = startRepl(commands, { input, output, interactive: false });
    input.end('nonsense that is not a command\n');
    expect(await repl.done).to.equal(false);
    expect(String(output.read())).to.match(/^error: MIRA_ERR_COGNITION_NOT_CONFIGURED/);
  });

  for (const interactive of [true, false]) {
    it(`${interactive ? 'says what to do after a failed line for a person at the terminal' : 'prints only the error line for a script'}`, async () => {
      const commands = new CommandConsole();
      commands.register(
        {
          name: 'fail',
          summary: 'fails',
          run: () => {
            throw CoreErrors.error('FILE_EXISTS.exists', { path: 'out.json' });
          },
        },
        'test',
      );
      // A code no catalogue holds has no advice to give.
      commands.register(
        { name: 'odd', summary: 'odd', run: () => Promise.reject(new MiraError('ACME_ERR_UNLISTED', 'no advice')) },
        'test',
      );
      const input = new PassThrough();
      const output = new PassThrough();
      const repl = startRepl(commands, { input, output, interactive, prompt: '' });
      input.end('fail\nodd\n');
      expect(await repl.done).to.equal(false);
      const lines = String(output.read())
        .split('\n')
        .filter((line) => line !== '');
      const fix = CoreErrors.entry('MIRA_ERR_FILE_EXISTS')!.fix;
      expect(lines).to.deep.equal([
        'error: MIRA_ERR_FILE_EXISTS: out.json exists already; nothing was written (choose another file, or give --force to replace it)',
        ...(interactive ? [`  what to do: ${fix}`] : []),
        'error: ACME_ERR_UNLISTED: no advice',
      ]);
    });
  }

  for (const tty of [true, false]) {
    it(`draws a progress bar for a long command ${tty ? 'on a terminal' : 'nowhere when the output is not a terminal'}`, async () => {
      const commands = new CommandConsole();
      commands.register(
        {
          name: 'long',
          summary: 'many steps',
          run: async (_input, out) => {
            const bar = progressOf(out, 'working through', 3);
            for (let done = 1; done <= 3; done += 1) {
              await new Promise((r) => setTimeout(r, 5));
              bar.update(done);
            }
            bar.stop();
            out.print('done 3');
          },
        },
        'test',
      );
      const input = new PassThrough();
      const output = Object.assign(new PassThrough(), { isTTY: tty, columns: 80 });
      const repl = startRepl(commands, { input, output, interactive: false });
      input.end('long\n');
      expect(await repl.done).to.equal(true);
      const written = String(output.read());
      if (tty) {
        expect(written).to.contain('working through [').and.to.contain('/3');
        expect(written.trimEnd().endsWith('done 3')).to.equal(true);
      } else {
        expect(written).to.equal('done 3\n');
      }
    });
  }
});
