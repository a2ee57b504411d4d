/**
 * The safety path's decisions, apart from the worker thread that hosts them (see `worker.ts`), so they run
 * and are tested in-process on a transport and a clock of the caller's choosing.
 *
 * It owns the robot's velocity commands: it republishes the active drive, ends it at its duration, and
 * publishes zero velocity at once on an operator `stop`, when the e-stop topic says `true` or falls silent,
 * and when the runtime's heartbeats stop for longer than the stall time (the dead-man, for drives and
 * navigation goals alike). Over a supervised link (rosbridge) it also ends the drive and the navigation goal
 * when the link fails and never resumes them, writes zero velocity first on every (re)connection, writes a
 * non-zero command only right after a round trip showed the peer reading, and reports a stop as delivered
 * only when it was written on a live link (confirmed when its zero comes back on the command topic).
 */
import { driveCommand, velocityOf, type DriveMessageType } from '../messages.js';
import {
  CANCEL_ALL_GOALS,
  CANCEL_GOAL_SERVICE_TYPE,
  type LinkState,
  type RobotTransport,
  type RosMessage,
} from '../transport.js';
import { simulationClock, type RosClock } from '../ros-time.js';
import { subscribeEStop } from './e-stop.js';
import type { ConsoleSignal, FromSafety, SafetyDriveConfig, StopCause, StopDelivery, ToSafety } from './protocol.js';

/** How long a written zero may take to come back on the command topic to count as confirmed. */
export const CONFIRM_MS = 300;
/** How long an unheard e-stop topic waits to be reported when `eStopTimeoutMs` is 0. */
const E_STOP_REPORT_MS = 1000;
const RELIABLE = { reliability: 'reliable', durability: 'volatile', depth: 10 } as const;
/**
 * rosapi's topic type service, which rosbridge's launch file starts beside the bridge: the type the ROS graph
 * has for a topic ("" for a topic it does not have). A bridge refuses every command of another type on a
 * topic (its publisher's TypeConflictException, or a message its type cannot hold) and says so only in its
 * own log; this is how the safety path learns it.
 */
export const TOPIC_TYPE_SERVICE = '/rosapi/topic_type';
/** The type of {@link TOPIC_TYPE_SERVICE}: request `topic`, response `type`. */
export const TOPIC_TYPE_SERVICE_TYPE = 'rosapi_msgs/srv/TopicType';
/** How long the safety path waits for rosapi's answer before it drives without one. */
const TOPIC_TYPE_MS = 1000;

/** What the controller runs on. */
export interface SafetyEnvironment {
  /** The safety path's own connection, connected. */
  readonly transport: RobotTransport;
  readonly drive: SafetyDriveConfig;
  /** To the runtime. */
  post(message: FromSafety): void;
  /** Monotonic milliseconds (`performance.now()`). */
  now(): number;
  /** Milliseconds since the epoch, as link states carry them (`Date.now()`). */
  wallNow(): number;
  /** The clock motion requests and stops are stamped with (`crossThreadNow()`: every thread's the same). */
  askedNow(): number;
  /** How long a zero may take to come back to count as confirmed (default {@link CONFIRM_MS}). */
  readonly confirmMs?: number;
}

/** Mira's goal as the safety path holds it (`action` undefined: navigation's, where the profile has none). */
interface Goal {
  readonly action: string | undefined;
  readonly sending: boolean;
  readonly id?: string;
  readonly known?: boolean;
}

interface Drive {
  readonly linear: number;
  readonly angular: number;
  readonly serial: number;
}

export class SafetyController {
  readonly #env: SafetyEnvironment;
  readonly #transport: RobotTransport;
  readonly #drive: SafetyDriveConfig;
  #active: (Drive & { until: number }) | undefined;
  #serial = 0;
  #lastHeartbeat: number;
  #stalledSince: number | undefined;
  /** What became of the dead-man's zero, told when the runtime is back. */
  #stalledDelivery: StopDelivery | undefined;
  #eStopped = false;
  /** When the e-stop topic was last heard (undefined: never). */
  #eStopHeardAt: number | undefined;
  #eStopSilentSaid = false;
  #eStopFreshSaid = false;
  /**
   * Mira's goal (navigation's, or a motion skill's): its action, being sent (no name yet), or running under the
   * name its transport gave it (`ActionGoal.id`), by which a stop cancels it and no other node's goal. One at a
   * time: one source of motion.
   */
  #goal: Goal | undefined;
  /**
   * The fence: when the latest stop (console, tool, e-stop, link failure, quit) was asked, on the
   * `askedNow()` clock. A drive or goal asked at or before it is refused however late it arrives here — its message may
   * come after the stop's (another thread's port, a busy main thread), and it must never run after the zero.
   */
  #fence = -Infinity;
  /** Whether the latest fence is a link loss's (then, while the link is down, the link is the answer). */
  #fenceByLink = false;
  /**
   * A stop (or another goal) came while a goal was being sent: the actions whose goal is cancelled (by name)
   * as soon as it is running.
   */
  readonly #cancelWhenNamed = new Set<string | undefined>();
  /**
   * A stop cancelled a goal by a name that did not cancel it yet (rosbridge drops a cancel that comes before
   * it holds the goal's handle): that name (and its action), cancelled again as soon as the goal is known.
   */
  readonly #cancelWhenKnown = new Map<string, string>();
  /**
   * A goal of Mira's was running when the link failed: the actions whose every goal is cancelled first thing
   * on the next connection.
   */
  readonly #cancelOnReconnect = new Set<string>();
  /**
   * The command topic's type in the ROS graph, asked of rosapi once per connection over a supervised link:
   * the type, "" (the graph does not have the topic), or undefined (no rosapi: it cannot be told).
   */
  #graphType: Promise<string | undefined> | undefined;
  /** What the latest answer of {@link #graphType} said, once it came (a stop does not wait for rosapi). */
  #graphTypeHeard: string | undefined;
  #noRosapiSaid = false;
  /** Under `use_sim_time`, the simulation clock that `now` stamps follow. */
  #simClock: RosClock | undefined;
  /** Zero-velocity echoes awaited on the command topic. */
  readonly #echoWaiters = new Set<() => void>();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(env: SafetyEnvironment) {
    this.#env = env;
    this.#transport = env.transport;
    this.#drive = env.drive;
    this.#lastHeartbeat = env.now();
  }

  /** Listens to the link, the e-stop topic and (over a supervised link) its own command topic. */
  start(): void {
    const drive = this.#drive;
    this.#transport.onLink?.((state) => this.#onLink(state));
    if (drive.clockTopic) this.#simClock = simulationClock(this.#transport, drive.clockTopic);
    if (drive.eStopTopic) {
      const topic = drive.eStopTopic;
      subscribeEStop(this.#transport, topic, (message) => {
        if (this.#eStopHeardAt === undefined && this.#eStopSilentSaid)
          this.#log(`e-stop topic ${topic} heard; drives are accepted`);
        this.#eStopHeardAt = this.#env.now();
        const value = message.data === true;
        if (value === this.#eStopped) return;
        this.#eStopped = value;
        this.#env.post({ type: 'e_stop', active: value });
        if (value) this.#haltOnOwn('e_stop');
      });
      this.#later(() => this.#reportUnheardEStop(), drive.eStopTimeoutMs || E_STOP_REPORT_MS);
    }
    if (this.#transport.link) {
      // A command written just before the bridge froze is read when it resumes: this zero right behind it.
      this.#transport.setLastWords?.(drive.topic, drive.type, () => this.#command(0, 0));
      this.#graphType = this.#askGraphType();
      // Our own zeros coming back through the bridge confirm a stop reached ROS.
      this.#transport.subscribe(drive.topic, drive.type, (message) => {
        const { linear, angular } = velocityOf(message);
        if (linear === 0 && angular === 0) for (const heard of [...this.#echoWaiters]) heard();
      });
    }
  }

  /** Ends the controller's own timers (the worker's intervals are the worker's). */
  dispose(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  #later(run: () => void, ms: number): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      run();
    }, ms);
    timer.unref?.();
    this.#timers.add(timer);
    return timer;
  }

  #log(message: string): void {
    this.#env.post({ type: 'log', message: `safety: ${message}` });
  }

  #link(): LinkState {
    return this.#transport.link?.() ?? { up: true, since: 0 };
  }

  #downFor(state: LinkState): string {
    return `${((this.#env.wallNow() - state.since) / 1000).toFixed(1)} s`;
  }

  #command(linear: number, angular: number): RosMessage {
    const drive = this.#drive;
    return driveCommand(drive.type as DriveMessageType, linear, angular, drive.frameId, drive.stamp, () =>
      this.#simClock ? this.#simClock.now() : this.#env.wallNow(),
    );
  }

  #write(linear: number, angular: number): Promise<void> {
    const drive = this.#drive;
    return this.#transport.publish(drive.topic, drive.type, this.#command(linear, angular), RELIABLE);
  }

  /**
   * A non-zero command, written only right after a round trip showed the peer reading this connection (a
   * frozen bridge would otherwise act on it whenever it resumes), and only if that drive is still the one.
   */
  async #writeDrive(target: Drive): Promise<boolean> {
    const state = this.#link();
    if (!state.up) throw new Error(`${this.#transport.name}: the link is down (${state.why ?? 'no answer'})`);
    if (this.#transport.roundTrip) await this.#transport.roundTrip();
    if (this.#active?.serial !== target.serial) return false;
    await this.#write(target.linear, target.angular);
    return true;
  }

  /** rosapi's answer on the command topic's type; undefined when there is no rosapi to ask. */
  async #askGraphType(): Promise<string | undefined> {
    const topic = this.#drive.topic;
    try {
      const answer = await this.#transport.callService(
        TOPIC_TYPE_SERVICE,
        TOPIC_TYPE_SERVICE_TYPE,
        { topic },
        TOPIC_TYPE_MS,
      );
      const type = typeof answer.type === 'string' ? answer.type : undefined;
      this.#graphTypeHeard = type;
      return type;
    } catch (error) {
      this.#graphTypeHeard = undefined;
      if (!this.#noRosapiSaid) {
        this.#noRosapiSaid = true;
        this.#log(
          `cannot ask the bridge the type of ${topic} (${(error as Error).message}); a type conflict there would ` +
            'refuse every command without a word here (start rosapi beside rosbridge, as its launch file does)',
        );
      }
      return undefined;
    }
  }

  /** Why the bridge refuses every command on the drive topic: the graph has it with another type. */
  async #typeConflict(): Promise<{ reason: string; error: string } | undefined> {
    const known = await this.#graphType;
    const drive = this.#drive;
    if (!known || known === drive.type) return undefined;
    return {
      reason: 'type_conflict',
      error:
        `not driving: the ROS graph has ${drive.topic} as ${known}, this profile drives it as ${drive.type}, and ` +
        `the bridge refuses every command of the other type (a type conflict it reports only in its own log); ` +
        `nothing was sent — set the drive's type to ${known}, or use the topic the base listens on`,
    };
  }

  #eStopFresh(): boolean {
    if (this.#eStopHeardAt === undefined) return false;
    return this.#drive.eStopTimeoutMs === 0 || this.#env.now() - this.#eStopHeardAt <= this.#drive.eStopTimeoutMs;
  }

  /** Fences off motion asked at or before `at` (an older stop arriving late does not move the fence back). */
  #raiseFence(at: number, byLink: boolean): void {
    if (!(at >= this.#fence)) return;
    this.#fence = at;
    this.#fenceByLink = byLink;
  }

  /**
   * Why motion asked at `askedAt` may not start: a stop came after it was asked. A link loss fences too, at
   * the time this thread noticed it, which may be after the runtime saw it and took the next request: while
   * the link is down, motion fenced by the loss is refused for the link, which is what the operator must act
   * on (not for a stop nobody gave).
   */
  #fenced(askedAt: number, what: 'drive' | 'goal' | 'call'): { reason: string; error: string } | undefined {
    if (!(askedAt > this.#fence)) {
      const state = this.#link();
      if (this.#fenceByLink && !state.up) return this.#linkDown(state);
      return {
        reason: 'superseded',
        error: `a stop came ${Math.max(0, Math.round(this.#fence - askedAt))} ms after this ${what} was asked; nothing was sent`,
      };
    }
    return undefined;
  }

  /** Why a drive may not start now, or undefined. */
  #driveRefusal(): { reason: string; error: string } | undefined {
    const drive = this.#drive;
    if (this.#eStopped) {
      return {
        reason: 'emergency_stopped',
        error: `the emergency stop on ${drive.eStopTopic} is active; nothing was sent until it is cleared`,
      };
    }
    if (drive.eStopTopic && !this.#eStopFresh()) {
      return {
        reason: 'e_stop_silent',
        error:
          this.#eStopHeardAt === undefined
            ? `nothing has been heard on the e-stop topic ${drive.eStopTopic} yet (std_msgs/msg/Bool); drives are refused until it is`
            : `the e-stop topic ${drive.eStopTopic} has been silent for ${Math.round(this.#env.now() - this.#eStopHeardAt)} ms ` +
              `(more than e_stop_timeout_ms = ${drive.eStopTimeoutMs}); nothing was sent`,
      };
    }
    const state = this.#link();
    return state.up ? undefined : this.#linkDown(state);
  }

  #linkDown(state: LinkState): { reason: string; error: string } {
    return {
      reason: 'transport_error',
      error: `${this.#transport.name}: the link is down (${state.why ?? 'no answer'}) for ${this.#downFor(state)}; nothing was sent`,
    };
  }

  /**
   * Cancels Mira's navigation goal, by its name, from this connection (rosbridge finds a goal by its ID
   * among every connection's goals; a native action server by its UUID). Every goal of the server is
   * cancelled (the all-zero CancelGoal request) only where the goal cannot be named:
   * - on the first connection after a link loss: a bridge that restarted no longer knows the goal's ID
   *   (rosbridge keeps its goals in the server process) while Nav2 still pursues it, and this side cannot
   *   tell a restart from a lost connection;
   * - on a stall while the goal was being sent: the stalled runtime may never tell its name (if it does,
   *   the goal is cancelled by name as well);
   * - on a transport that cannot name a goal (no `ActionGoal.id`) or cancel one by name (no `cancelGoal`).
   * A stop while the goal is being sent by a runtime that is alive waits until it runs, then cancels it.
   */
  #cancelNavigation(stalled = false): void {
    const goal = this.#goal;
    if (!goal) return;
    this.#goal = undefined;
    this.#cancelGoal(goal, stalled);
  }

  /** Cancels `goal` (no longer the one held): by name, every goal of its server, or once it runs or is known. */
  #cancelGoal(goal: Goal, stalled = false): void {
    const action = goal.action;
    if (!action) return;
    if (!this.#link().up) {
      this.#cancelOnReconnect.add(action);
      return;
    }
    if (goal.sending) {
      // Cancelled by name as soon as it runs; a stalled runtime may never say so (or say so late): every
      // goal now, and this one by name too if it runs after all.
      this.#cancelWhenNamed.add(action);
      if (stalled) this.#sendCancel(action, undefined);
      return;
    }
    this.#sendCancel(action, goal.id);
    // Sent now in case the bridge holds the goal already; once more when it is known to.
    if (goal.known === false && goal.id !== undefined) this.#cancelWhenKnown.set(goal.id, action);
  }

  /** One goal by its name, or (no name, or a transport that cannot name one) every goal of the server. */
  #sendCancel(action: string, id: string | undefined): void {
    const cancelled =
      id !== undefined && this.#transport.cancelGoal
        ? this.#transport.cancelGoal(action, id)
        : this.#transport.callService(
            `${action}/_action/cancel_goal`,
            CANCEL_GOAL_SERVICE_TYPE,
            CANCEL_ALL_GOALS,
            2000,
          );
    cancelled.catch((error: Error) => this.#log(`the navigation goal could not be cancelled: ${error.message}`));
  }

  /** Waits for a zero to come back on the command topic (the bridge carried it into ROS). */
  #echo(): Promise<boolean> {
    return new Promise((resolve) => {
      const heard = () => {
        clearTimeout(timer);
        this.#timers.delete(timer);
        this.#echoWaiters.delete(heard);
        resolve(true);
      };
      const timer = this.#later(() => {
        this.#echoWaiters.delete(heard);
        resolve(false);
      }, this.#env.confirmMs ?? CONFIRM_MS);
      this.#echoWaiters.add(heard);
    });
  }

  /**
   * Zero velocity now; the drive ends, and (unless a drive merely ran out) navigation is cancelled. Says
   * truthfully what became of the zero: written on a live link (and heard back), or not delivered.
   */
  async halt(why?: 'duration' | 'stall', at = this.#env.askedNow()): Promise<StopDelivery> {
    this.#active = undefined;
    // A drive that merely ran out fences nothing; every other stop fences off what was asked before it.
    if (why !== 'duration') this.#raiseFence(at, false);
    if (why !== 'duration') this.#cancelNavigation(why === 'stall');
    const state = this.#link();
    const base = `${this.#drive.topic} over ${this.#transport.name}`;
    if (!state.up) {
      return {
        delivered: false,
        detail:
          `zero velocity not delivered on ${base}: the link has been down for ${this.#downFor(state)} ` +
          `(${state.why ?? 'no answer'}); the base's own command timeout must stop the robot`,
      };
    }
    const known = this.#graphTypeHeard;
    // The bridge refuses this zero as it refused every command of the profile's type: said so, not awaited.
    const refused = known && known !== this.#drive.type ? known : undefined;
    const confirming = this.#transport.link && !refused ? this.#echo() : undefined;
    try {
      await this.#write(0, 0);
    } catch (error) {
      return {
        delivered: false,
        detail: `zero velocity not delivered on ${base}: ${(error as Error).message}; the base's own command timeout must stop the robot`,
      };
    }
    if (refused) {
      return {
        delivered: false,
        detail:
          `zero velocity written on ${base}, but the bridge refuses it as it refused every drive: the ROS graph has ` +
          `${this.#drive.topic} as ${refused}, this profile drives it as ${this.#drive.type} (a type conflict the bridge ` +
          `reports only in its own log), so no command of Mira's reached the base there; whatever moves the robot, ` +
          `it is not Mira — set the drive's type to ${refused}`,
      };
    }
    if (!confirming) return { delivered: true, detail: `zero velocity sent on ${base}` };
    const confirmed = await confirming;
    return {
      delivered: true,
      confirmed,
      detail: confirmed
        ? `zero velocity sent on ${base} and heard back on ${this.#drive.topic}`
        : `zero velocity sent on ${base} (a live link), not heard back on ${this.#drive.topic} within ${this.#env.confirmMs ?? CONFIRM_MS} ms`,
    };
  }

  /** Zero velocity on the controller's own initiative; the runtime hears why (a stall when it is back). */
  #haltOnOwn(why: StopCause, at?: number): void {
    void this.halt(why === 'duration' || why === 'stall' ? why : undefined, at).then((delivery) => {
      if (!delivery.delivered) this.#log(`${why}: ${delivery.detail}`);
      if (why === 'stall') this.#stalledDelivery = delivery;
      else if (why !== 'duration') this.#env.post({ type: 'stopped', why, delivery });
    });
  }

  /** Tells the runtime when the e-stop topic turns fresh or stale, so it refuses goals as this refuses drives. */
  #tellEStopFreshness(): void {
    if (!this.#drive.eStopTopic) return;
    const fresh = this.#eStopFresh();
    if (fresh === this.#eStopFreshSaid) return;
    this.#eStopFreshSaid = fresh;
    this.#env.post({ type: 'e_stop_fresh', fresh });
  }

  /** The watchdog (every few ms): the drive's duration, the dead-man (drives and goals), the e-stop's freshness. */
  watch(): void {
    this.#tellEStopFreshness();
    if (!this.#active && !this.#goal) return;
    const t = this.#env.now();
    if (this.#active && t >= this.#active.until) return this.#haltOnOwn('duration');
    if (t - this.#lastHeartbeat > this.#drive.stallMs) {
      this.#stalledSince = this.#lastHeartbeat;
      return this.#haltOnOwn('stall');
    }
    if (this.#drive.eStopTopic && !this.#eStopFresh()) this.#haltOnOwn('e_stop_silent');
  }

  /** Republishes the active drive (at the configured rate: a base stops when commands stop coming). */
  republish(): void {
    const target = this.#active;
    if (!target) return;
    this.#writeDrive(target).catch((error: Error) => {
      // A command that cannot be written ends the drive: it is never resumed.
      if (this.#active?.serial !== target.serial) return;
      this.#log(`drive command could not be sent (${error.message}); the drive is ended`);
      this.#haltOnOwn('link');
    });
  }

  /** The link failed or came back (supervised transports only). */
  #onLink(state: LinkState): void {
    if (!state.up) {
      if (!this.#active && !this.#goal) return;
      const why = state.why ?? 'no answer';
      this.#log(`${this.#transport.name}: the link failed (${why}); the drive is ended and will not resume`);
      this.#active = undefined;
      this.#raiseFence(this.#env.askedNow(), true);
      if (this.#goal) {
        if (this.#goal.action) this.#cancelOnReconnect.add(this.#goal.action);
        this.#goal = undefined;
      }
      this.#env.post({
        type: 'stopped',
        why: 'link',
        delivery: {
          delivered: false,
          detail: `zero velocity not delivered on ${this.#drive.topic}: the link failed (${why}); the base's own command timeout must stop the robot`,
        },
      });
      return;
    }
    // The graph may have changed while the link was down (a base restarted with another type).
    this.#graphType = this.#askGraphType();
    // First on every new connection: zero velocity, before any other command.
    this.#write(0, 0).catch((error: Error) =>
      this.#log(`zero velocity on reconnection could not be sent: ${error.message}`),
    );
    if (this.#cancelOnReconnect.size > 0) {
      const actions = [...this.#cancelOnReconnect];
      this.#cancelOnReconnect.clear();
      this.#cancelWhenNamed.clear();
      this.#goal = undefined;
      for (const action of actions) this.#sendCancel(action, undefined);
    }
  }

  /** A console line reader's signal: `stop` halts at once; `quit` halts unless the runtime already did. */
  consoleSignal(signal: ConsoleSignal): void {
    if (signal.type === 'stop') this.#haltOnOwn('console', signal.at);
    if (signal.type === 'quit') this.#haltOnOwn('quit', signal.at);
  }

  /** A message from the runtime (`close` is the worker's: it ends the worker's timers first). */
  async onMessage(message: Exclude<ToSafety, { type: 'close' }>): Promise<void> {
    const drive = this.#drive;
    switch (message.type) {
      case 'goal': {
        const fenced = this.#fenced(message.askedAt, 'goal');
        if (fenced) {
          this.#env.post({ type: 'reply', id: message.id, ok: false, ...fenced });
          return;
        }
        const action = message.action ?? drive.navigationAction;
        // One source of motion: a goal ends a running drive (its action server commands the base now) and
        // cancels another action's goal (a dock goal cancels navigation's, and the other way round).
        this.#active = undefined;
        this.#cancelWhenNamed.delete(action);
        if (this.#goal && this.#goal.action !== action) this.#cancelNavigation();
        this.#goal = { action, sending: true };
        this.#env.post({ type: 'reply', id: message.id, ok: true });
        return;
      }
      case 'fence': {
        // A motion service call: the fence and the e-stop decide; nothing is held (a call cannot be cancelled).
        const refusal = this.#fenced(message.askedAt, 'call') ?? this.#driveRefusal();
        this.#env.post(
          refusal
            ? { type: 'reply', id: message.id, ok: false, ...refusal }
            : { type: 'reply', id: message.id, ok: true },
        );
        return;
      }
      case 'navigating': {
        const action = message.action ?? drive.navigationAction;
        if (!message.active) {
          if (this.#goal?.action === action) this.#goal = undefined;
          this.#cancelWhenNamed.delete(action);
          for (const [id, of] of this.#cancelWhenKnown) if (of === action) this.#cancelWhenKnown.delete(id);
          return;
        }
        this.#active = undefined;
        const running: Goal = { action, sending: false, id: message.goal, known: message.known ?? true };
        if (this.#cancelWhenNamed.delete(action)) {
          // Stopped (or replaced) while it was being sent: cancelled now that it runs (or at the next
          // connection), and another action's goal held meanwhile stays held.
          if (this.#goal?.action === action) this.#goal = undefined;
          this.#cancelGoal(running);
          return;
        }
        if (this.#goal && this.#goal.action !== action && !this.#goal.sending) this.#cancelNavigation();
        this.#goal = running;
        return;
      }
      case 'goal_known': {
        const action = this.#cancelWhenKnown.get(message.goal);
        if (action !== undefined) {
          // Stopped before the bridge held it: that cancel was lost there, this one reaches it.
          this.#cancelWhenKnown.delete(message.goal);
          this.#sendCancel(action, message.goal);
        } else if (this.#goal?.id === message.goal) this.#goal = { ...this.#goal, known: true };
        return;
      }
      case 'heartbeat': {
        this.#lastHeartbeat = this.#env.now();
        if (this.#stalledSince !== undefined) {
          const stalledMs = this.#lastHeartbeat - this.#stalledSince;
          this.#stalledSince = undefined;
          this.#env.post({ type: 'stopped', why: 'stall', stalledMs, delivery: this.#stalledDelivery });
          this.#stalledDelivery = undefined;
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
          this.#env.post({
            type: 'reply',
            id: message.id,
            ok: false,
            reason: 'out_of_range',
            error: `${problems.join('; ')}; nothing was sent`,
          });
          return;
        }
        // Asked first: a stop while rosapi answers must still fence this drive off below.
        const conflict = await this.#typeConflict();
        const refusal = this.#fenced(message.askedAt, 'drive') ?? this.#driveRefusal() ?? conflict;
        if (refusal) {
          this.#env.post({ type: 'reply', id: message.id, ok: false, ...refusal });
          return;
        }
        // One source of motion: a drive cancels a running navigation goal.
        this.#cancelNavigation();
        this.#lastHeartbeat = this.#env.now();
        const target = { linear: message.linear, angular: message.angular, serial: ++this.#serial };
        this.#active = { ...target, until: this.#env.now() + message.durationS * 1000 };
        let written: boolean;
        try {
          written = await this.#writeDrive(target);
        } catch (error) {
          if (this.#active?.serial === target.serial) this.#active = undefined;
          this.#env.post({
            type: 'reply',
            id: message.id,
            ok: false,
            reason: 'transport_error',
            error: `${(error as Error).message}; the robot was not commanded`,
          });
          return;
        }
        if (!written) {
          // A stop (or another drive, or a goal, or the link's loss) came while the link was being checked.
          const state = this.#link();
          this.#env.post({
            type: 'reply',
            id: message.id,
            ok: false,
            ...(state.up
              ? {
                  reason: 'superseded',
                  error: 'a stop, another drive or a navigation goal came before this drive was sent; nothing was sent',
                }
              : this.#linkDown(state)),
          });
          return;
        }
        this.#env.post({ type: 'reply', id: message.id, ok: true });
        return;
      }
      case 'stop':
        this.#env.post({ type: 'reply', id: message.id, ok: true, delivery: await this.halt(undefined, message.at) });
        return;
    }
  }

  /** Says once, at start-up or later, that the e-stop topic has not been heard. */
  #reportUnheardEStop(): void {
    const drive = this.#drive;
    if (!drive.eStopTopic || this.#eStopSilentSaid || this.#eStopHeardAt !== undefined) return;
    this.#eStopSilentSaid = true;
    this.#log(
      `nothing heard on the e-stop topic ${drive.eStopTopic} within ${drive.eStopTimeoutMs || E_STOP_REPORT_MS} ms: ` +
        `every drive is refused until it is (is a node publishing std_msgs/msg/Bool there? a bridge refuses a ` +
        `subscription of the wrong type silently)`,
    );
  }
}
