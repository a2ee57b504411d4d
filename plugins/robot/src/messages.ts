import type { RosMessage } from './transport.js';

/** The standard message types Mira understands, and what each becomes as a sensor value. */
export const SENSOR_MESSAGE_TYPES = {
  'sensor_msgs/msg/BatteryState': 'battery',
  'sensor_msgs/msg/Range': 'range',
  'nav_msgs/msg/Odometry': 'odometry',
} as const;

/** A sensor message type Mira can read. */
export type SensorMessageType = keyof typeof SENSOR_MESSAGE_TYPES;

/** The default unit per message type. */
export const SENSOR_UNITS: Record<SensorMessageType, string> = {
  'sensor_msgs/msg/BatteryState': 'percent',
  'sensor_msgs/msg/Range': 'm',
  'nav_msgs/msg/Odometry': 'm, rad, m/s, rad/s',
};

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : Number.NaN);
const round = (v: number, digits = 3) => Math.round(v * 10 ** digits) / 10 ** digits;

function yawOf(q: { x?: unknown; y?: unknown; z?: unknown; w?: unknown } | undefined): number {
  const x = num(q?.x) || 0;
  const y = num(q?.y) || 0;
  const z = num(q?.z) || 0;
  const w = q?.w === undefined ? 1 : num(q.w);
  return Math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
}

/**
 * Converts a standard message into a compact sensor value:
 * BatteryState → `{ percent, voltage }` (ROS 2 `percentage` is 0..1),
 * Range → `{ range_m }`, Odometry → `{ x, y, yaw, linear_m_s, angular_rad_s }`.
 */
export function toSensorValue(type: SensorMessageType, message: RosMessage): Readonly<Record<string, number>> {
  switch (type) {
    case 'sensor_msgs/msg/BatteryState':
      return { percent: round(num(message.percentage) * 100, 1), voltage: round(num(message.voltage), 2) };
    case 'sensor_msgs/msg/Range':
      return { range_m: round(num(message.range)) };
    case 'nav_msgs/msg/Odometry': {
      const pose = (
        message.pose as
          { pose?: { position?: Record<string, unknown>; orientation?: Record<string, unknown> } } | undefined
      )?.pose;
      const twist = (
        message.twist as { twist?: { linear?: Record<string, unknown>; angular?: Record<string, unknown> } } | undefined
      )?.twist;
      return {
        x: round(num(pose?.position?.x)),
        y: round(num(pose?.position?.y)),
        yaw: round(yawOf(pose?.orientation)),
        linear_m_s: round(num(twist?.linear?.x)),
        angular_rad_s: round(num(twist?.angular?.z)),
      };
    }
  }
}

/** A `geometry_msgs/msg/Twist` for a planar base. */
export function twist(linear: number, angular: number): RosMessage {
  return { linear: { x: linear, y: 0, z: 0 }, angular: { x: 0, y: 0, z: angular } };
}

/** A `builtin_interfaces/msg/Time` stamp for milliseconds since the epoch. */
export function stamp(ms: number): RosMessage {
  return { sec: Math.floor(ms / 1000), nanosec: Math.round((ms % 1000) * 1e6) };
}

/** A quaternion for a yaw angle. */
export function yawQuaternion(yaw: number): RosMessage {
  return { x: 0, y: 0, z: Math.sin(yaw / 2), w: Math.cos(yaw / 2) };
}
