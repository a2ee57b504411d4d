import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { StreamedReply, terminalWaiting } from '@mira/core';

// The operator sees Mira working: streamed text printed as the whole reply would be, and on a terminal a
// waiting line in the console's progress style, shown after about a second and cleared.

function printer() {
  let out = '';
  let stopped = 0;
  const reply = new StreamedReply((text) => (out += text), 'Mira', { stop: () => (stopped += 1) });
  return { reply, output: () => out, stopped: () => stopped };
}

describe('StreamedReply', () => {
  it('prints the pieces on one Mira: line as they come, indenting further lines as a whole reply is', () => {
    const { reply, output, stopped } = printer();
    reply.add('Hello');
    expect(output()).to.equal('Mira: Hello');
    expect(stopped()).to.equal(1);
    reply.add(', operator.\nSecond');
    reply.add(' line.');
    reply.end();
    expect(output()).to.equal('Mira: Hello, operator.\n  Second line.\n');
    expect(stopped()).to.equal(1);
  });

  it('never prints thinking, even a tag split across pieces', () => {
    const { reply, output } = printer();
    for (const piece of ['\n', '<th', 'ink>the operator', ' wants tea</thi', 'nk>\n\nTea', ' it is.<', 'think>more']) {
      reply.add(piece);
      expect(output()).not.to.match(/<|think|operator/);
    }
    reply.end();
    expect(output()).to.equal('Mira: Tea it is.\n');
  });

  it('prints nothing, and ends no line, for an answer of white space or thinking alone', () => {
    const { reply, output, stopped } = printer();
    reply.add('  \n');
    reply.add('<think>x</think>');
    reply.end();
    expect(output()).to.equal('');
    expect(reply.started).to.equal(false);
    expect(stopped()).to.equal(0);
  });

  it('holds trailing white space until text follows it, and escapes control characters', () => {
    const { reply, output } = printer();
    reply.add('a  ');
    expect(output()).to.equal('Mira: a');
    reply.add('\u001b[31mb');
    reply.end();
    expect(output()).to.equal('Mira: a  \\x1b[31mb\n');
  });

  it('never splits a surrogate pair between pieces', () => {
    const { reply, output } = printer();
    const smile = '\u{1F600}';
    reply.add(`ok ${smile[0]}`);
    expect(output()).to.equal('Mira: ok ');
    reply.add(`${smile[1]}!`);
    expect(output()).to.equal(`Mira: ok ${smile}!`);
  });
});

describe('terminalWaiting()', () => {
  function terminal() {
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
    let written = '';
    stream.on('data', (d) => (written += d));
    return { stream, written: () => written };
  }
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('shows the label with the seconds waited after the delay, and clears it on stop', async () => {
    const { stream, written } = terminal();
    const waiting = terminalWaiting(stream, 'Mira is thinking…', 50);
    await sleep(20);
    expect(written()).to.equal('');
    await sleep(150);
    expect(written()).to.contain('Mira is thinking… 0s');
    const before = written().length;
    waiting.stop();
    waiting.stop();
    // cli-progress clears the line it drew (clearOnComplete) and shows the cursor again.
    expect(['\u001b[2K', '\u001b[0K', '\u001b[K'].some((erase) => written().slice(before).includes(erase))).to.equal(
      true,
    );
    const after = written().length;
    await sleep(150);
    expect(written().length).to.equal(after);
  });

  it('shows nothing when stopped before the delay, nor on a stream that is not a terminal', async () => {
    const early = terminal();
    terminalWaiting(early.stream, 'Mira is thinking…', 50).stop();
    const pipe = Object.assign(new PassThrough(), { isTTY: false });
    let piped = '';
    pipe.on('data', (d) => (piped += d));
    const never = terminalWaiting(pipe, 'Mira is thinking…', 10);
    await sleep(100);
    never.stop();
    expect(early.written()).to.equal('');
    expect(piped).to.equal('');
  });
});
