import { expect } from 'chai';
import type { MiraError } from '@mira/core';
import { parseCliArgs } from '../src/cli.js';

const refusal = (argv: string[]): string => {
  try {
    parseCliArgs(argv);
  } catch (error) {
    return `${(error as MiraError).code}: ${(error as MiraError).detail}`;
  }
  return 'accepted';
};

describe('parseCliArgs(): the mira command line', () => {
  it('reads the console, check and run forms, with --profile in each spelling', () => {
    expect(parseCliArgs(['--profile', 'profiles/mira-sim'])).to.deep.equal({
      kind: 'run',
      profile: 'profiles/mira-sim',
      rosArgs: [],
    });
    expect(parseCliArgs(['check', '-p', 'x', '--explain'])).to.deep.equal({
      kind: 'check',
      profile: 'x',
      rosArgs: [],
      explain: true,
    });
    expect(parseCliArgs(['run', '--profile=x'])).to.deep.equal({
      kind: 'run',
      profile: 'x',
      rosArgs: [],
      headless: true,
    });
    expect(parseCliArgs(['--profile=-odd'])).to.include({ profile: '-odd' });
  });

  it('gives the ROS arguments to ROS, up to -- (or the end), whatever they look like', () => {
    expect(
      parseCliArgs([
        '--profile',
        'x',
        '--ros-args',
        '-r',
        '__ns:=/r1',
        '-p',
        'use_sim_time:=true',
        '--',
        '--explain',
        'check',
      ]),
    ).to.deep.equal({
      kind: 'check',
      profile: 'x',
      rosArgs: ['-r', '__ns:=/r1', '-p', 'use_sim_time:=true'],
      explain: true,
    });
    expect(parseCliArgs(['--ros-args', '-r', '__node:=m', '--', '--profile', 'x'])).to.deep.include({
      rosArgs: ['-r', '__node:=m'],
    });
  });

  it('answers help and version before anything else, and hands other first words to the packages', () => {
    for (const argv of [['--help'], ['-h'], ['help'], ['check', '--help'], ['--bogus', '--help']]) {
      expect(parseCliArgs(argv), argv.join(' ')).to.deep.equal({ kind: 'help' });
    }
    expect(parseCliArgs(['-V'])).to.deep.equal({ kind: 'version' });
    expect(parseCliArgs(['mcp', '--profile', 'x'])).to.deep.equal({
      kind: 'package',
      name: 'mcp',
      argv: ['--profile', 'x'],
    });
  });

  it('refuses what it does not take, saying which argument', () => {
    const cases: Array<[string[], string]> = [
      [[], 'missing --profile <dir|profile.toml>, e.g. mira --profile profiles/mira-sim'],
      [['--profile'], '--profile needs a profile directory or profile.toml'],
      [['--profile', '--explain'], '--profile needs a profile directory or profile.toml'],
      [['--bogus'], 'unexpected argument "--bogus"; see mira --help'],
      [['check', '--profile', 'x', 'extra'], 'unexpected argument "extra"; see mira --help'],
      [['--profile', 'x', '--explain'], 'unexpected argument "--explain"; it is for mira check'],
      [['--version=2'], '--version takes no value; see mira --help'],
      [['--profile='], 'missing --profile <dir|profile.toml>, e.g. mira --profile profiles/mira-sim'],
    ];
    for (const [argv, message] of cases)
      expect(refusal(argv), argv.join(' ')).to.equal(`MIRA_ERR_CLI_USAGE: ${message}`);
  });
});
