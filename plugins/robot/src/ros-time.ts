/**
 * The clock Mira's stamps follow: this host's, or — under `use_sim_time` — the simulation clock on
 * `/clock` (`rosgraph_msgs/msg/Clock`), read as a ROS node reads it (rclcpp's and rclpy's TimeSource):
 * the latest value published there, not extrapolated between messages, and zero until the first one.
 */
import type { QosProfile, RobotTransport, RosMessage } from './transport.js';

export const CLOCK_TOPIC = '/clock';
export const CLOCK_TYPE = 'rosgraph_msgs/msg/Clock';
/**
 * rclcpp's ClockQoS (keep last 1, best effort); over rosbridge at most one message per 20 ms is forwarded
 * (a simulator publishes /clock at its physics rate, 1 kHz for Gazebo).
 */
export const CLOCK_QOS: QosProfile = {
  reliability: 'best_effort',
  durability: 'volatile',
  depth: 1,
  bridge: { throttle_rate: 20, queue_length: 1 },
};

/** A clock in milliseconds since its epoch. */
export interface RosClock {
  /** Now on this clock (ms); 0 on a simulation clock that has not been heard yet. */
  now(): number;
  /** Whether this is a simulation clock. */
  readonly simulated: boolean;
  /** Whether the clock has a time: always for the host's, after the first /clock for a simulation's. */
  ready(): boolean;
  /** Stops listening. */
  close(): void;
}

/** The milliseconds of a `builtin_interfaces/msg/Time`, or undefined when it is not one. */
export function timeMs(time: unknown): number | undefined {
  const { sec, nanosec } = (time ?? {}) as { sec?: unknown; nanosec?: unknown };
  const s = Number(sec);
  const ns = Number(nanosec ?? 0);
  if (!Number.isFinite(s) || !Number.isFinite(ns) || s < 0 || ns < 0) return undefined;
  return s * 1000 + ns / 1e6;
}

/**
 * The simulation clock on `topic`: each `rosgraph_msgs/msg/Clock` sets it (a clock that goes back — a
 * simulation reset — goes back with it, as ROS's does).
 */
export function simulationClock(transport: RobotTransport, topic: string = CLOCK_TOPIC): RosClock {
  let latest: number | undefined;
  const unsubscribe = transport.subscribe(
    topic,
    CLOCK_TYPE,
    (message: RosMessage) => {
      const ms = timeMs(message.clock);
      if (ms !== undefined) latest = ms;
    },
    CLOCK_QOS,
  );
  return { now: () => latest ?? 0, simulated: true, ready: () => latest !== undefined, close: unsubscribe };
}
