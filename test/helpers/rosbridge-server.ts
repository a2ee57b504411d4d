import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/** One JSON operation the server received. */
export interface RosbridgeOp {
  readonly op: string;
  readonly [key: string]: unknown;
}

/**
 * A rosbridge v2 protocol server on 127.0.0.1 for tests, as strict as the real
 * `rosbridge_server` where Mira can tell: a broker for advertise, publish,
 * subscribe, unsubscribe, advertise_service and call_service / service_response
 * over a real WebSocket with real JSON. It answers a mistake with a `status`
 * operation (as the real bridge does) — a subscribe or advertise without a
 * type, a publish on a topic the client never advertised, a call to a service
 * nobody offers, a response whose `values` is not an object (ROS 2 needs one;
 * the caller then waits, as a ROS caller would) — and it can be stopped and
 * started again on the same port, like a bridge that restarts.
 */
export interface RosbridgeTestServer {
  readonly url: string;
  /** Every operation received, in order. */
  readonly ops: RosbridgeOp[];
  /** Every `status` operation sent to a client. */
  readonly statuses: RosbridgeOp[];
  /** Publishes a message to the topic's subscribers, as the robot would. */
  publish(topic: string, msg: Record<string, unknown>): void;
  /** Messages clients published on a topic. */
  published(topic: string): Array<Record<string, unknown>>;
  /** Messages clients published on a topic, each with the wall-clock time (ms) it arrived. */
  arrivals(topic: string): Array<{ msg: Record<string, unknown>; at: number }>;
  /** Number of subscriptions currently open on a topic. */
  subscribers(topic: string): number;
  /**
   * Hosts an action server on the robot's side of the bridge (Nav2, say): goals sent with
   * `send_action_goal` land in `goals`; the test sends feedback and ends them. A
   * `cancel_action_goal` from the goal's client, or a call to `<action>/_action/cancel_goal`
   * from anyone (an all-zero goal ID cancels every goal), ends them as canceled (status 5).
   */
  actionServer(action: string, type: string): TestActionServer;
  /** Sends raw text to every client (e.g. a frame that is not JSON). */
  sendRaw(text: string): void;
  /** Drops every client and stops listening (a bridge that went down). */
  stop(): Promise<void>;
  /** Listens again on the same port (the bridge is back). */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** A goal a client sent to a test action server. */
export interface TestGoal {
  readonly args: Record<string, unknown>;
  /** 'active' until the test or a cancellation ends it. */
  readonly state: 'active' | 'succeeded' | 'aborted' | 'canceled';
  feedback(values: Record<string, unknown>): void;
  succeed(values?: Record<string, unknown>): void;
  abort(values?: Record<string, unknown>): void;
}

/** An action server on the robot's side of the test bridge. */
export interface TestActionServer {
  readonly goals: TestGoal[];
}

const GOAL_STATUS = { succeeded: 4, canceled: 5, aborted: 6 } as const;

export async function startRosbridgeServer(): Promise<RosbridgeTestServer> {
  const ops: RosbridgeOp[] = [];
  const statuses: RosbridgeOp[] = [];
  const arrivals: Array<{ topic: string; msg: Record<string, unknown>; at: number }> = [];
  const subscriptions = new Map<string, Map<WebSocket, Set<string>>>();
  const advertised = new Map<WebSocket, Set<string>>();
  const services = new Map<string, WebSocket>();
  const pendingCalls = new Map<string, { caller: WebSocket; id: unknown }>();
  const actionServers = new Map<
    string,
    { type: string; goals: Array<TestGoal & { client: WebSocket; id: unknown; end(s: 'canceled'): void }> }
  >();
  let nextCall = 0;
  let wss: WebSocketServer | undefined;
  let port = 0;
  const send = (ws: WebSocket, message: unknown) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  const status = (ws: WebSocket, level: 'error' | 'warning', msg: string, id?: unknown) => {
    const op = { op: 'status', level, msg, ...(id !== undefined ? { id } : {}) };
    statuses.push(op);
    send(ws, op);
  };
  const deliver = (topic: string, msg: unknown) => {
    for (const client of subscriptions.get(topic)?.keys() ?? []) send(client, { op: 'publish', topic, msg });
  };

  const onConnection = (ws: WebSocket) => {
    ws.on('message', (data) => {
      let op: RosbridgeOp & {
        topic?: string;
        type?: string;
        service?: string;
        id?: string;
        msg?: unknown;
        args?: unknown;
        values?: unknown;
        result?: boolean;
      };
      try {
        op = JSON.parse(String(data));
      } catch {
        status(ws, 'error', 'Unable to deserialize message');
        return;
      }
      ops.push(op);
      switch (op.op) {
        case 'subscribe': {
          if (!op.type) return status(ws, 'error', `subscribe ${op.topic}: a type is required`, op.id);
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
        case 'advertise': {
          if (!op.type) return status(ws, 'error', `advertise ${op.topic}: a type is required`, op.id);
          const topics = advertised.get(ws) ?? new Set<string>();
          topics.add(op.topic!);
          advertised.set(ws, topics);
          break;
        }
        case 'unadvertise':
          advertised.get(ws)?.delete(op.topic!);
          break;
        case 'publish':
          if (!advertised.get(ws)?.has(op.topic!)) {
            return status(ws, 'error', `publish ${op.topic}: the topic was not advertised by this client`, op.id);
          }
          arrivals.push({ topic: op.topic!, msg: op.msg as Record<string, unknown>, at: Date.now() });
          deliver(op.topic!, op.msg);
          break;
        case 'advertise_service':
          if (!op.type) return status(ws, 'error', `advertise_service ${op.service}: a type is required`, op.id);
          services.set(op.service!, ws);
          break;
        case 'unadvertise_service':
          if (services.get(op.service!) === ws) services.delete(op.service!);
          break;
        case 'send_action_goal': {
          const o = op as typeof op & { action?: string; action_type?: string };
          const server = actionServers.get(o.action!);
          // As the real bridge: no server means no answer at all (it waits for one).
          if (!server) break;
          if (o.action_type !== server.type) {
            send(ws, {
              op: 'action_result',
              id: o.id,
              action: o.action,
              values: `action type ${o.action_type} does not match ${server.type}`,
              status: 0,
              result: false,
            });
            break;
          }
          let state: TestGoal['state'] = 'active';
          const end = (to: 'succeeded' | 'aborted' | 'canceled', values: Record<string, unknown> = {}) => {
            if (state !== 'active') return;
            state = to;
            send(ws, {
              op: 'action_result',
              id: o.id,
              action: o.action,
              values,
              status: GOAL_STATUS[to],
              result: true,
            });
          };
          server.goals.push({
            args: (o.args ?? {}) as Record<string, unknown>,
            client: ws,
            id: o.id,
            get state() {
              return state;
            },
            feedback: (values) => {
              if (state === 'active') send(ws, { op: 'action_feedback', id: o.id, action: o.action, values });
            },
            succeed: (values) => end('succeeded', values),
            abort: (values) => end('aborted', values),
            end: (to) => end(to),
          });
          break;
        }
        case 'cancel_action_goal': {
          const o = op as typeof op & { action?: string };
          for (const goal of actionServers.get(o.action!)?.goals ?? []) {
            if (goal.client === ws && goal.id === o.id) goal.end('canceled');
          }
          break;
        }
        case 'call_service': {
          const cancelled = /^(.*)\/_action\/cancel_goal$/.exec(op.service ?? '');
          const server = cancelled && actionServers.get(cancelled[1]!);
          if (server) {
            const canceling = server.goals.filter((g) => g.state === 'active');
            for (const goal of canceling) goal.end('canceled');
            send(ws, {
              op: 'service_response',
              id: op.id,
              service: op.service,
              values: { return_code: 0, goals_canceling: canceling.map(() => ({})) },
              result: true,
            });
            break;
          }
          const provider = services.get(op.service!);
          if (!provider) return status(ws, 'error', `call_service: service ${op.service} does not exist`, op.id);
          const forwardId = `fwd_${++nextCall}`;
          pendingCalls.set(forwardId, { caller: ws, id: op.id });
          send(provider, { op: 'call_service', id: forwardId, service: op.service, args: op.args });
          break;
        }
        case 'service_response': {
          if (op.values === null || typeof op.values !== 'object' || Array.isArray(op.values)) {
            // As a ROS 2 bridge: the response cannot be built, the provider hears why, the caller hears nothing.
            return status(ws, 'error', `service_response ${op.service}: values must be an object`, op.id);
          }
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
          status(ws, 'error', `unknown operation ${op.op}`, op.id);
      }
    });
    ws.on('close', () => {
      for (const byClient of subscriptions.values()) byClient.delete(ws);
      advertised.delete(ws);
      for (const [name, provider] of services) if (provider === ws) services.delete(name);
    });
  };

  const start = async () => {
    wss = new WebSocketServer({ host: '127.0.0.1', port });
    await new Promise<void>((resolve) => wss!.once('listening', () => resolve()));
    port = (wss.address() as AddressInfo).port;
    wss.on('connection', onConnection);
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!wss) return resolve();
      for (const client of wss.clients) client.terminate();
      wss.close(() => resolve());
      wss = undefined;
    });
  await start();

  return {
    url: `ws://127.0.0.1:${port}`,
    ops,
    statuses,
    publish: (topic, msg) => deliver(topic, msg),
    published: (topic) => arrivals.filter((a) => a.topic === topic).map((a) => a.msg),
    arrivals: (topic) => arrivals.filter((a) => a.topic === topic).map(({ msg, at }) => ({ msg, at })),
    subscribers: (topic) => [...(subscriptions.get(topic)?.values() ?? [])].reduce((n, ids) => n + ids.size, 0),
    actionServer: (action, type) => {
      const server = {
        type,
        goals: [] as Array<TestGoal & { client: WebSocket; id: unknown; end(s: 'canceled'): void }>,
      };
      actionServers.set(action, server);
      return server;
    },
    sendRaw: (text) => {
      for (const client of wss?.clients ?? []) if (client.readyState === client.OPEN) client.send(text);
    },
    stop,
    start,
    close: stop,
  };
}
