import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { NO_PROGRESS, terminalProgress } from '../src/console/progress.js';

describe('terminalProgress', () => {
  it('draws a bar on a terminal (cli-progress, loaded when the first bar is drawn)', () => {
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
    let drawn = '';
    stream.on('data', (chunk: Buffer) => (drawn += chunk.toString()));
    const progress = terminalProgress(stream, 'importing', 4);
    expect(progress).to.not.equal(NO_PROGRESS);
    progress.update(2);
    progress.stop();
    expect(drawn).to.contain('importing [').and.to.contain('2/4');
  });

  it('draws nothing where there is no terminal, or nothing to count', () => {
    expect(terminalProgress(new PassThrough(), 'importing', 4)).to.equal(NO_PROGRESS);
    expect(terminalProgress(Object.assign(new PassThrough(), { isTTY: true }), 'importing', 0)).to.equal(NO_PROGRESS);
  });
});
