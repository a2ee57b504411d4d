/**
 * The safety path: a worker thread that owns the robot's velocity commands.
 * It has its own transport connection, republishes the active drive, ends it
 * at its duration, and publishes zero velocity at once when the operator types
 * `stop` (a port from the console reader), when the e-stop topic says `true`,
 * or when the runtime's heartbeats stop for longer than the stall time (the
 * dead-man). Nothing here waits for the main thread.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { driveCommand, type DriveMessageType } from '../messages.js';
import { CANCEL_ALL_GOALS, CANCEL_GOAL_SERVICE_TYPE, type RobotTransport } from '../transport.js';
import type { ConsoleSignal, FromSafety, SafetyTransportContext, SafetyWorkerData, ToSafety } from './protocol.js';

const data = workerData as SafetyWorkerData;
const drive = data.drive;
const port = parentPort!;
const now = () => performance.now();
const post = (message: FromSafety) => port.postMessage(message);
/** How often the watchdog looks: a stall is caught within the stall time plus this. */
const WATCH_MS = 10;
const RELIABLE = { reliability: 'reliable', durability: 'volatile', depth: 10 } as const;

let transport: RobotTransport | undefined;
let active: { linear: number; angular: number; until: number } | undefined;
let timers: Array<ReturnType<typeof setInterval>> = [];
let lastHeartbeat = now();
let stalledSince: number | undefined;
let eStopped = false;
let navigating = false;

const publish = (linear: number, angular: number) =>
  transport!.publish(
    drive.topic,
    drive.type,
    driveCommand(drive.type as DriveMessageType, linear, angular, drive.frameId),
    RELIABLE,
  );

/**
 * Cancels Mira's running navigation goal through the action's own cancel service (the goal was sent
 * on the runtime's connection; this one cannot name it, so it cancels every goal of that server).
 */
function cancelNavigation(): void {
  if (!navigating || !drive.navigationAction) return;
  navigating = false;
  transport!
    .callService(`${drive.navigationAction}/_action/cancel_goal`, CANCEL_GOAL_SERVICE_TYPE, CANCEL_ALL_GOALS, 2000)
    .catch((error: Error) =>
      post({ type: 'log', message: `safety: the navigation goal could not be cancelled: ${error.message}` }),
    );
}

/** Zero velocity now; the drive ends, and (unless a drive merely ran out) navigation is cancelled. */
async function halt(why?: 'duration'): Promise<void> {
  active = undefined;
  if (why !== 'duration') cancelNavigation();
  try {
    await publish(0, 0);
  } catch (error) {
    post({ type: 'log', message: `safety: zero velocity could not be sent: ${(error as Error).message}` });
    throw error;
  }
}

/** Zero velocity on the worker's own initiative; the runtime hears why (a stall is reported when it is back). */
function haltOnOwn(why: 'stall' | 'console' | 'e_stop' | 'duration' | 'quit'): void {
  void halt(why === 'duration' ? why : undefined)
    .then(() => {
      if (why !== 'stall' && why !== 'duration') post({ type: 'stopped', why });
    })
    .catch(() => undefined);
}

/** The watchdog: the drive's duration and the dead-man, checked every few milliseconds. */
function watch(): void {
  if (!active) return;
  const t = now();
  if (t >= active.until) return haltOnOwn('duration');
  if (t - lastHeartbeat > drive.stallMs) {
    stalledSince = lastHeartbeat;
    haltOnOwn('stall');
  }
}

/** Republishes the active drive at the configured rate (a base stops when commands stop coming). */
function republishDrive(): void {
  if (!active) return;
  publish(active.linear, active.angular).catch((error) =>
    post({ type: 'log', message: `safety: drive command could not be sent: ${(error as Error).message}` }),
  );
}

async function onMessage(message: ToSafety): Promise<void> {
  switch (message.type) {
    case 'navigating':
      navigating = message.active;
      return;
    case 'heartbeat': {
      lastHeartbeat = now();
      if (stalledSince !== undefined) {
        const stalledMs = lastHeartbeat - stalledSince;
        stalledSince = undefined;
        post({ type: 'stopped', why: 'stall', stalledMs });
      }
      return;
    }
    case 'drive': {
      const problems: string[] = [];
      if (!(Math.abs(message.linear) <= drive.maxLinear))
        problems.push(`|linear_m_s| must be at most ${drive.maxLinear}`);
      if (!(Math.abs(message.angular) <= drive.maxAngular))
        problems.push(`|angular_rad_s| must be at most ${drive.maxAngular}`);
      if (!(message.durationS > 0 && message.durationS <= drive.maxDurationS)) {
        problems.push(`duration_s must be above 0 and at most ${drive.maxDurationS}`);
      }
      if (problems.length > 0) {
        post({
          type: 'reply',
          id: message.id,
          ok: false,
          reason: 'out_of_range',
          error: `${problems.join('; ')}; nothing was sent`,
        });
        return;
      }
      if (eStopped) {
        post({
          type: 'reply',
          id: message.id,
          ok: false,
          reason: 'emergency_stopped',
          error: `the emergency stop on ${drive.eStopTopic} is active; nothing was sent until it is cleared`,
        });
        return;
      }
      lastHeartbeat = now();
      try {
        await publish(message.linear, message.angular);
      } catch (error) {
        active = undefined;
        post({
          type: 'reply',
          id: message.id,
          ok: false,
          reason: 'transport_error',
          error: `${(error as Error).message}; the robot was not commanded`,
        });
        return;
      }
      active = { linear: message.linear, angular: message.angular, until: now() + message.durationS * 1000 };
      post({ type: 'reply', id: message.id, ok: true });
      return;
    }
    case 'stop': {
      try {
        await halt();
        post({ type: 'reply', id: message.id, ok: true });
      } catch (error) {
        post({ type: 'reply', id: message.id, ok: false, reason: 'transport_error', error: (error as Error).message });
      }
      return;
    }
    case 'close': {
      for (const timer of timers) clearInterval(timer);
      timers = [];
      try {
        await halt();
      } catch {
        // reported by halt(); closing goes on
      }
      await transport?.close();
      post({ type: 'reply', id: message.id, ok: true });
      return;
    }
  }
}

/** A console line reader's port: `stop` halts at once; `quit` halts unless the runtime already did. */
function listenToConsole(consolePort: MessagePort): void {
  consolePort.on('message', (signal: ConsoleSignal) => {
    if (signal.type === 'stop') haltOnOwn('console');
    if (signal.type === 'quit') haltOnOwn('quit');
  });
}

async function main(): Promise<void> {
  try {
    const module = (await import(data.transport.module)) as Record<
      string,
      (options: unknown, context: SafetyTransportContext) => RobotTransport | Promise<RobotTransport>
    >;
    const factory = module[data.transport.export];
    if (typeof factory !== 'function')
      throw new Error(`${data.transport.module} has no export ${data.transport.export}`);
    transport = await factory(data.transport.options, {
      log: (message) => post({ type: 'log', message: `safety: ${message}` }),
    });
    await transport.connect();
    if (drive.eStopTopic) {
      transport.subscribe(drive.eStopTopic, 'std_msgs/msg/Bool', (message) => {
        const value = message.data === true;
        if (value === eStopped) return;
        eStopped = value;
        post({ type: 'e_stop', active: value });
        if (value) haltOnOwn('e_stop');
      });
    }
  } catch (error) {
    post({ type: 'failed', error: (error as Error).message });
    return;
  }
  port.on('message', (message: ToSafety | { type: 'console'; port: MessagePort }) => {
    if (message.type === 'console') return listenToConsole(message.port);
    void onMessage(message);
  });
  timers = [setInterval(watch, WATCH_MS), setInterval(republishDrive, 1000 / drive.rateHz)];
  post({ type: 'ready' });
}

void main();
