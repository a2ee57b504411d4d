import { expect } from 'chai';
import { createTestRuntime, type TestRuntime } from '@mira/core/testing';
import memoryPlugin from '@mira/plugin-memory';
import ros2Plugin, { DIAGNOSTIC_LEVEL, diagnosticStatuses } from '@mira/plugin-ros2';
import type { RobotTransport } from '@mira/robot';
import { eventually } from './conformance/transport-contract.js';
import { startRosbridgeServer, type RosbridgeTestServer } from './helpers/rosbridge-server.js';

type Status = { level: number; name: string; message: string; values: Array<{ key: string; value: string }> };
type DiagnosticArray = { header: { stamp: { sec: number } }; status: Status[] };

describe('/diagnostics (diagnostic_msgs/msg/DiagnosticArray, 1 Hz)', function () {
  this.timeout(30_000);
  let bridge: RosbridgeTestServer;
  let rt: TestRuntime;

  beforeEach(async () => {
    bridge = await startRosbridgeServer();
    rt = await createTestRuntime({
      plugins: [ros2Plugin, memoryPlugin],
      tables: {
        ros2: {
          transport: 'rosbridge',
          url: bridge.url,
          namespace: '/robot1',
          sensors: [{ id: 'battery', topic: 'battery_state', type: 'sensor_msgs/msg/BatteryState' }],
          drive: {
            topic: '/cmd_vel',
            type: 'geometry_msgs/msg/Twist',
            max_linear_m_s: 0.5,
            max_angular_rad_s: 1,
            max_duration_s: 5,
          },
          safety: { e_stop_topic: '/e_stop' },
        },
        memory: { enabled: true, database_path: 'memory.sqlite3' },
      },
    });
  });
  afterEach(async () => {
    await rt?.dispose();
    await bridge?.close();
  });

  /** The next array published after `after` messages, and its statuses by their name's last part. */
  const next = async (after: number) => {
    await eventually(() => bridge.published('/diagnostics').length > after, 5000, 'a /diagnostics message');
    const array = bridge.published('/diagnostics')[after] as unknown as DiagnosticArray;
    return {
      array,
      by: Object.fromEntries(array.status.map((s) => [s.name.split(': ')[1]!, s])),
      count: bridge.published('/diagnostics').length,
    };
  };
  const value = (status: Status, key: string) => status.values.find((v) => v.key === key)?.value;

  it('says the link, the safety path, the e-stop, the battery and the memory store, and follows them', async () => {
    const first = await next(0);
    const { array } = first;
    let { by, count } = first;
    expect(bridge.ops.find((op) => op.op === 'advertise' && op.topic === '/diagnostics')).to.deep.include({
      type: 'diagnostic_msgs/msg/DiagnosticArray',
    });
    expect(Math.abs(array.header.stamp.sec - Date.now() / 1000)).to.be.below(30);
    expect(array.status.map((s) => s.name)).to.deep.equal([
      '/robot1/mira: robot link',
      '/robot1/mira: safety',
      '/robot1/mira: battery',
      '/robot1/mira: memory',
    ]);
    expect(by['robot link']).to.deep.include({ level: DIAGNOSTIC_LEVEL.OK, message: 'up' });
    // The e-stop relay is not running yet: fail closed, and say so.
    expect(by.safety).to.deep.include({
      level: DIAGNOSTIC_LEVEL.ERROR,
      message: 'the e-stop topic /e_stop is not heard: drives are refused',
    });
    expect(by.battery).to.deep.include({ level: DIAGNOSTIC_LEVEL.STALE, message: 'no reading yet' });
    expect(by.memory).to.deep.include({ level: DIAGNOSTIC_LEVEL.OK, message: 'sqlite: 0 entities, 0 active memories' });

    const relay = bridge.repeat('/e_stop', { data: false }, 100);
    try {
      bridge.publish('/robot1/battery_state', { percentage: 0.15, voltage: 14.1, power_supply_status: 2 });
      await eventually(
        () => (bridge.published('/diagnostics').at(-1) as unknown as DiagnosticArray).status[1]!.message === 'ready',
        5000,
        'the e-stop heard',
      );
      ({ by, count } = await next(bridge.published('/diagnostics').length - 1));
      expect(by.safety).to.deep.include({ level: DIAGNOSTIC_LEVEL.OK });
      expect(value(by.safety!, 'e_stop_heard')).to.equal('true');
      expect(by.battery).to.deep.include({ level: DIAGNOSTIC_LEVEL.WARN, message: '15 %' });

      relay.set({ data: true });
      await eventually(
        () =>
          (bridge.published('/diagnostics').at(-1) as unknown as DiagnosticArray).status[1]!.level ===
          DIAGNOSTIC_LEVEL.ERROR,
        5000,
        'the e-stop engaged',
      );
      ({ by } = await next(bridge.published('/diagnostics').length - 1));
      expect(by.safety!.message).to.equal('emergency stop engaged on /e_stop');
      expect(value(by.safety!, 'last_stop')).to.equal('e_stop');
      expect(value(by.safety!, 'last_stop_delivered')).to.equal('true');
      expect(count).to.be.at.least(2);
    } finally {
      relay.stop();
    }
  });

  it('says a link that is down, and a stop whose zero velocity was not delivered', async () => {
    const transport = {
      name: 'rosbridge ws://robot:9090',
      link: () => ({ up: false, since: Date.parse('2026-12-01T10:00:00Z'), why: 'no answer to pings for 500 ms' }),
    } as unknown as RobotTransport;
    // No sensors and no stores: only the link and the safety statuses.
    const kernel = { sensors: { latest: () => undefined, list: () => [] }, stores: { has: () => false } };
    const statuses = await diagnosticStatuses(kernel as never, transport, '/mira', {
      drive: true,
      safetyPath: true,
      lastStop: {
        why: 'console stop',
        at: 0,
        delivered: false,
        detail: 'zero velocity not delivered: the link is down',
      },
    });
    expect(statuses.map((s) => s.name)).to.deep.equal(['/mira: robot link', '/mira: safety']);
    expect(statuses[0]).to.deep.include({
      level: DIAGNOSTIC_LEVEL.ERROR,
      message: 'down: no answer to pings for 500 ms',
    });
    expect(statuses[0]!.values).to.deep.include({ key: 'since', value: '2026-12-01T10:00:00.000Z' });
    expect(statuses[1]).to.deep.include({
      level: DIAGNOSTIC_LEVEL.WARN,
      message: 'the last stop was not delivered: zero velocity not delivered: the link is down',
    });
    const noPath = await diagnosticStatuses(kernel as never, transport, '/mira', { drive: true, safetyPath: false });
    expect(noPath[1]).to.deep.include({
      level: DIAGNOSTIC_LEVEL.ERROR,
      message: 'the safety path is not running: drives are refused',
    });
    const noDrive = await diagnosticStatuses(kernel as never, transport, '/mira', { drive: false, safetyPath: false });
    expect(noDrive[1]).to.deep.include({ level: DIAGNOSTIC_LEVEL.OK, message: 'no drive' });
  });
});
