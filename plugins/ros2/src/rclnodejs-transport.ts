import { MiraError } from '@mira/core';
import {
  CANCEL_GOAL_SERVICE_TYPE,
  HardwareErrors,
  type ActionGoal,
  type ActionOutcome,
  type QosProfile,
  type GraphEntry,
  type RobotTransport,
  type RosGraph,
  type RosMessage,
} from '@mira/robot';
import type {
  RclActionClient,
  RclClient,
  RclContext,
  RclMessageDef,
  RclNamesAndTypes,
  RclNode,
  RclPublisher,
  RclQoS,
  Rclnodejs,
} from './rclnodejs-api.js';
import { toPlainJson, toRclMessage } from './ros-json.js';

export type { Rclnodejs } from './rclnodejs-api.js';

/** action_msgs/srv/CancelGoal's return codes. */
const CANCEL_RETURN_CODES: Readonly<Record<number, string>> = {
  1: 'ERROR_REJECTED',
  2: 'ERROR_UNKNOWN_GOAL_ID',
  3: 'ERROR_GOAL_TERMINATED',
};
/** The goal had ended already: nothing left to cancel, which is what a cancel wants. */
const CANCEL_GOAL_TERMINATED = 3;

/** A name ROS 2's tools hide: one of its parts starts with `_` (ros2cli `topic_or_service_is_hidden`). */
const hidden = (name: string) => name.split('/').some((part) => part.startsWith('_'));

/** Graph entries as rosapi gives them: hidden ones left out, the first type of each. */
function visible(entries: readonly RclNamesAndTypes[]): GraphEntry[] {
  return entries.filter(({ name }) => !hidden(name)).map(({ name, types }) => ({ name, type: types[0] ?? '' }));
}

/** Loads rclnodejs, or explains plainly why it cannot be used here. */
export async function loadRclnodejs(): Promise<Rclnodejs> {
  const hint =
    'native ROS 2 needs a sourced ROS 2 installation (source /opt/ros/<distro>/setup.bash, then npm install) so that rclnodejs installs; ' +
    'on a machine without ROS 2, use [ros2] transport = "rosbridge" with the robot running rosbridge_server';
  if (!process.env.AMENT_PREFIX_PATH && !process.env.ROS_DISTRO) {
    throw HardwareErrors.error('TRANSPORT_UNAVAILABLE.rosNotSourced', { hint });
  }
  try {
    const mod = (await import('rclnodejs' as string)) as { default?: Rclnodejs } & Rclnodejs;
    return mod.default ?? mod;
  } catch (error) {
    throw HardwareErrors.error(
      'TRANSPORT_UNAVAILABLE.rclnodejs',
      { reason: (error as Error).message.split('\n')[0], hint },
      { cause: error },
    );
  }
}

/** How an {@link RclnodejsTransport} is built: where its log lines go, and (for tests) which module it loads. */
export interface RclnodejsTransportOptions {
  readonly log?: (message: string) => void;
  /** Loads the rclnodejs module; the default imports `rclnodejs`. */
  readonly load?: () => Promise<Rclnodejs>;
}

/**
 * A {@link RobotTransport} on native ROS 2 through rclnodejs, loaded only when selected.
 * It owns its rcl context (the process's default context is left alone), removes the
 * SIGINT handler rclnodejs installs on import (Mira's orderly stop publishes its last
 * zero-velocity command before this transport closes), and speaks the same plain JSON
 * as the rosbridge transport.
 */
export class RclnodejsTransport implements RobotTransport {
  readonly name: string;
  readonly #nodeName: string;
  readonly #namespace: string;
  readonly #log: (message: string) => void;
  readonly #load: () => Promise<Rclnodejs>;
  #rcl: Rclnodejs | undefined;
  #context: RclContext | undefined;
  #node: RclNode | undefined;
  readonly #publishers = new Map<string, RclPublisher>();
  readonly #clients = new Map<string, RclClient>();
  readonly #actionClients = new Map<string, RclActionClient>();
  readonly #schemas = new Map<string, RclMessageDef>();
  #closed = false;

  constructor(nodeName: string, namespace = '', options: RclnodejsTransportOptions = {}) {
    this.#nodeName = nodeName;
    this.#namespace = namespace;
    this.#log = options.log ?? (() => {});
    this.#load = options.load ?? loadRclnodejs;
    this.name = `rclnodejs node ${namespace}/${nodeName}`;
  }

  #qos(profile: QosProfile | undefined): RclQoS {
    const { QoS } = this.#rcl!;
    return new QoS(
      QoS.HistoryPolicy.RMW_QOS_POLICY_HISTORY_KEEP_LAST,
      profile?.depth ?? 10,
      profile?.reliability === 'best_effort'
        ? QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT
        : QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_RELIABLE,
      profile?.durability === 'transient_local'
        ? QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL
        : QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_VOLATILE,
    );
  }

  #schema = (type: string): RclMessageDef => {
    let schema = this.#schemas.get(type);
    if (!schema) {
      schema = new this.#rcl!.MessageIntrospector(type).schema;
      this.#schemas.set(type, schema);
    }
    return schema;
  };

  #toRcl(message: RosMessage, type: string): RosMessage {
    try {
      return toRclMessage(message, type, this.#schema);
    } catch (error) {
      if (error instanceof MiraError) throw error;
      throw HardwareErrors.error(
        'TRANSPORT_FAILED.failed',
        { name: this.name, reason: (error as Error).message },
        {
          cause: error,
        },
      );
    }
  }

  #requireNode(): RclNode {
    if (!this.#node || this.#closed) throw HardwareErrors.error('TRANSPORT_FAILED.notConnected', { name: this.name });
    return this.#node;
  }

  async connect(): Promise<void> {
    if (this.#node) return;
    const rcl = await this.#load();
    // rclnodejs shuts every context down on SIGINT; Mira stops in order instead.
    rcl.removeSignalHandlers();
    const context = new rcl.Context();
    await rcl.init(context);
    this.#rcl = rcl;
    this.#context = context;
    this.#node = new rcl.Node(this.#nodeName, this.#namespace, context);
    this.#node.spin();
  }

  subscribe(topic: string, type: string, handler: (message: RosMessage) => void, qos?: QosProfile): () => void {
    const node = this.#requireNode();
    const subscription = node.createSubscription(
      type,
      topic,
      { qos: this.#qos(qos), serializationMode: 'plain' },
      (message) => handler(toPlainJson(message) as RosMessage),
    );
    return () => {
      if (!this.#closed) node.destroySubscription(subscription);
    };
  }

  async publish(topic: string, type: string, message: RosMessage, qos?: QosProfile): Promise<void> {
    this.#publisher(topic, type, qos).publish(this.#toRcl(message, type));
  }

  async advertise(topic: string, type: string, qos?: QosProfile): Promise<void> {
    this.#publisher(topic, type, qos);
  }

  /** The topic's publisher, created when first asked for. */
  #publisher(topic: string, type: string, qos: QosProfile | undefined): RclPublisher {
    const node = this.#requireNode();
    let publisher = this.#publishers.get(topic);
    if (!publisher) {
      publisher = node.createPublisher(type, topic, { qos: this.#qos(qos) });
      this.#publishers.set(topic, publisher);
    }
    return publisher;
  }

  advertiseService(
    service: string,
    type: string,
    handler: (request: RosMessage) => RosMessage | Promise<RosMessage>,
  ): () => void {
    const node = this.#requireNode();
    const created = node.createService(type, service, { qos: this.#qos(undefined) }, async (request, response) => {
      try {
        const answer = await handler(toPlainJson(request) as RosMessage);
        response.send(this.#toRcl(answer, `${type}_Response`));
      } catch (error) {
        // ROS 2 services have no error reply: answer with the empty response rather than leave the caller waiting.
        this.#log(
          `${this.name}: service ${service} failed (${(error as Error).message}); answered with an empty response`,
        );
        response.send(response.template);
      }
    });
    return () => {
      if (!this.#closed) node.destroyService(created);
    };
  }

  async callService(service: string, type: string, request: RosMessage, timeoutMs: number): Promise<RosMessage> {
    const node = this.#requireNode();
    let client = this.#clients.get(service);
    if (!client) {
      client = node.createClient(type, service, { qos: this.#qos(undefined) });
      this.#clients.set(service, client);
    }
    const payload = this.#toRcl(request, `${type}_Request`);
    if (!(await client.waitForService(timeoutMs))) {
      throw HardwareErrors.error('SERVICE_TIMEOUT.serviceUnavailable', { name: this.name, service, timeoutMs });
    }
    try {
      return toPlainJson(await client.sendRequestAsync(payload, { timeout: timeoutMs })) as RosMessage;
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      throw timedOut
        ? HardwareErrors.error(
            'SERVICE_TIMEOUT.serviceNoAnswer',
            { name: this.name, service, timeoutMs },
            { cause: error },
          )
        : HardwareErrors.error(
            'TRANSPORT_FAILED.serviceFailed',
            { name: this.name, service, reason: (error as Error).message },
            { cause: error },
          );
    }
  }

  async sendActionGoal(
    action: string,
    type: string,
    goal: RosMessage,
    onFeedback: (feedback: RosMessage) => void,
  ): Promise<ActionGoal> {
    const node = this.#requireNode();
    let client = this.#actionClients.get(action);
    if (!client) {
      client = new this.#rcl!.ActionClient(node, type, action);
      this.#actionClients.set(action, client);
    }
    const payload = this.#toRcl(goal, `${type}_Goal`);
    if (!(await client.waitForServer(2000))) {
      throw HardwareErrors.error('SERVICE_TIMEOUT.noActionServer', { name: this.name, action });
    }
    const handle = await client.sendGoal(payload, (feedback) => onFeedback(toPlainJson(feedback) as RosMessage));
    if (!handle.isAccepted()) {
      return {
        outcome: Promise.resolve({ status: 'rejected', result: {}, error: `${action} rejected the goal` }),
        cancel: async () => {},
      };
    }
    const outcome = handle.getResult().then((result): ActionOutcome => ({
      status: handle.status === 4 ? 'succeeded' : handle.status === 5 ? 'canceled' : 'aborted',
      result: toPlainJson(result) as RosMessage,
    }));
    return {
      outcome,
      cancel: async () => {
        this.#requireNode();
        await handle.cancelGoal();
      },
      id: Buffer.from(Array.from(handle.goalId.uuid)).toString('hex'),
    };
  }

  /**
   * Cancels one goal by its UUID (in hex, as `ActionGoal.id` gives it) through the action's cancel
   * service, with a zero stamp: the server cancels that goal and no other. A server that no longer knows
   * it answers ERROR_UNKNOWN_GOAL_ID; one that had finished it, ERROR_GOAL_TERMINATED.
   */
  async cancelGoal(action: string, id: string): Promise<void> {
    if (!/^[0-9a-f]{32}$/.test(id)) {
      throw HardwareErrors.error('TRANSPORT_FAILED.goalId', { name: this.name, id: JSON.stringify(id) });
    }
    const response = await this.callService(
      `${action}/_action/cancel_goal`,
      CANCEL_GOAL_SERVICE_TYPE,
      {
        goal_info: { goal_id: { uuid: Array.from(Buffer.from(id, 'hex')) }, stamp: { sec: 0, nanosec: 0 } },
      },
      2000,
    );
    const code = Number(response.return_code ?? 0);
    if (code !== 0 && code !== CANCEL_GOAL_TERMINATED) {
      throw HardwareErrors.error('TRANSPORT_FAILED.cancelRefused', {
        name: this.name,
        action,
        id,
        reason: CANCEL_RETURN_CODES[code] ?? `return code ${code}`,
      });
    }
  }

  /**
   * The ROS graph as this node discovers it, with rosapi's conventions (see `RosGraph`): hidden names left
   * out (ros2cli's `topic_or_service_is_hidden`: a part starting with `_`), the first type of each, nodes by
   * full name, actions by name.
   */
  readonly graph: RosGraph = {
    topics: async () => visible(this.#requireNode().getTopicNamesAndTypes()),
    services: async () => visible(this.#requireNode().getServiceNamesAndTypes()),
    nodes: async () =>
      this.#requireNode()
        .getNodeNamesAndNamespaces()
        .filter(({ name }) => !name.startsWith('_'))
        .map(({ name, namespace }) => (namespace === '/' ? `/${name}` : `${namespace}/${name}`)),
    actions: async () => {
      const node = this.#requireNode();
      return this.#rcl!.getActionNamesAndTypes(node).map(({ name }) => name);
    },
  };

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const node = this.#node;
    if (!node) return;
    for (const client of this.#actionClients.values()) client.destroy();
    this.#actionClients.clear();
    for (const client of this.#clients.values()) node.destroyClient(client);
    for (const publisher of this.#publishers.values()) node.destroyPublisher(publisher);
    this.#clients.clear();
    this.#publishers.clear();
    node.destroy();
    // Only this transport's own context: other nodes in the process keep theirs.
    if (!this.#context!.isShutdown()) this.#context!.shutdown();
  }
}
