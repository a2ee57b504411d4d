import { expect } from 'chai';
import type { MiraError } from '@mira/core';
import type { RobotTransport, RosMessage } from '@mira/robot';

/** How many times its quiet-machine figure {@link eventually} waits before it gives up. */
const PATIENCE = 5;

/** Waits until `predicate` holds, polling; fails after five times `ms`. */
export async function eventually(predicate: () => boolean, ms = 3000, what = 'condition'): Promise<void> {
  // Readiness, not a time: `ms` is what the condition takes on a quiet machine, and the wait gives up
  // only at five times that, so a machine whose cores are busy (a robot's often are) does not fail it.
  const deadline = Date.now() + ms * PATIENCE;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Makes a connected-ready transport (not yet connected) and cleans up after. */
export type TransportFactory = () => Promise<{ transport: RobotTransport; dispose(): Promise<void> }>;

/**
 * The transport contract: every `RobotTransport` (sim, rosbridge, rclnodejs)
 * runs these cases.
 */
export function describeTransportContract(
  name: string,
  factory: TransportFactory,
  skipReason?: () => string | undefined,
): void {
  describe(`RobotTransport contract: ${name}`, function () {
    this.timeout(10_000);
    let transport: RobotTransport;
    let dispose: () => Promise<void>;

    before(function () {
      const reason = skipReason?.();
      if (reason) {
        process.stdout.write(`      (skipped: ${reason})\n`);
        this.skip();
      }
    });
    beforeEach(async () => {
      ({ transport, dispose } = await factory());
      await transport.connect();
    });
    afterEach(async () => {
      await transport.close();
      await dispose();
    });

    it('delivers a published message to a subscriber of the topic, and stops after unsubscribe', async () => {
      const got: RosMessage[] = [];
      const unsubscribe = transport.subscribe('/contract/chatter', 'std_msgs/msg/String', (m) => got.push(m));
      await new Promise((r) => setTimeout(r, 50));
      await transport.publish('/contract/chatter', 'std_msgs/msg/String', { data: 'hello' });
      await eventually(() => got.length === 1, 3000, 'the message');
      expect(got[0]).to.deep.equal({ data: 'hello' });
      unsubscribe();
      await new Promise((r) => setTimeout(r, 50));
      await transport.publish('/contract/chatter', 'std_msgs/msg/String', { data: 'again' });
      await new Promise((r) => setTimeout(r, 100));
      expect(got).to.have.length(1);
    });

    it('delivers nested standard messages unchanged', async () => {
      const got: RosMessage[] = [];
      transport.subscribe('/contract/cmd_vel', 'geometry_msgs/msg/Twist', (m) => got.push(m));
      await new Promise((r) => setTimeout(r, 50));
      const twist = { linear: { x: 0.25, y: 0, z: 0 }, angular: { x: 0, y: 0, z: -0.5 } };
      await transport.publish('/contract/cmd_vel', 'geometry_msgs/msg/Twist', twist);
      await eventually(() => got.length === 1, 3000, 'the twist');
      expect(got[0]).to.deep.equal(twist);
    });

    it('calls an advertised service and gets its response', async () => {
      const withdraw = transport.advertiseService(
        '/contract/add',
        'example_interfaces/srv/AddTwoInts',
        async (req) => ({ sum: Number(req.a) + Number(req.b) }),
      );
      await new Promise((r) => setTimeout(r, 50));
      const response = await transport.callService(
        '/contract/add',
        'example_interfaces/srv/AddTwoInts',
        { a: 2, b: 40 },
        2000,
      );
      expect(response).to.deep.equal({ sum: 42 });
      withdraw();
    });

    it('rejects a call to a service nobody offers with a hardware error code', async () => {
      let error: MiraError | undefined;
      try {
        await transport.callService('/contract/nobody', 'std_srvs/srv/Trigger', {}, 300);
      } catch (e) {
        error = e as MiraError;
      }
      expect(error?.code).to.be.oneOf(['MIRA_ERR_HARDWARE_SERVICE_TIMEOUT', 'MIRA_ERR_HARDWARE_TRANSPORT_FAILED']);
    });

    it('closes twice without error and refuses to publish after close', async () => {
      await transport.close();
      await transport.close();
      let failed = false;
      try {
        await transport.publish('/contract/chatter', 'std_msgs/msg/String', { data: 'late' });
      } catch {
        failed = true;
      }
      expect(failed).to.equal(true);
    });
  });
}
