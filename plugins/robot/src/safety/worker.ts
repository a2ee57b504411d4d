/**
 * The safety path: a worker thread that owns the robot's velocity commands.
 * It has its own transport connection, republishes the active drive, ends it
 * at its duration, and publishes zero velocity at once when the operator types
 * `stop` (a port from the console reader), when the e-stop topic says `true`
 * or falls silent, or when the runtime's heartbeats stop for longer than the
 * stall time (the dead-man). Nothing here waits for the main thread.
 *
 * Over a supervised link (rosbridge) it also: ends the drive and the navigation goal when the link fails,
 * and never resumes them; writes zero velocity first on every (re)connection; writes a non-zero command only
 * right after a round trip showed the bridge reading; and reports a stop as delivered only when it was
 * written on a live link (confirmed when its zero comes back on the command topic).
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { driveCommand, velocityOf, type DriveMessageType } from '../messages.js';
import { subscribeEStop } from './e-stop.js';
import { CANCEL_ALL_GOALS, CANCEL_GOAL_SERVICE_TYPE, type LinkState, type RobotTransport } from '../transport.js';
import type {
  ConsoleSignal,
  FromSafety,
  SafetyTransportContext,
  SafetyWorkerData,
  StopCause,
  StopDelivery,
  ToSafety,
} from './protocol.js';

const data = workerData as SafetyWorkerData;
const drive = data.drive;
const port = parentPort!;
const now = () => performance.now();
const post = (message: FromSafety) => port.postMessage(message);
const log = (message: string) => post({ type: 'log', message: `safety: ${message}` });
/** How often the watchdog looks: a stall is caught within the stall time plus this. */
const WATCH_MS = 10;
/** How long a written zero may take to come back on the command topic to count as confirmed. */
const CONFIRM_MS = 300;
const RELIABLE = { reliability: 'reliable', durability: 'volatile', depth: 10 } as const;

let transport: RobotTransport | undefined;
let active: { linear: number; angular: number; until: number; serial: number } | undefined;
let serial = 0;
let timers: Array<ReturnType<typeof setInterval>> = [];
let lastHeartbeat = now();
let stalledSince: number | undefined;
let eStopped = false;
/** When the e-stop topic was last heard (undefined: never). */
let eStopHeardAt: number | undefined;
let eStopSilentSaid = false;
let navigating = false;
/** A goal of Mira's was running when the link failed: cancel it first thing on the next connection. */
let cancelOnReconnect = false;
/** What became of the dead-man's zero, told when the runtime is back. */
let stalledDelivery: StopDelivery | undefined;
/** Zero-velocity echoes awaited on the command topic. */
const echoWaiters = new Set<() => void>();

const link = (): LinkState => transport?.link?.() ?? { up: true, since: 0 };
const downFor = (state: LinkState) => `${((Date.now() - state.since) / 1000).toFixed(1)} s`;

const write = (linear: number, angular: number) =>
  transport!.publish(
    drive.topic,
    drive.type,
    driveCommand(drive.type as DriveMessageType, linear, angular, drive.frameId),
    RELIABLE,
  );

/**
 * A non-zero command, written only right after a round trip showed the peer reading this connection (a
 * frozen bridge would otherwise act on it whenever it resumes), and only if that drive is still the one.
 */
async function writeDrive(target: { linear: number; angular: number; serial: number }): Promise<boolean> {
  if (!link().up) throw new Error(`${transport!.name}: the link is down (${link().why ?? 'no answer'})`);
  if (transport!.roundTrip) await transport!.roundTrip();
  if (active && active.serial !== target.serial) return false;
  await write(target.linear, target.angular);
  return true;
}

/** Why a drive may not start now, or undefined. */
function driveRefusal(): { reason: string; error: string } | undefined {
  if (eStopped) {
    return {
      reason: 'emergency_stopped',
      error: `the emergency stop on ${drive.eStopTopic} is active; nothing was sent until it is cleared`,
    };
  }
  if (drive.eStopTopic && !eStopFresh()) {
    return {
      reason: 'e_stop_silent',
      error:
        eStopHeardAt === undefined
          ? `nothing has been heard on the e-stop topic ${drive.eStopTopic} yet (std_msgs/msg/Bool); drives are refused until it is`
          : `the e-stop topic ${drive.eStopTopic} has been silent for ${Math.round(now() - eStopHeardAt)} ms (more than e_stop_timeout_ms = ${drive.eStopTimeoutMs}); nothing was sent`,
    };
  }
  const state = link();
  if (!state.up) {
    return {
      reason: 'transport_error',
      error: `${transport!.name}: the link is down (${state.why ?? 'no answer'}) for ${downFor(state)}; nothing was sent`,
    };
  }
  return undefined;
}

function eStopFresh(): boolean {
  if (eStopHeardAt === undefined) return false;
  return drive.eStopTimeoutMs === 0 || now() - eStopHeardAt <= drive.eStopTimeoutMs;
}

/**
 * Cancels Mira's running navigation goal through the action's own cancel service (the goal was sent
 * on the runtime's connection; this one cannot name it, so it cancels every goal of that server).
 */
function cancelNavigation(): void {
  if (!navigating || !drive.navigationAction) return;
  navigating = false;
  if (!link().up) {
    cancelOnReconnect = true;
    return;
  }
  transport!
    .callService(`${drive.navigationAction}/_action/cancel_goal`, CANCEL_GOAL_SERVICE_TYPE, CANCEL_ALL_GOALS, 2000)
    .catch((error: Error) => log(`the navigation goal could not be cancelled: ${error.message}`));
}

/** Waits for a zero to come back on the command topic (the bridge carried it into ROS). */
function echo(): Promise<boolean> {
  return new Promise((resolve) => {
    const heard = () => {
      clearTimeout(timer);
      echoWaiters.delete(heard);
      resolve(true);
    };
    const timer = setTimeout(() => {
      echoWaiters.delete(heard);
      resolve(false);
    }, CONFIRM_MS);
    echoWaiters.add(heard);
  });
}

/**
 * Zero velocity now; the drive ends, and (unless a drive merely ran out) navigation is cancelled. Says
 * truthfully what became of the zero: written on a live link (and heard back), or not delivered.
 */
async function halt(why?: 'duration'): Promise<StopDelivery> {
  active = undefined;
  if (why !== 'duration') cancelNavigation();
  const state = link();
  const base = `${drive.topic} over ${transport!.name}`;
  if (!state.up) {
    return {
      delivered: false,
      detail:
        `zero velocity not delivered on ${base}: the link has been down for ${downFor(state)} (${state.why ?? 'no answer'}); ` +
        `the base's own command timeout must stop the robot`,
    };
  }
  const confirming = transport!.link ? echo() : undefined;
  try {
    await write(0, 0);
  } catch (error) {
    return {
      delivered: false,
      detail: `zero velocity not delivered on ${base}: ${(error as Error).message}; the base's own command timeout must stop the robot`,
    };
  }
  if (!confirming) return { delivered: true, detail: `zero velocity sent on ${base}` };
  const confirmed = await confirming;
  return {
    delivered: true,
    confirmed,
    detail: confirmed
      ? `zero velocity sent on ${base} and heard back on ${drive.topic}`
      : `zero velocity sent on ${base} (a live link), not heard back on ${drive.topic} within ${CONFIRM_MS} ms`,
  };
}

/** Zero velocity on the worker's own initiative; the runtime hears why (a stall is reported when it is back). */
function haltOnOwn(why: StopCause): void {
  void halt(why === 'duration' ? why : undefined).then((delivery) => {
    if (!delivery.delivered) log(`${why}: ${delivery.detail}`);
    if (why === 'stall') stalledDelivery = delivery;
    else if (why !== 'duration') post({ type: 'stopped', why, delivery });
  });
}

/** Tells the runtime when the e-stop topic turns fresh or stale, so it refuses goals as this refuses drives. */
let eStopFreshSaid = false;
function tellEStopFreshness(): void {
  if (!drive.eStopTopic) return;
  const fresh = eStopFresh();
  if (fresh === eStopFreshSaid) return;
  eStopFreshSaid = fresh;
  post({ type: 'e_stop_fresh', fresh });
}

/** The watchdog: the drive's duration, the dead-man (drives and navigation) and the e-stop's freshness. */
function watch(): void {
  tellEStopFreshness();
  if (!active && !navigating) return;
  const t = now();
  if (active && t >= active.until) return haltOnOwn('duration');
  if (t - lastHeartbeat > drive.stallMs) {
    stalledSince = lastHeartbeat;
    return haltOnOwn('stall');
  }
  if (drive.eStopTopic && !eStopFresh()) haltOnOwn('e_stop_silent');
}

/** Republishes the active drive at the configured rate (a base stops when commands stop coming). */
function republishDrive(): void {
  if (!active) return;
  const target = active;
  writeDrive(target).catch((error: Error) => {
    // A command that cannot be written ends the drive: it is never resumed.
    if (active?.serial !== target.serial) return;
    log(`drive command could not be sent (${error.message}); the drive is ended`);
    haltOnOwn('link');
  });
}

/** The link failed or came back (supervised transports only). */
function onLink(state: LinkState): void {
  if (!state.up) {
    if (active || navigating) {
      log(`${transport!.name}: the link failed (${state.why ?? 'no answer'}); the drive is ended and will not resume`);
      active = undefined;
      if (navigating) {
        navigating = false;
        cancelOnReconnect = Boolean(drive.navigationAction);
      }
      post({
        type: 'stopped',
        why: 'link',
        delivery: {
          delivered: false,
          detail: `zero velocity not delivered on ${drive.topic}: the link failed (${state.why ?? 'no answer'}); the base's own command timeout must stop the robot`,
        },
      });
    }
    return;
  }
  // First on every new connection: zero velocity, before any other command.
  write(0, 0).catch((error: Error) => log(`zero velocity on reconnection could not be sent: ${error.message}`));
  if (cancelOnReconnect) {
    cancelOnReconnect = false;
    navigating = true;
    cancelNavigation();
  }
}

async function onMessage(message: ToSafety): Promise<void> {
  switch (message.type) {
    case 'navigating':
      navigating = message.active;
      // One source of motion: a navigation goal ends a running drive (Nav2 commands the base now).
      if (message.active) active = undefined;
      return;
    case 'heartbeat': {
      lastHeartbeat = now();
      if (stalledSince !== undefined) {
        const stalledMs = lastHeartbeat - stalledSince;
        stalledSince = undefined;
        post({ type: 'stopped', why: 'stall', stalledMs, delivery: stalledDelivery });
        stalledDelivery = undefined;
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
      const refusal = driveRefusal();
      if (refusal) {
        post({ type: 'reply', id: message.id, ok: false, ...refusal });
        return;
      }
      // One source of motion: a drive cancels a running navigation goal.
      cancelNavigation();
      lastHeartbeat = now();
      const target = { linear: message.linear, angular: message.angular, serial: ++serial };
      active = { ...target, until: now() + message.durationS * 1000 };
      try {
        await writeDrive(target);
      } catch (error) {
        if (active?.serial === target.serial) active = undefined;
        post({
          type: 'reply',
          id: message.id,
          ok: false,
          reason: 'transport_error',
          error: `${(error as Error).message}; the robot was not commanded`,
        });
        return;
      }
      post({ type: 'reply', id: message.id, ok: true });
      return;
    }
    case 'stop': {
      post({ type: 'reply', id: message.id, ok: true, delivery: await halt() });
      return;
    }
    case 'close': {
      for (const timer of timers) clearInterval(timer);
      timers = [];
      const delivery = await halt();
      if (!delivery.delivered) log(`shutdown: ${delivery.detail}`);
      await transport?.close();
      post({ type: 'reply', id: message.id, ok: true, delivery });
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

/** Says once, at start-up or later, that the e-stop topic has not been heard. */
function checkEStopHeard(): void {
  if (!drive.eStopTopic || eStopSilentSaid || eStopHeardAt !== undefined) return;
  eStopSilentSaid = true;
  log(
    `nothing heard on the e-stop topic ${drive.eStopTopic} within ${drive.eStopTimeoutMs || 1000} ms: every drive is refused ` +
      `until it is (is a node publishing std_msgs/msg/Bool there? a bridge refuses a subscription of the wrong type silently)`,
  );
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
    transport = await factory(data.transport.options, { log });
    await transport.connect();
    transport.onLink?.(onLink);
    if (drive.eStopTopic) {
      subscribeEStop(transport, drive.eStopTopic, (message) => {
        if (eStopHeardAt === undefined && eStopSilentSaid)
          log(`e-stop topic ${drive.eStopTopic} heard; drives are accepted`);
        eStopHeardAt = now();
        const value = message.data === true;
        if (value === eStopped) return;
        eStopped = value;
        post({ type: 'e_stop', active: value });
        if (value) haltOnOwn('e_stop');
      });
      setTimeout(checkEStopHeard, drive.eStopTimeoutMs || 1000).unref();
    }
    if (transport.link) {
      // Our own zeros coming back through the bridge confirm a stop reached ROS.
      transport.subscribe(drive.topic, drive.type, (message) => {
        const { linear, angular } = velocityOf(message);
        if (linear === 0 && angular === 0) for (const heard of [...echoWaiters]) heard();
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
