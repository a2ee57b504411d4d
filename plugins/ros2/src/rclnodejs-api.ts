/**
 * The part of rclnodejs 2.2's API that Mira uses, declared from its `types/*.d.ts`
 * (rclnodejs is an optional dependency that only installs where ROS 2 is sourced,
 * so its own declarations are not available to the build). The test suite's
 * stand-in module implements exactly this surface.
 */
import type { RosMessage } from '@mira/robot';

/** `rclnodejs.QoS` (types/qos.d.ts). */
export interface RclQoS {
  history: number;
  depth: number;
  reliability: number;
  durability: number;
}

/** `rclnodejs.QoS`'s constructor and policy enums. */
export interface RclQoSClass {
  new (history?: number, depth?: number, reliability?: number, durability?: number): RclQoS;
  readonly HistoryPolicy: { readonly RMW_QOS_POLICY_HISTORY_KEEP_LAST: number };
  readonly ReliabilityPolicy: {
    readonly RMW_QOS_POLICY_RELIABILITY_RELIABLE: number;
    readonly RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT: number;
  };
  readonly DurabilityPolicy: {
    readonly RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL: number;
    readonly RMW_QOS_POLICY_DURABILITY_VOLATILE: number;
  };
}

/** Node options for publishers, subscriptions, clients and services (types/node.d.ts `Options`). */
export interface RclOptions {
  qos?: RclQoS;
  enableTypedArray?: boolean;
  serializationMode?: 'default' | 'plain' | 'json';
}

/** `rclnodejs.Context` (types/context.d.ts). */
export interface RclContext {
  isShutdown(): boolean;
  shutdown(): void;
}

/** A service's response handle (lib/service.js `Response`). */
export interface RclServiceResponse {
  readonly template: RosMessage;
  send(response: RosMessage): void;
}

/** `rclnodejs.Publisher`. */
export interface RclPublisher {
  publish(message: RosMessage): void;
}

/** `rclnodejs.Client` (types/client.d.ts). */
export interface RclClient {
  waitForService(timeout?: number): Promise<boolean>;
  sendRequestAsync(request: RosMessage, options?: { timeout?: number; signal?: AbortSignal }): Promise<RosMessage>;
}

/** `rclnodejs.Logging` (types/logging.d.ts): a named logger that also writes to /rosout. */
export interface RclLogger {
  info(message: string): boolean;
  warn(message: string): boolean;
  error(message: string): boolean;
}

/** `rclnodejs.Node` (types/node.d.ts). */
export interface RclNode {
  createPublisher(typeClass: string, topic: string, options?: RclOptions): RclPublisher;
  createSubscription(
    typeClass: string,
    topic: string,
    options: RclOptions,
    callback: (message: RosMessage) => void,
  ): object;
  createService(
    typeClass: string,
    serviceName: string,
    options: RclOptions,
    callback: (request: RosMessage, response: RclServiceResponse) => RosMessage | void | Promise<RosMessage | void>,
  ): object;
  createClient(typeClass: string, serviceName: string, options?: RclOptions): RclClient;
  destroyPublisher(publisher: RclPublisher): void;
  destroySubscription(subscription: object): void;
  destroyService(service: object): void;
  destroyClient(client: RclClient): void;
  getLogger(): RclLogger;
  /** The graph's topics, hidden ones too (`rcl_get_topic_names_and_types`). */
  getTopicNamesAndTypes(noDemangle?: boolean): RclNamesAndTypes[];
  /** The graph's services, hidden ones too (`rcl_get_service_names_and_types`). */
  getServiceNamesAndTypes(): RclNamesAndTypes[];
  /** The graph's nodes (`rcl_get_node_names`). */
  getNodeNamesAndNamespaces(): Array<{ name: string; namespace: string }>;
  spin(timeout?: number): void;
  destroy(): void;
}

/** `NamesAndTypesQueryResult` (types/node.d.ts): a topic's, service's or action's name and its types. */
export interface RclNamesAndTypes {
  readonly name: string;
  readonly types: readonly string[];
}

/** `rclnodejs.MessageIntrospector` (types/message_introspector.d.ts), reduced to the schema. */
export interface RclMessageDef {
  readonly fields: ReadonlyArray<{
    readonly name: string;
    readonly type: {
      readonly isPrimitiveType: boolean;
      readonly type: string;
      readonly pkgName: string | null;
      readonly isArray: boolean;
    };
  }>;
}

/** `rclnodejs.ClientGoalHandle` (types/action_client.d.ts). */
export interface RclGoalHandle {
  isAccepted(): boolean;
  /** action_msgs/msg/GoalStatus, set once the result is in. */
  readonly status: number;
  /** unique_identifier_msgs/msg/UUID: the goal's 16 bytes. */
  readonly goalId: { readonly uuid: ArrayLike<number> };
  getResult(): Promise<RosMessage>;
  cancelGoal(): Promise<RosMessage>;
}

/** `rclnodejs.ActionClient` (types/action_client.d.ts). */
export interface RclActionClient {
  waitForServer(timeout?: number): Promise<boolean>;
  sendGoal(goal: RosMessage, feedbackCallback?: (feedback: RosMessage) => void): Promise<RclGoalHandle>;
  destroy(): void;
}

/** The module's default export. */
export interface Rclnodejs {
  init(context?: RclContext, argv?: string[]): Promise<void>;
  readonly Context: new () => RclContext;
  readonly Node: new (nodeName: string, namespace?: string, context?: RclContext) => RclNode;
  readonly QoS: RclQoSClass;
  readonly MessageIntrospector: new (typeName: string) => { readonly schema: RclMessageDef };
  readonly ActionClient: new (node: RclNode, typeClass: string, actionName: string) => RclActionClient;
  removeSignalHandlers(): void;
  /**
   * The graph's actions, with a server or a client (lib/action/graph.js, `rcl_action_get_names_and_types`;
   * types/index.d.ts declares one result, the function returns a list).
   */
  getActionNamesAndTypes(node: RclNode): RclNamesAndTypes[];
}
