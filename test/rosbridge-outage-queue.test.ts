import { expect } from 'chai';
import { createTestRuntime, type TestRuntime } from '@mira/core/testing';
import ros2Plugin, { DEFAULT_OUTAGE_QUEUE, RosbridgeTransport } from '@mira/plugin-ros2';
import { HardwareErrorCodes, type RobotTransport } from '@mira/robot';
import type { MiraError } from '@mira/core';
import { eventually } from './conformance/transport-contract.js';
import { startRosbridgeServer, type RosbridgeTestServer } from './helpers/rosbridge-server.js';

const STRING = 'std_msgs/msg/String';
const TWIST = 'geometry_msgs/msg/Twist';
const QUEUED = { queueWhileDown: true } as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const data = (bridge: RosbridgeTestServer, topic: string) => bridge.published(topic).map((m) => m.data);

describe('rosbridge outage queue: non-motion messages wait out a short outage, motion never does', function () {
  this.timeout(40_000);
  let bridge: RosbridgeTestServer;
  let transport: RosbridgeTransport;
  let logs: string[];

  beforeEach(async () => {
    bridge = await startRosbridgeServer();
    bridge.declareTopic('/cmd_vel', TWIST);
    logs = [];
  });
  afterEach(async () => {
    await transport?.close();
    await bridge.close();
  });

  const connect = async (outageQueue?: { maxMessages: number; maxAgeMs: number }) => {
    transport = new RosbridgeTransport(bridge.url, 2000, (m) => logs.push(m), outageQueue ? { outageQueue } : {});
    await transport.connect();
    await transport.advertise('/mira/reply', STRING);
    return transport;
  };
  const outage = async (t: RobotTransport) => {
    await bridge.stop();
    await eventually(() => !t.link!().up, 3000, 'the link down');
  };
  const back = async (t: RobotTransport) => {
    await bridge.start();
    await eventually(() => t.link!().up, 5000, 'the link back');
  };

  it('keeps 100 messages for 5 s by default', () => {
    expect(DEFAULT_OUTAGE_QUEUE).to.deep.equal({ maxMessages: 100, maxAgeMs: 5000 });
  });

  it('sends what was published during the outage on reconnection, in order; a Twist is refused, never queued', async () => {
    const t = await connect();
    await t.publish('/mira/reply', STRING, { data: 'before' }, undefined, QUEUED);
    await eventually(() => data(bridge, '/mira/reply').length === 1, 3000, 'the first reply');
    await outage(t);
    for (const word of ['one', 'two', 'three'])
      await t.publish('/mira/reply', STRING, { data: word }, undefined, QUEUED);
    const refused = await t.publish('/cmd_vel', TWIST, { linear: { x: 0.2, y: 0, z: 0 } }).catch((e: MiraError) => e);
    expect(refused).to.have.property('code', HardwareErrorCodes.TRANSPORT_FAILED);
    expect((refused as MiraError).message).to.contain('was not sent and is not queued');
    await back(t);
    await eventually(() => data(bridge, '/mira/reply').length === 4, 3000, 'the queued replies');
    expect(data(bridge, '/mira/reply')).to.deep.equal(['before', 'one', 'two', 'three']);
    expect(bridge.published('/cmd_vel')).to.deep.equal([]);
    expect(logs.filter((l) => l.includes('dropped'))).to.deep.equal([]);
    // Up again: published at once, after what waited.
    await t.publish('/mira/reply', STRING, { data: 'after' }, undefined, QUEUED);
    await eventually(() => data(bridge, '/mira/reply').length === 5, 3000, 'the next reply');
    expect(data(bridge, '/mira/reply').at(-1)).to.equal('after');
  });

  it('keeps only the newest beyond the count, and says the drop once', async () => {
    const t = await connect({ maxMessages: 3, maxAgeMs: 60_000 });
    await outage(t);
    for (let i = 1; i <= 5; i++) await t.publish('/mira/reply', STRING, { data: `m${i}` }, undefined, QUEUED);
    await back(t);
    await eventually(() => data(bridge, '/mira/reply').length === 3, 3000, 'the kept replies');
    expect(data(bridge, '/mira/reply')).to.deep.equal(['m3', 'm4', 'm5']);
    await sleep(200);
    expect(data(bridge, '/mira/reply')).to.have.length(3);
    expect(logs.filter((l) => l.includes('dropped'))).to.deep.equal([
      `rosbridge ${bridge.url}: 2 messages (replies, events, log lines) published during the outage were dropped (2 beyond the 3 kept); 3 sent now, in order`,
    ]);
  });

  it('drops what waited longer than the age bound', async () => {
    const t = await connect({ maxMessages: 100, maxAgeMs: 300 });
    await outage(t);
    await t.publish('/mira/reply', STRING, { data: 'stale' }, undefined, QUEUED);
    await sleep(400); // past the age bound: what it waits for is the bound, not a measurement
    await t.publish('/mira/reply', STRING, { data: 'fresh' }, undefined, QUEUED);
    await back(t);
    await eventually(() => data(bridge, '/mira/reply').length === 1, 3000, 'the fresh reply');
    expect(data(bridge, '/mira/reply')).to.deep.equal(['fresh']);
    expect(logs.filter((l) => l.includes('dropped'))).to.deep.equal([
      `rosbridge ${bridge.url}: 1 message (replies, events, log lines) published during the outage was dropped (1 older than 0.3 s); 1 sent now, in order`,
    ]);
  });

  it('sends nothing of it after close', async () => {
    const t = await connect();
    await outage(t);
    await t.publish('/mira/reply', STRING, { data: 'late' }, undefined, QUEUED);
    await t.close();
    await bridge.start();
    await sleep(300);
    expect(bridge.published('/mira/reply')).to.deep.equal([]);
  });
});

describe('the ROS node across a short outage of the bridge', function () {
  this.timeout(40_000);
  let bridge: RosbridgeTestServer;
  let rt: TestRuntime;
  beforeEach(async () => {
    bridge = await startRosbridgeServer();
    bridge.declareTopic('/cmd_vel', TWIST);
    rt = await createTestRuntime({
      plugins: [ros2Plugin],
      tables: {
        ros2: {
          transport: 'rosbridge',
          url: bridge.url,
          namespace: '/robot1',
          sensors: [],
          drive: { topic: '/cmd_vel', type: TWIST, max_linear_m_s: 0.5, max_angular_rad_s: 1, max_duration_s: 10 },
        },
      },
    });
  });
  afterEach(async () => {
    await rt.dispose();
    await bridge.close();
  });

  it('publishes the replies, events and /rosout lines of the outage after it, in order; no velocity is sent late', async () => {
    const kernel = rt.app.kernel;
    await eventually(() => bridge.subscribers('/cmd_vel') > 0, 8000, 'the safety path');
    await bridge.stop();
    await eventually(() => rt.logs.some((l) => l.includes('sensors go stale and commands are refused')), 5000, 'down');
    const drive = JSON.parse(
      (await rt.callTool('drive', { linear_m_s: 0.2, angular_rad_s: 0, duration_s: 2 }, { utterance: 'go' })).content,
    );
    expect(drive).to.deep.include({ status: 'rejected' });
    const episode = { id: 41, origin: 'operator' as const, startedAt: new Date() };
    kernel.hooks.episodeStarted.call(episode);
    kernel.services.log.info('said during the outage');
    kernel.hooks.episodeFinished.call(episode, { reply: 'first' });
    kernel.hooks.episodeFinished.call({ ...episode, id: 42 }, { reply: 'second' });
    await bridge.start();
    await eventually(() => data(bridge, '/robot1/mira/reply').length === 2, 8000, 'the replies after the outage');
    expect(data(bridge, '/robot1/mira/reply')).to.deep.equal(['first', 'second']);
    expect(data(bridge, '/robot1/mira/events').map((e) => JSON.parse(String(e)).event)).to.deep.equal([
      'started',
      'finished',
      'finished',
    ]);
    await eventually(
      () => bridge.published('/rosout').some((l) => String(l.msg) === 'said during the outage'),
      3000,
      'the /rosout line',
    );
    // Nothing but zero velocity reaches /cmd_vel after the outage (the first word on every new connection).
    expect(bridge.published('/cmd_vel').every((m) => (m.linear as { x: number }).x === 0)).to.equal(true);
  });
});
