import { MiraError } from '@mira/core';
import { HardwareErrorCodes, type QosProfile, type RobotTransport, type RosMessage } from '@mira/robot';

// The subset of rclnodejs this transport uses, declared here: the package is an
// optional dependency that only installs where ROS 2 is sourced.
interface RclQos {
  reliability: unknown;
  durability: unknown;
  depth: number;
}
interface RclNode {
  createSubscription(
    type: string,
    topic: string,
    options: { qos: RclQos },
    callback: (message: RosMessage) => void,
  ): unknown;
  destroySubscription(subscription: unknown): void;
  createPublisher(type: string, topic: string, options?: { qos: RclQos }): { publish(message: RosMessage): void };
  createService(
    type: string,
    name: string,
    callback: (request: RosMessage, response: { send(message: RosMessage): void }) => void,
  ): unknown;
  destroyService(service: unknown): void;
  createClient(
    type: string,
    name: string,
  ): {
    waitForService(timeoutMs: number): Promise<boolean>;
    sendRequest(request: RosMessage, callback: (response: RosMessage) => void): void;
  };
  destroy(): void;
}
interface Rclnodejs {
  init(): Promise<void>;
  Node: new (name: string, namespace?: string) => RclNode;
  spin(node: RclNode): void;
  shutdown(): void;
  QoS: {
    new (): RclQos;
    ReliabilityPolicy: Record<string, unknown>;
    DurabilityPolicy: Record<string, unknown>;
  };
}

/** Loads rclnodejs, or explains plainly why it cannot be used here. */
export async function loadRclnodejs(): Promise<Rclnodejs> {
  const hint =
    'native ROS 2 needs a sourced ROS 2 installation (source /opt/ros/<distro>/setup.bash, then npm install) so that rclnodejs installs; ' +
    'on a machine without ROS 2, use [ros2] transport = "rosbridge" with the robot running rosbridge_server';
  if (!process.env.AMENT_PREFIX_PATH && !process.env.ROS_DISTRO) {
    throw new MiraError(HardwareErrorCodes.TRANSPORT_UNAVAILABLE, `ROS 2 is not sourced in this shell; ${hint}`);
  }
  try {
    const mod = (await import('rclnodejs' as string)) as { default?: Rclnodejs } & Rclnodejs;
    return mod.default ?? mod;
  } catch (error) {
    throw new MiraError(
      HardwareErrorCodes.TRANSPORT_UNAVAILABLE,
      `rclnodejs cannot be loaded (${(error as Error).message.split('\n')[0]}); ${hint}`,
      { cause: error },
    );
  }
}

/** A {@link RobotTransport} on native ROS 2 through rclnodejs, loaded only when selected. */
export class RclnodejsTransport implements RobotTransport {
  readonly name: string;
  readonly #nodeName: string;
  readonly #namespace: string;
  #rcl: Rclnodejs | undefined;
  #node: RclNode | undefined;
  readonly #publishers = new Map<string, { publish(message: RosMessage): void }>();
  #closed = false;

  constructor(nodeName: string, namespace = '') {
    this.#nodeName = nodeName;
    this.#namespace = namespace;
    this.name = `rclnodejs node ${namespace}/${nodeName}`;
  }

  #qos(profile: QosProfile | undefined): RclQos {
    const rcl = this.#rcl!;
    const qos = new rcl.QoS();
    qos.reliability =
      profile?.reliability === 'best_effort'
        ? rcl.QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT
        : rcl.QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_RELIABLE;
    qos.durability =
      profile?.durability === 'transient_local'
        ? rcl.QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL
        : rcl.QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_VOLATILE;
    qos.depth = profile?.depth ?? 10;
    return qos;
  }

  #requireNode(): RclNode {
    if (!this.#node || this.#closed)
      throw new MiraError(HardwareErrorCodes.TRANSPORT_FAILED, `${this.name}: not connected`);
    return this.#node;
  }

  async connect(): Promise<void> {
    if (this.#node) return;
    this.#rcl = await loadRclnodejs();
    await this.#rcl.init();
    this.#node = new this.#rcl.Node(this.#nodeName, this.#namespace);
    this.#rcl.spin(this.#node);
  }

  subscribe(topic: string, type: string, handler: (message: RosMessage) => void, qos?: QosProfile): () => void {
    const node = this.#requireNode();
    const subscription = node.createSubscription(type, topic, { qos: this.#qos(qos) }, handler);
    return () => {
      if (!this.#closed) node.destroySubscription(subscription);
    };
  }

  async publish(topic: string, type: string, message: RosMessage, qos?: QosProfile): Promise<void> {
    let publisher = this.#publishers.get(topic);
    if (!publisher) {
      publisher = this.#requireNode().createPublisher(type, topic, { qos: this.#qos(qos) });
      this.#publishers.set(topic, publisher);
    }
    publisher.publish(message);
  }

  advertiseService(
    service: string,
    type: string,
    handler: (request: RosMessage) => RosMessage | Promise<RosMessage>,
  ): () => void {
    const node = this.#requireNode();
    const created = node.createService(type, service, (request, response) => {
      void Promise.resolve(handler(request)).then((answer) => response.send(answer));
    });
    return () => {
      if (!this.#closed) node.destroyService(created);
    };
  }

  async callService(service: string, type: string, request: RosMessage, timeoutMs: number): Promise<RosMessage> {
    const client = this.#requireNode().createClient(type, service);
    if (!(await client.waitForService(timeoutMs))) {
      throw new MiraError(
        HardwareErrorCodes.SERVICE_TIMEOUT,
        `${this.name}: service ${service} is not available within ${timeoutMs} ms`,
      );
    }
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
      client.sendRequest(request, (response) => {
        clearTimeout(timer);
        resolve(response);
      });
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#node?.destroy();
    try {
      this.#rcl?.shutdown();
    } catch {
      // already shut down
    }
  }
}
