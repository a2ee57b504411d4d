import { cameraFrame } from './camera.js';
import { type Clock } from '@mira/core';
import {
  GET_PARAMETERS_TYPE,
  HardwareErrors,
  LIST_PARAMETERS_TYPE,
  stamp,
  velocityOf,
  yawQuaternion,
  type RobotTransport,
  type RosGraph,
  type RosMessage,
  type SensorMessageType,
} from '@mira/robot';
import { randomUUID } from 'node:crypto';
import { BroadcastChannel } from 'node:worker_threads';
import type { BusFrame } from './sim-bus.js';
import type { SimRobot } from './sim-robot.js';

type Handler = (message: RosMessage) => void;

/** The simulated robot's node in its graph. */
export const SIM_NODE = '/sim_robot';

/** What the simulator publishes and listens to. */
export interface SimWiring {
  /** Sensor topics the simulator publishes, by message type, with rates in Hz. */
  readonly sensors: ReadonlyArray<{
    readonly topic: string;
    readonly type: SensorMessageType;
    readonly rateHz: number;
  }>;
  /** The velocity command topic the simulator listens to. */
  readonly cmdTopic?: string;
  /** Its message type, as the graph lists it (default `geometry_msgs/msg/Twist`). */
  readonly cmdType?: string;
  /** How often the simulation steps in real time while connected (ms); 0 disables the timer (tests call tick()). */
  readonly tickMs: number;
  /** The bus other threads join (safety path, other subscribers): a `BroadcastChannel` name; unique by default. */
  readonly bus?: string;
}

/**
 * An in-process ROS-2-shaped bus with the simulated robot on it. The robot
 * is stepped by the injected clock's monotonic time on every `tick()`.
 */
export class SimTransport implements RobotTransport {
  readonly name = 'sim';
  readonly robot: SimRobot;
  /** The bus other threads join with {@link SimBusTransport}. */
  readonly bus: string;
  readonly #clock: Clock;
  readonly #wiring: SimWiring;
  readonly #topics = new Map<string, Set<Handler>>();
  readonly #services = new Map<string, (request: RosMessage) => RosMessage | Promise<RosMessage>>();
  readonly #serviceTypes = new Map<string, string>();
  readonly #lastPublished = new Map<string, number>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #last = 0;
  #connected = false;
  #closed = false;
  #robotUnsubscribe: (() => void) | undefined;
  #channel: BroadcastChannel | undefined;
  /** Topics another thread subscribed to: only those are copied onto the bus. */
  readonly #remoteTopics = new Set<string>();

  constructor(robot: SimRobot, clock: Clock, wiring: SimWiring) {
    this.robot = robot;
    this.#clock = clock;
    this.#wiring = wiring;
    this.bus = wiring.bus ?? `mira-sim-${randomUUID()}`;
  }

  #joinBus(): void {
    const channel = new BroadcastChannel(this.bus);
    channel.unref();
    channel.onmessage = (event) => {
      const frame = (event as { data: BusFrame }).data;
      if (frame.kind === 'msg') this.#deliverHere(frame.topic, frame.message);
      else if (frame.kind === 'sub') this.#remoteTopics.add(frame.topic);
    };
    channel.postMessage({ kind: 'hello' } satisfies BusFrame);
    this.#channel = channel;
  }

  /**
   * The simulator's own small ROS graph: one node, {@link SIM_NODE}, publishing the sensor topics and
   * listening to the command topic, with the parameter services every ROS 2 node has (its physical
   * parameters, read-only), and the services others offer on this bus. No actions.
   */
  readonly graph: RosGraph = {
    topics: async () => [
      ...this.#wiring.sensors.map(({ topic, type }) => ({ name: topic, type })),
      ...(this.#wiring.cmdTopic
        ? [{ name: this.#wiring.cmdTopic, type: this.#wiring.cmdType ?? 'geometry_msgs/msg/Twist' }]
        : []),
    ],
    nodes: async () => [SIM_NODE],
    services: async () => [...this.#serviceTypes].map(([name, type]) => ({ name, type })),
    actions: async () => [],
  };

  /** {@link SIM_NODE}'s parameters as rcl_interfaces/msg/ParameterValue (type 3: double, 1: bool). */
  #parameters(): Record<string, RosMessage> {
    const p = this.robot.params;
    const double = (value: number) => ({ type: 3, double_value: value });
    return {
      battery_drain_idle_percent_per_min: double(p.drainIdlePercentPerMin),
      battery_drain_percent_per_m: double(p.drainPercentPerM),
      cmd_timeout_s: double(p.cmdTimeoutS),
      range_max_m: double(p.rangeMaxM),
      range_min_m: double(p.rangeMinM),
      room_half_size_m: double(p.roomHalfSizeM),
      use_sim_time: { type: 1, bool_value: false },
    };
  }

  async connect(): Promise<void> {
    if (this.#closed) throw HardwareErrors.error('TRANSPORT_FAILED.simClosed');
    if (this.#connected) return;
    this.#connected = true;
    this.advertiseService(`${SIM_NODE}/list_parameters`, LIST_PARAMETERS_TYPE, () => ({
      result: { names: Object.keys(this.#parameters()), prefixes: [] },
    }));
    this.advertiseService(`${SIM_NODE}/get_parameters`, GET_PARAMETERS_TYPE, (request) => {
      const all = this.#parameters();
      return { values: ((request.names as string[] | undefined) ?? []).map((name) => all[name] ?? { type: 0 }) };
    });
    this.#last = this.#clock.monotonic();
    this.#joinBus();
    if (this.#wiring.cmdTopic) {
      // Twist or TwistStamped, whichever the profile's drive publishes.
      this.#robotUnsubscribe = this.subscribe(this.#wiring.cmdTopic, 'geometry_msgs/msg/Twist', (m) => {
        const { linear, angular } = velocityOf(m);
        this.robot.command(linear, angular);
      });
    }
    if (this.#wiring.tickMs > 0) {
      this.#timer = setInterval(() => this.tick(), this.#wiring.tickMs);
      this.#timer.unref?.();
    }
  }

  /** Steps the robot to the clock's present and publishes the sensors that are due. */
  tick(): void {
    if (!this.#connected || this.#closed) return;
    const now = this.#clock.monotonic();
    const dt = (now - this.#last) / 1000;
    this.#last = now;
    this.robot.step(dt);
    for (const sensor of this.#wiring.sensors) {
      const last = this.#lastPublished.get(sensor.topic);
      if (last !== undefined && now - last < 1000 / sensor.rateHz) continue;
      this.#lastPublished.set(sensor.topic, now);
      this.#deliver(sensor.topic, this.#message(sensor.type));
    }
  }

  #message(type: SensorMessageType): RosMessage {
    const s = this.robot.state;
    const header = { stamp: stamp(this.#clock.now().getTime()), frame_id: 'base_link' };
    switch (type) {
      case 'sensor_msgs/msg/BatteryState':
        return {
          header,
          voltage: 10.5 + 2.1 * (s.batteryPercent / 100),
          percentage: s.batteryPercent / 100,
          present: true,
        };
      case 'sensor_msgs/msg/Range':
        return {
          header,
          radiation_type: 1,
          field_of_view: 0.1,
          min_range: this.robot.params.rangeMinM,
          max_range: this.robot.params.rangeMaxM,
          range: this.robot.range(),
        };
      case 'nav_msgs/msg/Odometry':
        return {
          header: { ...header, frame_id: 'odom' },
          child_frame_id: 'base_link',
          pose: { pose: { position: { x: s.x, y: s.y, z: 0 }, orientation: yawQuaternion(s.yaw) } },
          twist: { twist: { linear: { x: s.linear, y: 0, z: 0 }, angular: { x: 0, y: 0, z: s.angular } } },
        };
      case 'geometry_msgs/msg/PoseWithCovarianceStamped':
        // The simulated robot knows where it is: its odometry is its map pose.
        return {
          header: { ...header, frame_id: 'map' },
          pose: {
            pose: { position: { x: s.x, y: s.y, z: 0 }, orientation: yawQuaternion(s.yaw) },
            covariance: new Array<number>(36).fill(0),
          },
        };
      case 'sensor_msgs/msg/Imu':
        return {
          header,
          orientation: yawQuaternion(s.yaw),
          angular_velocity: { x: 0, y: 0, z: s.angular },
          linear_acceleration: { x: 0, y: 0, z: 9.81 },
        };
      case 'irobot_create_msgs/msg/HazardDetectionVector':
        // The simulated robot only ever bumps: an obstacle closer than the range finder's minimum.
        return {
          header,
          detections:
            this.robot.range() <= this.robot.params.rangeMinM
              ? [{ header: { ...header, frame_id: 'bump_front_center' }, type: 1 }]
              : [],
        };
      case 'irobot_create_msgs/msg/DockStatus':
        return { header, dock_visible: false, is_docked: false };
      case 'sensor_msgs/msg/CompressedImage':
        // The front camera's view, as image_transport's compressed topics carry it.
        return {
          header: { ...header, frame_id: 'camera_front_optical_frame' },
          format: 'png',
          data: cameraFrame(s.x, s.y, s.yaw, this.robot.params.roomHalfSizeM),
        };
      case 'sensor_msgs/msg/LaserScan':
        // One beam straight ahead (the simulated range finder); the other directions see nothing.
        return {
          header,
          angle_min: -Math.PI / 2,
          angle_max: Math.PI,
          angle_increment: Math.PI / 2,
          range_min: this.robot.params.rangeMinM,
          range_max: this.robot.params.rangeMaxM,
          ranges: [Number.POSITIVE_INFINITY, this.robot.range(), Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY],
        };
    }
  }

  /** To this thread's subscribers, and onto the bus when another thread subscribed the topic. */
  #deliver(topic: string, message: RosMessage): void {
    if (this.#remoteTopics.has(topic)) this.#channel?.postMessage({ kind: 'msg', topic, message } satisfies BusFrame);
    this.#deliverHere(topic, message);
  }

  #deliverHere(topic: string, message: RosMessage): void {
    for (const handler of [...(this.#topics.get(topic) ?? [])]) handler(message);
  }

  subscribe(topic: string, _type: string, handler: Handler): () => void {
    const set = this.#topics.get(topic) ?? new Set<Handler>();
    this.#topics.set(topic, set);
    set.add(handler);
    return () => {
      set.delete(handler);
    };
  }

  async publish(topic: string, _type: string, message: RosMessage): Promise<void> {
    if (this.#closed) throw HardwareErrors.error('TRANSPORT_FAILED.simPublishClosed', { topic });
    this.#deliver(topic, structuredClone(message));
  }

  advertiseService(
    service: string,
    type: string,
    handler: (request: RosMessage) => RosMessage | Promise<RosMessage>,
  ): () => void {
    this.#services.set(service, handler);
    this.#serviceTypes.set(service, type);
    return () => {
      if (this.#services.get(service) !== handler) return;
      this.#services.delete(service);
      this.#serviceTypes.delete(service);
    };
  }

  async callService(service: string, _type: string, request: RosMessage, timeoutMs: number): Promise<RosMessage> {
    const handler = this.#services.get(service);
    if (!handler) throw HardwareErrors.error('SERVICE_TIMEOUT.simServiceNoAnswer', { service, timeoutMs });
    return structuredClone(await handler(structuredClone(request)));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#robotUnsubscribe?.();
    this.#channel?.close();
    this.#channel = undefined;
    this.#topics.clear();
    this.#services.clear();
    this.#serviceTypes.clear();
  }
}
