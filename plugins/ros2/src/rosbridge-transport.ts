import * as roslib from 'roslib';
import { MiraError } from '@mira/core';
import {
  HardwareErrorCodes,
  type ActionGoal,
  type ActionOutcome,
  type QosProfile,
  type RobotTransport,
  type RosMessage,
} from '@mira/robot';

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
};

/** Reconnection backoff: first wait, and the longest. */
const BACKOFF_FIRST_MS = 200;
const BACKOFF_MAX_MS = 5000;

/** A rosbridge `status` operation. */
interface StatusOp {
  readonly op: 'status';
  readonly level?: string;
  readonly msg?: string;
  readonly id?: string;
}

let nextId = 0;

/**
 * A {@link RobotTransport} over rosbridge (protocol v2) with the roslib
 * client: for a runtime on a machine without ROS 2 that reaches a robot
 * running `rosbridge_server`. It survives the bridge restarting: it
 * reconnects with backoff and re-subscribes and re-advertises; while it is
 * disconnected it refuses to publish (nothing is queued to burst out later)
 * and says so in the log.
 */
export class RosbridgeTransport implements RobotTransport {
  readonly name: string;
  readonly #url: string;
  readonly #connectTimeoutMs: number;
  readonly #log: (message: string) => void;
  #ros: RosConnection | undefined;
  readonly #publishers = new Map<string, RosTopic>();
  readonly #services = new Map<string, { type: string; listener: (request?: unknown) => void }>();
  #closed = false;
  #backoff = BACKOFF_FIRST_MS;
  #reconnectTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    url: string,
    connectTimeoutMs = 5000,
    log: (message: string) => void = (m) => process.stderr.write(`mira: ${m}\n`),
  ) {
    this.#url = url;
    this.#connectTimeoutMs = connectTimeoutMs;
    this.#log = log;
    this.name = `rosbridge ${url}`;
  }

  /** True while the bridge connection is up. */
  get connected(): boolean {
    return Boolean(this.#ros?.isConnected) && !this.#closed;
  }

  #requireConnected(what: string): RosConnection {
    if (this.#closed || !this.#ros)
      throw new MiraError(HardwareErrorCodes.TRANSPORT_FAILED, `${this.name}: closed; ${what} was not sent`);
    if (!this.#ros.isConnected) {
      throw new MiraError(
        HardwareErrorCodes.TRANSPORT_FAILED,
        `${this.name}: not connected (reconnecting); ${what} was not sent and is not queued`,
      );
    }
    return this.#ros;
  }

  async connect(): Promise<void> {
    if (this.#ros) return;
    const ros = new ROSLIB.Ros({});
    await new Promise<void>((resolve, reject) => {
      const fail = (why: string) => {
        clearTimeout(timer);
        ros.off('connection', opened);
        ros.off('error', errored);
        ros.close();
        reject(
          new MiraError(
            HardwareErrorCodes.TRANSPORT_FAILED,
            `cannot reach rosbridge at ${this.#url} (${why}); start rosbridge_server on the robot or fix [ros2] url`,
          ),
        );
      };
      const timer = setTimeout(() => fail(`no answer within ${this.#connectTimeoutMs} ms`), this.#connectTimeoutMs);
      const opened = () => {
        clearTimeout(timer);
        ros.off('error', errored);
        resolve();
      };
      const errored = () => fail('connection error');
      ros.once('connection', opened);
      ros.once('error', errored);
      ros.connect(this.#url).catch((error: Error) => fail(error.message));
    });
    this.#ros = ros;
    // From here on an error (an undecodable frame, say) is logged and skipped, and a lost
    // connection is re-established; only close() ends it.
    ros.on('error', (event) => this.#log(`${this.name}: ${describe(event)}; the connection stays`));
    ros.on('close', () => {
      if (this.#closed) return;
      this.#log(`${this.name}: connection lost; sensors go stale and commands are refused until it is back`);
      this.#scheduleReconnect();
    });
    ros.on('connection', () => {
      if (this.#closed) return;
      this.#backoff = BACKOFF_FIRST_MS;
      this.#log(`${this.name}: reconnected; subscriptions and advertisements restored`);
      for (const [service, { type }] of this.#services)
        ros.callOnConnection({ op: 'advertise_service', type, service });
    });
    ros.on('status', (event) => {
      const status = event as StatusOp;
      this.#log(`${this.name}: bridge ${status.level ?? 'status'}: ${status.msg ?? ''}`);
    });
  }

  #scheduleReconnect(): void {
    if (this.#closed || this.#reconnectTimer) return;
    const wait = this.#backoff;
    this.#backoff = Math.min(this.#backoff * 2, BACKOFF_MAX_MS);
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = undefined;
      if (this.#closed || !this.#ros || this.#ros.isConnected) return;
      this.#ros.connect(this.#url).catch((error: Error) => {
        this.#log(`${this.name}: reconnect failed (${error.message}); retrying`);
        this.#scheduleReconnect();
      });
    }, wait);
    this.#reconnectTimer.unref?.();
  }

  subscribe(topic: string, type: string, handler: (message: RosMessage) => void, qos?: QosProfile): () => void {
    if (!this.#ros || this.#closed)
      throw new MiraError(HardwareErrorCodes.TRANSPORT_FAILED, `${this.name}: not connected`);
    const t = new ROSLIB.Topic({
      ros: this.#ros,
      name: topic,
      messageType: type,
      // rosbridge options, not ROS QoS: depth is the subscriber's history, not the bridge's throttle buffer.
      queue_length: qos?.bridge?.queue_length ?? 0,
      throttle_rate: qos?.bridge?.throttle_rate ?? 0,
      compression: qos?.bridge?.compression ?? 'none',
      // roslib re-subscribes on the next connection after a close.
      reconnect_on_close: true,
    });
    t.subscribe(handler);
    return () => t.unsubscribe(handler);
  }

  async publish(topic: string, type: string, message: RosMessage): Promise<void> {
    const ros = this.#requireConnected(`the message on ${topic}`);
    let t = this.#publishers.get(topic);
    if (!t) {
      t = new ROSLIB.Topic({ ros, name: topic, messageType: type, reconnect_on_close: true });
      t.advertise();
      this.#publishers.set(topic, t);
    }
    t.publish(message);
  }

  advertiseService(
    service: string,
    type: string,
    handler: (request: RosMessage) => RosMessage | Promise<RosMessage>,
  ): () => void {
    if (!this.#ros || this.#closed)
      throw new MiraError(HardwareErrorCodes.TRANSPORT_FAILED, `${this.name}: not connected`);
    const ros = this.#ros;
    const listener = (event?: unknown) => {
      const request = event as { op?: string; id?: string; args?: RosMessage };
      if (request.op !== 'call_service') return;
      void (async () => {
        try {
          const values = await handler(request.args ?? {});
          if (ros.isConnected)
            ros.callOnConnection({ op: 'service_response', service, id: request.id, values, result: true });
        } catch (error) {
          // ROS 2 needs an object in values: a failed call answers {} with result false; the cause goes to the log.
          this.#log(`${this.name}: service ${service} failed: ${(error as Error).stack ?? String(error)}`);
          if (ros.isConnected)
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
      if (ros.isConnected) ros.callOnConnection({ op: 'unadvertise_service', service });
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
        ros.off(`status:${id}`, onStatus);
        ros.off('close', onClose);
      };
      const onResponse = (event?: unknown) => {
        const response = event as { result?: boolean; values?: unknown };
        done();
        if (response.result === false) {
          reject(
            new MiraError(
              HardwareErrorCodes.TRANSPORT_FAILED,
              `${this.name}: service ${service} failed: ${describe(response.values)}`,
            ),
          );
        } else resolve((response.values ?? {}) as RosMessage);
      };
      // The bridge says at once when the call cannot be made (unknown service, wrong type).
      const onStatus = (event?: unknown) => {
        const status = event as StatusOp;
        if (status.level !== 'error' && status.level !== 'warning') return;
        done();
        reject(
          new MiraError(
            HardwareErrorCodes.TRANSPORT_FAILED,
            `${this.name}: service ${service}: ${status.msg ?? 'refused by the bridge'}`,
          ),
        );
      };
      const onClose = () => {
        done();
        reject(
          new MiraError(
            HardwareErrorCodes.TRANSPORT_FAILED,
            `${this.name}: the connection closed during the call to ${service}`,
          ),
        );
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new MiraError(
            HardwareErrorCodes.SERVICE_TIMEOUT,
            `${this.name}: service ${service} did not answer within ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
      ros.once(id, onResponse);
      ros.on(`status:${id}`, onStatus);
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
    const ros = this.#requireConnected(`the goal to ${action}`);
    const id = `send_action_goal:${action}:mira${++nextId}`;
    const outcome = new Promise<ActionOutcome>((resolve, reject) => {
      const done = () => {
        ros.off(id, onOp);
        ros.off(`status:${id}`, onStatus);
        ros.off('close', onClose);
      };
      const onOp = (event?: unknown) => {
        const op = event as { op?: string; values?: unknown; status?: number; result?: boolean };
        if (op.op === 'action_feedback') return onFeedback((op.values ?? {}) as RosMessage);
        if (op.op !== 'action_result') return;
        done();
        // rosbridge answers result: false (with the reason in values) when the goal could not be run at all.
        if (op.result === false) return resolve({ status: 'rejected', result: {}, error: describe(op.values) });
        resolve({ status: goalStatus(op.status), result: (op.values ?? {}) as RosMessage });
      };
      const onStatus = (event?: unknown) => {
        const status = event as StatusOp;
        if (status.level !== 'error') return;
        done();
        resolve({ status: 'rejected', result: {}, error: status.msg ?? 'refused by the bridge' });
      };
      const onClose = () => {
        done();
        reject(
          new MiraError(
            HardwareErrorCodes.TRANSPORT_FAILED,
            `${this.name}: the connection closed while the goal to ${action} was running; the robot may still be pursuing it`,
          ),
        );
      };
      ros.on(id, onOp);
      ros.on(`status:${id}`, onStatus);
      ros.once('close', onClose);
    });
    ros.callOnConnection({ op: 'send_action_goal', id, action, action_type: type, args: goal, feedback: true });
    return {
      outcome,
      cancel: async () => {
        this.#requireConnected(`the cancellation of ${action}`).callOnConnection({
          op: 'cancel_action_goal',
          id,
          action,
        });
      },
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#reconnectTimer) clearTimeout(this.#reconnectTimer);
    if (this.#ros?.isConnected) for (const t of this.#publishers.values()) t.unadvertise();
    this.#publishers.clear();
    this.#services.clear();
    this.#ros?.close();
  }
}

/** action_msgs/msg/GoalStatus: 4 succeeded, 5 canceled, 6 aborted (anything else ended it too: aborted). */
export function goalStatus(code: unknown): ActionOutcome['status'] {
  return code === 4 ? 'succeeded' : code === 5 ? 'canceled' : 'aborted';
}

function describe(event: unknown): string {
  if (event instanceof Error) return event.message;
  if (typeof event === 'string') return event;
  if (event && typeof event === 'object' && 'message' in event) return String((event as { message: unknown }).message);
  try {
    return JSON.stringify(event) ?? 'an error';
  } catch {
    return 'an error';
  }
}
