/** A ROS 2 message as plain JSON (rosbridge v2 field names). */
export type RosMessage = Record<string, unknown>;

/** Quality of service where it matters (sensor streams are usually best effort). */
export interface QosProfile {
  readonly reliability?: 'reliable' | 'best_effort';
  readonly durability?: 'volatile' | 'transient_local';
  readonly depth?: number;
  /**
   * What a rosbridge server does for this subscription (ignored by native ROS 2): the fastest rate it
   * forwards messages (`throttle_rate`, ms), how many it buffers while throttling (`queue_length`), and
   * whether it sends them CBOR-encoded (`compression`).
   */
  readonly bridge?: {
    readonly throttle_rate?: number;
    readonly queue_length?: number;
    readonly compression?: 'none' | 'cbor';
  };
}

/** How an action goal ended (action_msgs/msg/GoalStatus 4, 5, 6), or that the server refused it. */
export interface ActionOutcome {
  readonly status: 'succeeded' | 'canceled' | 'aborted' | 'rejected';
  /** The action's result message (empty when rejected). */
  readonly result: RosMessage;
  /** Why, when the server or the bridge refused the goal. */
  readonly error?: string;
}

/** A goal an action server accepted (or is considering). */
export interface ActionGoal {
  /** Settles when the goal ends; rejects with a hardware error when the connection is lost meanwhile. */
  readonly outcome: Promise<ActionOutcome>;
  /** Asks the server to cancel this goal; `outcome` then settles as `canceled`. */
  cancel(): Promise<void>;
  /**
   * The goal's name on this kind of transport, for {@link RobotTransport.cancelGoal} from another
   * connection (the safety path's): rosbridge's goal ID, or the goal's UUID in hex on native ROS 2.
   */
  readonly id?: string;
  /**
   * Settles when `id` cancels the goal: a bridge that relays goals holds a goal's handle only once the
   * action server accepted it, and a cancel that comes before is dropped there without a word (rosbridge's
   * ros2 branch); over rosbridge that is the goal's first feedback or result. Absent: at once (a native
   * client has the server's acceptance before it returns the goal). Never rejects; stays
   * pending for a goal that never got a word.
   */
  readonly known?: Promise<void>;
}

/** How one message is published, beyond its QoS. */
export interface PublishOptions {
  /**
   * A message that may wait out a short outage of a supervised link (rosbridge) in the transport's bounded
   * queue and be sent, in order, on reconnection: a reply, an episode event, a log line — never motion. The
   * safety path and drives never set it: a velocity command written late would move the robot when nobody
   * asked for it. Transports that are never down (the simulator, a native node) ignore it.
   */
  readonly queueWhileDown?: boolean;
}

/**
 * The cancel service every ROS 2 action has: a goal's UUID with a zero stamp cancels that goal; an
 * all-zero goal ID and stamp cancel every goal.
 */
export const CANCEL_GOAL_SERVICE_TYPE = 'action_msgs/srv/CancelGoal';
/** A CancelGoal request for every goal of the action. */
export const CANCEL_ALL_GOALS: RosMessage = {
  goal_info: { goal_id: { uuid: new Array<number>(16).fill(0) }, stamp: { sec: 0, nanosec: 0 } },
};

/**
 * Whether a supervised link (a bridge connection) can carry commands now. `since` is when it last
 * changed (ms since the epoch); `why` says what took it down.
 */
export interface LinkState {
  readonly up: boolean;
  readonly since: number;
  readonly why?: string;
}

/** A topic or service in the ROS graph and its type (the first, where the graph has several). */
export interface GraphEntry {
  readonly name: string;
  readonly type: string;
}

/**
 * The ROS graph as the robot's side sees it, read-only: what rosapi answers over rosbridge
 * (`/rosapi/topics`, `/rosapi/nodes`, `/rosapi/services` with `/rosapi/service_type`, `/rosapi/action_servers`)
 * and what a native node's graph queries answer, with the same conventions: hidden names (a part that
 * starts with `_`, such as `/navigate_to_pose/_action/feedback`) are left out, nodes by their full name
 * (`/robot1/controller_server`), actions by name only (rosapi gives no action types). Order is the
 * transport's; the tools sort.
 */
export interface RosGraph {
  topics(): Promise<GraphEntry[]>;
  nodes(): Promise<string[]>;
  services(): Promise<GraphEntry[]>;
  actions(): Promise<string[]>;
}

/**
 * The transport port between Mira and a robot: ROS 2 topics and services.
 * Implementations: the in-process simulator, native ROS 2 (rclnodejs) and
 * rosbridge (roslib over WebSocket). A contract suite in `test/` runs against each.
 */
export interface RobotTransport {
  /** e.g. `sim`, `rosbridge ws://robot:9090`. */
  readonly name: string;
  /** Connects; called from the hardware plugin's `start()`. */
  connect(): Promise<void>;
  /** Subscribes; the returned function unsubscribes. */
  subscribe(topic: string, type: string, handler: (message: RosMessage) => void, qos?: QosProfile): () => void;
  /**
   * Publishes one message (advertising the topic on first use). While a supervised link is down it
   * rejects (nothing is queued), unless `options.queueWhileDown` lets the message wait in the transport's
   * bounded outage queue.
   */
  publish(topic: string, type: string, message: RosMessage, qos?: QosProfile, options?: PublishOptions): Promise<void>;
  /**
   * Advertises a topic before its first message, so the graph shows the publisher from the start
   * (`ros2 topic info`, `ros2 node info`); later publishes use the same publisher. Transports without a
   * ROS graph (the simulator) leave it out.
   */
  advertise?(topic: string, type: string, qos?: QosProfile): Promise<void>;
  /** Offers a service; the returned function withdraws it. */
  advertiseService(
    service: string,
    type: string,
    handler: (request: RosMessage) => RosMessage | Promise<RosMessage>,
  ): () => void;
  /** Calls a service; rejects after `timeoutMs`. */
  callService(service: string, type: string, request: RosMessage, timeoutMs: number): Promise<RosMessage>;
  /**
   * Sends a goal to an action server (`nav2_msgs/action/NavigateToPose` on `/navigate_to_pose`, say);
   * `onFeedback` gets each feedback message. Rejects at once when it cannot be sent. Transports without
   * actions (the simulator) leave it out.
   */
  sendActionGoal?(
    action: string,
    type: string,
    goal: RosMessage,
    onFeedback: (feedback: RosMessage) => void,
  ): Promise<ActionGoal>;
  /**
   * Cancels one goal of `action` by the name (`ActionGoal.id`) another connection of the same kind gave
   * it, and no other goal. Transports that cannot leave it out; the safety path then cancels every goal.
   */
  cancelGoal?(action: string, id: string): Promise<void>;
  /**
   * Link supervision, for transports that reach the robot over a link that can fail or freeze (rosbridge):
   * the link's state now. A transport without it (the simulator, a native node) is always up.
   */
  link?(): LinkState;
  /**
   * Calls `listener` whenever the link goes down (a lost connection, a missed liveness deadline) or comes
   * back (before anything else is sent on the new connection). Returns the unsubscribe function.
   */
  onLink?(listener: (state: LinkState) => void): () => void;
  /**
   * Resolves when one round trip to the peer completed (a WebSocket ping answered by its pong): the peer
   * was reading this connection a moment ago. Rejects when no answer comes within the liveness deadline.
   * The safety path writes a non-zero velocity only right after one, so a frozen peer never gets a drive
   * command it would act on later.
   */
  roundTrip?(): Promise<void>;
  /**
   * What to write on a supervised connection the moment it is declared down for silence, just before it is
   * dropped: a frozen peer that resumes reads, in order, whatever waited unread in its socket — a drive
   * command written in the instant before the freeze — and then this, in the same read. The safety path
   * sets its zero velocity here. `message` is built at that moment; nothing is written on a topic this
   * connection never published on.
   */
  setLastWords?(topic: string, type: string, message: () => RosMessage): void;
  /**
   * The ROS graph, read-only (topics, nodes, services, actions), for the graph tools. Its queries reject
   * with a hardware error when the graph cannot be read (rosapi not running beside a bridge, a lost link).
   */
  readonly graph?: RosGraph;
  /** Closes subscriptions and the connection (destroys the ROS node). Safe to call twice. */
  close(): Promise<void>;
}
