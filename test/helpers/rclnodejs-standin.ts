import { randomBytes } from 'node:crypto';
import type {
  RclClient,
  RclContext,
  RclLogger,
  RclMessageDef,
  RclNode,
  RclOptions,
  RclPublisher,
  RclQoS,
  RclServiceResponse,
  Rclnodejs,
} from '@mira/plugin-ros2';
import type { RosMessage } from '@mira/robot';

/**
 * A stand-in for the rclnodejs 2.2 module: the API surface Mira's native transport
 * uses, over an in-process ROS graph, as strict as rclnodejs where Mira can tell:
 *
 * - importing it installs a SIGINT handler that shuts every context down, until
 *   `removeSignalHandlers()` (rclnodejs does the same on import);
 * - a node needs an initialised, live context; nothing is delivered to a node that
 *   is not spinning; publishing on a shut-down context throws;
 * - int64/uint64 fields must be BigInt when sent (`TypeError: a must be type of bigint`)
 *   and arrive as BigInt; numeric arrays arrive as typed arrays unless a subscription
 *   asks for `serializationMode: 'plain'`; an unknown message type throws;
 * - a service callback that throws kills the process (the exception escapes the
 *   executor); one that rejects is logged and the caller never gets an answer;
 * - `sendRequestAsync` rejects with a `TimeoutError` after `options.timeout`.
 */

type FieldType =
  | 'string'
  | 'bool'
  | 'float64'
  | 'float32'
  | 'int32'
  | 'uint32'
  | 'int16'
  | 'uint16'
  | 'int8'
  | 'uint8'
  | 'int64'
  | 'uint64';
interface FieldDef {
  readonly name: string;
  /** A primitive, or a message type name (`pkg/msg/Name`). */
  readonly type: FieldType | string;
  readonly array?: boolean;
}

const PRIMITIVES = new Set<string>([
  'string',
  'bool',
  'float64',
  'float32',
  'int32',
  'uint32',
  'int16',
  'uint16',
  'int8',
  'uint8',
  'int64',
  'uint64',
]);
const f = (name: string, type: string, array = false): FieldDef => ({ name, type, array });

const HEADER = [f('header', 'std_msgs/msg/Header')];
/** The message definitions this stand-in knows (those of ros2/common_interfaces, and Mira's own). */
const DEFINITIONS: Record<string, FieldDef[]> = {
  'std_msgs/msg/String': [f('data', 'string')],
  'std_msgs/msg/Bool': [f('data', 'bool')],
  'builtin_interfaces/msg/Time': [f('sec', 'int32'), f('nanosec', 'uint32')],
  'std_msgs/msg/Header': [f('stamp', 'builtin_interfaces/msg/Time'), f('frame_id', 'string')],
  'geometry_msgs/msg/Vector3': [f('x', 'float64'), f('y', 'float64'), f('z', 'float64')],
  'geometry_msgs/msg/Twist': [f('linear', 'geometry_msgs/msg/Vector3'), f('angular', 'geometry_msgs/msg/Vector3')],
  'geometry_msgs/msg/TwistStamped': [...HEADER, f('twist', 'geometry_msgs/msg/Twist')],
  'sensor_msgs/msg/LaserScan': [
    ...HEADER,
    ...['angle_min', 'angle_max', 'angle_increment', 'time_increment', 'scan_time', 'range_min', 'range_max'].map(
      (name) => f(name, 'float32'),
    ),
    f('ranges', 'float32', true),
    f('intensities', 'float32', true),
  ],
  'builtin_interfaces/msg/Duration': [f('sec', 'int32'), f('nanosec', 'uint32')],
  'geometry_msgs/msg/Point': [f('x', 'float64'), f('y', 'float64'), f('z', 'float64')],
  'geometry_msgs/msg/Quaternion': [f('x', 'float64'), f('y', 'float64'), f('z', 'float64'), f('w', 'float64')],
  'geometry_msgs/msg/Pose': [
    f('position', 'geometry_msgs/msg/Point'),
    f('orientation', 'geometry_msgs/msg/Quaternion'),
  ],
  'geometry_msgs/msg/PoseStamped': [...HEADER, f('pose', 'geometry_msgs/msg/Pose')],
  'nav2_msgs/action/NavigateToPose_Goal': [f('pose', 'geometry_msgs/msg/PoseStamped'), f('behavior_tree', 'string')],
  'nav2_msgs/action/NavigateToPose_Feedback': [
    f('current_pose', 'geometry_msgs/msg/PoseStamped'),
    f('navigation_time', 'builtin_interfaces/msg/Duration'),
    f('estimated_time_remaining', 'builtin_interfaces/msg/Duration'),
    f('number_of_recoveries', 'int16'),
    f('distance_remaining', 'float32'),
  ],
  'nav2_msgs/action/NavigateToPose_Result': [f('error_code', 'uint16'), f('error_msg', 'string')],
  'unique_identifier_msgs/msg/UUID': [f('uuid', 'uint8', true)],
  'action_msgs/msg/GoalInfo': [
    f('goal_id', 'unique_identifier_msgs/msg/UUID'),
    f('stamp', 'builtin_interfaces/msg/Time'),
  ],
  'action_msgs/srv/CancelGoal_Request': [f('goal_info', 'action_msgs/msg/GoalInfo')],
  'action_msgs/srv/CancelGoal_Response': [
    f('return_code', 'int8'),
    f('goals_canceling', 'action_msgs/msg/GoalInfo', true),
  ],
  'example_interfaces/msg/Int64': [f('data', 'int64')],
  'example_interfaces/msg/Int64MultiArrayData': [f('data', 'int64', true)],
  'example_interfaces/srv/AddTwoInts_Request': [f('a', 'int64'), f('b', 'int64')],
  'example_interfaces/srv/AddTwoInts_Response': [f('sum', 'int64')],
  'std_srvs/srv/Trigger_Request': [],
  'std_srvs/srv/Trigger_Response': [f('success', 'bool'), f('message', 'string')],
  'mira_interfaces/srv/Recall_Request': [f('query', 'string')],
  'mira_interfaces/srv/Recall_Response': [f('status', 'string'), f('text', 'string')],
  // The parameter services every rclnodejs node starts (lib/parameter_service.js); Mira calls these two.
  'rcl_interfaces/msg/ParameterValue': [
    f('type', 'uint8'),
    f('bool_value', 'bool'),
    f('integer_value', 'int64'),
    f('double_value', 'float64'),
    f('string_value', 'string'),
    f('byte_array_value', 'uint8', true),
    f('bool_array_value', 'bool', true),
    f('integer_array_value', 'int64', true),
    f('double_array_value', 'float64', true),
    f('string_array_value', 'string', true),
  ],
  'sensor_msgs/msg/CompressedImage': [...HEADER, f('format', 'string'), f('data', 'uint8', true)],
  'rcl_interfaces/msg/ListParametersResult': [f('names', 'string', true), f('prefixes', 'string', true)],
  'rcl_interfaces/srv/ListParameters_Request': [f('prefixes', 'string', true), f('depth', 'uint64')],
  'rcl_interfaces/srv/ListParameters_Response': [f('result', 'rcl_interfaces/msg/ListParametersResult')],
  'rcl_interfaces/srv/GetParameters_Request': [f('names', 'string', true)],
  'rcl_interfaces/srv/GetParameters_Response': [f('values', 'rcl_interfaces/msg/ParameterValue', true)],
  'rcl_interfaces/msg/Parameter': [f('name', 'string'), f('value', 'rcl_interfaces/msg/ParameterValue')],
  'rcl_interfaces/msg/SetParametersResult': [f('successful', 'bool'), f('reason', 'string')],
  'rcl_interfaces/srv/SetParameters_Request': [f('parameters', 'rcl_interfaces/msg/Parameter', true)],
  'rcl_interfaces/srv/SetParameters_Response': [f('results', 'rcl_interfaces/msg/SetParametersResult', true)],
  'irobot_create_msgs/action/Dock_Goal': [],
  'irobot_create_msgs/action/Dock_Feedback': [f('sees_dock', 'bool')],
  'irobot_create_msgs/action/Dock_Result': [f('is_docked', 'bool')],
  'rcl_interfaces/msg/Log': [
    f('stamp', 'builtin_interfaces/msg/Time'),
    f('level', 'uint8'),
    f('name', 'string'),
    f('msg', 'string'),
    f('file', 'string'),
    f('function', 'string'),
    f('line', 'uint32'),
  ],
};

function definition(type: string): FieldDef[] {
  const def = DEFINITIONS[type];
  if (!def) throw new Error(`The message required does not exist: ${type}`);
  return def;
}

function splitType(type: string): { pkgName: string; name: string } {
  const [pkgName, , name] = type.split('/');
  return { pkgName: pkgName!, name: name! };
}

/** Builds a message as rclnodejs's generated classes do: checks each field, fills defaults. */
function build(type: string, value: RosMessage, path = ''): RosMessage {
  const out: RosMessage = {};
  for (const field of definition(type)) {
    const given = value[field.name];
    const where = `${path}${field.name}`;
    const one = (v: unknown): unknown => {
      if (!PRIMITIVES.has(field.type)) return build(field.type, (v ?? {}) as RosMessage, `${where}.`);
      if (field.type === 'int64' || field.type === 'uint64') {
        if (v === undefined) return 0n;
        if (typeof v !== 'bigint') throw new TypeError(`${field.name} must be type of bigint`);
        return v;
      }
      if (field.type === 'string') {
        if (v === undefined) return '';
        if (typeof v !== 'string') throw new TypeError(`${field.name} must be type of string`);
        return v;
      }
      if (field.type === 'bool') return v === undefined ? false : Boolean(v);
      if (v === undefined) return 0;
      if (typeof v !== 'number') throw new TypeError(`${field.name} must be type of number`);
      return v;
    };
    if (field.array) {
      const list = given === undefined ? [] : Array.from(given as ArrayLike<unknown>);
      out[field.name] = list.map(one);
    } else {
      out[field.name] = one(given);
    }
  }
  return out;
}

/** A received message as rclnodejs hands it over: numeric arrays typed, unless plain is asked for. */
function deliver(type: string, message: RosMessage, plain: boolean): RosMessage {
  const out: RosMessage = {};
  for (const field of definition(type)) {
    const value = message[field.name];
    if (!PRIMITIVES.has(field.type)) {
      out[field.name] = field.array
        ? (value as RosMessage[]).map((m) => deliver(field.type, m, plain))
        : deliver(field.type, value as RosMessage, plain);
    } else if (field.array && !plain && field.type === 'float32') {
      out[field.name] = Float32Array.from(value as number[]);
    } else if (field.array && !plain && field.type === 'float64') {
      out[field.name] = Float64Array.from(value as number[]);
    } else if (field.array && !plain && field.type === 'int64') {
      out[field.name] = BigInt64Array.from(value as bigint[]);
    } else {
      out[field.name] = Array.isArray(value) ? [...value] : value;
    }
  }
  return out;
}

class TimeoutError extends Error {
  readonly code = 'TIMEOUT';
  constructor(what: string, ms: number) {
    super(`${what} timeout after ${ms}ms`);
    this.name = 'TimeoutError';
  }
}

interface Subscription {
  readonly node: StandinNode;
  readonly type: string;
  readonly topic: string;
  readonly plain: boolean;
  readonly qos: RclQoS | undefined;
  readonly callback: (message: RosMessage) => void;
}
interface Publisher {
  readonly node: StandinNode;
  readonly type: string;
  readonly topic: string;
  readonly qos: RclQoS | undefined;
  /** What a transient-local publisher keeps for late subscriptions. */
  readonly history: RosMessage[];
}

const RELIABLE = 1;
const TRANSIENT_LOCAL = 1;
/** rmw's defaults for SYSTEM_DEFAULT (0): reliable, volatile. */
function effective(qos: RclQoS | undefined): { reliability: number; durability: number } {
  return { reliability: qos?.reliability || RELIABLE, durability: qos?.durability || 2 };
}

/**
 * DDS's request-versus-offered rule, as every rmw applies it: a reliable subscription matches only
 * reliable publishers, a transient-local one only transient-local publishers; best effort and volatile
 * subscriptions match any.
 */
function matches(publisher: Publisher, subscription: Subscription): boolean {
  const offered = effective(publisher.qos);
  const requested = effective(subscription.qos);
  if (requested.reliability === RELIABLE && offered.reliability !== RELIABLE) return false;
  if (requested.durability === TRANSIENT_LOCAL && offered.durability !== TRANSIENT_LOCAL) return false;
  return true;
}

interface Service {
  readonly node: StandinNode;
  readonly type: string;
  readonly name: string;
  readonly callback: (request: RosMessage, response: RclServiceResponse) => unknown;
}

/** The ROS graph every node of this module shares (one DDS domain). */
export const graph = {
  subscriptions: new Set<Subscription>(),
  publishers: new Set<Publisher>(),
  services: new Set<Service>(),
  /** Clients alive now, and ever created. */
  clients: new Set<StandinClient>(),
  clientsCreated: 0,
  nodes: new Set<StandinNode>(),
  /** What rclnodejs would have logged (its own error lines, and nodes' loggers). */
  logged: [] as string[],
  /** Every message published, by resolved topic. */
  published: new Map<string, RosMessage[]>(),
};

class StandinQoS implements RclQoS {
  static readonly HistoryPolicy = {
    RMW_QOS_POLICY_HISTORY_SYSTEM_DEFAULT: 0,
    RMW_QOS_POLICY_HISTORY_KEEP_LAST: 1,
    RMW_QOS_POLICY_HISTORY_KEEP_ALL: 2,
  };
  static readonly ReliabilityPolicy = {
    RMW_QOS_POLICY_RELIABILITY_SYSTEM_DEFAULT: 0,
    RMW_QOS_POLICY_RELIABILITY_RELIABLE: 1,
    RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT: 2,
  };
  static readonly DurabilityPolicy = {
    RMW_QOS_POLICY_DURABILITY_SYSTEM_DEFAULT: 0,
    RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL: 1,
    RMW_QOS_POLICY_DURABILITY_VOLATILE: 2,
  };
  constructor(
    public history = 0,
    public depth = 0,
    public reliability = 0,
    public durability = 0,
  ) {}
}

class StandinContext implements RclContext {
  static readonly instances = new Set<StandinContext>();
  static #default: StandinContext | undefined;
  initialised = false;
  #shutdown = false;
  static defaultContext(): StandinContext {
    StandinContext.#default ??= new StandinContext();
    return StandinContext.#default;
  }
  constructor() {
    StandinContext.instances.add(this);
  }
  isShutdown(): boolean {
    return this.#shutdown;
  }
  shutdown(): void {
    if (this.#shutdown) throw new Error('The context has already been shut down');
    this.#shutdown = true;
    for (const node of graph.nodes) if (node.context === this) node.destroy();
  }
}

class StandinClient implements RclClient {
  constructor(
    readonly node: StandinNode,
    readonly type: string,
    readonly name: string,
  ) {}
  #server(): Service | undefined {
    return [...graph.services].find((s) => s.name === this.name && s.type === this.type);
  }
  async waitForService(timeout = 0): Promise<boolean> {
    const deadline = Date.now() + timeout;
    while (!this.#server()) {
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, 5));
    }
    return true;
  }
  sendRequestAsync(request: RosMessage, options: { timeout?: number } = {}): Promise<RosMessage> {
    if (!graph.clients.has(this)) return Promise.reject(new Error('the client has been destroyed'));
    const payload = build(`${this.type}_Request`, request);
    const alive = (): boolean => graph.clients.has(this);
    return new Promise((resolve, reject) => {
      const timer =
        options.timeout === undefined
          ? undefined
          : setTimeout(() => reject(new TimeoutError('Service request', options.timeout!)), options.timeout);
      const server = this.#server();
      if (!server) return; // nobody answers; the timeout (if any) fires
      setImmediate(() => {
        if (!server.node.spinning) return;
        const response = {
          sent: false,
          get template() {
            return build(`${server.type}_Response`, {});
          },
          send(message: RosMessage) {
            const built = build(`${server.type}_Response`, message);
            this.sent = true;
            setImmediate(() => {
              clearTimeout(timer);
              if (alive()) resolve(deliver(`${server.type}_Response`, built, false));
            });
          },
        };
        // As in rclnodejs's Service.processRequest: a synchronous throw escapes; a rejection is logged.
        Promise.resolve(server.callback(deliver(`${server.type}_Request`, payload, false), response))
          .then((answer) => {
            if (!response.sent && answer) response.send(answer as RosMessage);
          })
          .catch((error: Error) => graph.logged.push(`Error processing ${server.name} request: ${error}`));
      });
    });
  }
}

class StandinNode implements RclNode {
  spinning = false;
  #destroyed = false;
  readonly context: StandinContext;
  /**
   * The node's parameters as rcl_interfaces/msg/ParameterValue: `use_sim_time` (false), which rclnodejs's
   * TimeSource declares on every node, and what a test gives ({@link remoteNode}).
   */
  readonly parameters = new Map<string, RosMessage>([['use_sim_time', { type: 1, bool_value: false }]]);
  constructor(
    readonly name: string,
    readonly namespace = '',
    context?: StandinContext,
  ) {
    this.context = context ?? StandinContext.defaultContext();
    if (!this.context.initialised || this.context.isShutdown()) {
      throw new Error('the context is not initialised, or was shut down: call rclnodejs.init(context) first');
    }
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`Invalid node name: ${name}`);
    graph.nodes.add(this);
    // NodeOptions.startParameterServices (default true): lib/parameter_service.js serves list_parameters,
    // get_parameters and set_parameters (and describe, which Mira never calls and this stand-in leaves out)
    // under the node.
    this.createService('rcl_interfaces/srv/ListParameters', '~/list_parameters', {}, () => ({
      result: { names: [...this.parameters.keys()], prefixes: [] },
    }));
    this.createService('rcl_interfaces/srv/GetParameters', '~/get_parameters', {}, (request) => ({
      values: ((request.names as string[] | undefined) ?? []).map((n) => this.parameters.get(n) ?? { type: 0 }),
    }));
    // One result per parameter, each through Node._setParametersAtomically([p]) (lib/node.js
    // _validateParameters): an undeclared one "has not been declared"; one of another type than its descriptor's
    // fails validateParameter, which rclnodejs 2.2 reports, word for word, as "does not  readonly".
    this.createService('rcl_interfaces/srv/SetParameters', '~/set_parameters', {}, (request) => ({
      results: ((request.parameters as RosMessage[] | undefined) ?? []).map((parameter) => {
        const name = String(parameter.name);
        const value = parameter.value as RosMessage;
        const current = this.parameters.get(name);
        if (!current) return { successful: false, reason: `Parameter ${name} has not been declared` };
        if (current.type !== value.type) return { successful: false, reason: `Parameter ${name} does not  readonly` };
        this.parameters.set(name, value);
        return { successful: true, reason: '' };
      }),
    }));
  }

  /** Topics with a publisher or a subscription, hidden ones too, as rcl's graph query gives them. */
  getTopicNamesAndTypes(): Array<{ name: string; types: string[] }> {
    this.#live();
    const byName = new Map<string, Set<string>>();
    for (const e of [...graph.publishers, ...graph.subscriptions])
      byName.set(e.topic, (byName.get(e.topic) ?? new Set()).add(e.type));
    for (const [name, server] of actionServers) {
      if (server.node.context.isShutdown()) continue;
      const [pkg, , base] = server.type.split('/');
      byName.set(`${name}/_action/feedback`, new Set([`${pkg}/action/${base}_FeedbackMessage`]));
      byName.set(`${name}/_action/status`, new Set(['action_msgs/msg/GoalStatusArray']));
    }
    return [...byName].map(([name, types]) => ({ name, types: [...types].sort() }));
  }

  /** Services with a server, hidden ones (an action's) too. */
  getServiceNamesAndTypes(): Array<{ name: string; types: string[] }> {
    this.#live();
    const byName = new Map<string, Set<string>>();
    for (const service of graph.services)
      byName.set(service.name, (byName.get(service.name) ?? new Set()).add(service.type));
    return [...byName].map(([name, types]) => ({ name, types: [...types].sort() }));
  }

  /** rcl's node list; the root namespace is `/`. */
  getNodeNamesAndNamespaces(): Array<{ name: string; namespace: string }> {
    this.#live();
    return [...graph.nodes].map((node) => ({ name: node.name, namespace: node.namespace || '/' }));
  }

  resolve(name: string): string {
    if (name.startsWith('/')) return name;
    if (name.startsWith('~/')) return `${this.namespace}/${this.name}/${name.slice(2)}`;
    return `${this.namespace}/${name}`;
  }

  #live(): void {
    if (this.#destroyed || this.context.isShutdown()) throw new Error(`node ${this.name} is destroyed`);
  }

  createPublisher(type: string, topic: string, options: RclOptions = {}): RclPublisher {
    this.#live();
    definition(type);
    const publisher: Publisher = { node: this, type, topic: this.resolve(topic), qos: options.qos, history: [] };
    graph.publishers.add(publisher);
    return {
      publish: (message: RosMessage) => {
        this.#live();
        const built = build(type, message);
        const list = graph.published.get(publisher.topic) ?? [];
        list.push(built);
        graph.published.set(publisher.topic, list);
        // A transient-local publisher keeps its last `depth` messages for subscriptions that join later.
        if (effective(publisher.qos).durability === TRANSIENT_LOCAL) {
          publisher.history.push(built);
          publisher.history.splice(0, Math.max(0, publisher.history.length - (publisher.qos?.depth || 1)));
        }
        setImmediate(() => {
          for (const s of graph.subscriptions) {
            if (s.topic === publisher.topic && s.type === type && s.node.spinning && matches(publisher, s))
              s.callback(deliver(type, built, s.plain));
          }
        });
      },
    };
  }

  createSubscription(
    type: string,
    topic: string,
    options: RclOptions,
    callback: (message: RosMessage) => void,
  ): object {
    this.#live();
    definition(type);
    const subscription: Subscription = {
      node: this,
      type,
      topic: this.resolve(topic),
      plain: options.serializationMode === 'plain' || options.serializationMode === 'json',
      qos: options.qos,
      callback,
    };
    graph.subscriptions.add(subscription);
    // A transient-local subscription gets what matching transient-local publishers kept (a latched value).
    if (effective(subscription.qos).durability === TRANSIENT_LOCAL) {
      const late = [...graph.publishers].filter(
        (p) => p.topic === subscription.topic && p.type === type && matches(p, subscription),
      );
      setImmediate(() => {
        for (const publisher of late)
          for (const built of publisher.history)
            if (this.spinning && graph.subscriptions.has(subscription))
              callback(deliver(type, built, subscription.plain));
      });
    }
    return subscription;
  }

  createService(
    type: string,
    name: string,
    options: RclOptions,
    callback: (request: RosMessage, response: RclServiceResponse) => unknown,
  ): object {
    this.#live();
    definition(`${type}_Request`);
    const service: Service = { node: this, type, name: this.resolve(name), callback };
    graph.services.add(service);
    return service;
  }

  createClient(type: string, name: string): RclClient {
    this.#live();
    definition(`${type}_Request`);
    const client = new StandinClient(this, type, this.resolve(name));
    graph.clients.add(client);
    graph.clientsCreated += 1;
    return client;
  }

  destroyPublisher(): void {}
  destroySubscription(subscription: object): void {
    graph.subscriptions.delete(subscription as Subscription);
  }
  destroyService(service: object): void {
    graph.services.delete(service as Service);
  }
  destroyClient(client: RclClient): void {
    graph.clients.delete(client as StandinClient);
  }
  getLogger(): RclLogger {
    const line = (level: string) => (message: string) => graph.logged.push(`[${level}] [${this.name}]: ${message}`) > 0;
    return { info: line('INFO'), warn: line('WARN'), error: line('ERROR') };
  }
  spin(): void {
    this.#live();
    this.spinning = true;
  }
  destroy(): void {
    this.#destroyed = true;
    this.spinning = false;
    graph.nodes.delete(this);
    for (const s of graph.subscriptions) if (s.node === this) graph.subscriptions.delete(s);
    for (const p of graph.publishers) if (p.node === this) graph.publishers.delete(p);
    for (const s of graph.services) if (s.node === this) graph.services.delete(s);
    for (const c of graph.clients) if (c.node === this) graph.clients.delete(c);
  }
}

class StandinIntrospector {
  readonly schema: RclMessageDef;
  constructor(type: string) {
    this.schema = {
      fields: definition(type).map((field) => {
        const primitive = PRIMITIVES.has(field.type);
        return {
          name: field.name,
          type: {
            isPrimitiveType: primitive,
            type: primitive ? field.type : splitType(field.type).name,
            pkgName: primitive ? null : splitType(field.type).pkgName,
            isArray: field.array ?? false,
          },
        };
      }),
    };
  }
}

/** A goal at a stand-in action server. */
export interface StandinGoal {
  readonly goal: RosMessage;
  /** unique_identifier_msgs/msg/UUID's 16 bytes, as the client made them. */
  readonly uuid: readonly number[];
  /** When the server accepted it (ns since the epoch): what a cancel request's stamp is compared with. */
  readonly acceptedNs: bigint;
  state: 'active' | 'succeeded' | 'canceled' | 'aborted';
  feedback(values: RosMessage): void;
  succeed(values?: RosMessage): void;
  abort(values?: RosMessage): void;
}

interface ActionServer {
  readonly node: StandinNode;
  readonly type: string;
  readonly goals: Array<StandinGoal & { end(to: 'succeeded' | 'canceled' | 'aborted', values?: RosMessage): void }>;
  accept: boolean;
}
const actionServers = new Map<string, ActionServer>();
const STATUS = { succeeded: 4, canceled: 5, aborted: 6 } as const;

/**
 * Serves an action on the graph (Nav2, say), with the `<name>/_action/cancel_goal` service every
 * ROS 2 action server has (an all-zero goal ID cancels every goal). `accept: false` rejects goals.
 */
export async function serveAction(name: string, type: string, accept = true): Promise<{ goals: StandinGoal[] }> {
  // Serving a name again replaces the server there (its node, and so its cancel service, goes).
  const previous = actionServers.get(name);
  if (previous && !previous.node.context.isShutdown()) previous.node.context.shutdown();
  const context = new StandinContext();
  await rclnodejs.init(context);
  const node = new StandinNode('action_server', '', context);
  node.spin();
  const server: ActionServer = { node, type, goals: [], accept };
  actionServers.set(name, server);
  node.createService('action_msgs/srv/CancelGoal', `${name}/_action/cancel_goal`, {}, (request: RosMessage) =>
    processCancelRequest(server, request),
  );
  return server;
}

/**
 * An action server's answer to action_msgs/srv/CancelGoal, as rcl_action_process_cancel_request decides
 * it (rcl_action/src/rcl_action/action_server.c): a goal's UUID with a zero stamp cancels exactly that
 * goal (ERROR_UNKNOWN_GOAL_ID when there is none, ERROR_GOAL_TERMINATED when it has ended); otherwise
 * every active goal accepted at or before the stamp, and the one the UUID names — all of them when both
 * are zero.
 */
function processCancelRequest(server: ActionServer, request: RosMessage): RosMessage {
  const info = (request.goal_info ?? {}) as { goal_id?: { uuid?: ArrayLike<number> }; stamp?: RosMessage };
  const uuid = Array.from(info.goal_id?.uuid ?? new Array<number>(16).fill(0));
  const stampNs = BigInt(Number(info.stamp?.sec ?? 0)) * 1_000_000_000n + BigInt(Number(info.stamp?.nanosec ?? 0));
  const zeroId = uuid.every((byte) => byte === 0);
  const named = (goal: StandinGoal) => uuid.length === 16 && goal.uuid.every((byte, i) => byte === uuid[i]);
  const infoOf = (goal: StandinGoal) => ({
    goal_id: { uuid: [...goal.uuid] },
    stamp: { sec: Number(goal.acceptedNs / 1_000_000_000n), nanosec: Number(goal.acceptedNs % 1_000_000_000n) },
  });
  if (!zeroId && stampNs === 0n) {
    const goal = server.goals.find(named);
    if (!goal) return { return_code: 2, goals_canceling: [] };
    if (goal.state !== 'active') return { return_code: 3, goals_canceling: [] };
    goal.end('canceled');
    return { return_code: 0, goals_canceling: [infoOf(goal)] };
  }
  const upTo = zeroId && stampNs === 0n ? BigInt(Number.MAX_SAFE_INTEGER) * 1_000_000n : stampNs;
  const canceling = server.goals.filter((g) => g.state === 'active' && (g.acceptedNs <= upTo || named(g)));
  for (const goal of canceling) goal.end('canceled');
  return { return_code: 0, goals_canceling: canceling.map(infoOf) };
}

class StandinGoalHandle {
  status = 1;
  #result: Promise<RosMessage>;
  constructor(
    readonly accepted: boolean,
    result: Promise<{ status: number; result: RosMessage }>,
    readonly cancelGoal: () => Promise<RosMessage>,
    /** unique_identifier_msgs/msg/UUID, as rclnodejs's ClientGoalHandle.goalId gives it. */
    readonly goalId: { readonly uuid: Uint8Array },
  ) {
    this.#result = result.then(({ status, result: r }) => {
      this.status = status;
      return r;
    });
  }
  isAccepted(): boolean {
    return this.accepted;
  }
  getResult(): Promise<RosMessage> {
    if (!this.accepted) return Promise.reject(new Error('the goal was not accepted'));
    return this.#result;
  }
}

class StandinActionClient {
  readonly #name: string;
  #destroyed = false;
  constructor(
    readonly node: StandinNode,
    readonly type: string,
    name: string,
  ) {
    definition(`${type}_Goal`);
    this.#name = node.resolve(name);
  }
  async waitForServer(timeout = 0): Promise<boolean> {
    const deadline = Date.now() + timeout;
    while (actionServers.get(this.#name)?.type !== this.type) {
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, 5));
    }
    return true;
  }
  async sendGoal(goal: RosMessage, feedbackCallback?: (feedback: RosMessage) => void): Promise<StandinGoalHandle> {
    if (this.#destroyed) throw new Error('the action client has been destroyed');
    const built = build(`${this.type}_Goal`, goal);
    const server = actionServers.get(this.#name);
    if (!server) return new Promise(() => {}); // nobody answers
    // rclnodejs's ActionClient makes each goal's UUID (action_uuid.js: random bytes).
    const uuid = new Uint8Array(randomBytes(16));
    await new Promise((r) => setImmediate(r));
    if (!server.accept) {
      return new StandinGoalHandle(false, new Promise(() => {}), async () => ({}), { uuid });
    }
    let settle!: (outcome: { status: number; result: RosMessage }) => void;
    const result = new Promise<{ status: number; result: RosMessage }>((resolve) => (settle = resolve));
    const entry: ActionServer['goals'][number] = {
      goal: deliver(`${this.type}_Goal`, built, false),
      uuid: Array.from(uuid),
      acceptedNs: BigInt(Date.now()) * 1_000_000n,
      state: 'active',
      end: (to, values = {}) => {
        if (entry.state !== 'active') return;
        entry.state = to;
        const r = deliver(`${this.type}_Result`, build(`${this.type}_Result`, values), false);
        setImmediate(() => settle({ status: STATUS[to], result: r }));
      },
      feedback: (values) => {
        const f = build(`${this.type}_Feedback`, values);
        if (entry.state === 'active' && feedbackCallback && this.node.spinning && !this.#destroyed) {
          setImmediate(() => feedbackCallback(deliver(`${this.type}_Feedback`, f, false)));
        }
      },
      succeed: (values) => entry.end('succeeded', values),
      abort: (values) => entry.end('aborted', values),
    };
    server.goals.push(entry);
    // ClientGoalHandle.cancelGoal() asks the server's cancel service for this goal alone.
    return new StandinGoalHandle(
      true,
      result,
      async () => processCancelRequest(server, { goal_info: { goal_id: { uuid } } }),
      {
        uuid,
      },
    );
  }
  destroy(): void {
    this.#destroyed = true;
  }
}

/**
 * A node elsewhere on the graph (a driver, a controller), spinning in a context of its own, with
 * `parameters` (rcl_interfaces/msg/ParameterValue each) beside its `use_sim_time`. Its context's
 * `shutdown()` takes it off the graph.
 */
export async function remoteNode(
  name: string,
  namespace: string,
  parameters: Record<string, RosMessage> = {},
): Promise<RclNode & { readonly context: RclContext }> {
  const context = new StandinContext();
  await rclnodejs.init(context);
  const node = new StandinNode(name, namespace, context);
  for (const [key, value] of Object.entries(parameters)) node.parameters.set(key, value);
  node.spin();
  return node;
}

/**
 * Stops every action server {@link serveAction} started (their nodes go, and with them their names from the
 * graph): the graph is one per process, and mocha runs several files in one process.
 */
export function stopActionServers(): void {
  for (const server of actionServers.values()) if (!server.node.context.isShutdown()) server.node.context.shutdown();
  actionServers.clear();
}

/** Shuts every context down, as rclnodejs's own SIGINT handler does. */
export function shutdownAll(): void {
  for (const context of StandinContext.instances) if (!context.isShutdown()) context.shutdown();
}
const sigintHandler = (): void => shutdownAll();
process.on('SIGINT', sigintHandler);

/** Whether the SIGINT handler installed on import is still there. */
export function signalHandlerInstalled(): boolean {
  return process.listeners('SIGINT').includes(sigintHandler);
}

/** Puts the SIGINT handler back (for the next test), as a fresh import would. */
export function reinstallSignalHandler(): void {
  if (!signalHandlerInstalled()) process.on('SIGINT', sigintHandler);
}

const rclnodejs: Rclnodejs & {
  Context: typeof StandinContext;
  shutdown(context?: StandinContext): void;
} = {
  async init(context?: RclContext) {
    const target = (context as StandinContext | undefined) ?? StandinContext.defaultContext();
    if (target.initialised) throw new Error('The context has already been initialised');
    target.initialised = true;
  },
  Context: StandinContext,
  Node: StandinNode as unknown as Rclnodejs['Node'],
  QoS: StandinQoS,
  MessageIntrospector: StandinIntrospector,
  ActionClient: StandinActionClient as unknown as Rclnodejs['ActionClient'],
  removeSignalHandlers() {
    process.removeListener('SIGINT', sigintHandler);
  },
  getActionNamesAndTypes(node: RclNode) {
    if (!graph.nodes.has(node as StandinNode)) throw new Error('the node is destroyed');
    return [...actionServers]
      .filter(([, server]) => !server.node.context.isShutdown())
      .map(([name, server]) => ({ name, types: [server.type] }));
  },
  shutdown(context?: StandinContext) {
    (context ?? StandinContext.defaultContext()).shutdown();
  },
};

export default rclnodejs;
