import { Tag } from 'cbor2';

/**
 * The field types of the messages Mira exchanges, as rclpy's `get_fields_and_field_types()` names them
 * (`float` is float32, `double` float64, `double[9]` a fixed-size array, `sequence<float>` a sequence,
 * `pkg/Type` a nested message). The in-test bridge derives from them what rosbridge_suite derives from the
 * rclpy classes: float32 widening, CBOR typed arrays and byte strings, and the CBOR failure on any
 * fixed-size array, and which fields a published message may have. Types not listed here (std_msgs/String
 * and Bool, Temperature, Log, DiagnosticArray, …) have none of those fields and pass unchanged.
 */
export const MESSAGE_FIELDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'std_msgs/Header': { stamp: 'builtin_interfaces/Time', frame_id: 'string' },
  'builtin_interfaces/Time': { sec: 'int32', nanosec: 'uint32' },
  'builtin_interfaces/Duration': { sec: 'int32', nanosec: 'uint32' },
  'geometry_msgs/Vector3': { x: 'double', y: 'double', z: 'double' },
  'geometry_msgs/Point': { x: 'double', y: 'double', z: 'double' },
  'geometry_msgs/Quaternion': { x: 'double', y: 'double', z: 'double', w: 'double' },
  'geometry_msgs/Pose': { position: 'geometry_msgs/Point', orientation: 'geometry_msgs/Quaternion' },
  'geometry_msgs/PoseStamped': { header: 'std_msgs/Header', pose: 'geometry_msgs/Pose' },
  'geometry_msgs/Twist': { linear: 'geometry_msgs/Vector3', angular: 'geometry_msgs/Vector3' },
  'geometry_msgs/TwistStamped': { header: 'std_msgs/Header', twist: 'geometry_msgs/Twist' },
  'geometry_msgs/PoseWithCovariance': { pose: 'geometry_msgs/Pose', covariance: 'double[36]' },
  'geometry_msgs/TwistWithCovariance': { twist: 'geometry_msgs/Twist', covariance: 'double[36]' },
  'geometry_msgs/PoseWithCovarianceStamped': { header: 'std_msgs/Header', pose: 'geometry_msgs/PoseWithCovariance' },
  'nav_msgs/Odometry': {
    header: 'std_msgs/Header',
    child_frame_id: 'string',
    pose: 'geometry_msgs/PoseWithCovariance',
    twist: 'geometry_msgs/TwistWithCovariance',
  },
  'sensor_msgs/Imu': {
    header: 'std_msgs/Header',
    orientation: 'geometry_msgs/Quaternion',
    orientation_covariance: 'double[9]',
    angular_velocity: 'geometry_msgs/Vector3',
    angular_velocity_covariance: 'double[9]',
    linear_acceleration: 'geometry_msgs/Vector3',
    linear_acceleration_covariance: 'double[9]',
  },
  'sensor_msgs/BatteryState': {
    header: 'std_msgs/Header',
    voltage: 'float',
    temperature: 'float',
    current: 'float',
    charge: 'float',
    capacity: 'float',
    design_capacity: 'float',
    percentage: 'float',
    power_supply_status: 'uint8',
    power_supply_health: 'uint8',
    power_supply_technology: 'uint8',
    present: 'boolean',
    cell_voltage: 'sequence<float>',
    cell_temperature: 'sequence<float>',
    location: 'string',
    serial_number: 'string',
  },
  'sensor_msgs/LaserScan': {
    header: 'std_msgs/Header',
    angle_min: 'float',
    angle_max: 'float',
    angle_increment: 'float',
    time_increment: 'float',
    scan_time: 'float',
    range_min: 'float',
    range_max: 'float',
    ranges: 'sequence<float>',
    intensities: 'sequence<float>',
  },
  'sensor_msgs/Range': {
    header: 'std_msgs/Header',
    radiation_type: 'uint8',
    field_of_view: 'float',
    min_range: 'float',
    max_range: 'float',
    range: 'float',
  },
  'sensor_msgs/CompressedImage': { header: 'std_msgs/Header', format: 'string', data: 'sequence<uint8>' },
  'nav2_msgs/NavigateToPose_Feedback': {
    current_pose: 'geometry_msgs/PoseStamped',
    navigation_time: 'builtin_interfaces/Duration',
    estimated_time_remaining: 'builtin_interfaces/Duration',
    number_of_recoveries: 'int16',
    distance_remaining: 'float',
  },
};

/** `sensor_msgs/msg/Imu` (a topic's type) → `sensor_msgs/Imu` (rclpy's name for a nested field's type). */
const key = (type: string) => type.replace('/msg/', '/').replace('/action/', '/');

/** A field's fixed-size array length (`double[9]` → 9), or undefined. */
const fixedArray = (fieldType: string) => /^[a-z0-9_]+\[(\d+)\]$/.exec(fieldType)?.[1];

type Message = Record<string, unknown>;

/** Walks `msg` along `type`'s fields (a missing field stays missing), mapping each leaf by its field type. */
function walk(type: string, msg: Message, leaf: (fieldType: string, value: unknown) => unknown): Message {
  const fields = MESSAGE_FIELDS[key(type)];
  if (!fields) return msg;
  const out: Message = { ...msg };
  for (const [field, fieldType] of Object.entries(fields)) {
    if (!(field in msg)) continue;
    const value = msg[field];
    const nested = /^sequence<([a-z0-9_]+\/[A-Za-z0-9_]+)>$/.exec(fieldType)?.[1];
    if (MESSAGE_FIELDS[fieldType] && value && typeof value === 'object')
      out[field] = walk(fieldType, value as Message, leaf);
    else if (nested && Array.isArray(value)) out[field] = value.map((v) => walk(nested, v as Message, leaf));
    else out[field] = leaf(fieldType, value);
  }
  return out;
}

/**
 * What a message's float32 fields become when rclpy hands them to Python (`message_conversion.py`
 * `extract_values`: a float32 is read as a Python float, a double): 0.05 → 0.05000000074505806.
 */
export function widenFloat32(type: string, msg: Message): Message {
  return walk(type, msg, (fieldType, value) => {
    if (fieldType === 'float' && typeof value === 'number') return Math.fround(value);
    if ((fieldType === 'sequence<float>' || /^float\[\d+\]$/.test(fieldType)) && Array.isArray(value))
      return value.map((v) => (typeof v === 'number' ? Math.fround(v) : v));
    return value;
  });
}

/** A plain Uint8Array (not a Buffer, which cbor2 would encode as its JSON form, not as a byte string). */
const bytesOf = (value: unknown): Uint8Array => Uint8Array.from((value as ArrayLike<number> | undefined) ?? []);

/** A message as rosbridge's JSON encoding writes it (`message_conversion.py`): byte sequences as base64 text. */
export function jsonMessage(type: string, msg: Message): Message {
  return walk(type, msg, (fieldType, value) =>
    fieldType === 'sequence<uint8>' ? Buffer.from(bytesOf(value)).toString('base64') : value,
  );
}

/** The first fixed-size array field of `type`, nested or not (`pose.covariance`), or undefined. */
export function fixedArrayField(type: string, prefix = ''): string | undefined {
  for (const [field, fieldType] of Object.entries(MESSAGE_FIELDS[key(type)] ?? {})) {
    if (fixedArray(fieldType)) return `${prefix}${field}`;
    if (MESSAGE_FIELDS[fieldType]) {
      const inner = fixedArrayField(fieldType, `${prefix}${field}.`);
      if (inner) return inner;
    }
  }
  return undefined;
}

/**
 * A message as `extract_cbor_values` (`internal/cbor_conversion.py`) builds it: `sequence<float>` and
 * `sequence<double>` as RFC 8746 typed-array tags 85/86 over little-endian bytes, `sequence<uint8>` as a byte
 * string. A fixed-size array (numpy in rclpy, in no list of that function) falls through to its last branch,
 * which asks it for its fields: it throws, for any message that has one anywhere.
 */
export function cborMessage(type: string, msg: Message): Message {
  const fixed = fixedArrayField(type);
  if (fixed) throw new Error(`'numpy.ndarray' object has no attribute 'get_fields_and_field_types' (${fixed})`);
  return walk(type, msg, (fieldType, value) => {
    if (fieldType === 'sequence<uint8>') return bytesOf(value);
    if (fieldType !== 'sequence<float>' && fieldType !== 'sequence<double>') return value;
    const values = (value as number[] | undefined) ?? [];
    const float = fieldType === 'sequence<float>';
    const bytes = Buffer.alloc(values.length * (float ? 4 : 8));
    values.forEach((v, i) => (float ? bytes.writeFloatLE(v, i * 4) : bytes.writeDoubleLE(v, i * 8)));
    return new Tag(float ? 85 : 86, new Uint8Array(bytes));
  });
}

/**
 * The first field of `msg` that `type` does not have (`message_conversion.py` `populate_instance` raises
 * NonexistentFieldException for it, and the message is not published), or undefined. Only for listed types.
 */
export function nonexistentField(type: string, msg: Message): string | undefined {
  const fields = MESSAGE_FIELDS[key(type)];
  if (!fields) return undefined;
  for (const [field, value] of Object.entries(msg)) {
    const fieldType = fields[field];
    if (fieldType === undefined) return field;
    if (MESSAGE_FIELDS[fieldType] && value && typeof value === 'object' && !Array.isArray(value)) {
      const inner = nonexistentField(fieldType, value as Message);
      if (inner) return `${field}.${inner}`;
    }
  }
  return undefined;
}
