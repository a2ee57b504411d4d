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
  /** Publishes one message (advertising the topic on first use). */
  publish(topic: string, type: string, message: RosMessage, qos?: QosProfile): Promise<void>;
  /** Offers a service; the returned function withdraws it. */
  advertiseService(
    service: string,
    type: string,
    handler: (request: RosMessage) => RosMessage | Promise<RosMessage>,
  ): () => void;
  /** Calls a service; rejects after `timeoutMs`. */
  callService(service: string, type: string, request: RosMessage, timeoutMs: number): Promise<RosMessage>;
  /** Closes subscriptions and the connection (destroys the ROS node). Safe to call twice. */
  close(): Promise<void>;
}
