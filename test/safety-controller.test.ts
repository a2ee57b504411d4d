import { expect } from 'chai';
import {
  CANCEL_ALL_GOALS,
  SafetyController,
  type FromSafety,
  type LinkState,
  type RobotTransport,
  type RosMessage,
  type SafetyDriveConfig,
  type StopDelivery,
} from '@mira/robot';
import { unhandledRejectionsDuring } from './helpers/unhandled.js';

/**
 * A supervised link at the ROS transport seam, as strict as the rosbridge transport it stands for: publish
 * and round trips reject while the link is down, a round trip waits for the peer's answer, and (as a
 * rosbridge server does for a client subscribed to a topic it publishes on) what is published comes back,
 * later, to the subscribers of its topic.
 */
class LinkDouble implements RobotTransport {
  readonly name = 'double ws://robot:9090';
  readonly published: Array<{ topic: string; msg: RosMessage }> = [];
  readonly calls: Array<{ service: string; request: RosMessage }> = [];
  readonly subscribers = new Map<string, Array<(m: RosMessage) => void>>();
  readonly qos: unknown[] = [];
  state: LinkState = { up: true, since: 0 };
  readonly #listeners = new Set<(s: LinkState) => void>();
  /** 'answer' at once, 'hold' until answer() is called, or 'silent' (rejects, as past the deadline). */
  roundTrips: 'answer' | 'hold' | 'silent' = 'answer';
  readonly #held: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
  echo = true;
  publishError: string | undefined;
  callError: string | undefined;

  async connect(): Promise<void> {}
  subscribe(topic: string, _type: string, handler: (m: RosMessage) => void, qos?: unknown): () => void {
    this.subscribers.set(topic, [...(this.subscribers.get(topic) ?? []), handler]);
    this.qos.push(qos);
    return () => undefined;
  }
  async publish(topic: string, _type: string, msg: RosMessage): Promise<void> {
    if (!this.state.up) throw new Error(`${this.name}: not connected`);
    if (this.publishError) throw new Error(this.publishError);
    this.published.push({ topic, msg });
    if (this.echo) setImmediate(() => this.deliver(topic, msg));
  }
  deliver(topic: string, msg: RosMessage): void {
    for (const handler of this.subscribers.get(topic) ?? []) handler(msg);
  }
  advertiseService(): () => void {
    return () => undefined;
  }
  /** Goals cancelled by name (`cancelGoal`), in order. */
  readonly cancels: Array<{ action: string; id: string }> = [];
  cancelError: string | undefined;
  async cancelGoal(action: string, id: string): Promise<void> {
    if (!this.state.up) throw new Error('not connected');
    if (this.cancelError) throw new Error(this.cancelError);
    this.cancels.push({ action, id });
  }
  /**
   * rosapi beside the bridge, as rosbridge's launch file starts it: the type the ROS graph has for a topic
   * ('' when it has none). The rig declares the command topic with the profile's type.
   */
  readonly graphTypes = new Map<string, string>();
  /** The topics rosapi was asked about, in order (apart from `calls`, the action cancels). */
  readonly typeQueries: string[] = [];
  async callService(service: string, _type: string, request: RosMessage): Promise<RosMessage> {
    if (!this.state.up) throw new Error('not connected');
    if (service === '/rosapi/topic_type') {
      const topic = String(request.topic);
      this.typeQueries.push(topic);
      return { type: this.graphTypes.get(topic) ?? '' };
    }
    if (this.callError) throw new Error(this.callError);
    this.calls.push({ service, request });
    return {};
  }
  link(): LinkState {
    return this.state;
  }
  onLink(listener: (s: LinkState) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  setLink(state: LinkState): void {
    this.state = state;
    for (const listener of this.#listeners) listener(state);
  }
  roundTrip(): Promise<void> {
    if (!this.state.up) return Promise.reject(new Error('the link is down'));
    if (this.roundTrips === 'silent') return Promise.reject(new Error('no answer to a ping within 500 ms'));
    if (this.roundTrips === 'hold') return new Promise((resolve, reject) => this.#held.push({ resolve, reject }));
    return Promise.resolve();
  }
  /** Answers every held round trip. */
  answer(): void {
    for (const { resolve } of this.#held.splice(0)) resolve();
  }
  /** Settles the held round trip at `index` (in the order they were asked): answered, or past the deadline. */
  settle(index: number, answered: boolean): void {
    const held = this.#held[index]!;
    if (answered) held.resolve();
    else held.reject(new Error('no answer to a ping within 500 ms'));
  }
  async close(): Promise<void> {}
  /** The linear speeds written on /cmd_vel, in order. */
  speeds(): number[] {
    return this.published.filter((p) => p.topic === '/cmd_vel').map((p) => (p.msg.linear as { x: number }).x);
  }
}

/** The same seam for a transport with no link to supervise (the simulator's bus): no link, no round trips. */
const busDouble = (): LinkDouble =>
  Object.assign(new LinkDouble(), {
    link: undefined,
    onLink: undefined,
    roundTrip: undefined,
  }) as unknown as LinkDouble;

const settle = async () => {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

const DRIVE: SafetyDriveConfig = {
  topic: '/cmd_vel',
  type: 'geometry_msgs/msg/Twist',
  maxLinear: 0.5,
  maxAngular: 1,
  maxDurationS: 10,
  rateHz: 10,
  stallMs: 250,
  eStopTimeoutMs: 1000,
};

function rig(options: { drive?: Partial<SafetyDriveConfig>; transport?: LinkDouble; confirmMs?: number } = {}) {
  const transport = options.transport ?? new LinkDouble();
  // The ROS graph has the command topic with the type this profile drives it as (a base that listens).
  const topic = options.drive?.topic ?? DRIVE.topic;
  if (transport.graphTypes && !transport.graphTypes.has(topic))
    transport.graphTypes.set(topic, options.drive?.type ?? DRIVE.type);
  const posted: FromSafety[] = [];
  // `asked`: the clock motion requests and stops are stamped with; each request is asked a moment later.
  const clock = { t: 1000, wall: 1_000_000, asked: 5000 };
  const controller = new SafetyController({
    transport,
    drive: { ...DRIVE, ...options.drive },
    post: (m) => posted.push(m),
    now: () => clock.t,
    wallNow: () => clock.wall,
    askedNow: () => clock.asked,
    confirmMs: options.confirmMs ?? 30,
  });
  controller.start();
  let id = 0;
  const request = async (message: Record<string, unknown>) => {
    const mine = ++id;
    clock.asked += 1;
    const stamp =
      message.type === 'stop'
        ? { at: clock.asked }
        : ['drive', 'goal', 'fence'].includes(message.type as string)
          ? { askedAt: clock.asked }
          : {};
    await controller.onMessage({ ...stamp, ...message, id: mine } as never);
    await settle();
    return posted.find((m) => m.type === 'reply' && m.id === mine) as Extract<FromSafety, { type: 'reply' }> & {
      delivery?: StopDelivery;
    };
  };
  const drive = (linear = 0.2, durationS = 5, angular = 0) => request({ type: 'drive', linear, angular, durationS });
  const stop = () => request({ type: 'stop', why: 'test' });
  const logs = () => posted.filter((m) => m.type === 'log').map((m) => (m as { message: string }).message);
  const stopped = () => posted.filter((m) => m.type === 'stopped') as Array<Extract<FromSafety, { type: 'stopped' }>>;
  return { transport, posted, clock, controller, drive, stop, logs, stopped, request };
}

describe('the safety controller (in-process, on a strict supervised-link double and a manual clock)', () => {
  afterEach(async () => {
    await settle();
  });

  describe('limits', () => {
    for (const [what, args, problem] of [
      ['too fast', [0.6, 1, 0], '|linear_m_s| must be at most 0.5'],
      ['too fast backwards', [-0.6, 1, 0], '|linear_m_s| must be at most 0.5'],
      ['turning too fast', [0, 1, -1.5], '|angular_rad_s| must be at most 1'],
      ['too long', [0.1, 11, 0], 'duration_s must be above 0 and at most 10'],
      ['a zero duration', [0.1, 0, 0], 'duration_s must be above 0 and at most 10'],
      ['NaN', [Number.NaN, 1, 0], '|linear_m_s| must be at most 0.5'],
    ] as const) {
      it(`refuses a drive ${what}, writing nothing`, async () => {
        const { drive, transport } = rig();
        const reply = await drive(args[0], args[1], args[2]);
        expect(reply).to.deep.include({ ok: false, reason: 'out_of_range', error: `${problem}; nothing was sent` });
        expect(transport.published).to.deep.equal([]);
      });
    }

    it('names every limit broken at once', async () => {
      const reply = await rig().drive(0.9, 20, 2);
      expect(reply).to.deep.include({
        error:
          '|linear_m_s| must be at most 0.5; |angular_rad_s| must be at most 1; duration_s must be above 0 and at most 10; nothing was sent',
      });
    });

    it('accepts the limits themselves', async () => {
      const { drive, transport } = rig();
      expect(await drive(-0.5, 10, 1)).to.deep.include({ ok: true });
      expect(transport.speeds()).to.deep.equal([-0.5]);
    });
  });

  describe('the link', () => {
    it('writes a drive only after a round trip', async () => {
      const { drive, transport } = rig();
      transport.roundTrips = 'hold';
      const pending = drive(0.2);
      await settle();
      expect(transport.speeds()).to.deep.equal([]);
      transport.answer();
      expect(await pending).to.deep.include({ ok: true });
      expect(transport.speeds()).to.deep.equal([0.2]);
    });

    it('a republish waits for its own round trip; a stop before the answer means it never goes out', async () => {
      const unhandled = await unhandledRejectionsDuring(async () => {
        const { drive, transport, stop, controller, logs, stopped } = rig();
        await drive(0.2);
        transport.roundTrips = 'hold';
        controller.republish();
        controller.republish();
        await stop();
        transport.settle(0, true);
        transport.settle(1, false);
        await settle();
        expect(transport.speeds()).to.deep.equal([0.2, 0]);
        // The late failure of a drive that already ended says nothing and stops nothing again.
        expect(logs()).to.deep.equal([]);
        expect(stopped()).to.deep.equal([]);
      });
      expect(unhandled).to.deep.equal([]);
    });

    it('answers a drive stopped during its round trip as superseded, and one whose round trip then fails too', async () => {
      const { request, transport, stop } = rig();
      transport.roundTrips = 'hold';
      const answered = request({ type: 'drive', linear: 0.2, angular: 0, durationS: 5 });
      const failed = request({ type: 'drive', linear: 0.2, angular: 0, durationS: 5 });
      await settle();
      await stop();
      transport.settle(0, true);
      transport.settle(1, false);
      expect(await answered).to.deep.include({
        ok: false,
        reason: 'superseded',
        error: 'a stop, another drive or a navigation goal came before this drive was sent; nothing was sent',
      });
      expect(await failed).to.deep.include({ ok: false, reason: 'transport_error' });
      expect(transport.speeds()).to.deep.equal([0]);
    });

    it('a drive whose first round trip fails does not end the drive that replaced it', async () => {
      const { request, transport, controller } = rig();
      transport.roundTrips = 'hold';
      const first = request({ type: 'drive', linear: 0.1, angular: 0, durationS: 5 });
      const second = request({ type: 'drive', linear: 0.3, angular: 0, durationS: 5 });
      await settle();
      transport.settle(0, false);
      transport.settle(1, true);
      expect(await first).to.deep.include({ ok: false, reason: 'transport_error' });
      expect(await second).to.deep.include({ ok: true });
      transport.roundTrips = 'answer';
      controller.republish();
      await settle();
      expect(transport.speeds()).to.deep.equal([0.3, 0.3]);
    });

    it('a republish on a link found down says so in its own words and ends the drive', async () => {
      const { drive, transport, controller, logs } = rig();
      await drive(0.2);
      // Down, and the listeners not yet told (the supervisor looks every few ms).
      transport.state = { up: false, since: 0 };
      controller.republish();
      await settle();
      expect(logs()[0]).to.equal(
        'safety: drive command could not be sent (double ws://robot:9090: the link is down (no answer)); the drive is ended',
      );
    });

    it('does nothing on a republish while idle', async () => {
      const unhandled = await unhandledRejectionsDuring(async () => {
        const { controller, transport, logs } = rig();
        controller.republish();
        await settle();
        expect(transport.published).to.deep.equal([]);
        expect(logs()).to.deep.equal([]);
      });
      expect(unhandled).to.deep.equal([]);
    });

    it('refuses a drive while the link is down, saying which link and for how long', async () => {
      const { drive, transport, clock } = rig();
      transport.setLink({ up: false, since: clock.wall - 2500, why: 'no answer to pings for 512 ms' });
      expect(await drive()).to.deep.include({
        ok: false,
        reason: 'transport_error',
        error: 'double ws://robot:9090: the link is down (no answer to pings for 512 ms) for 2.5 s; nothing was sent',
      });
      expect(transport.published).to.deep.equal([]);
    });

    it('ends the drive for good when a republish cannot be written (no answer), and says so', async () => {
      const { drive, transport, controller, stopped, logs } = rig();
      await drive(0.3);
      transport.roundTrips = 'silent';
      controller.republish();
      await settle();
      expect(logs()).to.include(
        'safety: drive command could not be sent (no answer to a ping within 500 ms); the drive is ended',
      );
      expect(stopped().map((s) => s.why)).to.deep.equal(['link']);
      transport.roundTrips = 'answer';
      controller.republish();
      await settle();
      expect(transport.speeds()).to.deep.equal([0.3, 0]);
    });

    it('ends the drive when the link fails and never resumes it; zero is the first command on the new connection', async () => {
      const { drive, transport, controller, stopped, clock, logs } = rig({ drive: { navigationAction: '/nav' } });
      await drive(0.3);
      transport.setLink({ up: false, since: clock.wall, why: 'connection lost' });
      expect(logs()).to.deep.equal([
        'safety: double ws://robot:9090: the link failed (connection lost); the drive is ended and will not resume',
      ]);
      expect(stopped()).to.deep.equal([
        {
          type: 'stopped',
          why: 'link',
          delivery: {
            delivered: false,
            detail:
              "zero velocity not delivered on /cmd_vel: the link failed (connection lost); the base's own command timeout must stop the robot",
          },
        },
      ]);
      transport.setLink({ up: true, since: clock.wall + 5000 });
      controller.republish();
      await settle();
      expect(transport.speeds()).to.deep.equal([0.3, 0]);
      // No goal was running: nothing to cancel on reconnection.
      expect(transport.calls).to.deep.equal([]);
    });

    it('names no cause it was not given', async () => {
      const { drive, transport, stopped, stop } = rig();
      await drive(0.3);
      transport.setLink({ up: false, since: 0 });
      expect(stopped()[0]!.delivery!.detail).to.equal(
        "zero velocity not delivered on /cmd_vel: the link failed (no answer); the base's own command timeout must stop the robot",
      );
      expect((await drive()) as { error?: string })
        .to.have.property('error')
        .that.matches(/: the link is down \(no answer\) for /);
      expect((await stop()).delivery!.detail).to.match(
        / \(no answer\); the base's own command timeout must stop the robot$/,
      );
    });

    it('says nothing when the link fails while idle, and still writes zero first when it is back', () => {
      const { transport, stopped, logs } = rig({ drive: { navigationAction: '/nav' } });
      transport.setLink({ up: true, since: 1 });
      transport.setLink({ up: false, since: 2, why: 'connection lost' });
      expect(stopped()).to.deep.equal([]);
      expect(logs()).to.deep.equal([]);
      transport.setLink({ up: true, since: 3 });
      expect(transport.speeds()).to.deep.equal([0, 0]);
      expect(transport.calls).to.deep.equal([]);
    });

    it('logs a zero that cannot be written on reconnection', async () => {
      const { transport, logs } = rig();
      transport.publishError = 'socket hang up';
      transport.setLink({ up: true, since: 1 });
      await settle();
      expect(logs()).to.include('safety: zero velocity on reconnection could not be sent: socket hang up');
    });
  });

  describe('stop reports', () => {
    it('reports a zero written on a live link and heard back as confirmed', async () => {
      const { drive, stop, transport } = rig();
      await drive();
      const reply = await stop();
      expect(reply).to.deep.include({
        ok: true,
        delivery: {
          delivered: true,
          confirmed: true,
          detail: 'zero velocity sent on /cmd_vel over double ws://robot:9090 and heard back on /cmd_vel',
        },
      });
      expect(transport.speeds()).to.deep.equal([0.2, 0]);
    });

    it('reports a zero not heard back within the bound as sent, not confirmed', async () => {
      const { stop, transport } = rig({ confirmMs: 20 });
      transport.echo = false;
      const pending = stop();
      let answered = false;
      void pending.then(() => (answered = true));
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(answered).to.equal(true);
      expect(await pending).to.deep.include({
        delivery: {
          delivered: true,
          confirmed: false,
          detail:
            'zero velocity sent on /cmd_vel over double ws://robot:9090 (a live link), not heard back on /cmd_vel within 20 ms',
        },
      });
    });

    it('a non-zero echo does not confirm a stop', async () => {
      const { stop, transport } = rig({ confirmMs: 20 });
      transport.echo = false;
      const pending = stop();
      await settle();
      transport.deliver('/cmd_vel', { linear: { x: 0.2, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
      transport.deliver('/cmd_vel', { linear: { x: 0, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0.5 } });
      await new Promise((resolve) => setTimeout(resolve, 40));
      expect((await pending).delivery).to.deep.include({ confirmed: false });
    });

    it('reports a stop on a link that is down as not delivered, naming the link and how long it has been down', async () => {
      const { stop, transport, clock } = rig();
      transport.setLink({ up: false, since: clock.wall - 2800, why: 'no answer to pings for 503 ms' });
      expect((await stop()).delivery).to.deep.equal({
        delivered: false,
        detail:
          "zero velocity not delivered on /cmd_vel over double ws://robot:9090: the link has been down for 2.8 s (no answer to pings for 503 ms); the base's own command timeout must stop the robot",
      });
      expect(transport.published).to.deep.equal([]);
    });

    it('reports a zero the transport refused as not delivered, with the reason', async () => {
      const { stop, transport } = rig();
      transport.publishError = 'write EPIPE';
      expect((await stop()).delivery).to.deep.equal({
        delivered: false,
        detail:
          "zero velocity not delivered on /cmd_vel over double ws://robot:9090: write EPIPE; the base's own command timeout must stop the robot",
      });
    });

    it('on a transport with no link to supervise, sends at once and claims no confirmation', async () => {
      const transport = busDouble();
      const { drive, stop } = rig({ transport });
      expect(await drive()).to.deep.include({ ok: true });
      expect((await stop()).delivery).to.deep.equal({
        delivered: true,
        detail: 'zero velocity sent on /cmd_vel over double ws://robot:9090',
      });
      // It does not listen to its own command topic there.
      expect(transport.subscribers.has('/cmd_vel')).to.equal(false);
    });

    it('stops on the console line reader at once and says why; quit too', async () => {
      const { drive, controller, stopped, transport, logs, clock } = rig();
      await drive();
      controller.consoleSignal({ type: 'stop', at: ++clock.asked });
      await settle();
      await new Promise((resolve) => setTimeout(resolve, 40));
      expect(stopped().map((s) => s.why)).to.deep.equal(['console']);
      expect(logs()).to.deep.equal([]);
      controller.consoleSignal({ type: 'quit', at: ++clock.asked });
      await new Promise((resolve) => setTimeout(resolve, 40));
      expect(stopped().map((s) => [s.why, s.delivery?.delivered])).to.deep.equal([
        ['console', true],
        ['quit', true],
      ]);
      expect(transport.speeds()).to.deep.equal([0.2, 0, 0]);
    });

    it('logs a stop of its own that was not delivered', async () => {
      const { controller, transport, logs, clock } = rig();
      transport.setLink({ up: false, since: 1_000_000, why: 'connection lost' });
      controller.consoleSignal({ type: 'stop', at: ++clock.asked });
      await settle();
      expect(logs().some((l) => l.startsWith('safety: console: zero velocity not delivered on /cmd_vel'))).to.equal(
        true,
      );
    });
  });

  describe('the watchdog', () => {
    it('ends a drive at its duration with zero, without a report', async () => {
      const { drive, controller, clock, transport, stopped, request } = rig({
        drive: { navigationAction: '/navigate_to_pose' },
      });
      await drive(0.2, 2);
      for (let i = 0; i < 9; i += 1) {
        clock.t += 200;
        await request({ type: 'heartbeat' });
        controller.watch();
      }
      clock.t += 199;
      await request({ type: 'heartbeat' });
      controller.watch();
      await settle();
      expect(transport.speeds()).to.deep.equal([0.2]);
      clock.t += 1;
      controller.watch();
      await settle();
      expect(transport.speeds()).to.deep.equal([0.2, 0]);
      expect(stopped()).to.deep.equal([]);
      expect(transport.calls).to.deep.equal([]);
    });

    it('stops a drive when the heartbeats stop, and reports the stall when they come back', async () => {
      const { drive, controller, clock, transport, stopped, request } = rig();
      await drive(0.2, 5);
      clock.t += 250;
      controller.watch();
      await settle();
      expect(transport.speeds()).to.deep.equal([0.2]);
      clock.t += 1;
      controller.watch();
      await settle();
      expect(transport.speeds()).to.deep.equal([0.2, 0]);
      expect(stopped()).to.deep.equal([]);
      clock.t += 1000;
      await request({ type: 'heartbeat' });
      expect(stopped()).to.have.length(1);
      expect(stopped()[0]).to.deep.include({ why: 'stall', stalledMs: 1251 });
      expect(stopped()[0]!.delivery).to.deep.include({ delivered: true });
      await request({ type: 'heartbeat' });
      expect(stopped()).to.have.length(1);
    });

    it('covers a navigation goal with no drive: a stall cancels it through the action cancel service', async () => {
      const { controller, clock, transport, request } = rig({
        drive: { navigationAction: '/robot1/navigate_to_pose' },
      });
      await request({ type: 'navigating', active: true });
      clock.t += 251;
      controller.watch();
      await settle();
      expect(transport.calls).to.deep.equal([
        { service: '/robot1/navigate_to_pose/_action/cancel_goal', request: CANCEL_ALL_GOALS },
      ]);
      expect(transport.speeds()).to.deep.equal([0]);
    });

    it('does nothing while idle', async () => {
      const { controller, clock, transport } = rig();
      clock.t += 10_000;
      controller.watch();
      await settle();
      expect(transport.published).to.deep.equal([]);
    });

    it('a heartbeat keeps a drive alive past the stall time', async () => {
      const { drive, controller, clock, transport, request } = rig();
      await drive(0.2, 5);
      for (let i = 0; i < 10; i += 1) {
        clock.t += 200;
        await request({ type: 'heartbeat' });
        controller.watch();
      }
      await settle();
      expect(transport.speeds()).to.deep.equal([0.2]);
    });
  });

  describe('one source of motion', () => {
    it('a drive cancels a running navigation goal', async () => {
      const { drive, transport, request } = rig({ drive: { navigationAction: '/navigate_to_pose' } });
      await request({ type: 'navigating', active: true });
      await drive();
      expect(transport.calls.map((c) => c.service)).to.deep.equal(['/navigate_to_pose/_action/cancel_goal']);
    });

    it('a navigation goal ends a running drive: nothing more is republished', async () => {
      const { drive, controller, transport, request } = rig({ drive: { navigationAction: '/navigate_to_pose' } });
      await drive(0.2);
      await request({ type: 'navigating', active: true });
      controller.republish();
      await settle();
      expect(transport.speeds()).to.deep.equal([0.2]);
    });

    it('logs a cancel the action server could not take', async () => {
      const { stop, transport, request, logs } = rig({ drive: { navigationAction: '/navigate_to_pose' } });
      transport.callError = 'service /navigate_to_pose/_action/cancel_goal did not answer within 2000 ms';
      await request({ type: 'navigating', active: true });
      await stop();
      expect(logs()).to.include(
        'safety: the navigation goal could not be cancelled: service /navigate_to_pose/_action/cancel_goal did not answer within 2000 ms',
      );
    });

    it('navigation ending does not end a drive', async () => {
      const { drive, controller, transport, request } = rig({ drive: { navigationAction: '/navigate_to_pose' } });
      await drive(0.2);
      await request({ type: 'navigating', active: false });
      controller.republish();
      await settle();
      expect(transport.speeds()).to.deep.equal([0.2, 0.2]);
    });

    it('a goal running when the link fails is cancelled once, on the first reconnection; the dead-man rests meanwhile', async () => {
      const { transport, request, controller, clock, stopped } = rig({
        drive: { navigationAction: '/navigate_to_pose' },
      });
      await request({ type: 'navigating', active: true });
      transport.setLink({ up: false, since: 0, why: 'connection lost' });
      clock.t += 1000;
      controller.watch();
      await request({ type: 'heartbeat' });
      expect(stopped().map((s) => s.why)).to.deep.equal(['link']);
      transport.setLink({ up: true, since: 1 });
      transport.setLink({ up: false, since: 2, why: 'connection lost' });
      transport.setLink({ up: true, since: 3 });
      await settle();
      expect(transport.calls).to.have.length(1);
    });

    it('a stop cancels the goal; a goal that already ended is not cancelled again', async () => {
      const { stop, transport, request } = rig({ drive: { navigationAction: '/navigate_to_pose' } });
      await request({ type: 'navigating', active: true });
      await stop();
      await stop();
      expect(transport.calls).to.have.length(1);
      await request({ type: 'navigating', active: true });
      await request({ type: 'navigating', active: false });
      await stop();
      expect(transport.calls).to.have.length(1);
    });

    it('a goal running when the link fails is cancelled first thing on reconnection', async () => {
      const { transport, request } = rig({ drive: { navigationAction: '/navigate_to_pose' } });
      await request({ type: 'navigating', active: true });
      transport.setLink({ up: false, since: 0, why: 'connection lost' });
      expect(transport.calls).to.deep.equal([]);
      transport.setLink({ up: true, since: 1 });
      await settle();
      expect(transport.speeds()).to.deep.equal([0]);
      expect(transport.calls.map((c) => c.service)).to.deep.equal(['/navigate_to_pose/_action/cancel_goal']);
    });

    it('a stop while the link is down defers the cancel to the reconnection', async () => {
      const { transport, request, stop } = rig({ drive: { navigationAction: '/navigate_to_pose' } });
      await request({ type: 'navigating', active: true });
      transport.state = { up: false, since: 0, why: 'connection lost' };
      await stop();
      transport.setLink({ up: true, since: 1 });
      await settle();
      expect(transport.calls.map((c) => c.service)).to.deep.equal(['/navigate_to_pose/_action/cancel_goal']);
    });

    it("a stop cancels Mira's goal by its name, never every goal of the server", async () => {
      const { stop, transport, request } = rig({ drive: { navigationAction: '/navigate_to_pose' } });
      await request({ type: 'navigating', active: true, goal: 'g1' });
      await stop();
      expect(transport.cancels).to.deep.equal([{ action: '/navigate_to_pose', id: 'g1' }]);
      expect(transport.calls).to.deep.equal([]);
      await stop();
      expect(transport.cancels).to.have.length(1);
    });

    it('a drive and a stall cancel a named goal by its name as well', async () => {
      const { drive, controller, clock, transport, request } = rig({ drive: { navigationAction: '/nav' } });
      await request({ type: 'navigating', active: true, goal: 'g1' });
      await drive();
      await request({ type: 'navigating', active: true, goal: 'g2' });
      clock.t += 251;
      controller.watch();
      await settle();
      expect(transport.cancels.map((c) => c.id)).to.deep.equal(['g1', 'g2']);
      expect(transport.calls).to.deep.equal([]);
    });

    it('a stop while the goal is being sent waits for it to run, then cancels it by name', async () => {
      const { stop, transport, request } = rig({ drive: { navigationAction: '/nav' } });
      await request({ type: 'goal' });
      await stop();
      expect(transport.cancels).to.deep.equal([]);
      expect(transport.calls).to.deep.equal([]);
      await request({ type: 'navigating', active: true, goal: 'g7' });
      expect(transport.cancels).to.deep.equal([{ action: '/nav', id: 'g7' }]);
      expect(transport.calls).to.deep.equal([]);
      // It was cancelled once: a later stop has nothing left to cancel.
      await stop();
      expect(transport.cancels).to.have.length(1);
    });

    it('a goal that could not be sent is not cancelled, and the next goal is not cancelled for it', async () => {
      const { stop, transport, request } = rig({ drive: { navigationAction: '/nav' } });
      await request({ type: 'goal' });
      await stop();
      await request({ type: 'navigating', active: false });
      await request({ type: 'goal' });
      await request({ type: 'navigating', active: true, goal: 'g2' });
      expect(transport.cancels).to.deep.equal([]);
      expect(transport.calls).to.deep.equal([]);
    });

    it('a stall while the goal is being sent cancels every goal: the stalled runtime may never name it', async () => {
      const { controller, clock, transport, request } = rig({ drive: { navigationAction: '/nav' } });
      await request({ type: 'goal' });
      clock.t += 251;
      controller.watch();
      await settle();
      expect(transport.calls).to.deep.equal([{ service: '/nav/_action/cancel_goal', request: CANCEL_ALL_GOALS }]);
      expect(transport.cancels).to.deep.equal([]);
      // The runtime comes back and its goal runs after all: cancelled by name too, never resumed.
      await request({ type: 'heartbeat' });
      await request({ type: 'navigating', active: true, goal: 'g3' });
      expect(transport.cancels).to.deep.equal([{ action: '/nav', id: 'g3' }]);
      expect(transport.calls).to.have.length(1);
    });

    it('cancels every goal where the goal has no name, or the transport cannot cancel by one', async () => {
      const unnamed = rig({ drive: { navigationAction: '/nav' } });
      await unnamed.request({ type: 'navigating', active: true });
      await unnamed.stop();
      expect(unnamed.transport.calls.map((c) => c.request)).to.deep.equal([CANCEL_ALL_GOALS]);
      const cannot = rig({
        drive: { navigationAction: '/nav' },
        transport: Object.assign(new LinkDouble(), { cancelGoal: undefined }) as unknown as LinkDouble,
      });
      await cannot.request({ type: 'navigating', active: true, goal: 'g1' });
      await cannot.stop();
      expect(cannot.transport.calls.map((c) => c.request)).to.deep.equal([CANCEL_ALL_GOALS]);
    });

    it('after a link loss a named goal is cancelled as every goal: a restarted bridge no longer knows its ID', async () => {
      const { transport, request } = rig({ drive: { navigationAction: '/nav' } });
      await request({ type: 'navigating', active: true, goal: 'g1' });
      transport.setLink({ up: false, since: 0, why: 'connection lost' });
      transport.setLink({ up: true, since: 1 });
      await settle();
      expect(transport.calls).to.deep.equal([{ service: '/nav/_action/cancel_goal', request: CANCEL_ALL_GOALS }]);
      expect(transport.cancels).to.deep.equal([]);
    });

    it('a goal named while the link is down after a stop is cancelled on the reconnection', async () => {
      const { transport, request, stop } = rig({ drive: { navigationAction: '/nav' } });
      await request({ type: 'goal' });
      await stop();
      transport.state = { up: false, since: 0, why: 'connection lost' };
      await request({ type: 'navigating', active: true, goal: 'g1' });
      expect(transport.cancels).to.deep.equal([]);
      transport.setLink({ up: true, since: 1 });
      await settle();
      expect(transport.calls.map((c) => c.request)).to.deep.equal([CANCEL_ALL_GOALS]);
    });

    it('logs a cancel by name the transport could not send', async () => {
      const { stop, transport, request, logs } = rig({ drive: { navigationAction: '/nav' } });
      transport.cancelError = 'rosbridge ws://robot:9090: not connected; the cancellation of /nav was not sent';
      await request({ type: 'navigating', active: true, goal: 'g1' });
      await stop();
      await settle();
      expect(logs()).to.include(
        'safety: the navigation goal could not be cancelled: rosbridge ws://robot:9090: not connected; the cancellation of /nav was not sent',
      );
    });

    it('without a navigation action nothing is cancelled', async () => {
      const { transport, request, stop } = rig();
      await request({ type: 'navigating', active: true });
      await stop();
      expect(transport.calls).to.deep.equal([]);
    });
  });

  describe("a motion skill's goal (another action than navigation's)", () => {
    it('a stop cancels it by name on its own action, and the dead-man covers it', async () => {
      const { stop, controller, clock, transport, request } = rig({ drive: { navigationAction: '/nav' } });
      expect(await request({ type: 'goal', action: '/dock' })).to.include({ ok: true });
      await request({ type: 'navigating', active: true, goal: 'd1', action: '/dock' });
      await stop();
      expect(transport.cancels).to.deep.equal([{ action: '/dock', id: 'd1' }]);
      await request({ type: 'goal', action: '/dock' });
      await request({ type: 'navigating', active: true, goal: 'd2', action: '/dock' });
      clock.t += 251;
      controller.watch();
      await settle();
      expect(transport.cancels).to.deep.equal([
        { action: '/dock', id: 'd1' },
        { action: '/dock', id: 'd2' },
      ]);
    });

    it("one source of motion: a skill's goal cancels navigation's, and navigation's ending leaves the skill's held", async () => {
      const { stop, transport, request } = rig({ drive: { navigationAction: '/nav' } });
      await request({ type: 'goal' });
      await request({ type: 'navigating', active: true, goal: 'n1' });
      await request({ type: 'goal', action: '/dock' });
      expect(transport.cancels).to.deep.equal([{ action: '/nav', id: 'n1' }]);
      await request({ type: 'navigating', active: true, goal: 'd1', action: '/dock' });
      // Navigation hears its goal was cancelled and says it ended: the dock goal is still the one a stop cancels.
      await request({ type: 'navigating', active: false });
      await stop();
      expect(transport.cancels).to.deep.equal([
        { action: '/nav', id: 'n1' },
        { action: '/dock', id: 'd1' },
      ]);
    });

    it('a goal replaced while it was being sent is cancelled once it runs, the new one kept', async () => {
      const { stop, transport, request } = rig({ drive: { navigationAction: '/nav' } });
      await request({ type: 'goal' });
      await request({ type: 'goal', action: '/dock' });
      await request({ type: 'navigating', active: true, goal: 'n1' });
      expect(transport.cancels).to.deep.equal([{ action: '/nav', id: 'n1' }]);
      await request({ type: 'navigating', active: true, goal: 'd1', action: '/dock' });
      await stop();
      expect(transport.cancels.map((c) => c.id)).to.deep.equal(['n1', 'd1']);
    });

    it('after a link loss every goal of its action is cancelled on the next connection', async () => {
      const { transport, request } = rig({ drive: { navigationAction: '/nav' } });
      await request({ type: 'goal', action: '/dock' });
      await request({ type: 'navigating', active: true, goal: 'd1', action: '/dock' });
      transport.setLink({ up: false, since: 0, why: 'connection lost' });
      transport.setLink({ up: true, since: 1 });
      await settle();
      expect(transport.calls).to.deep.equal([{ service: '/dock/_action/cancel_goal', request: CANCEL_ALL_GOALS }]);
    });

    it('a motion service call is fenced by a stop after it was asked, and refused under the e-stop', async () => {
      const { transport, request, controller } = rig({ drive: { eStopTopic: '/e_stop', eStopTimeoutMs: 0 } });
      transport.deliver('/e_stop', { data: false });
      const asked = 5000.5;
      await request({ type: 'stop', why: 'test' });
      expect(await request({ type: 'fence', askedAt: asked })).to.deep.include({ ok: false, reason: 'superseded' });
      expect(await request({ type: 'fence' })).to.deep.include({ ok: true });
      transport.deliver('/e_stop', { data: true });
      await settle();
      expect(await request({ type: 'fence' })).to.deep.include({ ok: false, reason: 'emergency_stopped' });
      controller.dispose();
    });
  });

  describe('the stop fence: motion asked before a stop never runs after it', () => {
    const FENCED = /^a stop came \d+ ms after this (drive|goal) was asked; nothing was sent$/;

    it('refuses a drive asked before a stop that reached the controller first, and runs one asked after', async () => {
      const { request, stop, transport, clock } = rig();
      const askedAt = ++clock.asked; // asked, then held up (another thread's port, a busy main thread)
      await stop();
      const late = await request({ type: 'drive', linear: 0.3, angular: 0, durationS: 5, askedAt });
      expect(late).to.deep.include({ ok: false, reason: 'superseded' });
      expect((late as { error: string }).error).to.match(FENCED);
      expect(transport.speeds()).to.deep.equal([0]);
      expect(await request({ type: 'drive', linear: 0.2, angular: 0, durationS: 5 })).to.deep.include({ ok: true });
      expect(transport.speeds()).to.deep.equal([0, 0.2]);
    });

    it('counts a tie as before: a drive asked at the very time of the stop is refused', async () => {
      const { request, controller, clock } = rig();
      const at = ++clock.asked;
      controller.consoleSignal({ type: 'stop', at });
      await settle();
      expect(await request({ type: 'drive', linear: 0.3, angular: 0, durationS: 5, askedAt: at })).to.deep.include({
        ok: false,
        reason: 'superseded',
      });
      expect(
        await request({ type: 'drive', linear: 0.3, angular: 0, durationS: 5, askedAt: at + 0.001 }),
      ).to.deep.include({ ok: true });
    });

    it("fences at the stop's own time, not its arrival: a console stop typed after the drive was asked", async () => {
      const { request, controller, clock, transport } = rig();
      const drive = ++clock.asked;
      const typed = ++clock.asked;
      clock.asked += 1000; // the stop reaches the controller a second after it was typed
      controller.consoleSignal({ type: 'stop', at: typed });
      await settle();
      expect(await request({ type: 'drive', linear: 0.3, angular: 0, durationS: 5, askedAt: drive })).to.deep.include({
        ok: false,
        reason: 'superseded',
        error: 'a stop came 1 ms after this drive was asked; nothing was sent',
      });
      // A drive asked between the typing and the arrival came after the stop: it runs.
      expect(
        await request({ type: 'drive', linear: 0.2, angular: 0, durationS: 5, askedAt: typed + 1 }),
      ).to.deep.include({ ok: true });
      expect(transport.speeds()).to.deep.equal([0, 0.2]);
    });

    it('an older stop arriving late does not move the fence back', async () => {
      const { request, controller, clock } = rig();
      const early = ++clock.asked;
      const drive = ++clock.asked;
      const later = ++clock.asked;
      controller.consoleSignal({ type: 'stop', at: later });
      controller.consoleSignal({ type: 'stop', at: early });
      await settle();
      expect(await request({ type: 'drive', linear: 0.3, angular: 0, durationS: 5, askedAt: drive })).to.deep.include({
        ok: false,
        reason: 'superseded',
      });
    });

    it('refuses a goal asked before a stop, and holds one asked after as being sent', async () => {
      const { request, stop, transport, clock } = rig({ drive: { navigationAction: '/nav' } });
      const askedAt = ++clock.asked;
      await stop();
      const refused = await request({ type: 'goal', askedAt });
      expect(refused).to.deep.include({ ok: false, reason: 'superseded' });
      expect((refused as { error: string }).error).to.match(FENCED);
      expect(await request({ type: 'goal' })).to.deep.include({ ok: true });
      await stop();
      await request({ type: 'navigating', active: true, goal: 'g1' });
      expect(transport.cancels).to.deep.equal([{ action: '/nav', id: 'g1' }]);
    });

    it('an e-stop pressed and released since the drive was asked fences it off', async () => {
      const { request, transport, clock } = rig({ drive: { eStopTopic: '/e_stop', eStopTimeoutMs: 500 } });
      transport.deliver('/e_stop', { data: false });
      const askedAt = ++clock.asked;
      clock.asked += 10;
      transport.deliver('/e_stop', { data: true });
      transport.deliver('/e_stop', { data: false });
      await settle();
      expect(await request({ type: 'drive', linear: 0.3, angular: 0, durationS: 5, askedAt })).to.deep.include({
        ok: false,
        reason: 'superseded',
      });
      expect(await request({ type: 'drive', linear: 0.2, angular: 0, durationS: 5 })).to.deep.include({ ok: true });
    });

    it('a link failure since the drive was asked fences it off after the link is back', async () => {
      const { request, transport, clock, drive } = rig();
      await drive();
      const askedAt = ++clock.asked;
      clock.asked += 10;
      transport.setLink({ up: false, since: clock.wall, why: 'connection lost' });
      transport.setLink({ up: true, since: clock.wall });
      await settle();
      expect(await request({ type: 'drive', linear: 0.3, angular: 0, durationS: 5, askedAt })).to.deep.include({
        ok: false,
        reason: 'superseded',
      });
    });

    it('answers motion fenced by a link loss with the link while it is down: a goal and a drive', async () => {
      const { request, transport, clock, controller } = rig({ drive: { navigationAction: '/nav' } });
      expect(await request({ type: 'goal' })).to.deep.include({ ok: true });
      await request({ type: 'navigating', active: true, goal: 'g1' });
      // Asked after the runtime saw the link fail, before this thread did (its fence is when it noticed).
      const goalAsked = ++clock.asked;
      const driveAsked = ++clock.asked;
      clock.asked += 10;
      transport.setLink({ up: false, since: clock.wall, why: 'connection lost' });
      await settle();
      for (const message of [
        { type: 'goal' as const, askedAt: goalAsked },
        { type: 'drive' as const, linear: 0.3, angular: 0, durationS: 5, askedAt: driveAsked },
      ]) {
        const refused = await request(message);
        expect(refused).to.deep.include({ ok: false, reason: 'transport_error' });
        expect((refused as { error: string }).error).to.match(
          /the link is down \(connection lost\) .*nothing was sent$/,
        );
      }
      // A stop the operator gives while the link is down fences what was asked before it, and says so.
      const asked = ++clock.asked;
      controller.consoleSignal({ type: 'stop', at: ++clock.asked });
      await settle();
      expect(await request({ type: 'drive', linear: 0.3, angular: 0, durationS: 5, askedAt: asked })).to.deep.include({
        ok: false,
        reason: 'superseded',
        error: 'a stop came 1 ms after this drive was asked; nothing was sent',
      });
      expect(transport.speeds()).to.deep.equal([]);
    });

    it("names the operator's stop given at the very time of a link loss, not the link", async () => {
      const { request, transport, clock, controller, drive } = rig();
      await drive();
      const asked = ++clock.asked;
      clock.asked += 5;
      transport.setLink({ up: false, since: clock.wall, why: 'connection lost' });
      controller.consoleSignal({ type: 'stop', at: clock.asked });
      await settle();
      expect(await request({ type: 'drive', linear: 0.3, angular: 0, durationS: 5, askedAt: asked })).to.deep.include({
        ok: false,
        reason: 'superseded',
        error: 'a stop came 5 ms after this drive was asked; nothing was sent',
      });
    });

    it('answers a drive whose link failed during its round trip with the link, not as superseded', async () => {
      const { request, transport, clock } = rig();
      transport.roundTrips = 'hold';
      const asked = request({ type: 'drive', linear: 0.2, angular: 0, durationS: 5 });
      await settle();
      // The loss ends the drive being checked; its ping's answer was already on its way.
      transport.setLink({ up: false, since: clock.wall, why: 'connection lost' });
      transport.settle(0, true);
      const refused = await asked;
      expect(refused).to.deep.include({ ok: false, reason: 'transport_error' });
      expect((refused as { error: string }).error).to.match(/the link is down \(connection lost\)/);
      expect(transport.speeds()).to.deep.equal([]);
    });

    it('a drive that ran out fences nothing: the next drive asked before its end still runs', async () => {
      const { request, controller, clock, drive } = rig();
      await drive(0.2, 1);
      const askedAt = ++clock.asked;
      clock.t += 1001;
      clock.asked += 1001;
      controller.watch();
      await settle();
      expect(await request({ type: 'drive', linear: 0.3, angular: 0, durationS: 5, askedAt })).to.deep.include({
        ok: true,
      });
    });
  });

  describe('a goal the bridge does not hold yet', () => {
    it('a stop cancels it at once and again when the bridge holds it, and only then', async () => {
      const { stop, transport, request } = rig({ drive: { navigationAction: '/nav' } });
      await request({ type: 'navigating', active: true, goal: 'g1', known: false });
      await stop();
      expect(transport.cancels).to.deep.equal([{ action: '/nav', id: 'g1' }]);
      // Another goal's word changes nothing; this goal's word sends the cancel the bridge dropped.
      await request({ type: 'goal_known', goal: 'g0' });
      expect(transport.cancels).to.have.length(1);
      await request({ type: 'goal_known', goal: 'g1' });
      expect(transport.cancels).to.deep.equal([
        { action: '/nav', id: 'g1' },
        { action: '/nav', id: 'g1' },
      ]);
      // Once: a later word about it sends nothing more.
      await request({ type: 'goal_known', goal: 'g1' });
      expect(transport.cancels).to.have.length(2);
      expect(transport.calls).to.deep.equal([]);
    });

    it('a goal known before the stop gets one cancel', async () => {
      const { stop, transport, request } = rig({ drive: { navigationAction: '/nav' } });
      await request({ type: 'navigating', active: true, goal: 'g1', known: false });
      await request({ type: 'goal_known', goal: 'g1' });
      expect(transport.cancels).to.deep.equal([]);
      await stop();
      await request({ type: 'goal_known', goal: 'g1' });
      expect(transport.cancels).to.deep.equal([{ action: '/nav', id: 'g1' }]);
    });

    it('a goal that ended before its word is not cancelled for it', async () => {
      const { stop, transport, request } = rig({ drive: { navigationAction: '/nav' } });
      await request({ type: 'navigating', active: true, goal: 'g1', known: false });
      await stop();
      await request({ type: 'navigating', active: false });
      await request({ type: 'goal_known', goal: 'g1' });
      expect(transport.cancels).to.have.length(1);
    });
  });

  describe("the command topic's type, asked of rosapi", () => {
    it('refuses every drive when the graph has the topic with another type, naming both', async () => {
      const transport = new LinkDouble();
      transport.graphTypes.set('/cmd_vel', 'geometry_msgs/msg/TwistStamped');
      const { drive } = rig({ transport });
      expect(await drive()).to.deep.include({
        ok: false,
        reason: 'type_conflict',
        error:
          'not driving: the ROS graph has /cmd_vel as geometry_msgs/msg/TwistStamped, this profile drives it as ' +
          'geometry_msgs/msg/Twist, and the bridge refuses every command of the other type (a type conflict it ' +
          "reports only in its own log); nothing was sent — set the drive's type to geometry_msgs/msg/TwistStamped, " +
          'or use the topic the base listens on',
      });
      expect(transport.typeQueries).to.deep.equal(['/cmd_vel']);
      expect(transport.speeds()).to.deep.equal([]);
    });

    it('drives when the graph has no such topic yet, or the answer names no type', async () => {
      const none = new LinkDouble();
      none.graphTypes.set('/cmd_vel', '');
      const first = rig({ transport: none });
      expect(await first.drive()).to.deep.include({ ok: true });
      const odd = Object.assign(new LinkDouble(), {
        callService: async () => ({ type: 7 }),
      }) as unknown as LinkDouble;
      expect(await rig({ transport: odd }).drive()).to.deep.include({ ok: true });
    });

    it('without rosapi: says once that it cannot tell, and drives', async () => {
      const transport = Object.assign(new LinkDouble(), {
        callService: async (service: string) => {
          throw new Error(`service ${service} does not exist`);
        },
      }) as unknown as LinkDouble;
      const { drive, logs } = rig({ transport });
      expect(await drive()).to.deep.include({ ok: true });
      expect(await drive(0.3)).to.deep.include({ ok: true });
      expect(logs()).to.deep.equal([
        'safety: cannot ask the bridge the type of /cmd_vel (service /rosapi/topic_type does not exist); a type ' +
          'conflict there would refuse every command without a word here (start rosapi beside rosbridge, as its ' +
          'launch file does)',
      ]);
    });
  });

  describe('the e-stop, failing closed', () => {
    const eStop = { drive: { eStopTopic: '/e_stop', eStopTimeoutMs: 500 } };

    it('subscribes the e-stop with one profile on a bridge (which subscribes for it) and two elsewhere', () => {
      const bridged = rig(eStop).transport;
      expect(bridged.subscribers.get('/e_stop')).to.have.length(1);
      expect(bridged.qos[0]).to.deep.equal({ reliability: 'reliable', durability: 'transient_local', depth: 1 });
      const native = rig({ ...eStop, transport: busDouble() }).transport;
      expect(native.subscribers.get('/e_stop')).to.have.length(2);
    });

    it('refuses every drive until the e-stop is heard, then accepts', async () => {
      const { drive, transport, clock } = rig(eStop);
      expect(await drive()).to.deep.include({
        ok: false,
        reason: 'e_stop_silent',
        error:
          'nothing has been heard on the e-stop topic /e_stop yet (std_msgs/msg/Bool); drives are refused until it is',
      });
      transport.deliver('/e_stop', { data: false });
      clock.t += 500;
      expect(await drive()).to.deep.include({ ok: true });
    });

    it('refuses a drive when the e-stop has been silent longer than its timeout', async () => {
      const { drive, transport, clock } = rig(eStop);
      transport.deliver('/e_stop', { data: false });
      clock.t += 501;
      expect(await drive()).to.deep.include({
        reason: 'e_stop_silent',
        error:
          'the e-stop topic /e_stop has been silent for 501 ms (more than e_stop_timeout_ms = 500); nothing was sent',
      });
    });

    it('stops a drive when the e-stop falls silent', async () => {
      const { drive, transport, clock, controller, stopped, request } = rig(eStop);
      transport.deliver('/e_stop', { data: false });
      await drive(0.2);
      clock.t += 200;
      await request({ type: 'heartbeat' });
      transport.deliver('/e_stop', { data: false });
      clock.t += 500;
      await request({ type: 'heartbeat' });
      controller.watch();
      await settle();
      expect(transport.speeds()).to.deep.equal([0.2]);
      clock.t += 1;
      await request({ type: 'heartbeat' });
      controller.watch();
      await new Promise((resolve) => setTimeout(resolve, 40));
      expect(transport.speeds()).to.deep.equal([0.2, 0]);
      expect(stopped().map((s) => s.why)).to.deep.equal(['e_stop_silent']);
    });

    it('with e_stop_timeout_ms = 0, heard once is enough (a latched e-stop)', async () => {
      const { drive, transport, clock } = rig({ drive: { eStopTopic: '/e_stop', eStopTimeoutMs: 0 } });
      expect(await drive()).to.deep.include({ reason: 'e_stop_silent' });
      transport.deliver('/e_stop', { data: false });
      clock.t += 3_600_000;
      expect(await drive(0.1, 1)).to.deep.include({ ok: true });
    });

    it('true stops at once and refuses drives until false', async () => {
      const { drive, transport, stopped, posted } = rig(eStop);
      transport.deliver('/e_stop', { data: false });
      await drive(0.2);
      transport.deliver('/e_stop', { data: true });
      await new Promise((resolve) => setTimeout(resolve, 40));
      expect(transport.speeds()).to.deep.equal([0.2, 0]);
      expect(stopped().map((s) => s.why)).to.deep.equal(['e_stop']);
      expect(await drive()).to.deep.include({
        reason: 'emergency_stopped',
        error: 'the emergency stop on /e_stop is active; nothing was sent until it is cleared',
      });
      transport.deliver('/e_stop', { data: true });
      transport.deliver('/e_stop', { data: false });
      await new Promise((resolve) => setTimeout(resolve, 40));
      expect(stopped().map((s) => s.why)).to.deep.equal(['e_stop']);
      expect(posted.filter((m) => m.type === 'e_stop')).to.deep.equal([
        { type: 'e_stop', active: true },
        { type: 'e_stop', active: false },
      ]);
      expect(await drive()).to.deep.include({ ok: true });
    });

    it('anything but a true Bool counts as not stopped', async () => {
      const { drive, transport } = rig(eStop);
      transport.deliver('/e_stop', { data: 'true' });
      expect(await drive()).to.deep.include({ ok: true });
    });

    it('tells the runtime when the e-stop turns fresh and stale, once each', async () => {
      const { controller, transport, clock, posted } = rig(eStop);
      const fresh = () => posted.filter((m) => m.type === 'e_stop_fresh').map((m) => (m as { fresh: boolean }).fresh);
      controller.watch();
      expect(fresh()).to.deep.equal([]);
      transport.deliver('/e_stop', { data: false });
      controller.watch();
      controller.watch();
      expect(fresh()).to.deep.equal([true]);
      clock.t += 501;
      controller.watch();
      controller.watch();
      expect(fresh()).to.deep.equal([true, false]);
    });

    it('says once when the e-stop is not heard at start-up, and once when it is', async () => {
      const { transport, logs } = rig({ drive: { eStopTopic: '/e_stop', eStopTimeoutMs: 20 } });
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(logs()).to.deep.equal([
        'safety: nothing heard on the e-stop topic /e_stop within 20 ms: every drive is refused until it is (is a node publishing std_msgs/msg/Bool there? a bridge refuses a subscription of the wrong type silently)',
      ]);
      transport.deliver('/e_stop', { data: false });
      transport.deliver('/e_stop', { data: false });
      transport.deliver('/e_stop', { data: false });
      expect(logs().slice(1)).to.deep.equal(['safety: e-stop topic /e_stop heard; drives are accepted']);
    });

    it('waits e_stop_timeout_ms before saying the e-stop is unheard, and nothing after dispose()', async () => {
      const { logs } = rig({ drive: { eStopTopic: '/e_stop', eStopTimeoutMs: 150 } });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(logs()).to.deep.equal([]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(logs()).to.have.length(1);
      const disposed = rig({ drive: { eStopTopic: '/e_stop', eStopTimeoutMs: 20 } });
      disposed.controller.dispose();
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(disposed.logs()).to.deep.equal([]);
    });

    it('without an e-stop topic subscribes nothing but its own command topic', () => {
      expect([...rig().transport.subscribers.keys()]).to.deep.equal(['/cmd_vel']);
    });

    it('says nothing at start-up when the e-stop was heard in time', async () => {
      const { transport, logs } = rig({ drive: { eStopTopic: '/e_stop', eStopTimeoutMs: 20 } });
      transport.deliver('/e_stop', { data: false });
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(logs()).to.deep.equal([]);
    });
  });

  it('stamps a TwistStamped command in the configured frame', async () => {
    const { drive, transport } = rig({ drive: { type: 'geometry_msgs/msg/TwistStamped', frameId: 'base_footprint' } });
    await drive(0.2);
    const msg = transport.published[0]!.msg as { header: { frame_id: string }; twist: { linear: { x: number } } };
    expect(msg.header.frame_id).to.equal('base_footprint');
    expect(msg.twist.linear.x).to.equal(0.2);
  });

  it('stamps "now" with the host clock, or under use_sim_time with /clock (zero until it is heard)', async () => {
    const stampOf = (t: LinkDouble, i: number) => (t.published[i]!.msg as { header: { stamp: unknown } }).header.stamp;
    const host = rig({ drive: { type: 'geometry_msgs/msg/TwistStamped', stamp: 'now' } });
    await host.drive(0.2);
    expect(stampOf(host.transport, 0)).to.deep.equal({ sec: 1000, nanosec: 0 });
    const sim = rig({ drive: { type: 'geometry_msgs/msg/TwistStamped', stamp: 'now', clockTopic: '/sim/clock' } });
    await sim.drive(0.2);
    expect(stampOf(sim.transport, 0)).to.deep.equal({ sec: 0, nanosec: 0 });
    sim.transport.deliver('/sim/clock', { clock: { sec: 42, nanosec: 500_000_000 } });
    sim.controller.republish();
    await settle();
    expect(stampOf(sim.transport, 1)).to.deep.equal({ sec: 42, nanosec: 500_000_000 });
  });

  it('a failed first write refuses the drive and keeps nothing active', async () => {
    const { drive, transport, controller } = rig();
    transport.publishError = 'write EPIPE';
    expect(await drive()).to.deep.include({
      ok: false,
      reason: 'transport_error',
      error: 'write EPIPE; the robot was not commanded',
    });
    transport.publishError = undefined;
    controller.republish();
    await settle();
    expect(transport.published).to.deep.equal([]);
  });
});
