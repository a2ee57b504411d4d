import { expect } from 'chai';
import { ManualClock, type MiraPlugin } from '@mira/core';
import type { RosMessage } from '@mira/robot';
import {
  createTestRuntime,
  groundingOf,
  startScriptedModelServer,
  type ScriptedModelServer,
  type TestRuntime,
} from '@mira/core/testing';
import memoryPlugin from '@mira/plugin-memory';
import memoryToolsPlugin from '@mira/plugin-memory-tools';
import openaiPlugin from '@mira/plugin-openai';
import ros2Plugin from '@mira/plugin-ros2';
import simPlugin, { type SimTransport } from '@mira/plugin-sim';
import { eventually } from './conformance/transport-contract.js';
import { startRosbridgeServer, type RosbridgeTestServer } from './helpers/rosbridge-server.js';
import { toolMessages } from './helpers/model-runtime.js';

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] });

describe('hardware: the simulated robot in a runtime (manual clock)', function () {
  this.timeout(20_000);
  let rt: TestRuntime;
  let server: ScriptedModelServer;
  let clock: ManualClock;
  let sim: SimTransport;
  let cmdVel: RosMessage[];

  beforeEach(async () => {
    server = await startScriptedModelServer();
    clock = new ManualClock('2026-06-01T08:00:00.000Z');
    rt = await createTestRuntime({
      clock,
      plugins: [simPlugin, memoryPlugin, memoryToolsPlugin, openaiPlugin],
      tables: {
        sim: {
          tick_ms: 0,
          drive: {
            topic: '/cmd_vel',
            type: 'geometry_msgs/msg/Twist',
            max_linear_m_s: 0.5,
            max_angular_rad_s: 1,
            max_duration_s: 5,
            rate_hz: 50,
          },
        },
        memory: { enabled: true, database_path: 'memory.sqlite3' },
        openai: { model: 'scripted', base_url: server.url, max_retries: 0 },
      },
    });
    sim = rt.instance(simPlugin).transport;
    cmdVel = [];
    sim.subscribe('/cmd_vel', 'geometry_msgs/msg/Twist', (m) => cmdVel.push(m));
  });
  afterEach(async () => {
    await rt.dispose();
    await server.close();
  });

  it('lists battery, odometry, range, map pose and camera with their ages, and marks stale readings', async () => {
    clock.advance(250);
    const lines = (await rt.run('sensors')).output;
    expect(lines).to.have.length(5);
    expect(lines[0]).to.match(/^battery \(battery, percent\): \{"percent":100,"voltage":12\.6\} 250ms ago$/);
    expect(lines[1]).to.match(
      /^odometry \(odometry, .*\): \{"x":0,"y":0,"yaw":0,"linear_m_s":0,"angular_rad_s":0\} 250ms ago$/,
    );
    expect(lines[2]).to.match(/^range \(range, m\): \{"range_m":4\} 250ms ago$/);
    expect(lines[3]).to.match(/^pose \(pose, m, rad\): \{"x":0,"y":0,"yaw":0,"frame":"map"\} 250ms ago$/);
    // The camera is described, never dumped: its frame stays beside the reading.
    expect(lines[4]).to.match(
      /^camera_front \(image, bytes\): \{"format":"png","bytes":\d+,"frame":"camera_front_optical_frame"\} 250ms ago$/,
    );
    clock.advance(1000);
    const later = (await rt.run('sensors')).output;
    expect(later[1]).to.match(/1\.3s ago STALE$/);
    expect(later[0]).not.to.contain('STALE'); // battery is stale only after 5 s
    sim.tick();
    expect((await rt.run('sensors')).output[1]).to.match(/0ms ago$/);
  });

  it('shows the latest sensor state with its age in the grounding of every model call', async () => {
    server.push({ text: 'ok' });
    clock.advance(400);
    await rt.run('How are you?');
    // What each sensor is sits with the instructions (the same all session); its reading comes last.
    const instructions = server.requests[0]!.body.messages[0]!.content!;
    expect(instructions).to.contain('- battery: battery, percent\n');
    expect(instructions).to.contain('- odometry: odometry, m, rad, m/s, rad/s\n');
    const readings = groundingOf(server.requests[0]!.body.messages.at(-1)!.content!)!;
    expect(readings).to.contain('- battery: percent 100, voltage 12.6; 400ms old\n');
    expect(readings).to.match(/- odometry: x 0, y 0, yaw 0, linear_m_s 0, angular_rad_s 0; 400ms old/);
  });

  it('drives within limits, republishing, and the watchdog sends zero velocity when the duration ends', async () => {
    server.push(call('drive', { linear_m_s: 0.5, angular_rad_s: 0, duration_s: 1 }), { text: 'Driving.' });
    const { output } = await rt.run('Drive forward for a second');
    expect(output).to.deep.equal(['[drive] driving 0.50 m/s, 0.00 rad/s for 1.0 s', 'Mira: Driving.']);
    expect(cmdVel[0]).to.deep.equal({ linear: { x: 0.5, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
    // Time passes in steps; the driver republishes at 50 Hz (real time) until the manual clock passes the deadline.
    for (let i = 0; i < 10; i += 1) {
      clock.advance(100);
      sim.tick();
      await new Promise((r) => setTimeout(r, 25));
    }
    await eventually(
      () => cmdVel.at(-1)?.linear !== undefined && (cmdVel.at(-1)!.linear as { x: number }).x === 0,
      2000,
      'zero velocity',
    );
    expect(sim.robot.state.x).to.be.closeTo(0.5, 0.051);
    const count = cmdVel.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(cmdVel.length).to.equal(count); // nothing more after the watchdog
  });

  for (const [what, args] of [
    ['too fast', { linear_m_s: 0.6, angular_rad_s: 0, duration_s: 1 }],
    ['turning too fast', { linear_m_s: 0, angular_rad_s: -1.5, duration_s: 1 }],
    ['too long', { linear_m_s: 0.1, angular_rad_s: 0, duration_s: 6 }],
    ['a zero duration', { linear_m_s: 0.1, angular_rad_s: 0, duration_s: 0 }],
  ] as const) {
    it(`refuses a drive ${what}, never clamping, and publishes nothing`, async () => {
      server.push(call('drive', args), { text: 'I cannot.' });
      const { output } = await rt.run('Go');
      expect(output[0]).to.equal('[drive] rejected out_of_range');
      expect(JSON.parse(toolMessages(server, 1)[0]!).reason).to.equal('out_of_range');
      expect(cmdVel).to.deep.equal([]);
    });
  }

  it('stops on the stop tool and on the console emergency stop', async () => {
    server.push(
      call('drive', { linear_m_s: 0.3, angular_rad_s: 0.2, duration_s: 5 }),
      { text: 'Going.' },
      call('stop', {}),
      { text: 'Stopped.' },
    );
    await rt.run('Go');
    expect((await rt.run('Stop now')).output[0]).to.equal('[stop] stopped');
    expect(cmdVel.at(-1)).to.deep.equal({ linear: { x: 0, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
    server.push(call('drive', { linear_m_s: 0.3, angular_rad_s: 0, duration_s: 5 }), { text: 'Going.' });
    await rt.run('Go again');
    expect((await rt.run('stop')).output).to.deep.equal(['emergency stop: zero velocity sent to 1 drive']);
    expect(cmdVel.at(-1)).to.deep.equal({ linear: { x: 0, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
    const count = cmdVel.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(cmdVel.length).to.equal(count);
  });

  it('reads a sensor freshly with read_sensor, as an acquisition', async () => {
    server.push(call('read_sensor', { sensor_id: 'range' }), { text: 'Clear ahead.' });
    const episode = rt.run('Is anything in front of you?');
    await new Promise((r) => setTimeout(r, 100));
    clock.advance(100);
    sim.tick();
    const { output } = await episode;
    expect(output[0]).to.equal('[read_sensor] fresh range {"range_m":4}');
    expect(JSON.parse(toolMessages(server, 1)[0]!)).to.deep.include({ status: 'fresh', sensor_id: 'range', unit: 'm' });
  });

  it('publishes zero velocity and closes the transport at shutdown, before the stores close', async () => {
    await rt.run('memory persistent');
    await rt.stop();
    expect(cmdVel.at(-1)).to.deep.equal({ linear: { x: 0, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
    let closed = false;
    try {
      await sim.publish('/cmd_vel', 'geometry_msgs/msg/Twist', {});
    } catch {
      closed = true;
    }
    expect(closed).to.equal(true);
  });
});

describe('hardware: the ROS 2 plugin over rosbridge', function () {
  this.timeout(20_000);
  let bridge: RosbridgeTestServer;
  let rt: TestRuntime;
  let server: ScriptedModelServer;

  beforeEach(async () => {
    bridge = await startRosbridgeServer();
    server = await startScriptedModelServer();
    rt = await createTestRuntime({
      plugins: [ros2Plugin as MiraPlugin<any>, openaiPlugin],
      tables: {
        ros2: {
          transport: 'rosbridge',
          url: bridge.url,
          read_timeout_ms: 300,
          sensors: [
            { id: 'battery', topic: '/battery_state', type: 'sensor_msgs/msg/BatteryState' },
            { id: 'range', topic: '/range/front', type: 'sensor_msgs/msg/Range', qos: 'sensor_data' },
          ],
          drive: {
            topic: '/cmd_vel',
            type: 'geometry_msgs/msg/Twist',
            max_linear_m_s: 0.3,
            max_angular_rad_s: 1,
            max_duration_s: 3,
          },
        },
        openai: { model: 'scripted', base_url: server.url, max_retries: 0 },
      },
    });
    await eventually(
      () => bridge.subscribers('/battery_state') === 1 && bridge.subscribers('/range/front') === 1,
      3000,
      'subscriptions',
    );
  });
  afterEach(async () => {
    await rt.dispose();
    await bridge.close();
    await server.close();
  });

  it('turns BatteryState messages into readings', async () => {
    bridge.publish('/battery_state', { percentage: 0.815, voltage: 12.14, present: true });
    await eventually(() => rt.app.kernel.latestReading('battery') !== undefined, 3000, 'a reading');
    expect(rt.app.kernel.latestReading('battery')!.value).to.deep.equal({ percent: 81.5, voltage: 12.14 });
    expect(bridge.ops.find((o) => o.op === 'subscribe' && o.topic === '/battery_state')).to.deep.include({
      type: 'sensor_msgs/msg/BatteryState',
    });
  });

  it('says plainly when no fresh reading came within the timeout', async () => {
    server.push(call('read_sensor', { sensor_id: 'range' }), { text: 'The range sensor is silent.' });
    const { output } = await rt.run('Anything ahead?');
    expect(output[0]).to.equal('[read_sensor] no reading range within 300 ms');
    expect(JSON.parse(toolMessages(server, 1)[0]!)).to.deep.include({ status: 'no_reading', sensor_id: 'range' });
  });

  it('publishes Twist commands on the profile topic and zero velocity at shutdown', async () => {
    server.push(call('drive', { linear_m_s: 0.2, angular_rad_s: 0, duration_s: 2 }), { text: 'Off I go.' });
    await rt.run('Forward, slowly');
    await eventually(() => bridge.published('/cmd_vel').length >= 1, 3000, 'a command');
    expect(bridge.published('/cmd_vel')[0]).to.deep.equal({
      linear: { x: 0.2, y: 0, z: 0 },
      angular: { x: 0, y: 0, z: 0 },
    });
    await rt.stop();
    await eventually(() => bridge.subscribers('/battery_state') === 0, 3000, 'unsubscribed');
    const last = bridge.published('/cmd_vel').at(-1)!;
    expect(last).to.deep.equal({ linear: { x: 0, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
  });
});

describe('hardware: the ROS 2 plugin without ROS 2', () => {
  it('fails start-up with one clear error when rclnodejs is selected but ROS 2 is not sourced', async function () {
    if (process.env.ROS_DISTRO) this.skip();
    let message = '';
    try {
      await createTestRuntime({
        plugins: [ros2Plugin as MiraPlugin<any>],
        tables: { ros2: { transport: 'rclnodejs', sensors: [] } },
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).to.match(
      /^MIRA_ERR_HARDWARE_TRANSPORT_UNAVAILABLE: .*ROS 2 is not sourced.*transport = "rosbridge"/,
    );
  });

  it('fails start-up clearly when rosbridge cannot be reached', async () => {
    let message = '';
    try {
      await createTestRuntime({
        plugins: [ros2Plugin as MiraPlugin<any>],
        tables: { ros2: { transport: 'rosbridge', url: 'ws://127.0.0.1:9', connect_timeout_ms: 500, sensors: [] } },
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).to.match(/cannot reach rosbridge at ws:\/\/127\.0\.0\.1:9/);
  });
});
