import type { SensorImage } from '@mira/core';
import { sniffMediaType } from '@mira/memory-contract';
import type { RosMessage } from './transport.js';

/** The standard message types Mira understands, and what each becomes as a sensor value. */
export const SENSOR_MESSAGE_TYPES = {
  'sensor_msgs/msg/BatteryState': 'battery',
  'sensor_msgs/msg/Range': 'range',
  'nav_msgs/msg/Odometry': 'odometry',
  // Where the robot is in the map: Nav2's localisation (AMCL publishes it on amcl_pose).
  'geometry_msgs/msg/PoseWithCovarianceStamped': 'pose',
  'sensor_msgs/msg/LaserScan': 'scan',
  'sensor_msgs/msg/Imu': 'imu',
  // iRobot Create 3 (the TurtleBot 4's base): its hazard detections and its dock.
  'irobot_create_msgs/msg/HazardDetectionVector': 'hazards',
  'irobot_create_msgs/msg/DockStatus': 'dock',
  // A camera's compressed frames (image_transport's …/compressed topics): JPEG or PNG.
  'sensor_msgs/msg/CompressedImage': 'image',
} as const;

/** A sensor message type Mira can read. */
export type SensorMessageType = keyof typeof SENSOR_MESSAGE_TYPES;

/**
 * irobot_create_msgs/msg/HazardDetection `type`, by value: BACKUP_LIMIT=0, BUMP=1, CLIFF=2, STALL=3,
 * WHEEL_DROP=4, OBJECT_PROXIMITY=5 (the field names of a hazards reading).
 */
export const HAZARD_TYPES = ['backup_limit', 'bump', 'cliff', 'stall', 'wheel_drop', 'object_proximity'] as const;

/** The default unit per message type. */
export const SENSOR_UNITS: Record<SensorMessageType, string> = {
  'sensor_msgs/msg/BatteryState': 'percent',
  'sensor_msgs/msg/Range': 'm',
  'nav_msgs/msg/Odometry': 'm, rad, m/s, rad/s',
  'geometry_msgs/msg/PoseWithCovarianceStamped': 'm, rad',
  'sensor_msgs/msg/LaserScan': 'm',
  'sensor_msgs/msg/Imu': 'rad, rad/s',
  'irobot_create_msgs/msg/HazardDetectionVector': 'detected',
  'irobot_create_msgs/msg/DockStatus': 'state',
  'sensor_msgs/msg/CompressedImage': 'bytes',
};

/** The fields each message type's sensor value may have (what {@link toSensorValue} writes). */
export const SENSOR_FIELDS: Record<SensorMessageType, readonly string[]> = {
  'sensor_msgs/msg/BatteryState': ['percent', 'voltage', 'charging'],
  'sensor_msgs/msg/Range': ['range_m', 'too_close', 'nothing_within_m', 'nothing_detected', 'invalid'],
  'nav_msgs/msg/Odometry': ['x', 'y', 'yaw', 'linear_m_s', 'angular_rad_s'],
  'geometry_msgs/msg/PoseWithCovarianceStamped': ['x', 'y', 'yaw', 'frame'],
  'sensor_msgs/msg/LaserScan': ['nearest_m', 'front_m', 'left_m', 'right_m', 'back_m', 'unknown_returns'],
  'sensor_msgs/msg/Imu': ['yaw', 'yaw_rate_rad_s'],
  'irobot_create_msgs/msg/HazardDetectionVector': [...HAZARD_TYPES, 'hazards'],
  'irobot_create_msgs/msg/DockStatus': ['docked', 'dock_visible'],
  'sensor_msgs/msg/CompressedImage': ['format', 'bytes', 'frame'],
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

/** `sensor_msgs/msg/BatteryState` power_supply_status: 0 unknown, 1 charging, 2 discharging, 3 not charging, 4 full. */
const POWER_SUPPLY_STATUS_CHARGING = 1;
const POWER_SUPPLY_STATUS_KNOWN = new Set([1, 2, 3, 4]);

/**
 * The elements of an array field: a plain array (JSON, native ROS 2 after conversion) or a typed array
 * (`Float32Array` and friends, as rosbridge sends `sequence<float>` under CBOR and rclnodejs gives
 * natively). Anything else is no array at all.
 */
export function arrayField(value: unknown): readonly unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    return Array.from(value as unknown as ArrayLike<number | bigint>, (v) => (typeof v === 'bigint' ? Number(v) : v));
  }
  return undefined;
}

/**
 * A `uint8[]` field's bytes: rosbridge sends them base64-encoded in JSON (its `binary_array_types`) and
 * as a byte string under CBOR; rclnodejs gives a `Uint8Array`; a plain array of numbers also reads.
 */
function imageData(data: unknown): Uint8Array | undefined {
  if (typeof data === 'string') return Buffer.from(data, 'base64');
  if (data instanceof Uint8Array) return data;
  if (Array.isArray(data) && data.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) return Uint8Array.from(data);
  return undefined;
}

/**
 * A `sensor_msgs/msg/CompressedImage` read once: its value for the model (`{format, bytes, frame}`) and its
 * frame, when it is a JPEG or PNG image (by its `format` — "jpeg", "png", or image_transport's "bgr8; jpeg
 * compressed bgr8" — and by its first bytes, which must agree); anything else is only described.
 */
function cameraReading(message: RosMessage): { value: Record<string, number | string>; image?: SensorImage } {
  const format = String(message.format ?? '').toLowerCase();
  const said: SensorImage['mediaType'] | undefined = /\bpng\b/.test(format)
    ? 'image/png'
    : /\b(jpeg|jpg)\b/.test(format)
      ? 'image/jpeg'
      : undefined;
  const bytes = imageData(message.data);
  const image =
    said && bytes && bytes.length > 0 && sniffMediaType(bytes) === said ? { mediaType: said, bytes } : undefined;
  const value: Record<string, number | string> = {
    format: image ? image.mediaType.slice('image/'.length) : String(message.format ?? 'unknown').slice(0, 40),
    bytes: bytes?.length ?? 0,
  };
  const frame = (message.header as { frame_id?: unknown } | undefined)?.frame_id;
  if (typeof frame === 'string' && frame !== '') value.frame = frame.slice(0, 128);
  return image ? { value, image } : { value };
}

/** A `sensor_msgs/msg/CompressedImage`'s frame, when it is a JPEG or PNG image (see {@link toSensorReading}). */
export function toSensorImage(message: RosMessage): SensorImage | undefined {
  return cameraReading(message).image;
}

/**
 * A message as a reading: its compact value ({@link toSensorValue}) and, for a camera, the frame that
 * travels beside it — each message decoded once.
 */
export function toSensorReading(
  type: SensorMessageType,
  message: RosMessage,
): { value: Readonly<Record<string, number | boolean | string>>; image?: SensorImage } {
  return type === 'sensor_msgs/msg/CompressedImage' ? cameraReading(message) : { value: toSensorValue(type, message) };
}

/**
 * Converts a standard message into a compact sensor value:
 * BatteryState → `{ percent, voltage }` (ROS 2 `percentage` is 0..1), with `charging` when the
 * message says (`power_supply_status`); Range → `{ range_m }` within `[min_range, max_range]`, as the
 * message definition says: closer than `min_range` (or -Inf) → `{ range_m: min_range, too_close: true }`,
 * beyond `max_range` (or +Inf) → `{ nothing_within_m: max_range }`, NaN, a missing range or `null` (rosbridge
 * writes NaN and ±Inf alike as null) → `{ invalid: true }`; Imu → `{ yaw, yaw_rate_rad_s }`, without `yaw`
 * when orientation_covariance[0] is -1 (no orientation); LaserScan ranges may be typed arrays;
 * Odometry → `{ x, y, yaw, linear_m_s, angular_rad_s }`.
 */
export function toSensorValue(
  type: SensorMessageType,
  message: RosMessage,
): Readonly<Record<string, number | boolean | string>> {
  switch (type) {
    case 'sensor_msgs/msg/BatteryState': {
      // NaN (or null, as rosbridge sends NaN and ±Inf) means unknown: the field is left out.
      const value: Record<string, number | boolean> = finiteFields({
        percent: round(num(message.percentage) * 100, 1),
        voltage: round(num(message.voltage), 2),
      });
      // Unknown (0) or a value outside the message definition says nothing about charging.
      if (POWER_SUPPLY_STATUS_KNOWN.has(message.power_supply_status as number)) {
        value.charging = message.power_supply_status === POWER_SUPPLY_STATUS_CHARGING;
      }
      return value;
    }
    case 'sensor_msgs/msg/Range':
      return rangeValue(message);
    case 'sensor_msgs/msg/LaserScan':
      return scanValue(message);
    case 'sensor_msgs/msg/Imu': {
      const rate = (message.angular_velocity as Record<string, unknown> | undefined)?.z;
      // REP 145 / the message definition: orientation_covariance[0] = -1 means the IMU has no orientation.
      const noOrientation = arrayField(message.orientation_covariance)?.[0] === -1;
      return finiteFields({
        yaw: noOrientation ? Number.NaN : round(yawOf(message.orientation as Record<string, unknown> | undefined)),
        yaw_rate_rad_s: round(num(rate)),
      });
    }
    case 'irobot_create_msgs/msg/HazardDetectionVector': {
      // Each kind the Create 3 reports, true while at least one detection of it is in the vector (the
      // vector lists what is detected now; an empty one means nothing is), and how many there are.
      const detections = arrayField(message.detections) ?? [];
      const types = new Set(detections.map((d) => (d as { type?: unknown } | null)?.type));
      const value: Record<string, number | boolean> = Object.fromEntries(
        HAZARD_TYPES.map((name, type) => [name, types.has(type)]),
      );
      value.hazards = detections.length;
      return value;
    }
    case 'irobot_create_msgs/msg/DockStatus': {
      const value: Record<string, boolean> = {};
      if (typeof message.is_docked === 'boolean') value.docked = message.is_docked;
      if (typeof message.dock_visible === 'boolean') value.dock_visible = message.dock_visible;
      return value;
    }
    case 'sensor_msgs/msg/CompressedImage':
      // The frame itself travels beside the value (see toSensorReading): the model reads its format and size.
      return cameraReading(message).value;
    case 'geometry_msgs/msg/PoseWithCovarianceStamped': {
      // The pose and the frame it is in (the header's): a place is kept with both.
      const pose = (
        message.pose as
          { pose?: { position?: Record<string, unknown>; orientation?: Record<string, unknown> } } | undefined
      )?.pose;
      const frame = (message.header as { frame_id?: unknown } | undefined)?.frame_id;
      return {
        ...finiteFields({
          x: round(num(pose?.position?.x)),
          y: round(num(pose?.position?.y)),
          // (Six decimals: a place kept from it is good to a thousandth of a degree.)
          yaw: round(yawOf(pose?.orientation), 6),
        }),
        ...(typeof frame === 'string' && frame !== '' ? { frame: frame.replace(/^\//, '') } : {}),
      };
    }
    case 'nav_msgs/msg/Odometry': {
      const pose = (
        message.pose as
          { pose?: { position?: Record<string, unknown>; orientation?: Record<string, unknown> } } | undefined
      )?.pose;
      const twist = (
        message.twist as { twist?: { linear?: Record<string, unknown>; angular?: Record<string, unknown> } } | undefined
      )?.twist;
      return finiteFields({
        x: round(num(pose?.position?.x)),
        y: round(num(pose?.position?.y)),
        yaw: round(yawOf(pose?.orientation)),
        linear_m_s: round(num(twist?.linear?.x)),
        angular_rad_s: round(num(twist?.angular?.z)),
      });
    }
  }
}

/**
 * The fields that are finite numbers. NaN and ±Inf arrive as numbers over native ROS 2 and as null over
 * rosbridge (JSON has neither); either way a field with no finite value is left out of the reading.
 */
function finiteFields(value: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => Number.isFinite(v)));
}

/**
 * A LaserScan as the nearest obstacle overall and per sector (front ±45°, left, back, right), using
 * only ranges within `[range_min, range_max]` (NaN and ±Inf are no return). Sectors with no return are
 * left out: `{ nearest_m, front_m, left_m, right_m, back_m }`; `unknown_returns` counts the ranges that
 * arrived as `null` (JSON's NaN, +Inf or -Inf, the last "too close" by REP 117), so they never pass for a
 * clear path.
 */
function scanValue(message: RosMessage): Readonly<Record<string, number>> {
  const ranges = arrayField(message.ranges) ?? [];
  const angleMin = num(message.angle_min);
  const increment = num(message.angle_increment);
  const min = typeof message.range_min === 'number' ? message.range_min : 0;
  const max = typeof message.range_max === 'number' ? message.range_max : Number.POSITIVE_INFINITY;
  const nearest: Record<string, number> = {};
  const keep = (key: string, r: number) => {
    if (!(key in nearest) || r < nearest[key]!) nearest[key] = r;
  };
  // JSON null may be -Inf (REP 117: a return too close to measure) as well as +Inf or NaN: counted, never
  // read as "nothing there".
  let unknown = 0;
  ranges.forEach((raw, i) => {
    if (raw === null) unknown++;
    if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < min || raw > max) return;
    if (!Number.isFinite(angleMin) || !Number.isFinite(increment)) return;
    const angle = Math.atan2(Math.sin(angleMin + i * increment), Math.cos(angleMin + i * increment));
    const quarter = Math.PI / 4;
    const sector =
      Math.abs(angle) <= quarter
        ? 'front_m'
        : Math.abs(angle) >= 3 * quarter
          ? 'back_m'
          : angle > 0
            ? 'left_m'
            : 'right_m';
    keep('nearest_m', raw);
    keep(sector, raw);
  });
  const value = Object.fromEntries(Object.entries(nearest).map(([k, v]) => [k, round(v)]));
  return unknown > 0 ? { ...value, unknown_returns: unknown } : value;
}

function rangeValue(message: RosMessage): Readonly<Record<string, number | boolean>> {
  const min = typeof message.min_range === 'number' ? message.min_range : undefined;
  const max = typeof message.max_range === 'number' ? message.max_range : undefined;
  const raw = message.range;
  // Over rosbridge's JSON NaN, +Inf ("nothing within") and -Inf ("too close", REP 117) all arrive as
  // null: with no way to tell them apart, null is invalid, never "nothing within".
  if (typeof raw !== 'number' || Number.isNaN(raw)) return { invalid: true };
  const range = raw;
  if (min !== undefined && range < min) return { range_m: round(min), too_close: true };
  if (range === Number.NEGATIVE_INFINITY) return { range_m: 0, too_close: true };
  if ((max !== undefined && range > max) || range === Number.POSITIVE_INFINITY) {
    return max !== undefined ? { nothing_within_m: round(max) } : { nothing_detected: true };
  }
  return { range_m: round(range) };
}

/** A `geometry_msgs/msg/Twist` for a planar base. */
export function twist(linear: number, angular: number): RosMessage {
  return { linear: { x: linear, y: 0, z: 0 }, angular: { x: 0, y: 0, z: angular } };
}

/** The velocity command types a drive may use. */
export const DRIVE_MESSAGE_TYPES = ['geometry_msgs/msg/Twist', 'geometry_msgs/msg/TwistStamped'] as const;

/** A drive's command type: ros2_control's diff_drive_controller on Jazzy takes only the stamped one. */
export type DriveMessageType = (typeof DRIVE_MESSAGE_TYPES)[number];

/**
 * How a TwistStamped command is stamped. `zero`: an all-zero stamp, which ros2_control's controllers
 * (diff_drive_controller and the rest, Jazzy) replace with their own clock's time on arrival, so the
 * command's age — what `cmd_vel_timeout` measures — never depends on this host's clock nor on sim time.
 * `now`: this host's clock, for consumers that read the stamp (a clock behind the robot's makes a
 * diff_drive_controller drop every command as stale; one ahead keeps the last command alive longer).
 */
export const DRIVE_STAMP_POLICIES = ['zero', 'now'] as const;
export type DriveStampPolicy = (typeof DRIVE_STAMP_POLICIES)[number];

/** A velocity command of `type`: a Twist, or a TwistStamped in `frameId` stamped as `policy` says. */
export function driveCommand(
  type: DriveMessageType,
  linear: number,
  angular: number,
  frameId = 'base_link',
  policy: DriveStampPolicy = 'zero',
  now: () => number = Date.now,
): RosMessage {
  const body = twist(linear, angular);
  if (type === 'geometry_msgs/msg/Twist') return body;
  return {
    header: { stamp: policy === 'now' ? stamp(now()) : ZERO_STAMP, frame_id: frameId },
    twist: body,
  };
}

/** The planar velocity of a Twist or TwistStamped message. */
export function velocityOf(message: RosMessage): { linear: number; angular: number } {
  const body = (message.twist as RosMessage | undefined) ?? message;
  const linear = Number((body.linear as { x?: unknown } | undefined)?.x);
  const angular = Number((body.angular as { z?: unknown } | undefined)?.z);
  return { linear: Number.isFinite(linear) ? linear : 0, angular: Number.isFinite(angular) ? angular : 0 };
}

/** The all-zero `builtin_interfaces/msg/Time`: no time, which receivers read as their own "now". */
export const ZERO_STAMP: RosMessage = Object.freeze({ sec: 0, nanosec: 0 });

/** A `builtin_interfaces/msg/Time` stamp for milliseconds since the epoch. */
export function stamp(ms: number): RosMessage {
  return { sec: Math.floor(ms / 1000), nanosec: Math.round((ms % 1000) * 1e6) };
}

/** A quaternion for a yaw angle. */
export function yawQuaternion(yaw: number): RosMessage {
  return { x: 0, y: 0, z: Math.sin(yaw / 2), w: Math.cos(yaw / 2) };
}
