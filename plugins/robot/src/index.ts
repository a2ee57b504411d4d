/**
 * `@mira/robot`: the robot side of Mira that every hardware plugin shares —
 * the transport port (ROS 2 topics and services), the standard message
 * conversions, and the robot bridge: sensors with fresh reads, `drive` and
 * `stop` with limits the runtime enforces, and the watchdog. Not a plugin: a
 * library that `@mira/plugin-sim` and `@mira/plugin-ros2` build on.
 *
 * @packageDocumentation
 */
export { HardwareErrorCodes, HardwareErrors, type HardwareErrorCode } from './errors.js';
export {
  arrayField,
  DRIVE_MESSAGE_TYPES,
  DRIVE_STAMP_POLICIES,
  SENSOR_FIELDS,
  SENSOR_MESSAGE_TYPES,
  SENSOR_UNITS,
  driveCommand,
  stamp,
  ZERO_STAMP,
  toSensorImage,
  toSensorReading,
  toSensorValue,
  twist,
  velocityOf,
  yawQuaternion,
  type DriveMessageType,
  type DriveStampPolicy,
  type SensorMessageType,
} from './messages.js';
export type {
  ConsoleSignal,
  FromSafety,
  NavigationState,
  SafetyDriveConfig,
  SafetyTransportContext,
  SafetyTransportSpec,
  StopCause,
  StopDelivery,
  ToSafety,
} from './safety/protocol.js';
export {
  ARRAY_ITEMS_SHOWN,
  IMAGE_MESSAGE_TYPES,
  MESSAGE_BYTE_BOUND,
  STRING_CHARS_SHOWN,
  boundMessage,
  cutValues,
  type BoundedMessage,
} from './bounded-message.js';
export {
  ECHO_DEFAULT_WAIT_S,
  ECHO_MAX_WAIT_S,
  GET_PARAMETERS_TYPE,
  GRAPH_ITEMS_SHOWN,
  GRAPH_TIMEOUT_MS,
  LIST_PARAMETERS_TYPE,
  attachGraphTools,
} from './graph-tools.js';
export {
  PARAMETER_TYPES,
  SET_PARAMETERS_TYPE,
  SKILL_DEFAULTS,
  SKILL_TOOLS,
  SKILLS_SCHEMA,
  type SkillKind,
  type SkillMapping,
} from './skill-schema.js';
export {
  LOOK_MAX_BYTES,
  LOOK_MAX_INPUT_MP,
  LOOK_MAX_SIDE_PX,
  LOOK_QUALITIES,
  fittedSize,
  frameForModel,
  type ShownFrame,
} from './camera-frame.js';
export { NAVIGATE_TO_POSE, NAVIGATION_SENSOR, type NavigationMapping } from './navigation.js';
export { CLOCK_QOS, CLOCK_TOPIC, CLOCK_TYPE, simulationClock, timeMs, type RosClock } from './ros-time.js';
export { HEARTBEAT_MS, SafetyPath, type SafetyEvents } from './safety/safety-path.js';
export { E_STOP_QOS, E_STOP_TYPE, subscribeEStop } from './safety/e-stop.js';
export {
  CONFIRM_MS,
  SafetyController,
  TOPIC_TYPE_SERVICE,
  TOPIC_TYPE_SERVICE_TYPE,
  type SafetyEnvironment,
} from './safety/controller.js';
export {
  CLOCK_SKEW_WARN_S,
  DEFAULT_E_STOP_TIMEOUT_MS,
  DEFAULT_STALL_MS,
  TOPIC_NAME_PATTERN,
  ROBOT_MAPPING_SCHEMA_PROPERTIES,
  attachRobot,
  clockSkewMonitor,
  type SafetyMapping,
  type DriveMapping,
  type RobotBridge,
  type RobotStatus,
  type RobotMapping,
  type SensorMapping,
} from './robot.js';
export {
  CANCEL_ALL_GOALS,
  CANCEL_GOAL_SERVICE_TYPE,
  type ActionGoal,
  type ActionOutcome,
  type GraphEntry,
  type RosGraph,
  type LinkState,
  type PublishOptions,
  type QosProfile,
  type RobotTransport,
  type RosMessage,
} from './transport.js';
