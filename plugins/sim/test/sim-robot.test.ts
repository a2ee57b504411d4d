import { expect } from 'chai';
import { SimRobot, normalizeAngle } from '@mira/plugin-sim';

const close = (actual: number, expected: number, tolerance = 1e-9) => expect(actual).to.be.closeTo(expected, tolerance);

describe('SimRobot', () => {
  it('drives straight by v·t', () => {
    const robot = new SimRobot({ drainIdlePercentPerMin: 0, drainPercentPerM: 0 });
    robot.command(0.5, 0);
    for (let i = 0; i < 4; i += 1) {
      robot.step(0.1);
      robot.command(0.5, 0); // a real driver republishes; the timeout would otherwise stop the base
    }
    close(robot.state.x, 0.2);
    close(robot.state.y, 0);
  });

  it('follows the closed-form arc for constant v and ω, however the time is stepped', () => {
    const v = 0.4;
    const w = 0.8;
    const t = 0.45;
    const coarse = new SimRobot({ cmdTimeoutS: 10 });
    coarse.command(v, w);
    coarse.step(t);
    const fine = new SimRobot({ cmdTimeoutS: 10 });
    fine.command(v, w);
    for (let i = 0; i < 45; i += 1) fine.step(t / 45);
    for (const robot of [coarse, fine]) {
      close(robot.state.x, (v / w) * Math.sin(w * t), 1e-9);
      close(robot.state.y, (v / w) * (1 - Math.cos(w * t)), 1e-9);
      close(robot.state.yaw, w * t, 1e-9);
    }
  });

  it('stops when no command came within the timeout, part-way through a step', () => {
    const robot = new SimRobot({ cmdTimeoutS: 0.5, drainIdlePercentPerMin: 0 });
    robot.command(1, 0);
    robot.step(2);
    close(robot.state.x, 0.5);
    expect(robot.state.linear).to.equal(0);
  });

  it('drains the battery at the idle rate and per metre travelled', () => {
    const robot = new SimRobot({
      batteryPercent: 50,
      drainIdlePercentPerMin: 1,
      drainPercentPerM: 2,
      cmdTimeoutS: 100,
    });
    robot.step(60);
    close(robot.state.batteryPercent, 49);
    robot.command(0.5, 0);
    robot.step(2); // 1 m travelled, 2 s idle drain
    close(robot.state.batteryPercent, 49 - 2 - 2 / 60, 1e-9);
  });

  it('measures the range to the wall ahead within the sensor limits', () => {
    const robot = new SimRobot({ roomHalfSizeM: 5, rangeMaxM: 4, cmdTimeoutS: 100, drainIdlePercentPerMin: 0 });
    close(robot.range(), 4); // 5 m away, beyond max range
    robot.command(3.5, 0);
    robot.step(1);
    close(robot.range(), 1.5);
    robot.state.yaw = Math.PI / 2;
    close(robot.range(), 4);
    robot.state.yaw = Math.PI;
    close(robot.range(), 4); // 8.5 m behind
  });

  it('stops at the walls', () => {
    const robot = new SimRobot({ roomHalfSizeM: 1, cmdTimeoutS: 100 });
    robot.command(1, 0);
    robot.step(5);
    close(robot.state.x, 1);
  });

  it('keeps angles in (-π, π]', () => {
    close(normalizeAngle(3 * Math.PI), Math.PI);
    close(normalizeAngle(-Math.PI / 2 - 2 * Math.PI), -Math.PI / 2);
  });
});
