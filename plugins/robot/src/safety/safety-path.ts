import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { crossThreadNow, workerEntry } from '@mira/core';
import { HardwareErrors } from '../errors.js';
import type {
  FromSafety,
  NavigationState,
  SafetyDriveConfig,
  SafetyTransportSpec,
  SafetyWorkerData,
  StopCause,
  StopDelivery,
  ToSafety,
} from './protocol.js';

/** How often the runtime tells its safety path it is alive. */
export const HEARTBEAT_MS = 50;

type Reply = Extract<FromSafety, { type: 'reply' }>;
type Request = ToSafety extends infer T ? (T extends { id: number } ? Omit<T, 'id'> : never) : never;

/** What the safety path tells the runtime on its own. */
export interface SafetyEvents {
  /**
   * The worker stopped the robot itself (a stall is reported once the runtime is back), or a drive ended
   * because its link failed; `delivery` says whether the zero velocity reached a live link.
   */
  stopped(why: StopCause, stalledMs?: number, delivery?: StopDelivery): void;
  /** The e-stop topic changed. */
  eStop(active: boolean): void;
  /** The e-stop topic became fresh or stale (fail closed: stale refuses motion). */
  eStopFresh(fresh: boolean): void;
  log(message: string): void;
}

/**
 * The runtime's handle on its safety path: a worker thread with its own
 * transport connection that owns the velocity commands. `drive` and `stop`
 * are answered by the worker; heartbeats from this thread keep a drive alive.
 */
export class SafetyPath {
  readonly #worker: Worker;
  readonly #pending = new Map<number, (reply: Reply) => void>();
  readonly #heartbeat: ReturnType<typeof setInterval>;
  #nextId = 1;
  #closed = false;

  private constructor(worker: Worker, events: SafetyEvents) {
    this.#worker = worker;
    worker.on('message', (message: FromSafety) => {
      if (message.type === 'reply') {
        this.#pending.get(message.id)?.(message);
        this.#pending.delete(message.id);
      } else if (message.type === 'stopped') events.stopped(message.why, message.stalledMs, message.delivery);
      else if (message.type === 'e_stop') events.eStop(message.active);
      else if (message.type === 'e_stop_fresh') events.eStopFresh(message.fresh);
      else if (message.type === 'log') events.log(message.message);
    });
    worker.on('error', (error) => events.log(`safety: the safety path failed: ${error.stack ?? error.message}`));
    this.#heartbeat = setInterval(() => this.#post({ type: 'heartbeat' }), HEARTBEAT_MS);
    this.#heartbeat.unref();
    worker.unref();
  }

  /**
   * Starts the worker, which connects its own transport (from `transport`)
   * and subscribes the e-stop topic. @throws MiraError when it cannot connect.
   */
  static async start(
    transport: SafetyTransportSpec,
    drive: SafetyDriveConfig,
    events: SafetyEvents,
  ): Promise<SafetyPath> {
    const data: SafetyWorkerData = { transport, drive };
    const worker = new Worker(workerEntry(import.meta.url, 'worker'), { workerData: data });
    const first = await new Promise<FromSafety>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the safety worker exited (${code}) before it was ready`)));
    }).catch((error: Error) => ({ type: 'failed' as const, error: error.message }));
    if (first.type !== 'ready') {
      await worker.terminate();
      throw HardwareErrors.error('TRANSPORT_FAILED.safetyPathConnect', {
        reason: first.type === 'failed' ? first.error : 'no answer',
      });
    }
    worker.removeAllListeners('error');
    worker.removeAllListeners('exit');
    return new SafetyPath(worker, events);
  }

  #post(message: ToSafety): void {
    if (!this.#closed) this.#worker.postMessage(message);
  }

  #request(message: Request): Promise<Reply> {
    if (this.#closed) {
      return Promise.resolve({
        type: 'reply',
        id: 0,
        ok: false,
        reason: 'transport_error',
        error: 'the safety path is closed',
      });
    }
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.#worker.postMessage({ ...message, id } as ToSafety);
    });
  }

  /**
   * Starts (or replaces) a drive; the worker checks the limits, the e-stop and the stop fence (a stop after
   * `askedAt`, on `crossThreadNow()`'s clock, refuses it) and answers whether it published.
   */
  drive(linear: number, angular: number, durationS: number, askedAt = crossThreadNow()): Promise<Reply> {
    return this.#request({ type: 'drive', linear, angular, durationS, askedAt });
  }

  /**
   * Asks to send a navigation goal asked at `askedAt`: refused when a stop came after it was asked;
   * otherwise the worker holds it as being sent, and a stop from then on cancels it once it runs.
   */
  sendingGoal(askedAt = crossThreadNow(), action?: string): Promise<Reply> {
    return this.#request({ type: 'goal', askedAt, ...(action === undefined ? {} : { action }) });
  }

  /**
   * Asks whether a motion service call asked at `askedAt` may go out: refused when a stop came after it was
   * asked, or while the e-stop is active or unheard or the link is down. Nothing is held: a call cannot be
   * cancelled, so no stop can reach it once it is sent.
   */
  fence(askedAt = crossThreadNow()): Promise<Reply> {
    return this.#request({ type: 'fence', askedAt });
  }

  /**
   * Tells the worker about Mira's navigation goal once sent: running (under its transport's name for it,
   * when there is one; `known` false while that name does not cancel it yet), known (the name cancels it
   * now), or ended. Its stops then cancel that goal, by name, and again once it is known.
   */
  navigating(state: NavigationState, goal?: string, known = true, action?: string): void {
    if (state === 'known') {
      if (goal !== undefined) this.#post({ type: 'goal_known', goal });
      return;
    }
    const of = action === undefined ? {} : { action };
    this.#post(
      state === 'ended'
        ? { type: 'navigating', active: false, ...of }
        : {
            type: 'navigating',
            active: true,
            ...(goal === undefined ? {} : { goal }),
            ...(known ? {} : { known }),
            ...of,
          },
    );
  }

  /** Zero velocity now, fencing off every motion asked before now; `delivery` says whether it reached a live link. */
  stop(why: string): Promise<Reply> {
    return this.#request({ type: 'stop', why, at: crossThreadNow() });
  }

  /**
   * Hands the worker a port on which a console line reader (another thread)
   * sends `stop` and `quit` as soon as they are typed.
   */
  listenToConsole(port: MessagePort): void {
    this.#worker.postMessage({ type: 'console', port }, [port]);
  }

  /** A fresh channel: one end for the worker (given here), the other for the console reader. */
  consolePort(): MessagePort {
    const { port1, port2 } = new MessageChannel();
    this.listenToConsole(port1);
    return port2;
  }

  /** Zero velocity, the worker's transport closed, the worker ended. Safe to call twice. */
  async close(): Promise<void> {
    if (this.#closed) return;
    clearInterval(this.#heartbeat);
    // A referenced timer keeps the process alive until the worker confirms (or the bound passes).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reply = await Promise.race([
      this.#request({ type: 'close' }),
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 2000))),
    ]);
    clearTimeout(timer);
    this.#closed = true;
    for (const resolve of this.#pending.values()) {
      resolve({ type: 'reply', id: 0, ok: false, reason: 'transport_error', error: 'the safety path closed' });
    }
    this.#pending.clear();
    await this.#worker.terminate();
    if (!reply) throw HardwareErrors.error('TRANSPORT_FAILED.safetyPathShutdown');
  }
}
