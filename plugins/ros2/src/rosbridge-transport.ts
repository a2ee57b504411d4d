import { randomBytes } from 'node:crypto';
import * as roslib from 'roslib';
import { WebSocket } from 'ws';
import {
  GRAPH_TIMEOUT_MS,
  HardwareErrors,
  type ActionGoal,
  type ActionOutcome,
  type LinkState,
  type PublishOptions,
  type QosProfile,
  type RobotTransport,
  type RosGraph,
  type RosMessage,
} from '@mira/robot';
import { LimitedLog, type LogLimit } from './log-limit.js';
import { rosapiGraph } from './rosapi-graph.js';

// The subset of roslib this transport uses, declared here (roslib's own declarations
// import .ts files, which this project's compiler settings do not resolve).
interface RosConnection {
  readonly isConnected: boolean;
  on(event: string, listener: (event?: unknown) => void): void;
  once(event: string, listener: (event?: unknown) => void): void;
  off(event: string, listener: (event?: unknown) => void): void;
  connect(url: string): Promise<void>;
  close(): void;
  /** Sends an operation now when connected; roslib would queue it otherwise (this transport never lets it). */
  callOnConnection(message: Record<string, unknown>): void;
}
interface RosTopic {
  subscribe(handler: (message: RosMessage) => void): void;
  unsubscribe(handler?: (message: RosMessage) => void): void;
  advertise(): void;
  unadvertise(): void;
  publish(message: RosMessage): void;
}
/** roslib's base class for a transport under `Ros`: it decodes raw frames (JSON, CBOR) and emits them. */
interface AbstractTransportClass {
  new (): {
    emit(event: string, value?: unknown): boolean;
    handleRawMessage(data: unknown): void;
  };
}
const ROSLIB = roslib as unknown as {
  Ros: new (options: Record<string, unknown>) => RosConnection;
  Topic: new (options: {
    ros: RosConnection;
    name: string;
    messageType: string;
    queue_length?: number;
    throttle_rate?: number;
    compression?: string;
    reconnect_on_close?: boolean;
  }) => RosTopic;
  AbstractTransport: AbstractTransportClass;
};

/** Reconnection backoff: first wait, and the longest. */
const BACKOFF_FIRST_MS = 200;
const BACKOFF_MAX_MS = 5000;
/** The default liveness deadline: a link whose pings go unanswered this long is down. */
export const DEFAULT_LIVENESS_MS = 500;
/** The default bound on a goal's first word (feedback or result) before it counts as rejected. */
export const DEFAULT_GOAL_ACCEPT_MS = 5000;
/** How often a link's silence is looked at. */
const LOOK_MS = 10;
/**
 * A look later than this after the last one means this thread itself stalled (a busy runtime, a loaded
 * machine): of such a gap only this much counts as the link's silence — the bridge's answers may be
 * waiting, unread, in the socket — and the stall is said as the runtime's own, not the link's.
 */
export const OWN_STALL_MS = 50;
/** Own stalls are said at most this often (the first at once), with how many and the longest. */
const OWN_STALL_REPORT_MS = 30_000;
/** The default of how often an outage is summed up in the log while it lasts. */
export const DEFAULT_OUTAGE_SUMMARY_MS = 30_000;

/**
 * The default bounds of the outage queue (non-motion messages kept while the link is down, sent on
 * reconnection): at most this many, none older than this.
 */
export const DEFAULT_OUTAGE_QUEUE = { maxMessages: 100, maxAgeMs: 5000 } as const;

/** Settings of a rosbridge transport beyond its URL. */
export interface RosbridgeOptions {
  /** Pings unanswered this long take the link down (default 500 ms); pings go out five times as often. */
  readonly livenessMs?: number;
  /** A goal with no feedback or result this long is rejected (default 5000 ms). */
  readonly goalAcceptMs?: number;
  /** While the link is down, a line says so this often (default 30 s). */
  readonly outageSummaryMs?: number;
  /**
   * The outage queue's bounds (default {@link DEFAULT_OUTAGE_QUEUE}): messages published with
   * `queueWhileDown` while the link is down wait, at most `maxMessages` of them and none older than
   * `maxAgeMs` (the oldest go first), and are sent in order on reconnection.
   */
  readonly outageQueue?: { readonly maxMessages: number; readonly maxAgeMs: number };
  /** Lines a peer's bad input causes (an undecodable frame, a failing call), per kind: 5 per 10 s by default. */
  readonly peerLogLimit?: LogLimit;
}

/** A message waiting out an outage. */
interface Queued {
  readonly topic: string;
  readonly type: string;
  readonly message: RosMessage;
  /** When it was published (`performance.now()`). */
  readonly at: number;
}

let nextId = 0;
/**
 * This process's part of every goal ID: rosbridge keeps every connection's goals in one table keyed by ID
 * (send_action_goal.py `client_handler_list`), so two Mira processes on one bridge must never send the same
 * ID — a cancel would reach the other's goal.
 */
const PROCESS_TAG = randomBytes(4).toString('hex');

/**
 * A `service_response` without an id: roslib answers each with `console.error` (a line on stderr per
 * message a peer sends, with no limit), so it is dropped before roslib and said in the limited log.
 */
function idlessServiceResponse(data: unknown): boolean {
  if (typeof data !== 'string' || !data.includes('"service_response"')) return false;
  try {
    const message = JSON.parse(data) as { op?: unknown; id?: unknown };
    return message.op === 'service_response' && !message.id;
  } catch {
    return false; // roslib says it cannot decode it, through the limited log
  }
}

/**
 * roslib's transport over a `ws` socket this module holds, so that it can ping the bridge, and drop the
 * socket — with whatever the client still buffers — the moment the link misses its deadline.
 */
class SupervisedSocket extends ROSLIB.AbstractTransport {
  readonly socket: WebSocket;

  /**
   * `opened` runs before roslib hears of the connection, so supervision is on before anything is sent;
   * `skipped` hears of a frame dropped before roslib, which would print it on the console each time.
   */
  constructor(
    url: string,
    handshakeTimeoutMs: number,
    opened: (socket: SupervisedSocket) => void,
    skipped: (what: string) => void,
  ) {
    super();
    // A bridge that takes the connection but never answers the upgrade (stopped, or a half-dead network)
    // fails the attempt instead of holding it open for good.
    this.socket = new WebSocket(url, { handshakeTimeout: handshakeTimeoutMs });
    this.socket.binaryType = 'arraybuffer';
    this.socket.onopen = (event) => {
      opened(this);
      this.emit('open', event);
    };
    this.socket.onclose = (event) => this.emit('close', event);
    this.socket.onerror = (event) => this.emit('error', event);
    this.socket.onmessage = (event) => {
      if (idlessServiceResponse(event.data)) skipped('a service_response without an id; skipped');
      else this.handleRawMessage(event.data);
    };
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }
  close(): void {
    this.socket.close();
  }
  /** Drops the connection now: nothing buffered on this side is sent. */
  kill(): void {
    this.socket.terminate();
  }
  isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }
  /** What roslib asks before it opens a new socket (`Ros.connect`). */
  isClosed(): boolean {
    return this.socket.readyState === WebSocket.CLOSED;
  }
}

/**
 * One supervised connection to the bridge: a roslib `Ros` over a {@link SupervisedSocket}, pinged every
 * fifth of the deadline, one question at a time. A link whose pings go unanswered past the deadline is
 * killed (its socket dropped, which closes the `Ros`): a frozen bridge is noticed within the deadline,
 * not when TCP gives up.
 */
class BridgeLink {
  readonly ros: RosConnection;
  #socket: SupervisedSocket | undefined;
  readonly #livenessMs: number;
  readonly #handshakeMs: number;
  /** How long the link has been silent while this thread was running (own stalls count {@link OWN_STALL_MS}). */
  #silentMs = 0;
  /** When the supervisor last looked. */
  #lastLook = 0;
  #pinger: ReturnType<typeof setInterval> | undefined;
  /** A supervisor's ping is unanswered. */
  #asking = false;
  readonly #roundTrips = new Map<string, () => void>();
  /** Called once per connection when the deadline passed (before the socket is dropped). */
  onMissed: (silentMs: number) => void = () => undefined;
  /** Called when this thread stalled (a look came `stalledMs` late): the runtime's stall, not the link's. */
  onOwnStall: (stalledMs: number) => void = () => undefined;
  /** Called for a peer's frame dropped before roslib (see {@link idlessServiceResponse}). */
  onSkipped: (what: string) => void = () => undefined;

  constructor(livenessMs: number, handshakeMs: number) {
    this.#livenessMs = livenessMs;
    this.#handshakeMs = handshakeMs;
    this.ros = new ROSLIB.Ros({
      transportFactory: async (url: string) => {
        const socket = new SupervisedSocket(
          url,
          this.#handshakeMs,
          (opened) => this.#supervise(opened),
          (what) => this.onSkipped(what),
        );
        this.#socket = socket;
        socket.socket.on('pong', (data: Buffer) => {
          this.#silentMs = 0;
          const key = data.toString();
          if (key === '') this.#asking = false;
          this.#roundTrips.get(key)?.();
          this.#roundTrips.delete(key);
        });
        socket.socket.on('close', () => this.#unsupervise(socket));
        return socket;
      },
    });
  }

  #supervise(socket: SupervisedSocket): void {
    this.#silentMs = 0;
    this.#lastLook = performance.now();
    clearInterval(this.#pinger);
    // Pings go out five times per deadline; the silence is looked at every 10 ms, so a link is down at
    // most 10 ms after its last answer is older than the deadline. Silence counts only while this thread
    // runs: after a stall of its own, timers run before the socket's waiting answers are read, and a
    // bridge that answered meanwhile must not be declared dead for it.
    const every = Math.max(10, Math.floor(this.#livenessMs / 5));
    // Paced by the clock, not by this timer's looks (every caller looks too: a busy one would leave them
    // microseconds apart and the bridge unasked). One question at a time: a stopped bridge that runs again
    // answers each waiting ping before the last words behind them, and its second answer to the dropped
    // socket fails and ends the connection (Tornado aborts on a failed pong), the last words unread.
    this.#asking = false;
    let lastPing = -Infinity;
    this.#pinger = setInterval(() => {
      if (this.#look(socket)) return;
      const now = performance.now();
      if (!this.#asking && now - lastPing >= every && socket.isOpen()) {
        lastPing = now;
        this.#asking = true;
        socket.socket.ping();
      }
    }, LOOK_MS);
    this.#pinger.unref();
  }

  /**
   * One look at the silence: the time since the last look counts (a stall of this thread only up to
   * {@link OWN_STALL_MS}), and a link silent past its deadline is declared missed and dropped here (last
   * words, the link down, its socket dropped, a reconnection). True when it was.
   */
  #look(socket: SupervisedSocket): boolean {
    const now = performance.now();
    const gap = now - this.#lastLook;
    this.#lastLook = now;
    if (gap > OWN_STALL_MS) {
      this.onOwnStall(gap);
      this.#silentMs += OWN_STALL_MS;
    } else this.#silentMs += gap;
    const silent = this.#silentMs;
    if (silent <= this.#livenessMs) return false;
    // Unsupervised first: whatever the last words' listeners ask of the link finds it down, once.
    this.#unsupervise(socket);
    this.onMissed(silent);
    socket.kill();
    return true;
  }

  #unsupervise(socket: SupervisedSocket): void {
    if (this.#socket !== socket) return;
    clearInterval(this.#pinger);
    this.#pinger = undefined;
  }

  /**
   * Open, supervised, and answering pings within the deadline (silence counted while this thread runs).
   * Asking is a look: a deadline that passed since the supervisor's last one is acted on at once, never
   * merely reported, so no caller finds the link down while it stays open and unsupervised — a bridge
   * answering a moment later would otherwise keep it up with a refused command's predecessor last on it.
   */
  get live(): boolean {
    const socket = this.#socket;
    if (!socket || this.#pinger === undefined || !this.ros.isConnected) return false;
    return !this.#look(socket);
  }

  /**
   * One ping answered within the deadline (the transport asks only while the link is live). The deadline
   * is counted while this thread runs: a timer that fires late found this thread stalled, and the answer
   * may wait unread (or the question unsent), so the bridge gets a fresh deadline, measured awake.
   */
  roundTrip(): Promise<void> {
    const socket = this.#socket!;
    const key = `rt${++nextId}`;
    return new Promise((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout>;
      const arm = () => {
        const due = performance.now() + this.#livenessMs;
        timer = setTimeout(() => {
          if (!this.#roundTrips.has(key)) return;
          if (performance.now() - due > OWN_STALL_MS) return arm();
          this.#roundTrips.delete(key);
          reject(new Error(`no answer to a ping within ${this.#livenessMs} ms`));
        }, this.#livenessMs);
        timer.unref();
      };
      arm();
      this.#roundTrips.set(key, () => {
        clearTimeout(timer);
        resolve();
      });
      socket.socket.ping(key);
    });
  }

  /** Drops the connection at once (nothing buffered is sent) and stops supervising it. */
  kill(): void {
    const socket = this.#socket;
    if (socket) this.#unsupervise(socket);
    socket?.kill();
  }

  close(): void {
    const socket = this.#socket;
    if (socket) this.#unsupervise(socket);
    this.ros.close();
  }
}

/** Opens a link within `timeoutMs`, retrying while the bridge refuses (it may be restarting). */
async function openLink(url: string, livenessMs: number, timeoutMs: number): Promise<BridgeLink> {
  const deadline = performance.now() + timeoutMs;
  let wait = BACKOFF_FIRST_MS / 2;
  let last: string;
  for (;;) {
    const link = new BridgeLink(livenessMs, timeoutMs);
    const left = deadline - performance.now();
    // Settled by the first of: the connection, the close of a failed attempt (its error event adds nothing,
    // and roslib's emitter, eventemitter3, needs no listener for it), the bound, or a URL no socket can be
    // made for.
    const outcome = await new Promise<true | string | Error>((resolve) => {
      const timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), Math.max(0, left));
      const settle = (value: true | string | Error) => {
        clearTimeout(timer);
        resolve(value);
      };
      link.ros.once('connection', () => settle(true));
      link.ros.once('close', () => settle('connection refused or closed'));
      link.ros.connect(url).catch((error: Error) => settle(error));
    });
    if (outcome === true) return link;
    link.kill();
    if (outcome instanceof Error) {
      // Retrying cannot help: the URL is not one a socket can be opened to.
      throw HardwareErrors.error('TRANSPORT_FAILED.rosbridgeOpen', { url, reason: outcome.message });
    }
    last = outcome;
    if (performance.now() + wait >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, wait));
    wait = Math.min(wait * 2, BACKOFF_MAX_MS);
  }
  throw HardwareErrors.error('TRANSPORT_FAILED.rosbridgeUnreachable', { url, timeoutMs, last });
}

/**
 * A {@link RobotTransport} over rosbridge (protocol v2) with the roslib client: for a runtime on a
 * machine without ROS 2 that reaches a robot running `rosbridge_server`.
 *
 * - **Supervised**: the bridge is pinged every fifth of the liveness deadline; a link whose pings go
 *   unanswered past it (a frozen bridge, a dead network) counts as down at once: nothing more is written,
 *   the socket is dropped with whatever it still buffers, {@link onLink} listeners hear it.
 * - **Survives restarts**: it reconnects with backoff and re-subscribes and re-advertises; while it is down
 *   it refuses to publish: motion is never queued to burst out later. Only messages published with
 *   `queueWhileDown` (replies, episode events, log lines) wait in a bounded queue (at most 100, none older
 *   than 5 s by default; see {@link RosbridgeOptions.outageQueue}) and go out in order on reconnection; a
 *   service answer never does, since rosbridge ties a call to the connection that carried it
 *   (`capabilities/advertise_service.py`: a new connection answers an old ID with "unrecognized id"). An
 *   outage logs one line when it starts, one when it ends (with what the queue dropped), and a summary
 *   every 30 s while it lasts.
 * - **Start-up** retries within `connectTimeoutMs`, so a bridge restarting at that moment delays it.
 * - **Action goals on connections of their own**: rosbridge runs a goal on its connection's incoming queue
 *   (with `send_action_goals_in_new_thread = false`, its default), which holds every later op of that
 *   connection until the goal ends; a goal here gets its own connection, and is cancelled from this one.
 *   A goal with no feedback or result within `goalAcceptMs` is rejected (Nav2 absent, a goal refused).
 * - **A cancel before the bridge holds the goal is kept**: rosbridge drops a `cancel_action_goal` that comes
 *   before the action server accepted the goal (its handle does not exist yet) and says nothing; the first
 *   feedback or result is the first sign it exists (`ActionGoal.known`), and a cancel asked before is sent
 *   again then.
 * - rosbridge never sends `status` operations (errors stay in the bridge's log), so a failed call is seen
 *   as the `service_response` with `result: false` it sends, and a refused subscription not at all: the
 *   runtime reports a sensor that stays silent.
 */
export class RosbridgeTransport implements RobotTransport {
  readonly name: string;
  readonly #url: string;
  readonly #connectTimeoutMs: number;
  readonly #livenessMs: number;
  readonly #goalAcceptMs: number;
  readonly #outageSummaryMs: number;
  readonly #log: (message: string) => void;
  /** Written on a connection declared down for silence, before it is dropped (the safety path's zero). */
  #lastWords: { topic: string; type: string; message: () => RosMessage } | undefined;
  /** The log for lines a peer's input causes: bounded, whatever the peer sends. */
  readonly #peerLog: LimitedLog;
  #link: BridgeLink | undefined;
  readonly #publishers = new Map<string, RosTopic>();
  readonly #services = new Map<string, { type: string; listener: (request?: unknown) => void }>();
  readonly #goals = new Set<BridgeLink>();
  readonly #linkListeners = new Set<(state: LinkState) => void>();
  #state: LinkState = { up: false, since: Date.now(), why: 'not connected yet' };
  #closed = false;
  #backoff = BACKOFF_FIRST_MS;
  #attempts = 0;
  #reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  #summaryTimer: ReturnType<typeof setInterval> | undefined;
  readonly #outageQueue: { readonly maxMessages: number; readonly maxAgeMs: number };
  /** Non-motion messages waiting for the link, oldest first, and how many were dropped since it went down. */
  #outbox: Queued[] = [];
  #dropped = { old: 0, over: 0 };
  /** Own stalls since they were last said. */
  #stalls: { count: number; longest: number; saidAt?: number } = { count: 0, longest: 0 };
  /** The ROS graph through rosapi, which rosbridge's standard launch file starts beside the bridge. */
  readonly graph: RosGraph = rosapiGraph(this, GRAPH_TIMEOUT_MS);

  constructor(
    url: string,
    connectTimeoutMs = 5000,
    log: (message: string) => void = (m) => process.stderr.write(`mira: ${m}\n`),
    options: RosbridgeOptions = {},
  ) {
    this.#url = url;
    this.#connectTimeoutMs = connectTimeoutMs;
    this.#livenessMs = options.livenessMs ?? DEFAULT_LIVENESS_MS;
    this.#goalAcceptMs = options.goalAcceptMs ?? DEFAULT_GOAL_ACCEPT_MS;
    this.#outageSummaryMs = options.outageSummaryMs ?? DEFAULT_OUTAGE_SUMMARY_MS;
    this.#outageQueue = options.outageQueue ?? DEFAULT_OUTAGE_QUEUE;
    this.#log = log;
    this.#peerLog = new LimitedLog(log, options.peerLogLimit);
    this.name = `rosbridge ${url}`;
  }

  /** True while the bridge connection is up and answering within the deadline. */
  get connected(): boolean {
    return !this.#closed && this.#state.up && Boolean(this.#link?.live);
  }

  link(): LinkState {
    if (this.#state.up && !this.connected) return { up: false, since: Date.now(), why: 'no answer to pings' };
    return this.#state;
  }

  onLink(listener: (state: LinkState) => void): () => void {
    this.#linkListeners.add(listener);
    return () => this.#linkListeners.delete(listener);
  }

  roundTrip(): Promise<void> {
    if (!this.connected || !this.#link) return Promise.reject(new Error(`${this.name}: the link is down`));
    return this.#link.roundTrip();
  }

  #setState(state: LinkState): void {
    this.#state = state;
    for (const listener of [...this.#linkListeners]) {
      try {
        listener(state);
      } catch (error) {
        this.#log(`${this.name}: a link listener failed: ${(error as Error).message}`);
      }
    }
  }

  #requireConnected(what: string): RosConnection {
    if (this.#closed || !this.#link)
      throw HardwareErrors.error('TRANSPORT_FAILED.closedNotSent', { name: this.name, what });
    if (!this.connected) {
      throw HardwareErrors.error('TRANSPORT_FAILED.notConnectedNotSent', {
        name: this.name,
        why: this.link().why ?? 'reconnecting',
        what,
      });
    }
    return this.#link.ros;
  }

  async connect(): Promise<void> {
    if (this.#link) return;
    const link = await openLink(this.#url, this.#livenessMs, this.#connectTimeoutMs);
    if (this.#closed) {
      link.close();
      return;
    }
    this.#link = link;
    const ros = link.ros;
    this.#state = { up: true, since: Date.now() };
    link.onMissed = (silentMs) => {
      this.#sayLastWords(link);
      this.#down(`no answer to pings for ${Math.round(silentMs)} ms (a frozen bridge or a dead network)`);
    };
    link.onOwnStall = (stalledMs) => this.#ownStall(stalledMs);
    link.onSkipped = (what) => this.#peerLog.say('skipped', `${this.name}: ${what}`);
    // From here on an error (an undecodable frame, say) is logged and skipped while the link is up, and a
    // lost connection is re-established; only close() ends it.
    ros.on('error', (event) => {
      if (this.#state.up)
        this.#peerLog.say('undecodable', `${this.name}: ${describeRosEvent(event)}; the connection stays`);
    });
    ros.on('close', () => {
      if (this.#closed) return;
      this.#down('connection lost');
      this.#scheduleReconnect();
    });
    ros.on('connection', () => {
      if (this.#closed) return;
      const downMs = Date.now() - this.#state.since;
      this.#backoff = BACKOFF_FIRST_MS;
      clearInterval(this.#summaryTimer);
      this.#summaryTimer = undefined;
      for (const [service, { type }] of this.#services)
        ros.callOnConnection({ op: 'advertise_service', type, service });
      this.#log(
        `${this.name}: reconnected after ${(downMs / 1000).toFixed(1)} s (${this.#attempts} attempt${this.#attempts === 1 ? '' : 's'}); subscriptions and advertisements restored`,
      );
      this.#attempts = 0;
      this.#setState({ up: true, since: Date.now() });
      // After this event's other listeners: roslib re-advertises the topics in them, and a restarted bridge
      // knows a topic's type only from its advertisement.
      queueMicrotask(() => this.#flush());
    });
  }

  setLastWords(topic: string, type: string, message: () => RosMessage): void {
    this.#lastWords = { topic, type, message };
  }

  /**
   * The last words on a link about to be dropped for silence, written while its socket is still open: a
   * frozen bridge that resumes reads them right behind whatever it had not read (what is in its socket
   * cannot be taken back). Only on a topic this connection published on: otherwise nothing is waiting there.
   */
  #sayLastWords(link: BridgeLink): void {
    const last = this.#lastWords;
    const publisher = last && this.#publishers.get(last.topic);
    if (!last || !publisher || !link.ros.isConnected) return;
    try {
      publisher.publish(last.message());
    } catch (error) {
      this.#log(`${this.name}: the last words on ${last.topic} could not be written: ${(error as Error).message}`);
    }
  }

  /**
   * The link is down: said once, listeners told. Its socket is gone already: closed, or dropped with what
   * it still held by the supervisor that found it silent.
   */
  #down(why: string): void {
    if (!this.#state.up) return;
    this.#setState({ up: false, since: Date.now(), why });
    this.#log(`${this.name}: ${why}; sensors go stale and commands are refused until it is back`);
    this.#summaryTimer = setInterval(() => {
      const s = Math.round((Date.now() - this.#state.since) / 1000);
      this.#log(`${this.name}: still down after ${s} s (${this.#attempts} reconnect attempts); retrying`);
    }, this.#outageSummaryMs);
    this.#summaryTimer.unref();
  }

  /**
   * This thread stalled: said as the runtime's own stall (the link is judged apart, on its answers), the
   * first at once, then at most every {@link OWN_STALL_REPORT_MS} with how many and the longest. Only
   * stalls as long as the liveness deadline are said: shorter ones are a loaded machine's daily weather.
   */
  #ownStall(stalledMs: number): void {
    if (stalledMs < this.#livenessMs) return;
    const stalls = this.#stalls;
    stalls.count += 1;
    stalls.longest = Math.max(stalls.longest, stalledMs);
    const now = performance.now();
    if (stalls.saidAt !== undefined && now - stalls.saidAt < OWN_STALL_REPORT_MS) return;
    const many =
      stalls.count === 1
        ? `stalled ${Math.round(stalledMs)} ms`
        : `stalled ${stalls.count} times (the longest ${Math.round(stalls.longest)} ms)`;
    this.#log(
      `${this.name}: this runtime's own thread ${many} — a busy process or machine, not the link; ` +
        'the link is judged on the answers it reads while it runs',
    );
    this.#stalls = { count: 0, longest: 0, saidAt: now };
  }

  #scheduleReconnect(): void {
    if (this.#closed || this.#reconnectTimer) return;
    const wait = this.#backoff;
    this.#backoff = Math.min(this.#backoff * 2, BACKOFF_MAX_MS);
    // Scheduled only by the close of the link's connection, and cleared by close().
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = undefined;
      this.#attempts++;
      // A failed attempt closes again, and the close handler schedules the next one.
      this.#link!.ros.connect(this.#url).catch(() => this.#scheduleReconnect());
    }, wait);
    this.#reconnectTimer.unref();
  }

  subscribe(topic: string, type: string, handler: (message: RosMessage) => void, qos?: QosProfile): () => void {
    if (!this.#link || this.#closed) throw HardwareErrors.error('TRANSPORT_FAILED.notConnected', { name: this.name });
    const t = new ROSLIB.Topic({
      ros: this.#link.ros,
      name: topic,
      messageType: type,
      // rosbridge options, not ROS QoS: depth is the subscriber's history, not the bridge's throttle buffer.
      queue_length: qos?.bridge?.queue_length ?? 0,
      throttle_rate: qos?.bridge?.throttle_rate ?? 0,
      compression: qos?.bridge?.compression ?? 'none',
      // roslib re-subscribes on the next connection after a close.
      reconnect_on_close: true,
    });
    // Nothing from a link past its deadline counts as fresh.
    const live = (message: RosMessage) => {
      if (this.connected) handler(message);
    };
    t.subscribe(live);
    return () => t.unsubscribe(live);
  }

  async publish(
    topic: string,
    type: string,
    message: RosMessage,
    _qos?: QosProfile,
    options: PublishOptions = {},
  ): Promise<void> {
    if (options.queueWhileDown && !this.#closed && this.#link && (!this.connected || this.#outbox.length > 0)) {
      // Behind what waits already, so the order holds.
      this.#outbox.push({ topic, type, message, at: performance.now() });
      this.#prune();
      return;
    }
    this.#publisher(topic, type, `the message on ${topic}`).publish(message);
  }

  /** Drops from the outage queue what is too old, then the oldest beyond the count. */
  #prune(): void {
    const { maxMessages, maxAgeMs } = this.#outageQueue;
    const now = performance.now();
    while (this.#outbox.length > 0 && now - this.#outbox[0]!.at > maxAgeMs) {
      this.#outbox.shift();
      this.#dropped.old += 1;
    }
    while (this.#outbox.length > maxMessages) {
      this.#outbox.shift();
      this.#dropped.over += 1;
    }
  }

  /**
   * Sends what waited out the outage, in order, and says once what was dropped. Said here, not when it
   * was dropped: the line is itself a log line, which would join the queue it speaks of.
   */
  #flush(): void {
    if (!this.connected) return;
    this.#prune();
    const queued = this.#outbox.splice(0);
    const { old, over } = this.#dropped;
    this.#dropped = { old: 0, over: 0 };
    for (const { topic, type, message } of queued)
      this.#publisher(topic, type, `the message on ${topic}`).publish(message);
    if (old + over > 0) {
      const { maxMessages, maxAgeMs } = this.#outageQueue;
      const why = [
        old > 0 ? `${old} older than ${maxAgeMs / 1000} s` : '',
        over > 0 ? `${over} beyond the ${maxMessages} kept` : '',
      ].filter(Boolean);
      this.#log(
        `${this.name}: ${old + over} message${old + over === 1 ? '' : 's'} (replies, events, log lines) published during the outage ${old + over === 1 ? 'was' : 'were'} dropped (${why.join(', ')}); ${queued.length} sent now, in order`,
      );
    }
  }

  async advertise(topic: string, type: string): Promise<void> {
    this.#publisher(topic, type, `the advertisement of ${topic}`);
  }

  /** The topic's publisher, advertised when first asked for (and again on every reconnection). */
  #publisher(topic: string, type: string, what: string): RosTopic {
    const ros = this.#requireConnected(what);
    let t = this.#publishers.get(topic);
    if (!t) {
      t = new ROSLIB.Topic({ ros, name: topic, messageType: type, reconnect_on_close: true });
      t.advertise();
      this.#publishers.set(topic, t);
    }
    return t;
  }

  advertiseService(
    service: string,
    type: string,
    handler: (request: RosMessage) => RosMessage | Promise<RosMessage>,
  ): () => void {
    if (!this.#link || this.#closed) throw HardwareErrors.error('TRANSPORT_FAILED.notConnected', { name: this.name });
    const ros = this.#link.ros;
    const listener = (event?: unknown) => {
      const request = event as { op?: string; id?: string; args?: RosMessage };
      if (request.op !== 'call_service') return;
      void (async () => {
        try {
          const values = await handler(request.args ?? {});
          if (this.connected)
            ros.callOnConnection({ op: 'service_response', service, id: request.id, values, result: true });
        } catch (error) {
          // ROS 2 needs an object in values: a failed call answers {} with result false; the cause goes to the log.
          this.#peerLog.say(
            `service ${service}`,
            `${this.name}: service ${service} failed: ${(error as Error).stack ?? String(error)}`,
          );
          if (this.connected)
            ros.callOnConnection({ op: 'service_response', service, id: request.id, values: {}, result: false });
        }
      })();
    };
    ros.on(service, listener);
    this.#services.set(service, { type, listener });
    if (ros.isConnected) ros.callOnConnection({ op: 'advertise_service', type, service });
    return () => {
      ros.off(service, listener);
      this.#services.delete(service);
      if (this.connected) ros.callOnConnection({ op: 'unadvertise_service', service });
    };
  }

  callService(service: string, type: string, request: RosMessage, timeoutMs: number): Promise<RosMessage> {
    let ros: RosConnection;
    try {
      ros = this.#requireConnected(`the call to ${service}`);
    } catch (error) {
      return Promise.reject(error);
    }
    const id = `call_service:${service}:mira${++nextId}`;
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        ros.off(id, onResponse);
        ros.off('close', onClose);
      };
      // rosbridge answers a call it cannot make (no such service, a bad request) with result: false and
      // the reason as a string in values (capabilities/call_service.py), after waiting for the service.
      const onResponse = (event?: unknown) => {
        const response = event as { result?: boolean; values?: unknown };
        done();
        if (response.result === false) {
          reject(
            HardwareErrors.error('TRANSPORT_FAILED.serviceFailed', {
              name: this.name,
              service,
              reason: describeRosEvent(response.values),
            }),
          );
        } else resolve((response.values ?? {}) as RosMessage);
      };
      const onClose = () => {
        done();
        reject(HardwareErrors.error('TRANSPORT_FAILED.closedDuringCall', { name: this.name, service }));
      };
      const timer = setTimeout(() => {
        done();
        reject(HardwareErrors.error('SERVICE_TIMEOUT.serviceNoAnswer', { name: this.name, service, timeoutMs }));
      }, timeoutMs);
      ros.once(id, onResponse);
      ros.once('close', onClose);
      // The bridge gets the same bound (seconds), so it stops waiting when Mira does.
      ros.callOnConnection({ op: 'call_service', id, service, type, args: request, timeout: timeoutMs / 1000 });
    });
  }

  async sendActionGoal(
    action: string,
    type: string,
    goal: RosMessage,
    onFeedback: (feedback: RosMessage) => void,
  ): Promise<ActionGoal> {
    this.#requireConnected(`the goal to ${action}`);
    // A connection of the goal's own: rosbridge holds a connection's other ops while its goal runs.
    const link = await openLink(this.#url, this.#livenessMs, this.#connectTimeoutMs);
    if (this.#closed) {
      link.close();
      throw HardwareErrors.error('TRANSPORT_FAILED.closedGoalNotSent', { name: this.name });
    }
    link.onSkipped = (what) => this.#peerLog.say('skipped', `${this.name}: ${what}`);
    this.#goals.add(link);
    const ros = link.ros;
    const id = `send_action_goal:${action}:mira-${PROCESS_TAG}-${++nextId}`;
    let settled = false;
    // The bridge holds the goal's handle only once the action server accepted it (internal/actions.py
    // `goal_response_cb`); a cancel before that is dropped (`cancel_goal` returns while the handle is None),
    // and the client is told of the acceptance by nothing but the goal's first feedback or result.
    let known = false;
    let cancelAsked = false;
    let markKnown!: () => void;
    const knownPromise = new Promise<void>((resolve) => (markKnown = resolve));
    const firstWord = () => {
      if (known) return;
      known = true;
      markKnown();
      // A cancel asked before may have been dropped: once more, now that it reaches the goal.
      if (cancelAsked && !settled) this.#cancelGoal(id, action);
    };
    const outcome = new Promise<ActionOutcome>((resolve, reject) => {
      const finish = () => {
        settled = true;
        clearTimeout(acceptTimer);
        this.#goals.delete(link);
        link.close();
      };
      // Cleared by finish(): it fires only while the goal has had no word.
      const acceptTimer = setTimeout(() => {
        finish();
        this.#cancelGoal(id, action);
        resolve({
          status: 'rejected',
          result: {},
          error: `no feedback or result within ${this.#goalAcceptMs} ms (no action server on ${action}, or the bridge refused the goal); cancelled`,
        });
      }, this.#goalAcceptMs);
      acceptTimer.unref();
      ros.on(id, (event?: unknown) => {
        if (settled) return;
        const op = event as { op?: string; values?: unknown; status?: number; result?: boolean };
        clearTimeout(acceptTimer);
        if (op.op === 'action_feedback') {
          firstWord();
          return onFeedback((op.values ?? {}) as RosMessage);
        }
        if (op.op !== 'action_result') return;
        finish();
        firstWord();
        // rosbridge answers result: false (with the reason in values) when the goal could not be run at all.
        if (op.result === false) return resolve({ status: 'rejected', result: {}, error: describeRosEvent(op.values) });
        resolve({ status: goalStatus(op.status), result: (op.values ?? {}) as RosMessage });
      });
      ros.once('close', () => {
        if (settled) return;
        finish();
        reject(HardwareErrors.error('TRANSPORT_FAILED.closedDuringGoal', { name: this.name, action }));
      });
    });
    ros.callOnConnection({ op: 'send_action_goal', id, action, action_type: type, args: goal, feedback: true });
    return {
      outcome,
      cancel: async () => {
        if (settled) return;
        this.#requireConnected(`the cancellation of ${action}`);
        this.#cancelGoal(id, action);
        if (!known) cancelAsked = true;
      },
      id,
      known: knownPromise,
    };
  }

  /**
   * Cancels a goal another connection sent, by its rosbridge ID (the bridge looks it up among every
   * connection's goals). rosbridge answers nothing, and nothing for an ID it does not know (a bridge that
   * restarted since): the goal's own outcome is the word on it.
   */
  async cancelGoal(action: string, id: string): Promise<void> {
    this.#requireConnected(`the cancellation of ${action}`);
    this.#cancelGoal(id, action);
  }

  /**
   * `cancel_action_goal` on the runtime's connection: rosbridge finds the goal by its ID among every
   * connection's goals (capabilities/send_action_goal.py `client_handler_list`), so the cancel is not
   * held behind the goal on the goal's own connection.
   */
  #cancelGoal(id: string, action: string): void {
    if (this.connected) this.#link!.ros.callOnConnection({ op: 'cancel_action_goal', id, action });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    const wasConnected = this.connected;
    this.#closed = true;
    clearTimeout(this.#reconnectTimer);
    clearInterval(this.#summaryTimer);
    this.#peerLog.flush();
    if (wasConnected) for (const t of this.#publishers.values()) t.unadvertise();
    this.#publishers.clear();
    this.#services.clear();
    this.#outbox = [];
    for (const goal of this.#goals) goal.close();
    this.#goals.clear();
    this.#link?.close();
    this.#linkListeners.clear();
  }
}

/** action_msgs/msg/GoalStatus: 4 succeeded, 5 canceled, 6 aborted (anything else ended it too: aborted). */
export function goalStatus(code: unknown): ActionOutcome['status'] {
  return code === 4 ? 'succeeded' : code === 5 ? 'canceled' : 'aborted';
}

/** What a bridge or a socket sent, in words: an error's message, a string, or the value as JSON. */
export function describeRosEvent(event: unknown): string {
  if (typeof event === 'string') return event;
  if (event && typeof event === 'object' && 'message' in event) return String((event as { message: unknown }).message);
  try {
    return JSON.stringify(event) ?? 'an error';
  } catch {
    return 'an error';
  }
}
