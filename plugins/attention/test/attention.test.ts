import { expect } from 'chai';
import { ManualClock, type SensorReading } from '@mira/core';
import { FollowupQueue, MonitorState, parseDuration } from '@mira/plugin-attention';

const reading = (value: number): SensorReading => ({
  sensorId: 'battery',
  value: { percent: value },
  at: new Date(0),
  monotonic: 0,
});

describe('MonitorState', () => {
  it('triggers once on crossing below, and re-arms only above the clearing level', () => {
    const state = new MonitorState({
      id: 'low',
      sensor: 'battery',
      field: 'percent',
      below: 20,
      clear_above: 25,
      message: 'low',
    });
    const fired = [30, 21, 19.9, 19, 21, 24, 19, 26, 18].map((v) => state.observe(reading(v))?.description ?? null);
    expect(fired).to.deep.equal([
      null,
      null,
      'battery.percent = 19.9 < 20',
      null,
      null,
      null,
      null,
      null,
      'battery.percent = 18 < 20',
    ]);
  });

  it('supports upper thresholds and plain numeric values', () => {
    const state = new MonitorState({ id: 'hot', sensor: 'temp', above: 60, clear_below: 55, message: 'hot' });
    const plain = (v: number): SensorReading => ({ sensorId: 'temp', value: v, at: new Date(0), monotonic: 0 });
    expect([50, 61, 62, 58, 54, 61].map((v) => Boolean(state.observe(plain(v))))).to.deep.equal([
      false,
      true,
      false,
      false,
      false,
      true,
    ]);
  });

  it('ignores readings without the field', () => {
    const state = new MonitorState({ id: 'low', sensor: 'battery', field: 'percent', below: 20, message: 'low' });
    expect(state.observe({ sensorId: 'battery', value: 'unknown', at: new Date(0), monotonic: 0 })).to.equal(undefined);
    expect(state.armed).to.equal(true);
  });
});

describe('FollowupQueue', () => {
  it('releases follow-ups in due order under the injected clock', () => {
    const clock = new ManualClock();
    const queue = new FollowupQueue(clock);
    queue.add(parseDuration('5m'), 'third');
    queue.add(parseDuration('90s'), 'first');
    queue.add(parseDuration('2m'), 'second');
    expect(queue.takeDue()).to.deep.equal([]);
    clock.advance(120_000);
    expect(queue.takeDue().map((f) => f.text)).to.deep.equal(['first', 'second']);
    clock.advance(180_000);
    expect(queue.takeDue().map((f) => [f.ref, f.text])).to.deep.equal([['F1', 'third']]);
  });

  it('cancels by reference and refuses unknown ones', () => {
    const queue = new FollowupQueue(new ManualClock());
    queue.add(1000, 'x');
    expect(queue.cancel('f1').ref).to.equal('F1');
    expect(() => queue.cancel('F1')).to.throw(/MIRA_ERR_ATTENTION_FOLLOWUP_NOT_FOUND/);
  });
});

describe('parseDuration()', () => {
  it('reads h/m/s and refuses nonsense', () => {
    expect(parseDuration('1h30m')).to.equal(5_400_000);
    expect(parseDuration('45s')).to.equal(45_000);
    for (const bad of ['', '0s', '5', '5 minutes', '-1m', '200h'])
      expect(() => parseDuration(bad), bad).to.throw(/MIRA_ERR_ATTENTION_DURATION/);
  });
});
