import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/** One JSON operation the server received. */
export interface RosbridgeOp {
  readonly op: string;
  readonly [key: string]: unknown;
}

/**
 * A small rosbridge v2 protocol server on 127.0.0.1 for tests: a broker for
 * advertise, publish, subscribe, unsubscribe, advertise_service and
 * call_service / service_response, over a real WebSocket with real JSON.
 */
export interface RosbridgeTestServer {
  readonly url: string;
  /** Every operation received, in order. */
  readonly ops: RosbridgeOp[];
  /** Publishes a message to the topic's subscribers, as the robot would. */
  publish(topic: string, msg: Record<string, unknown>): void;
  /** Messages clients published on a topic. */
  published(topic: string): Array<Record<string, unknown>>;
  /** Messages clients published on a topic, each with the wall-clock time (ms) it arrived. */
  arrivals(topic: string): Array<{ msg: Record<string, unknown>; at: number }>;
  /** Number of subscriptions currently open on a topic. */
  subscribers(topic: string): number;
  close(): Promise<void>;
}

export async function startRosbridgeServer(): Promise<RosbridgeTestServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const ops: RosbridgeOp[] = [];
  const arrivals: Array<{ topic: string; msg: Record<string, unknown>; at: number }> = [];
  const subscriptions = new Map<string, Map<WebSocket, Set<string>>>();
  const services = new Map<string, WebSocket>();
  const pendingCalls = new Map<string, { caller: WebSocket; id: unknown }>();
  let nextCall = 0;
  const send = (ws: WebSocket, message: unknown) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  const deliver = (topic: string, msg: unknown) => {
    for (const client of subscriptions.get(topic)?.keys() ?? []) send(client, { op: 'publish', topic, msg });
  };

  wss.on('connection', (ws) => {
    ws.on('message', (data) => {
      const op = JSON.parse(String(data)) as RosbridgeOp & {
        topic?: string;
        service?: string;
        id?: string;
        msg?: unknown;
        args?: unknown;
        values?: unknown;
        result?: boolean;
      };
      ops.push(op);
      switch (op.op) {
        case 'subscribe': {
          const byClient = subscriptions.get(op.topic!) ?? new Map<WebSocket, Set<string>>();
          subscriptions.set(op.topic!, byClient);
          const ids = byClient.get(ws) ?? new Set<string>();
          ids.add(String(op.id));
          byClient.set(ws, ids);
          break;
        }
        case 'unsubscribe': {
          const byClient = subscriptions.get(op.topic!);
          const ids = byClient?.get(ws);
          if (ids) {
            if (op.id === undefined) ids.clear();
            else ids.delete(String(op.id));
            if (ids.size === 0) byClient!.delete(ws);
          }
          break;
        }
        case 'publish':
          arrivals.push({ topic: op.topic!, msg: op.msg as Record<string, unknown>, at: Date.now() });
          deliver(op.topic!, op.msg);
          break;
        case 'advertise_service':
          services.set(op.service!, ws);
          break;
        case 'unadvertise_service':
          if (services.get(op.service!) === ws) services.delete(op.service!);
          break;
        case 'call_service': {
          const provider = services.get(op.service!);
          if (!provider) {
            send(ws, {
              op: 'service_response',
              id: op.id,
              service: op.service,
              result: false,
              values: `no service ${op.service}`,
            });
            break;
          }
          const forwardId = `fwd_${++nextCall}`;
          pendingCalls.set(forwardId, { caller: ws, id: op.id });
          send(provider, { op: 'call_service', id: forwardId, service: op.service, args: op.args });
          break;
        }
        case 'service_response': {
          const pending = pendingCalls.get(String(op.id));
          if (pending) {
            pendingCalls.delete(String(op.id));
            send(pending.caller, {
              op: 'service_response',
              id: pending.id,
              service: op.service,
              values: op.values,
              result: op.result ?? true,
            });
          }
          break;
        }
        default:
          break;
      }
    });
    ws.on('close', () => {
      for (const byClient of subscriptions.values()) byClient.delete(ws);
      for (const [name, provider] of services) if (provider === ws) services.delete(name);
    });
  });

  const { port } = wss.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    ops,
    publish: (topic, msg) => deliver(topic, msg),
    published: (topic) =>
      ops.filter((o) => o.op === 'publish' && o.topic === topic).map((o) => o.msg as Record<string, unknown>),
    arrivals: (topic) => arrivals.filter((a) => a.topic === topic).map(({ msg, at }) => ({ msg, at })),
    subscribers: (topic) => [...(subscriptions.get(topic)?.values() ?? [])].reduce((n, ids) => n + ids.size, 0),
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
}
