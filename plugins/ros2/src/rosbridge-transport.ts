import * as roslib from 'roslib';
import { MiraError } from '@mira/core';
import { HardwareErrorCodes, type QosProfile, type RobotTransport, type RosMessage } from '@mira/robot';

// The subset of roslib this transport uses, declared here (roslib's own declarations
// import .ts files, which this project's compiler settings do not resolve).
interface RosConnection {
  on(event: 'connection' | 'error' | 'close', listener: (event?: unknown) => void): void;
  connect(url: string): void;
  close(): void;
}
interface RosTopic {
  subscribe(handler: (message: RosMessage) => void): void;
  unsubscribe(handler?: (message: RosMessage) => void): void;
  advertise(): void;
  unadvertise(): void;
  publish(message: RosMessage): void;
}
interface RosService {
  advertiseAsync(handler: (request: RosMessage) => Promise<RosMessage>): Promise<void>;
  unadvertise(): Promise<void>;
  callService(request: RosMessage, callback: (response: RosMessage) => void, failed: (error: string) => void): void;
}
const ROSLIB = roslib as unknown as {
  Ros: new (options: Record<string, unknown>) => RosConnection;
  Topic: new (options: {
    ros: RosConnection;
    name: string;
    messageType: string;
    queue_length?: number;
    reconnect_on_close?: boolean;
  }) => RosTopic;
  Service: new (options: { ros: RosConnection; name: string; serviceType: string }) => RosService;
};

/**
 * A {@link RobotTransport} over rosbridge (protocol v2) with the roslib
 * client: for a runtime on a machine without ROS 2 that reaches a robot
 * running `rosbridge_server`.
 */
export class RosbridgeTransport implements RobotTransport {
  readonly name: string;
  readonly #url: string;
  readonly #connectTimeoutMs: number;
  #ros: RosConnection | undefined;
  readonly #publishers = new Map<string, RosTopic>();
  #closed = false;

  constructor(url: string, connectTimeoutMs = 5000) {
    this.#url = url;
    this.#connectTimeoutMs = connectTimeoutMs;
    this.name = `rosbridge ${url}`;
  }

  #requireRos(): RosConnection {
    if (!this.#ros || this.#closed)
      throw new MiraError(HardwareErrorCodes.TRANSPORT_FAILED, `${this.name}: not connected`);
    return this.#ros;
  }

  async connect(): Promise<void> {
    if (this.#ros) return;
    const ros = new ROSLIB.Ros({});
    await new Promise<void>((resolve, reject) => {
      const fail = (why: string) => {
        clearTimeout(timer);
        ros.close();
        reject(
          new MiraError(
            HardwareErrorCodes.TRANSPORT_FAILED,
            `cannot reach rosbridge at ${this.#url} (${why}); start rosbridge_server on the robot or fix [ros2] url`,
          ),
        );
      };
      const timer = setTimeout(() => fail(`no answer within ${this.#connectTimeoutMs} ms`), this.#connectTimeoutMs);
      ros.on('connection', () => {
        clearTimeout(timer);
        resolve();
      });
      ros.on('error', () => fail('connection error'));
      ros.connect(this.#url);
    });
    this.#ros = ros;
  }

  subscribe(topic: string, type: string, handler: (message: RosMessage) => void, qos?: QosProfile): () => void {
    const t = new ROSLIB.Topic({
      ros: this.#requireRos(),
      name: topic,
      messageType: type,
      queue_length: qos?.depth ?? 0,
      reconnect_on_close: true,
    });
    t.subscribe(handler);
    return () => t.unsubscribe(handler);
  }

  async publish(topic: string, type: string, message: RosMessage): Promise<void> {
    let t = this.#publishers.get(topic);
    if (!t) {
      t = new ROSLIB.Topic({ ros: this.#requireRos(), name: topic, messageType: type });
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
    const s = new ROSLIB.Service({ ros: this.#requireRos(), name: service, serviceType: type });
    void s.advertiseAsync(async (request) => handler(request));
    return () => void s.unadvertise();
  }

  callService(service: string, type: string, request: RosMessage, timeoutMs: number): Promise<RosMessage> {
    const s = new ROSLIB.Service({ ros: this.#requireRos(), name: service, serviceType: type });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new MiraError(
              HardwareErrorCodes.SERVICE_TIMEOUT,
              `${this.name}: service ${service} did not answer within ${timeoutMs} ms`,
            ),
          ),
        timeoutMs,
      );
      s.callService(
        request,
        (response) => {
          clearTimeout(timer);
          resolve(response);
        },
        (error) => {
          clearTimeout(timer);
          reject(
            new MiraError(HardwareErrorCodes.TRANSPORT_FAILED, `${this.name}: service ${service} failed: ${error}`),
          );
        },
      );
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const t of this.#publishers.values()) t.unadvertise();
    this.#publishers.clear();
    this.#ros?.close();
  }
}
