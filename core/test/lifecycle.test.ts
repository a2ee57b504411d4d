import { expect } from 'chai';
import { ExitStatus, ProcessGuard, inspectorRequested } from '../src/lifecycle.js';

/** The process guard's decisions, apart from a process: the real endings are in lifecycle.test.ts. */
describe('the process guard', () => {
  const rig = (options: { halt?: () => Promise<unknown>; deadlineMs?: number } = {}) => {
    const said: string[] = [];
    const calls: string[] = [];
    const exits: number[] = [];
    const guard = new ProcessGuard({
      haltRobot: async () => {
        calls.push('halt');
        return options.halt?.();
      },
      end: (ending) => calls.push(`end ${ending.why}`),
      log: (line) => said.push(line),
      exit: (status) => exits.push(status),
      deadlineMs: options.deadlineMs ?? 50,
    });
    return { guard, said, calls, exits };
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('stops the robot before it begins the orderly stop, once, whatever comes after', () => {
    const { guard, said, calls } = rig({ deadlineMs: 10_000 });
    guard.trigger({ why: 'SIGINT received', status: 0 });
    guard.trigger({ why: 'SIGINT received', status: 0 });
    guard.trigger({ why: 'SIGTERM received', status: 0 });
    expect(calls).to.deep.equal(['halt', 'end SIGINT received']);
    expect(guard.ending).to.deep.equal({ why: 'SIGINT received', status: 0 });
    expect(said).to.deep.equal([
      'SIGINT received; stopping the robot, then shutting down',
      'SIGINT received while stopping (SIGINT received); the stop goes on',
      'SIGTERM received while stopping (SIGINT received); the stop goes on',
    ]);
    guard.dispose();
  });

  it('exits 5 by the deadline when the orderly stop overruns it, saying whether the robot stop came back', async () => {
    const stuck = rig({ halt: () => new Promise(() => undefined) });
    stuck.guard.trigger({ why: 'SIGTERM received', status: 0 });
    await sleep(120);
    expect(stuck.exits).to.deep.equal([ExitStatus.STOP_OVERDUE]);
    expect(stuck.said.at(-1)).to.equal(
      "the orderly stop did not finish within 50 ms (the robot's stop was not confirmed either); exiting",
    );
    const halted = rig();
    halted.guard.trigger({ why: 'SIGTERM received', status: 0 });
    await sleep(120);
    expect(halted.said.at(-1)).to.equal('the orderly stop did not finish within 50 ms; exiting');
  });

  it('does not exit by the deadline once the orderly stop finished (disposed)', async () => {
    const { guard, exits } = rig();
    guard.trigger({ why: 'SIGTERM received', status: 0 });
    guard.dispose();
    await sleep(120);
    expect(exits).to.deep.equal([]);
  });

  it('says a failed robot stop and still goes on with the orderly stop', async () => {
    const { guard, said, calls } = rig({
      halt: () => Promise.reject(new Error('the bridge is gone')),
      deadlineMs: 10_000,
    });
    guard.trigger({ why: 'the parent process (42) died', status: ExitStatus.PARENT_DIED });
    await sleep(10);
    expect(calls).to.deep.equal(['halt', 'end the parent process (42) died']);
    expect(said).to.include("the robot's stop failed: the bridge is gone");
    guard.dispose();
  });

  it('keeps logging from throwing: standard error may be the stream that closed', () => {
    const guard = new ProcessGuard({
      haltRobot: async () => undefined,
      end: () => undefined,
      log: () => {
        throw new Error('EPIPE');
      },
      exit: () => undefined,
      deadlineMs: 10_000,
    });
    expect(() =>
      guard.trigger({ why: 'standard output failed (EPIPE)', status: ExitStatus.OUTPUT_CLOSED }),
    ).not.to.throw();
    guard.dispose();
  });

  it('knows when the inspector was asked for, by flag or NODE_OPTIONS', () => {
    expect(inspectorRequested([], '')).to.equal(false);
    expect(inspectorRequested(['--inspect'], '')).to.equal(true);
    expect(inspectorRequested(['--inspect=127.0.0.1:9229'], '')).to.equal(true);
    expect(inspectorRequested(['--inspect-brk'], '')).to.equal(true);
    expect(inspectorRequested([], '--max-old-space-size=512 --inspect-wait')).to.equal(true);
    expect(inspectorRequested(['--inspector-nonsense', '--no-inspect'], '--import tsx')).to.equal(false);
  });
});
