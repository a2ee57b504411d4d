/**
 * `@mira/plugin-sim`: a simulated differential-drive robot, the default
 * hardware of `profiles/mira-sim`, so the whole runtime runs with no robot.
 *
 * @packageDocumentation
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { definePlugin, type MiraPlugin, type PluginInstance } from '@mira/core';
import { ROBOT_MAPPING_SCHEMA_PROPERTIES, attachRobot, type RobotMapping } from '@mira/robot';
import { SimRobot } from './sim-robot.js';
import { SimTransport } from './sim-transport.js';
import { configValidator } from './config-validator.generated.js';

export { DEFAULT_SIM_PARAMETERS, SimRobot, normalizeAngle, type SimParameters, type SimState } from './sim-robot.js';
export { SIM_NODE, SimTransport, type SimWiring } from './sim-transport.js';
export { SimBusTransport, connectSimBus, type BusFrame } from './sim-bus.js';
export { CAMERA_HEIGHT, CAMERA_WIDTH, cameraFrame, encodePng } from './camera.js';

/** The plugin's name. */
export const PLUGIN_NAME = '@mira/plugin-sim';

/** The JSON schema of the `[sim]` table: the simulated robot, and its mapping to topics. */
export const SIM_CONFIG_SCHEMA = {
  type: 'object',
  properties: {
    battery_percent: { type: 'number', minimum: 0, maximum: 100, default: 100 },
    battery_drain_percent_per_min: { type: 'number', minimum: 0, default: 0.5 },
    battery_drain_percent_per_m: { type: 'number', minimum: 0, default: 0.2 },
    room_half_size_m: { type: 'number', exclusiveMinimum: 0, default: 5 },
    cmd_timeout_s: { type: 'number', exclusiveMinimum: 0, default: 0.5 },
    tick_ms: {
      type: 'integer',
      minimum: 0,
      maximum: 1000,
      default: 50,
      description: 'Real-time step of the simulation, in ms.',
    },
    rates_hz: {
      type: 'object',
      additionalProperties: { type: 'number', exclusiveMinimum: 0, maximum: 1000 },
      default: {},
      description: 'Publish rates in Hz, by sensor id.',
    },
    bus: {
      type: 'string',
      pattern: '^[A-Za-z0-9_.:-]{1,128}$',
      description:
        "The in-process bus other threads join (the safety path, a test's subscriber); unique per runtime by default.",
    },
    ...ROBOT_MAPPING_SCHEMA_PROPERTIES,
  },
  additionalProperties: false,
} as const satisfies JSONSchema;

/** The `[sim]` table, derived from {@link SIM_CONFIG_SCHEMA} (defaults filled). */
export type SimConfig = FromSchema<typeof SIM_CONFIG_SCHEMA, { keepDefaultedPropertiesOptional: false }>;

/** The conventional topics, used when `[sim]` does not list sensors or a drive. */
export const DEFAULT_SIM_MAPPING: Required<Pick<RobotMapping, 'sensors' | 'drive'>> = {
  sensors: [
    { id: 'battery', topic: '/battery_state', type: 'sensor_msgs/msg/BatteryState', stale_after_ms: 5000 },
    { id: 'odometry', topic: '/odom', type: 'nav_msgs/msg/Odometry', stale_after_ms: 1000 },
    { id: 'range', topic: '/range/front', type: 'sensor_msgs/msg/Range', stale_after_ms: 1000 },
    // Where the robot is in the map (as Nav2's AMCL says it): `memory place add … --here` keeps it.
    { id: 'pose', topic: '/amcl_pose', type: 'geometry_msgs/msg/PoseWithCovarianceStamped', stale_after_ms: 2000 },
    // A small rendered front camera: `memory snapshot` keeps its frame.
    {
      id: 'camera_front',
      topic: '/camera/front/image_raw/compressed',
      type: 'sensor_msgs/msg/CompressedImage',
      stale_after_ms: 5000,
    },
  ],
  drive: {
    topic: '/cmd_vel',
    type: 'geometry_msgs/msg/Twist',
    max_linear_m_s: 0.5,
    max_angular_rad_s: 1.5,
    max_duration_s: 10,
  },
};

const DEFAULT_RATES: Record<string, number> = {
  'sensor_msgs/msg/BatteryState': 1,
  'nav_msgs/msg/Odometry': 20,
  'sensor_msgs/msg/Range': 10,
  'sensor_msgs/msg/LaserScan': 10,
  'sensor_msgs/msg/Imu': 50,
  'geometry_msgs/msg/PoseWithCovarianceStamped': 5,
  'sensor_msgs/msg/CompressedImage': 1,
  'irobot_create_msgs/msg/HazardDetectionVector': 10,
  'irobot_create_msgs/msg/DockStatus': 1,
};

/** One simulated robot of one runtime. */
export interface SimInstance extends PluginInstance {
  /** The simulated robot's transport (tests read and drive the robot through it). */
  readonly transport: SimTransport;
}

/** The simulator plugin: each runtime gets its own robot, transport and bridge. */
export const simPlugin: MiraPlugin<SimConfig, SimInstance> = definePlugin({
  name: PLUGIN_NAME,
  version: '0.1.0',
  configSection: 'sim',
  stopPhase: 'hardware',
  configSchema: SIM_CONFIG_SCHEMA,
  configValidator,
  setup(kernel, config) {
    const mapping: RobotMapping = {
      sensors: config.sensors ?? DEFAULT_SIM_MAPPING.sensors,
      drive: config.drive ?? DEFAULT_SIM_MAPPING.drive,
      read_timeout_ms: config.read_timeout_ms,
      safety: config.safety,
      // Refused by attachRobot with a clear error: the simulator has no action servers.
      navigation: config.navigation,
    };
    const robot = new SimRobot({
      batteryPercent: config.battery_percent,
      drainIdlePercentPerMin: config.battery_drain_percent_per_min,
      drainPercentPerM: config.battery_drain_percent_per_m,
      roomHalfSizeM: config.room_half_size_m,
      cmdTimeoutS: config.cmd_timeout_s,
    });
    const transport = new SimTransport(robot, kernel.clock, {
      sensors: mapping.sensors.map((s) => ({
        topic: s.topic,
        type: s.type,
        rateHz: config.rates_hz[s.id] ?? DEFAULT_RATES[s.type]!,
      })),
      cmdTopic: mapping.drive?.topic,
      cmdType: mapping.drive?.type,
      tickMs: config.tick_ms,
      bus: config.bus,
    });
    const bridge = attachRobot(kernel, transport, mapping, {
      module: new URL('./sim-bus.js', import.meta.url).href,
      export: 'connectSimBus',
      options: { bus: transport.bus },
    });
    return {
      transport,
      async start() {
        await bridge.start();
        transport.tick();
      },
      stop: () => bridge.stop(),
    };
  },
});

export default simPlugin;
