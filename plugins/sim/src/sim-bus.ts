import { BroadcastChannel } from 'node:worker_threads';
import { HardwareErrors, type RobotTransport, type RosMessage } from '@mira/robot';

/**
 * What travels on a simulator's bus between threads: a message on a topic,
 * a subscription announcement, or a newcomer asking for announcements.
 */
export type BusFrame =
  | { readonly kind: 'msg'; readonly topic: string; readonly message: RosMessage }
  | { readonly kind: 'sub'; readonly topic: string }
  | { readonly kind: 'hello' };

/**
 * A connection to a simulator's bus from another thread (the safety path, a
 * test's independent subscriber): the same topics as the simulator's own
 * transport, over a `BroadcastChannel` named by the bus. Services are not
 * carried between threads.
 */
export class SimBusTransport implements RobotTransport {
  readonly name: string;
  readonly #bus: string;
  readonly #topics = new Map<string, Set<(message: RosMessage) => void>>();
  #channel: BroadcastChannel | undefined;
  #closed = false;

  constructor(bus: string) {
    this.#bus = bus;
    this.name = `sim bus ${bus}`;
  }

  async connect(): Promise<void> {
    if (this.#closed) throw HardwareErrors.error('TRANSPORT_FAILED.closed', { name: this.name });
    if (this.#channel) return;
    const channel = new BroadcastChannel(this.#bus);
    channel.unref();
    channel.onmessage = (event) => {
      const frame = (event as { data: BusFrame }).data;
      if (frame.kind === 'msg')
        for (const handler of [...(this.#topics.get(frame.topic) ?? [])]) handler(frame.message);
      else if (frame.kind === 'hello')
        for (const topic of this.#topics.keys()) channel.postMessage({ kind: 'sub', topic });
    };
    this.#channel = channel;
    for (const topic of this.#topics.keys()) channel.postMessage({ kind: 'sub', topic } satisfies BusFrame);
  }

  subscribe(topic: string, _type: string, handler: (message: RosMessage) => void): () => void {
    const set = this.#topics.get(topic) ?? new Set();
    this.#topics.set(topic, set);
    set.add(handler);
    this.#channel?.postMessage({ kind: 'sub', topic } satisfies BusFrame);
    return () => void set.delete(handler);
  }

  async publish(topic: string, _type: string, message: RosMessage): Promise<void> {
    if (!this.#channel || this.#closed) {
      throw HardwareErrors.error('TRANSPORT_FAILED.publishNotConnected', { name: this.name, topic });
    }
    this.#channel.postMessage({ kind: 'msg', topic, message } satisfies BusFrame);
  }

  advertiseService(): () => void {
    throw HardwareErrors.error('UNSUPPORTED_MESSAGE.servicesBetweenThreads', { name: this.name });
  }

  async callService(service: string): Promise<RosMessage> {
    throw HardwareErrors.error('UNSUPPORTED_MESSAGE.callBetweenThreads', { name: this.name, service });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#topics.clear();
    this.#channel?.close();
    this.#channel = undefined;
  }
}

/** The safety path's transport factory for the simulator (called inside the safety worker). */
export function connectSimBus(options: { bus: string }): RobotTransport {
  return new SimBusTransport(options.bus);
}
