import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { encode } from 'cbor2';
import { WebSocketServer, type WebSocket } from 'ws';
import { cborMessage, jsonMessage, nonexistentField, widenFloat32 } from './rosbridge-messages.js';
import { RosSideGraph, type ParameterValue, type RosSideService } from './rosapi.js';

/** One operation the server received. */
export interface RosbridgeOp {
  readonly op: string;
  readonly [key: string]: unknown;
}

/**
 * A rosbridge v2 protocol server on 127.0.0.1 for tests, as faithful to rosbridge_suite's own server
 * (`rosbridge_server`, ros2 branch and 2.x; the ros1 branch behaves the same where Mira can tell) as it is
 * strict. Each behaviour below names the rosbridge_suite file it mirrors (paths under
 * `rosbridge_library/src/rosbridge_library/` unless they say otherwise):
 *
 * - **No `status` operations, ever** (`protocol.py` `Protocol.log` writes to the server's own log only):
 *   every mistake is a line in {@link RosbridgeTestServer.logged}, and the client hears nothing.
 * - **Implicit publisher registration** (`capabilities/publish.py`: `manager.register(...)` on every
 *   publish): a client may publish without `advertise` when the topic's type is known on the ROS side.
 * - **A subscription the bridge refuses is refused silently** (`capabilities/subscribe.py`,
 *   `internal/subscribers.py` `TypeConflictException`): a subscribe whose type differs from the topic's, or
 *   that names no type for a topic nobody has, is logged and nothing is ever delivered.
 * - **Advertise of a conflicting type is logged and ignored** (`internal/publishers.py`
 *   `TypeConflictException`), and a publish the topic's type cannot hold is logged and not published
 *   (`capabilities/publish.py` → `internal/message_conversion.py` `populate_instance`:
 *   NonexistentFieldException for a field the type lacks, e.g. a Twist on a TwistStamped topic; checked for
 *   the types `rosbridge-messages.ts` lists).
 * - **rosapi** beside the bridge (`rosbridge_server/launch/rosbridge_websocket_launch.xml` starts it;
 *   `rosapi/scripts/rosapi_node`): `/rosapi/topic_type` answers the graph's type of a topic, "" when the
 *   graph does not have it; off with `rosapi: false`, when calls to it fail as for any missing service.
 * - **The graph behind the bridge** (`rosapi.ts`): the launch file's own nodes, topics and services, and
 *   what a test puts there ({@link RosbridgeTestServer.rosNode}, {@link RosbridgeTestServer.rosService},
 *   action servers); rosapi answers `/rosapi/topics`, `/rosapi/nodes`, `/rosapi/services`,
 *   `/rosapi/service_type` and `/rosapi/action_servers` about it, hidden names left out as rosapi does; a
 *   node's `list_parameters` and `get_parameters` answer as rclpy's parameter services do.
 * - **A call to a missing service is answered at once** (`internal/services.py` `call_service`: a service
 *   not in the graph's `get_service_names_and_types` raises `InvalidServiceException` before any wait; the
 *   1 s `server_timeout_time` is for a service the graph has; ~14 ms measured on the real server) with a
 *   `service_response` of `result: false` and the reason as a string in `values`
 *   (`capabilities/call_service.py` `_failure`); a `service_response` whose values cannot be built is
 *   logged and the caller waits.
 * - **Delivery is asynchronous** (`rosbridge_server/src/rosbridge_server/websocket_handler.py`
 *   `send_message`: `IOLoop.add_callback`): every outgoing message is written later, in order, never in the
 *   call that produced it (a `publish` by the test, a client's op).
 * - **`throttle_rate` and `queue_length`** (`internal/subscription_modifiers.py`, combined per client and
 *   topic by `capabilities/subscribe.py` `update_params`): a throttle alone drops what comes within
 *   `throttle_rate` of the last message sent; a queue keeps the newest `queue_length` (the oldest go first)
 *   and sends them `throttle_rate` apart. A client gets one copy per message however many subscriptions it
 *   has on the topic.
 * - **float32 fields are widened** (`internal/message_conversion.py` `extract_values`: rclpy reads a float32
 *   as a Python float, a double): 0.05 arrives as 0.05000000074505806, on topics, in action feedback, for
 *   the float32 fields of the types in `rosbridge-messages.ts` (BatteryState, LaserScan, Range, Nav2's
 *   NavigateToPose feedback).
 * - **CBOR** (`capabilities/subscribe.py`, `internal/cbor_conversion.py`): a subscription with
 *   `compression: "cbor"` gets binary frames; `sequence<float>`/`sequence<double>` fields (LaserScan
 *   ranges, BatteryState cell voltages) as RFC 8746 typed-array tags, which roslib decodes to
 *   `Float32Array`/`Float64Array`; a message with a fixed-size array anywhere in it (found from its field
 *   types, `rosbridge-messages.ts`: Imu, Odometry and PoseWithCovarianceStamped covariances — numpy arrays,
 *   which `extract_cbor_values` does not handle) throws in the conversion and is never delivered, only
 *   logged. `sequence<uint8>` fields (a CompressedImage's `data`) are a CBOR byte string
 *   (`BYTESTREAM_TYPES`), and base64 text in JSON (`message_conversion.py` `_from_binary_inst`).
 * - **Action goals block the connection** (`capabilities/send_action_goal.py`,
 *   `rosbridge_server/src/rosbridge_server/websocket_handler.py` `IncomingQueue`): with
 *   `send_action_goals_in_new_thread = false` (the default) the connection's incoming queue runs the goal to
 *   its end, so every later op of that connection (a cancel, a new goal, a publish, a service response)
 *   waits until the goal ends; `cancel_action_goal` looks the goal up in `client_handler_list`, a class
 *   attribute shared by every connection, so a cancel sent on another connection reaches it. A goal to an
 *   action nobody serves waits for the server (`internal/actions.py` `wait_for_server`) and holds the queue.
 * - **Pings are answered by the WebSocket layer** (Tornado's `websocket_handler`, not the incoming queue):
 *   a blocked queue still answers pings; a frozen process (SIGSTOP) answers nothing.
 * - **Freeze** (`freeze()`): the process stopped, TCP open: nothing is read (what a client writes waits in
 *   the socket and is read, in order, on `thaw()`), no ping is answered, no new connection is accepted.
 * - It can be stopped and started again on the same port, like a bridge that restarts.
 */
export interface RosbridgeTestServer {
  readonly url: string;
  /** Every operation received and processed, in order. */
  readonly ops: RosbridgeOp[];
  /** What the server logged (errors and warnings): rosbridge tells the client none of it. */
  readonly logged: string[];
  /** The type of a topic as the ROS side knows it (a node on the robot publishes or subscribes it). */
  declareTopic(topic: string, type: string): void;
  /** Publishes a message to the topic's subscribers, as the robot would. */
  publish(topic: string, msg: Record<string, unknown>): void;
  /**
   * A node on the robot publishing `msg` on `topic` every `everyMs` (an e-stop relay repeating its state,
   * say) until `stop()`; `set` changes what it publishes, at once.
   */
  repeat(
    topic: string,
    msg: Record<string, unknown>,
    everyMs: number,
  ): { set(msg: Record<string, unknown>): void; stop(): void };
  /** Messages clients published on a topic. */
  published(topic: string): Array<Record<string, unknown>>;
  /** Messages clients published on a topic, each with the wall-clock time (ms) it arrived. */
  arrivals(topic: string): Array<{ msg: Record<string, unknown>; at: number }>;
  /** Number of subscriptions currently open on a topic. */
  subscribers(topic: string): number;
  /** Number of WebSocket connections open now. */
  clients(): number;
  /** WebSocket pings received (and answered by the WebSocket layer), over every connection. */
  pings(): number;
  /**
   * Hosts an action server on the robot's side of the bridge (Nav2, say): goals sent with
   * `send_action_goal` land in `goals`; the test sends feedback and ends them. A
   * `cancel_action_goal` naming the goal (from any connection), or a call to
   * `<action>/_action/cancel_goal` from anyone (an all-zero goal ID cancels every goal), ends them as
   * canceled (status 5).
   */
  actionServer(action: string, type: string, options?: { readonly rejectGoals?: boolean }): TestActionServer;
  /** A node on the robot, with rclpy's parameter services answering from `parameters`. */
  rosNode(name: string, parameters?: Record<string, ParameterValue>): void;
  /** A service on the robot (in the graph; answered by `answer`, or never when absent). */
  rosService(name: string, type: string, answer?: RosSideService['answer']): void;
  /** Sends raw text to every client (e.g. a frame that is not JSON). */
  sendRaw(text: string): void;
  /** Stops the process (SIGSTOP): TCP stays open, nothing is read or answered. */
  freeze(): void;
  /** Lets a frozen process run again (SIGCONT): it reads what waited, in order. */
  thaw(): void;
  /** Drops every client and stops listening (a bridge that went down). */
  stop(): Promise<void>;
  /** Listens again on the same port (the bridge is back). */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** A goal a client sent to a test action server. */
export interface TestGoal {
  readonly args: Record<string, unknown>;
  /**
   * 'active' until the test or a cancellation ends it; 'pending' first on a bridge that acknowledges goals
   * late ({@link RosbridgeServerOptions.lateGoalHandles}), until {@link accept} or the goal's first feedback
   * or end.
   */
  readonly state: 'pending' | 'active' | 'succeeded' | 'aborted' | 'canceled';
  /** The action server accepts the goal, and the bridge holds its handle from now on (no word to the client). */
  accept(): void;
  /** Feedback to the client (the server accepts a pending goal first: feedback comes only after). */
  feedback(values: Record<string, unknown>): void;
  succeed(values?: Record<string, unknown>): void;
  abort(values?: Record<string, unknown>): void;
}

/** An action server on the robot's side of the test bridge. */
export interface TestActionServer {
  readonly goals: TestGoal[];
  /**
   * The server rejects every goal (a goal callback answering REJECT). rosbridge's `internal/actions.py`
   * `SendGoal.goal_response_cb` then raises "Action goal was rejected" inside an rclpy future callback, which
   * rclpy logs and swallows, so `send_goal` waits for a result for ever: the client hears nothing, the goal's
   * connection stays blocked, and a cancel does nothing. Rejected goals are counted here, not in `goals`.
   */
  readonly rejected: number;
}

/** Options of the bridge, as rosbridge_websocket's parameters. */
export interface RosbridgeServerOptions {
  /** `send_action_goals_in_new_thread` (default false, as rosbridge's default). */
  readonly actionGoalsInNewThread?: boolean;
  /**
   * Goals are acknowledged late (`internal/actions.py`: the bridge holds a goal's handle only once the action
   * server's goal response came back, `goal_response_cb`): a goal stays 'pending' until the test accepts it,
   * and a `cancel_action_goal` meanwhile is dropped without a word (`SendGoal.cancel_goal` returns while
   * `goal_handle` is None), as is a CancelGoal call (the server has not accepted it).
   */
  readonly lateGoalHandles?: boolean;
  /**
   * rosapi runs beside the bridge (default true, as `rosbridge_server/launch/rosbridge_websocket_launch.xml`
   * starts it): `/rosapi/topic_type` answers a topic's type in the graph, "" for a topic it does not have.
   */
  readonly rosapi?: boolean;
}

const GOAL_STATUS = { succeeded: 4, canceled: 5, aborted: 6 } as const;

interface Subscription {
  readonly client: WebSocket;
  readonly id: string;
  readonly cbor: boolean;
  /** `throttle_rate` (ms) and `queue_length` as the client asked. */
  readonly throttleMs: number;
  readonly queueLength: number;
}

/**
 * `internal/subscription_modifiers.py`, per client and topic (a client's subscriptions to one topic share
 * one handler, with the smallest `throttle_rate` and `queue_length` of them, `capabilities/subscribe.py`
 * `update_params`): neither set, every message goes out; a throttle alone sends a message only when the
 * last went out at least `throttle_rate` ago and drops the rest; a queue keeps the newest `queue_length`
 * (a deque with maxlen: the oldest go first) and sends them one at a time, `throttle_rate` apart.
 */
class MessageHandler {
  #last = -Infinity;
  readonly #queue: Array<() => void> = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  throttleMs = 0;
  queueLength = 0;

  handle(send: () => void): void {
    if (this.queueLength === 0) {
      if (this.throttleMs > 0 && performance.now() - this.#last < this.throttleMs) return;
      this.#last = performance.now();
      send();
      return;
    }
    this.#queue.push(send);
    while (this.#queue.length > this.queueLength) this.#queue.shift();
    this.#drain();
  }

  #drain(): void {
    if (this.#timer || this.#queue.length === 0) return;
    const wait = Math.max(0, this.#last + this.throttleMs - performance.now());
    // The handler's own thread: what it sends is never sent in the publisher's call.
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const next = this.#queue.shift();
      if (!next) return;
      this.#last = performance.now();
      next();
      this.#drain();
    }, wait);
  }

  finish(): void {
    clearTimeout(this.#timer);
    this.#queue.splice(0);
  }
}

interface Goal extends TestGoal {
  readonly id: unknown;
  end(to: 'canceled'): void;
}

export async function startRosbridgeServer(options: RosbridgeServerOptions = {}): Promise<RosbridgeTestServer> {
  const ops: RosbridgeOp[] = [];
  const logged: string[] = [];
  const arrivals: Array<{ topic: string; msg: Record<string, unknown>; at: number }> = [];
  const topicTypes = new Map<string, string>();
  const subscriptions = new Map<string, Subscription[]>();
  const services = new Map<string, WebSocket>();
  /** The types of the services clients advertised (they are in the graph too). */
  const clientServiceTypes = new Map<string, string>();
  const graph = new RosSideGraph(topicTypes, options.rosapi !== false);
  const pendingCalls = new Map<string, { caller: WebSocket; id: unknown; service: string }>();
  const actionServers = new Map<string, { type: string; goals: Goal[]; rejectGoals: boolean; rejected: number }>();
  /** `SendActionGoal.client_handler_list`: one dict for every connection. */
  const clientHandlers = new Map<string, Goal>();
  /** Per connection: the goal holding its incoming queue, and what waits behind it. */
  const queues = new Map<WebSocket, { blockedBy?: Goal; waiting: RosbridgeOp[] }>();
  const sockets = new Set<Socket>();
  const repeaters = new Set<ReturnType<typeof setInterval>>();
  let frozen = false;
  let pingCount = 0;
  let nextCall = 0;
  let http: Server | undefined;
  let tcp: TcpServer | undefined;
  /** Connections accepted by the kernel while frozen, served on thaw. */
  const backlog: Socket[] = [];
  let wss: WebSocketServer | undefined;
  let port = 0;
  const log = (line: string) => logged.push(line);
  /**
   * Every outgoing message is written later, in order (`rosbridge_server/websocket_handler.py`
   * `send_message`: `IOLoop.add_callback`), never in the call that produced it. A stopped process sends
   * nothing.
   */
  const write = (ws: WebSocket, data: string | Uint8Array) =>
    setImmediate(() => {
      const out = () => {
        if (ws.readyState === ws.OPEN) ws.send(data, { binary: typeof data !== 'string' });
      };
      // Stopped before its turn came: written when the process runs again, in order.
      if (frozen) held.push(out);
      else out();
    });
  /** Writes whose turn came while the process was stopped. */
  const held: Array<() => void> = [];
  const send = (ws: WebSocket, message: unknown) => {
    if (!frozen) write(ws, JSON.stringify(message));
  };
  /** Per client and topic: the subscription modifiers' handler. */
  const handlers = new Map<WebSocket, Map<string, MessageHandler>>();
  const handlerOf = (ws: WebSocket, topic: string) => {
    const byTopic = handlers.get(ws) ?? new Map<string, MessageHandler>();
    handlers.set(ws, byTopic);
    let handler = byTopic.get(topic);
    if (!handler) byTopic.set(topic, (handler = new MessageHandler()));
    return handler;
  };
  /** `capabilities/subscribe.py` `update_params`: the smallest of the client's subscriptions to the topic. */
  const updateParams = (ws: WebSocket, topic: string) => {
    const mine = (subscriptions.get(topic) ?? []).filter((s) => s.client === ws);
    const handler = handlerOf(ws, topic);
    if (mine.length === 0) {
      handler.finish();
      handlers.get(ws)?.delete(topic);
      return;
    }
    handler.throttleMs = Math.min(...mine.map((s) => s.throttleMs));
    handler.queueLength = Math.min(...mine.map((s) => s.queueLength));
  };
  /** A message on the ROS side of `topic`: as subscribers get it, its float32 fields widened by rclpy. */
  const deliver = (topic: string, original: Record<string, unknown>) => {
    if (frozen) return;
    const type = topicTypes.get(topic) ?? '';
    const msg = widenFloat32(type, original);
    const clients = new Map<WebSocket, Subscription>();
    for (const sub of subscriptions.get(topic) ?? []) {
      if (sub.client.readyState === sub.client.OPEN && !clients.has(sub.client)) clients.set(sub.client, sub);
    }
    for (const [client, sub] of clients) {
      handlerOf(client, topic).handle(() => {
        if (!sub.cbor) {
          write(client, JSON.stringify({ op: 'publish', topic, msg: jsonMessage(type, msg) }));
          return;
        }
        try {
          write(client, encode({ op: 'publish', topic, msg: cborMessage(type, msg) }));
        } catch (error) {
          log(`subscribe ${topic}: ${(error as Error).message}`);
        }
      });
    }
  };
  /** `internal/publishers.py` / `subscribers.py`: a topic has one type; a conflict is an exception, logged. */
  const claimType = (what: string, topic: string, type: string | undefined): boolean => {
    const known = topicTypes.get(topic);
    if (!type && !known) {
      log(`${what} ${topic}: Cannot infer topic type for topic ${topic} as it is not yet advertised`);
      return false;
    }
    if (type && known && type !== known) {
      log(`${what} ${topic}: TypeConflictException: Tried to ${what} ${topic} with type ${type}, but it is ${known}`);
      return false;
    }
    if (type && !known) topicTypes.set(topic, type);
    return true;
  };

  const handle = (ws: WebSocket, op: RosbridgeOp & Record<string, any>) => {
    const queue = queues.get(ws)!;
    // The connection's IncomingQueue is running a goal: everything else waits behind it.
    if (queue.blockedBy) {
      queue.waiting.push(op);
      return;
    }
    ops.push(op);
    switch (op.op) {
      case 'subscribe': {
        if (!claimType('subscribe', op.topic, op.type)) return;
        const list = subscriptions.get(op.topic) ?? [];
        list.push({
          client: ws,
          id: String(op.id),
          cbor: op.compression === 'cbor',
          throttleMs: Number(op.throttle_rate ?? 0),
          queueLength: Number(op.queue_length ?? 0),
        });
        subscriptions.set(op.topic, list);
        updateParams(ws, op.topic);
        return;
      }
      case 'unsubscribe': {
        const list = subscriptions.get(op.topic) ?? [];
        subscriptions.set(
          op.topic,
          list.filter((s) => s.client !== ws || (op.id !== undefined && s.id !== String(op.id))),
        );
        updateParams(ws, op.topic);
        return;
      }
      case 'advertise':
        claimType('advertise', op.topic, op.type);
        return;
      case 'unadvertise':
        return;
      case 'publish':
        // Implicit registration: no advertise needed when the type is known.
        if (!claimType('publish', op.topic, undefined)) return;
        {
          // The bridge's publisher has the topic's type: a message that type cannot hold is not published.
          const field = nonexistentField(topicTypes.get(op.topic)!, (op.msg ?? {}) as Record<string, unknown>);
          if (field) {
            log(`publish ${op.topic}: NonexistentFieldException: ${topicTypes.get(op.topic)} has no field ${field}`);
            return;
          }
        }
        arrivals.push({ topic: op.topic, msg: op.msg as Record<string, unknown>, at: Date.now() });
        deliver(op.topic, op.msg as Record<string, unknown>);
        return;
      case 'advertise_service':
        services.set(op.service, ws);
        clientServiceTypes.set(op.service, String(op.type));
        return;
      case 'unadvertise_service':
        if (services.get(op.service) === ws) {
          services.delete(op.service);
          clientServiceTypes.delete(op.service);
        }
        return;
      case 'send_action_goal':
        return sendActionGoal(ws, op, queue);
      case 'cancel_action_goal':
        // Always dispatched in a new thread, but dispatched by this connection's queue (blocked above); a goal
        // whose handle the bridge does not hold yet ('pending') is not cancelled, and nobody is told.
        clientHandlers.get(String(op.id))?.end('canceled');
        return;
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
          return;
        }
        if (op.service === '/rosapi/topic_type' && options.rosapi !== false) {
          // rosapi/scripts/rosapi_node `get_topic_type` (rosapi/src/rosapi/proxy.py): the graph's type, or ""
          // (hidden topics are not among the topics it looks in).
          const topic = String((op.args as { topic?: unknown } | undefined)?.topic ?? '');
          const type = topic.split('/').some((part) => part.startsWith('_')) ? '' : (topicTypes.get(topic) ?? '');
          send(ws, { op: 'service_response', id: op.id, service: op.service, values: { type }, result: true });
          return;
        }
        const onRobot = graph.services.get(op.service);
        if (onRobot) {
          const args = (op.args ?? {}) as Record<string, unknown>;
          const values = graph.rosapi(op.service, args, clientServiceTypes) ?? onRobot.answer?.(args);
          if (!values) {
            log(`call_service ${op.service}: the test's ROS side gives no answer`);
            return;
          }
          send(ws, { op: 'service_response', id: op.id, service: op.service, values, result: true });
          return;
        }
        const provider = services.get(op.service);
        if (!provider) {
          // Looked up in the graph first (`internal/services.py` `call_service`: not among
          // get_service_names_and_types, InvalidServiceException at once); the 1 s wait_for_service is only
          // for a service the graph has.
          log(`call_service InvalidServiceException: Service ${op.service} does not exist`);
          send(ws, {
            op: 'service_response',
            service: op.service,
            values: `Service ${op.service} does not exist`,
            result: false,
            id: op.id,
          });
          return;
        }
        const forwardId = `service_request:${op.service}:${++nextCall}`;
        pendingCalls.set(forwardId, { caller: ws, id: op.id, service: op.service });
        send(provider, { op: 'call_service', id: forwardId, service: op.service, args: op.args });
        return;
      }
      case 'service_response': {
        if (op.values === null || typeof op.values !== 'object' || Array.isArray(op.values)) {
          // The response message cannot be built: logged on the server, the caller keeps waiting.
          log(`service_response ${op.service}: values must be a message, got ${JSON.stringify(op.values)}`);
          return;
        }
        const pending = pendingCalls.get(String(op.id));
        if (!pending) return;
        pendingCalls.delete(String(op.id));
        send(pending.caller, {
          op: 'service_response',
          id: pending.id,
          service: pending.service,
          values: op.values,
          result: op.result ?? true,
        });
        return;
      }
      default:
        log(`Unknown operation: ${op.op}`);
    }
  };

  const sendActionGoal = (
    ws: WebSocket,
    op: Record<string, any>,
    queue: { blockedBy?: Goal; waiting: RosbridgeOp[] },
  ) => {
    const server = actionServers.get(op.action);
    const block = (goal: Goal) => {
      if (!options.actionGoalsInNewThread) queue.blockedBy = goal;
    };
    let state: TestGoal['state'] = options.lateGoalHandles ? 'pending' : 'active';
    const accept = () => {
      if (state === 'pending') state = 'active';
    };
    const goal: Goal = {
      args: (op.args ?? {}) as Record<string, unknown>,
      id: op.id,
      get state() {
        return state;
      },
      accept,
      // capabilities/send_action_goal.py: feedback goes out only when the goal asked for it.
      feedback: (values) => {
        accept();
        if (state === 'active' && op.feedback === true) {
          const feedbackType = `${String(op.action_type)}_Feedback`;
          send(ws, { op: 'action_feedback', id: op.id, action: op.action, values: widenFloat32(feedbackType, values) });
        }
      },
      succeed: (values) => {
        accept();
        end('succeeded', values);
      },
      abort: (values) => {
        accept();
        end('aborted', values);
      },
      end: (to) => end(to),
    };
    const end = (to: 'succeeded' | 'aborted' | 'canceled', values: Record<string, unknown> = {}) => {
      if (state !== 'active') return;
      state = to;
      clientHandlers.delete(String(op.id));
      send(ws, { op: 'action_result', id: op.id, action: op.action, values, status: GOAL_STATUS[to], result: true });
      if (queue.blockedBy === goal) {
        queue.blockedBy = undefined;
        for (const waiting of queue.waiting.splice(0)) handle(ws, waiting);
      }
    };
    if (!server) {
      // wait_for_server: no answer until a server appears (this double never brings one).
      clientHandlers.set(String(op.id), goal);
      block(goal);
      return;
    }
    if (op.action_type !== server.type) {
      log(`send_action_goal Exception: ${op.id}`);
      send(ws, {
        op: 'action_result',
        id: op.id,
        action: op.action,
        values: `action type ${op.action_type} does not match ${server.type}`,
        status: 0,
        result: false,
      });
      return;
    }
    if (server.rejectGoals) {
      // goal_response_cb raises in a future callback: logged by rclpy, never answered; the queue stays held.
      server.rejected += 1;
      log('The following exception was never retrieved: Action goal was rejected');
      state = 'pending';
      block(goal);
      return;
    }
    clientHandlers.set(String(op.id), goal);
    server.goals.push(goal);
    block(goal);
  };

  const onConnection = (ws: WebSocket) => {
    queues.set(ws, { waiting: [] });
    ws.on('ping', () => (pingCount += 1));
    ws.on('message', (data, isBinary) => {
      let op: RosbridgeOp;
      try {
        if (isBinary) throw new Error('binary');
        op = JSON.parse(String(data));
      } catch {
        log('Unable to deserialize message');
        return;
      }
      handle(ws, op);
    });
    ws.on('close', () => {
      for (const [topic, list] of subscriptions)
        subscriptions.set(
          topic,
          list.filter((s) => s.client !== ws),
        );
      for (const [name, provider] of services)
        if (provider === ws) {
          services.delete(name);
          clientServiceTypes.delete(name);
        }
      for (const handler of handlers.get(ws)?.values() ?? []) handler.finish();
      handlers.delete(ws);
      queues.delete(ws);
    });
  };

  // The kernel accepts a connection even while the process is stopped (it waits in the backlog); the
  // process serves it when it runs again. So TCP is taken here, paused, and handed to HTTP when not frozen.
  const serve = (socket: Socket) => {
    if (frozen) {
      backlog.push(socket);
      return;
    }
    http!.emit('connection', socket);
    socket.resume();
  };
  const start = async () => {
    http = createServer();
    wss = new WebSocketServer({ server: http });
    wss.on('connection', onConnection);
    tcp = createTcpServer({ pauseOnConnect: true }, (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      serve(socket);
    });
    await new Promise<void>((resolve) => tcp!.listen(port, '127.0.0.1', resolve));
    port = (tcp.address() as AddressInfo).port;
  };
  const stop = async () => {
    const server = tcp;
    if (!server) return;
    tcp = undefined;
    frozen = false;
    held.splice(0);
    backlog.splice(0);
    for (const client of wss?.clients ?? []) client.terminate();
    for (const socket of sockets) socket.destroy();
    wss?.close();
    wss = undefined;
    http = undefined;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  await start();

  return {
    url: `ws://127.0.0.1:${port}`,
    ops,
    logged,
    declareTopic: (topic, type) => {
      topicTypes.set(topic, type);
    },
    publish: (topic, msg) => deliver(topic, msg),
    repeat: (topic, first, everyMs) => {
      let msg = first;
      deliver(topic, msg);
      const timer = setInterval(() => deliver(topic, msg), everyMs);
      repeaters.add(timer);
      return {
        set: (next) => {
          msg = next;
          deliver(topic, msg);
        },
        stop: () => {
          clearInterval(timer);
          repeaters.delete(timer);
        },
      };
    },
    published: (topic) => arrivals.filter((a) => a.topic === topic).map((a) => a.msg),
    arrivals: (topic) => arrivals.filter((a) => a.topic === topic).map(({ msg, at }) => ({ msg, at })),
    clients: () => [...(wss?.clients ?? [])].filter((c) => c.readyState === c.OPEN).length,
    pings: () => pingCount,
    subscribers: (topic) =>
      (subscriptions.get(topic) ?? []).filter((s) => s.client.readyState === s.client.OPEN).length,
    rosNode: (name, parameters = {}) => graph.addNode(name, parameters),
    rosService: (name, type, answer) => {
      graph.services.set(name, { type, ...(answer ? { answer } : {}) });
    },
    actionServer: (action, type, serverOptions = {}) => {
      const server = { type, goals: [] as Goal[], rejectGoals: serverOptions.rejectGoals === true, rejected: 0 };
      actionServers.set(action, server);
      graph.addAction(action, type);
      return server;
    },
    sendRaw: (text) => {
      for (const client of wss?.clients ?? []) write(client, text);
    },
    freeze: () => {
      frozen = true;
      for (const socket of sockets) socket.pause();
    },
    thaw: () => {
      frozen = false;
      for (const out of held.splice(0)) out();
      for (const socket of sockets) if (!backlog.includes(socket)) socket.resume();
      for (const socket of backlog.splice(0)) serve(socket);
    },
    stop,
    start,
    close: async () => {
      for (const timer of repeaters) clearInterval(timer);
      repeaters.clear();
      await stop();
    },
  };
}
