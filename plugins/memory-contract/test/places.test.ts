import { expect } from 'chai';
import type { MiraError } from '@mira/core';
import { describePose, parsePose, poseOfValue, poseValue } from '../src/places.js';

const refusal = (text: string, frame?: string) => {
  try {
    parsePose(text, frame);
  } catch (error) {
    return (error as MiraError).code;
  }
  return 'accepted';
};

describe('place poses', () => {
  it('reads x,y,yaw in metres and degrees, keeps millimetres, and writes one canonical value', () => {
    const pose = parsePose(' 3.2, -1.0 ,90 ');
    expect(pose).to.deep.equal({ frame: 'map', x: 3.2, y: -1, yawDeg: 90 });
    expect(poseValue(pose)).to.equal('x=3.2 y=-1 yaw=90 frame=map');
    expect(describePose(pose)).to.equal('(3.2, -1, 90°) in map');
    expect(parsePose('-0,0.12345,-359.9999', 'odom')).to.deep.equal({ frame: 'odom', x: 0, y: 0.123, yawDeg: -360 });
    expect(Object.is(parsePose('-0.0001,0,0').x, -0)).to.equal(false);
    expect(poseOfValue(poseValue(parsePose('1.5,.5,+45', 'base/map')))).to.deep.equal({
      frame: 'base/map',
      x: 1.5,
      y: 0.5,
      yawDeg: 45,
    });
  });

  it('refuses anything else with MIRA_ERR_MEMORY_POSE_INVALID', () => {
    for (const text of [
      '1,2',
      '1,2,3,4',
      '1e3,0,0',
      'NaN,0,0',
      'Infinity,0,0',
      '0x10,0,0',
      '1,,2',
      '',
      '10001,0,0',
      '0,0,361',
    ]) {
      expect(refusal(text), text).to.equal('MIRA_ERR_MEMORY_POSE_INVALID');
    }
    for (const frame of ['', 'a b', '9map', 'map\u0000', 'x'.repeat(65)]) {
      expect(refusal('0,0,0', frame), JSON.stringify(frame)).to.equal('MIRA_ERR_MEMORY_POSE_INVALID');
    }
    expect(refusal('10000,-10000,360')).to.equal('accepted');
  });

  it('reads only the canonical value back', () => {
    for (const value of [
      null,
      '',
      'x=1 y=2 yaw=3',
      'x=1 y=2 yaw=3 frame=map extra',
      'x=a y=2 yaw=3 frame=map',
      'x=1  y=2 yaw=3 frame=map',
    ]) {
      expect(poseOfValue(value), String(value)).to.equal(undefined);
    }
  });
});
