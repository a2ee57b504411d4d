import {
  EPISODE_ORIGINS,
  defineTool,
  MiraError,
  type PluginKernel,
  type SensorReading,
  type ToolResult,
} from '@mira/core';
import {
  DRIVE_MESSAGE_TYPES,
  DRIVE_STAMP_POLICIES,
  SENSOR_MESSAGE_TYPES,
  toSensorReading,
  type DriveMessageType,
  type DriveStampPolicy,
  type SensorMessageType,
} from './messages.js';
import { HardwareErrors } from './errors.js';
import type { SafetyTransportSpec, StopCause, StopDelivery } from './safety/protocol.js';
import { SafetyPath } from './safety/safety-path.js';
import { attachNavigation, type NavigationMapping } from './navigation.js';
import { attachGraphTools } from './graph-tools.js';
import { registerSensors, type SensorMapping } from './sensors.js';
import { json, rejected } from './tool-result.js';
import { simulationClock, type RosClock } from './ros-time.js';
import type { QosProfile, RobotTransport, RosMessage } from './transport.js';

import { TOPIC_NAME_PATTERN } from './topic-name.js';
import { attachSkills } from './skills.js';
import type { SkillMapping } from './skill-schema.js';

export { TOPIC_NAME_PATTERN };
export type { SensorMapping };

/** The dead-man's default: zero velocity when the runtime stalls this long while driving. */
export const DEFAULT_STALL_MS = 250;
/** How fresh a configured e-stop topic must be before and while driving, by default. */
export const DEFAULT_E_STOP_TIMEOUT_MS = 1000;

/** The velocity command topic and the limits the runtime enforces. */
export interface DriveMapping {
  readonly topic: string;
  /** `geometry_msgs/msg/Twist`, or `geometry_msgs/msg/TwistStamped` (what ros2_control's diff drive takes on Jazzy). */
  readonly type: DriveMessageType;
  /** The `header.frame_id` of a TwistStamped command (default `base_link`). */
  readonly frame_id?: string;
  /** How a TwistStamped command is stamped: `zero` (default; the controller stamps it on arrival) or `now`. */
  readonly stamp?: DriveStampPolicy;
  readonly max_linear_m_s: number;
  readonly max_angular_rad_s: number;
  readonly max_duration_s: number;
  /** How often the command is republished while driving (default 10 Hz). */
  readonly rate_hz?: number;
}

/** How far a sensor's stamps may be from this host's clock before Mira says so (seconds). */
export const CLOCK_SKEW_WARN_S = 0.5;

/**
 * Watches the `header.stamp` of incoming sensor messages against this host's clock and warns, once per
 * sensor, when one is more than {@link CLOCK_SKEW_WARN_S} away: the robot's clock (or a simulation
 * clock) is not this host's, which matters to anything stamped here (a drive with `stamp = "now"`).
 * Transport latency counts as skew too, so the bound is wide. An all-zero stamp is no time and is skipped.
 */
export function clockSkewMonitor(now: () => number, warn: (line: string) => void, clock?: RosClock) {
  const warned = new Set<string>();
  const against = clock?.simulated ? 'the simulation clock' : "this host's clock";
  const fix = clock?.simulated
    ? 'is the sensor on the same simulation (its driver needs use_sim_time too)?'
    : 'keep [ros2.drive] stamp = "zero", or synchronise the clocks (chrony)';
  return {
    check(sensorId: string, message: RosMessage): void {
      if (warned.has(sensorId) || (clock && !clock.ready())) return;
      const stampOf = (message.header as { stamp?: { sec?: unknown; nanosec?: unknown } } | undefined)?.stamp;
      const sec = Number(stampOf?.sec);
      const nanosec = Number(stampOf?.nanosec ?? 0);
      if (!Number.isFinite(sec) || !Number.isFinite(nanosec) || (sec === 0 && nanosec === 0)) return;
      const skewS = now() / 1000 - (sec + nanosec / 1e9);
      if (Math.abs(skewS) <= CLOCK_SKEW_WARN_S) return;
      warned.add(sensorId);
      warn(
        `clock skew: sensor ${sensorId}'s stamps are ${Math.abs(skewS).toFixed(1)} s ${skewS > 0 ? 'behind' : 'ahead of'} ${against} ` +
          `(more than ${CLOCK_SKEW_WARN_S} s: another clock, or a simulation clock); drive commands stamped "now" would be wrong by as much — ${fix}`,
      );
    },
  };
}

/** The part of a hardware plugin's config that maps sensors and effects to topics. */
export interface RobotMapping {
  readonly sensors: readonly SensorMapping[];
  readonly drive?: DriveMapping;
  /** How long `read_sensor` waits for a fresh reading (default 2000). */
  readonly read_timeout_ms?: number;
  /** The safety path's settings. */
  readonly safety?: SafetyMapping;
  /** Nav2's NavigateToPose action, for the `navigate_to` tool (needs a drive: the safety path cancels goals). */
  readonly navigation?: NavigationMapping;
  /**
   * Under `use_sim_time`: the `rosgraph_msgs/msg/Clock` topic (`/clock`, after remapping) that every stamp
   * Mira writes follows (drives stamped `now`, navigation goals) and that sensor stamps are checked against.
   */
  readonly sim_clock_topic?: string;
  /** Skills the profile allows (topics, services, actions, parameters), as `[[<plugin>.skills]]` lists them. */
  readonly skills?: readonly SkillMapping[];
}

/** The `safety` table of a hardware plugin: the dead-man and an optional e-stop topic. */
export interface SafetyMapping {
  /** Zero velocity when the runtime stalls this long while driving (default 250). */
  readonly stall_ms?: number;
  /** A `std_msgs/msg/Bool` topic: `true` stops the robot and refuses drives until `false`. */
  readonly e_stop_topic?: string;
  /**
   * Fail closed: drives are refused until the e-stop topic is heard, and a silence longer than this while
   * driving stops the robot (default 1000; 0: heard once is enough, for a latched e-stop).
   */
  readonly e_stop_timeout_ms?: number;
}

/** The sensor message types, as the config schema lists them. */
const SENSOR_TYPE_NAMES = Object.keys(SENSOR_MESSAGE_TYPES) as SensorMessageType[];

/**
 * JSON schema properties for {@link RobotMapping}, for hardware plugins' config schemas. A plugin derives
 * its config type from its schema (`FromSchema`), and passing that config to {@link attachRobot} checks,
 * at compile time, that the schema still describes a {@link RobotMapping}.
 */
export const ROBOT_MAPPING_SCHEMA_PROPERTIES = {
  sensors: {
    type: 'array',
    items: {
      type: 'object',
      properties: {
        id: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,63}$' },
        topic: { type: 'string', pattern: TOPIC_NAME_PATTERN },
        type: { enum: SENSOR_TYPE_NAMES },
        stale_after_ms: { type: 'integer', minimum: 1 },
        qos: { enum: ['sensor_data', 'reliable'] },
        throttle_rate_ms: { type: 'integer', minimum: 0, maximum: 60000 },
        queue_length: { type: 'integer', minimum: 0, maximum: 1000 },
        compression: { enum: ['none', 'cbor'] },
      },
      required: ['id', 'topic', 'type'],
      additionalProperties: false,
    },
  },
  drive: {
    type: 'object',
    properties: {
      topic: { type: 'string', pattern: TOPIC_NAME_PATTERN },
      type: { enum: [...DRIVE_MESSAGE_TYPES] },
      frame_id: { type: 'string', minLength: 1 },
      stamp: { enum: [...DRIVE_STAMP_POLICIES], default: 'zero' },
      max_linear_m_s: { type: 'number', exclusiveMinimum: 0 },
      max_angular_rad_s: { type: 'number', exclusiveMinimum: 0 },
      max_duration_s: { type: 'number', exclusiveMinimum: 0 },
      rate_hz: { type: 'number', exclusiveMinimum: 0, maximum: 100 },
    },
    required: ['topic', 'type', 'max_linear_m_s', 'max_angular_rad_s', 'max_duration_s'],
    additionalProperties: false,
  },
  read_timeout_ms: { type: 'integer', minimum: 1, maximum: 60000 },
  safety: {
    type: 'object',
    properties: {
      stall_ms: { type: 'integer', minimum: 20, maximum: 10000 },
      e_stop_topic: { type: 'string', pattern: TOPIC_NAME_PATTERN },
      e_stop_timeout_ms: { type: 'integer', minimum: 0, maximum: 60000 },
    },
    additionalProperties: false,
  },
  navigation: {
    type: 'object',
    properties: {
      action: { type: 'string', pattern: TOPIC_NAME_PATTERN, default: 'navigate_to_pose' },
      frame_id: { type: 'string', minLength: 1 },
      max_distance_m: { type: 'number', exclusiveMinimum: 0 },
    },
    additionalProperties: false,
  },
} as const;

const SENSOR_QOS: QosProfile = { reliability: 'best_effort', durability: 'volatile', depth: 5 };
const RELIABLE_QOS: QosProfile = { reliability: 'reliable', durability: 'volatile', depth: 10 };

/** The runtime side of a robot: sensors and effects over a transport. */
/** What the robot bridge knows of its safety, for diagnostics. */
export interface RobotStatus {
  /** Whether the robot has a drive, and so a safety path. */
  readonly drive: boolean;
  /** Whether the safety path (its worker and connection) is running. */
  readonly safetyPath: boolean;
  /** The e-stop topic, when the profile names one: whether it is engaged, and whether it is heard. */
  readonly eStop?: { readonly topic: string; readonly active: boolean; readonly fresh: boolean };
  /** The last stop (a stop of any cause), and whether its zero velocity reached the robot. */
  readonly lastStop?: {
    readonly why: string;
    readonly at: number;
    readonly delivered: boolean;
    readonly detail: string;
  };
}

export interface RobotBridge {
  /** Connects and subscribes (call from the plugin's `start`). */
  start(): Promise<void>;
  /** The safety state now: drive, safety path, e-stop, the last stop and its delivery. */
  status(): RobotStatus;
  /** Publishes zero velocity now and cancels any drive; says whether it reached a live link. */
  emergencyStop(): Promise<StopDelivery>;
  /** Now for the stamps Mira writes (ms since the epoch): the runtime's clock, or the simulation clock. */
  stampTime(): number;
  /** Zero velocity, subscriptions closed, transport closed (call from the plugin's `stop`). */
  stop(): Promise<void>;
}

/**
 * Registers a robot's sensors (with fresh reads) and its drive effects
 * (`drive`, `stop`) on the kernel, over `transport`. Topics and types come
 * from the profile. Velocity commands go through the safety path: a worker
 * thread with its own transport (built from `safety`) that enforces the
 * limits, republishes, ends a drive at its duration, stops on the operator's
 * console `stop` and on the e-stop topic without waiting for this thread, and
 * stops the robot when this thread stalls (the dead-man).
 */
export function attachRobot(
  kernel: PluginKernel,
  transport: RobotTransport,
  mapping: RobotMapping,
  safety?: SafetyTransportSpec,
): RobotBridge {
  const unsubscribers: Array<() => void> = [];
  const { clock } = kernel;
  const { waiters, looking } = registerSensors(kernel, mapping.sensors, mapping.read_timeout_ms);

  // The ROS graph, read-only, wherever the transport can read it.
  if (transport.graph) attachGraphTools(kernel, transport, transport.graph);

  const drive = mapping.drive;
  if (drive && !safety) {
    throw HardwareErrors.error('TRANSPORT_UNAVAILABLE.noSafetyPath', { name: transport.name });
  }
  let path: SafetyPath | undefined;
  /** Under `use_sim_time`, the simulation clock (from start on; zero until /clock is heard). */
  let simClock: RosClock | undefined;
  const simTopic = mapping.sim_clock_topic;
  /** Now for the stamps Mira writes (ms): the runtime's clock, or the simulation clock. */
  const stampTime = () => (simTopic ? (simClock?.now() ?? 0) : kernel.clock.now().getTime());
  let eStopActive = false;
  /** The safety path hears the e-stop topic (fail closed: false until it does). */
  let eStopFresh = false;
  const navigation = mapping.navigation;
  if (navigation && (!drive || !transport.sendActionGoal)) {
    throw drive
      ? HardwareErrors.error('TRANSPORT_UNAVAILABLE.noActionGoals', { name: transport.name })
      : HardwareErrors.error('TRANSPORT_UNAVAILABLE.navigationWithoutDrive');
  }
  /** Why motion (a goal, a motion skill) may not start now, on this thread's view of the safety path. */
  const motionRefusal = (what: string) =>
    eStopActive
      ? {
          reason: 'emergency_stopped',
          error: `the emergency stop on ${mapping.safety?.e_stop_topic} is active; clear it first`,
        }
      : !path
        ? { reason: 'transport_error', error: `the robot is not connected; ${what}` }
        : mapping.safety?.e_stop_topic && !eStopFresh
          ? {
              reason: 'e_stop_silent',
              error: `the e-stop topic ${mapping.safety.e_stop_topic} is not heard (never, or not within e_stop_timeout_ms); ${what}`,
            }
          : undefined;
  /** The stop fence's answer for a goal to `action` (navigation's when undefined), then the drive ends. */
  const sendingGoal = async (askedAt: number, action?: string) => {
    if (!path) return { reason: 'transport_error', error: 'the robot is not connected; no goal was sent' };
    const reply = await path.sendingGoal(askedAt, action);
    if (!reply.ok) return { reason: reply.reason, error: reply.error };
    // One source of motion: a goal ends the drive (the safety path stopped republishing it).
    cancelDeadline();
    return undefined;
  };
  const navigator =
    navigation &&
    attachNavigation(kernel, transport, navigation, {
      refusal: () => motionRefusal('no goal was sent'),
      stampTime,
      sending: (askedAt) => sendingGoal(askedAt),
      navigating: (state, goal, known) => {
        if (state !== 'ended') cancelDeadline();
        path?.navigating(state, goal, known);
      },
    });
  // Skills the profile allows; the motion ones go through the safety path as navigation goals do.
  const skills =
    mapping.skills && mapping.skills.length > 0
      ? attachSkills(
          kernel,
          transport,
          mapping.skills,
          drive && {
            refusal: () => motionRefusal('nothing was sent'),
            sending: (askedAt, action) => sendingGoal(askedAt, action),
            navigating: (state, action, goal, known) => {
              if (state !== 'ended') cancelDeadline();
              path?.navigating(state, goal, known, action);
            },
            fence: async (askedAt) => {
              if (!path) return { reason: 'transport_error', error: 'the robot is not connected; nothing was sent' };
              const reply = await path.fence(askedAt);
              return reply.ok ? undefined : { reason: reply.reason, error: reply.error };
            },
          },
        )
      : undefined;
  // The runtime's own clock also ends a drive (tests step it); the safety path ends it in real time regardless.
  let deadlineTimer: ReturnType<typeof setInterval> | undefined;
  const cancelDeadline = () => {
    if (deadlineTimer) clearInterval(deadlineTimer);
    deadlineTimer = undefined;
  };
  let lastStop: RobotStatus['lastStop'];
  const remember = (why: string, delivery: StopDelivery): StopDelivery => {
    lastStop = { why, at: Date.now(), delivered: delivery.delivered, detail: delivery.detail };
    return delivery;
  };
  const halt = async (why: string): Promise<StopDelivery> => {
    cancelDeadline();
    if (!path) {
      return remember(why, {
        delivered: false,
        detail: `zero velocity not delivered on ${drive?.topic}: the safety path is not running; the base's own command timeout must stop the robot`,
      });
    }
    const reply = await path.stop(why);
    if (!reply.ok) return remember(why, { delivered: false, detail: `zero velocity not delivered: ${reply.error}` });
    return remember(why, reply.delivery ?? { delivered: true, detail: `zero velocity sent on ${drive?.topic}` });
  };

  // The operator's stop, and every ending of the process (which waits for a tool awaiting its goal), end the
  // skills' goals that move nothing, with or without a drive; the motion ones the safety path cancels with the zero.
  if (skills) kernel.hardware.registerCancel(() => skills.cancelOthers());
  if (drive) {
    kernel.hardware.registerEmergencyStop(async () => {
      const delivery = await halt('console stop');
      // The console says more than "sent" only where there is more to say: a link that failed, or a zero
      // heard back (or not) over a bridge.
      return delivery.delivered && delivery.confirmed === undefined ? { delivered: true } : delivery;
    });
    kernel.hardware.registerConsoleStopPort(() => {
      if (!path) throw HardwareErrors.error('TRANSPORT_FAILED.safetyPathStopped');
      return path.consolePort();
    });
    kernel.tools.register(
      defineTool({
        name: 'drive',
        description:
          `Drive the base at a constant velocity for a duration, then stop. Limits: |linear_m_s| ≤ ${drive.max_linear_m_s}, ` +
          `|angular_rad_s| ≤ ${drive.max_angular_rad_s}, 0 < duration_s ≤ ${drive.max_duration_s}. Out-of-range requests are refused, not clamped.`,
        kind: 'effect',
        origins: ['operator'],
        parameters: {
          type: 'object',
          properties: {
            linear_m_s: { type: 'number', description: 'Forward speed in m/s (negative: backwards).' },
            angular_rad_s: { type: 'number', description: 'Turn rate in rad/s (positive: left).' },
            duration_s: { type: 'number', description: 'How long to drive, in seconds.' },
          },
          required: ['linear_m_s', 'angular_rad_s', 'duration_s'],
          additionalProperties: false,
        },
        run: async ({ linear_m_s, angular_rad_s, duration_s }, context): Promise<ToolResult> => {
          const problems: string[] = [];
          if (!(Math.abs(linear_m_s) <= drive.max_linear_m_s))
            problems.push(`|linear_m_s| must be at most ${drive.max_linear_m_s}`);
          if (!(Math.abs(angular_rad_s) <= drive.max_angular_rad_s))
            problems.push(`|angular_rad_s| must be at most ${drive.max_angular_rad_s}`);
          if (!(duration_s > 0 && duration_s <= drive.max_duration_s))
            problems.push(`duration_s must be above 0 and at most ${drive.max_duration_s}`);
          if (problems.length > 0) return rejected('out_of_range', `${problems.join('; ')}; nothing was sent`);
          if (eStopActive) {
            return rejected(
              'emergency_stopped',
              `the emergency stop on ${mapping.safety?.e_stop_topic} is active; clear it first`,
            );
          }
          if (!path) return rejected('transport_error', 'the robot is not connected; nothing was sent');
          // A new drive replaces the running one without a stop in between.
          cancelDeadline();
          // Asked when the episode's request was (a typed line: when it was read), so a stop typed after it
          // fences it off however late this call comes.
          const reply = await path.drive(linear_m_s, angular_rad_s, duration_s, context.episode.askedAt);
          if (!reply.ok) return rejected(reply.reason, reply.error);
          const deadline = clock.monotonic() + duration_s * 1000;
          deadlineTimer = setInterval(
            () => {
              if (clock.monotonic() >= deadline) {
                halt('duration').catch((e) => kernel.log.error(`drive watchdog: ${(e as Error).message}`));
              }
            },
            1000 / (drive.rate_hz ?? 10),
          );
          deadlineTimer.unref?.();
          return {
            content: json({ status: 'started', linear_m_s, angular_rad_s, duration_s }),
            display: `driving ${linear_m_s.toFixed(2)} m/s, ${angular_rad_s.toFixed(2)} rad/s for ${duration_s.toFixed(1)} s`,
          };
        },
      }),
    );
    kernel.tools.register({
      name: 'stop',
      description: 'Stop the base now (zero velocity).',
      kind: 'effect',
      origins: EPISODE_ORIGINS,
      parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
      run: async () => {
        const delivery = await halt('stop tool');
        if (!delivery.delivered) {
          kernel.log.error(`stop: ${delivery.detail}`);
          return rejected('not_delivered', delivery.detail);
        }
        return { content: json({ status: 'stopped' }), display: 'stopped' };
      },
    });
  }

  return {
    async start() {
      try {
        await transport.connect();
      } catch (error) {
        if (error instanceof MiraError) throw error;
        throw HardwareErrors.error(
          'TRANSPORT_FAILED.connect',
          { name: transport.name, reason: (error as Error).message },
          { cause: error },
        );
      }
      // Against the clock a drive stamped "now" carries: the wall clock, or the simulation clock.
      if (simTopic) {
        simClock = simulationClock(transport, simTopic);
        unsubscribers.push(() => simClock?.close());
      }
      const skew = simClock
        ? clockSkewMonitor(simClock.now, (line) => kernel.log.warn(line), simClock)
        : clockSkewMonitor(Date.now, (line) => kernel.log.warn(line));
      for (const sensor of mapping.sensors) {
        // No silent success: a subscription that delivers nothing (a wrong topic or type, which a bridge
        // refuses without a word) is reported once, by name.
        let heard = false;
        const staleAfter = sensor.stale_after_ms ?? 5000;
        const silence = setTimeout(() => {
          if (!heard)
            kernel.log.warn(
              `sensor ${sensor.id}: nothing received on ${sensor.topic} (${sensor.type}) within ${staleAfter} ms; ` +
                `check the topic name and type, and that its publisher runs (a bridge refuses a subscription of the wrong type silently)`,
            );
        }, staleAfter);
        silence.unref?.();
        unsubscribers.push(() => clearTimeout(silence));
        unsubscribers.push(
          transport.subscribe(
            sensor.topic,
            sensor.type,
            (message) => {
              heard = true;
              skew.check(sensor.id, message);
              const reading: SensorReading = {
                sensorId: sensor.id,
                ...toSensorReading(sensor.type, message),
                at: clock.now(),
                monotonic: clock.monotonic(),
              };
              kernel.sensors.publish(reading);
              for (const waiter of [...(waiters.get(sensor.id) ?? [])]) waiter(reading);
            },
            {
              ...(sensor.qos === 'reliable' ? RELIABLE_QOS : SENSOR_QOS),
              bridge: {
                throttle_rate: sensor.throttle_rate_ms,
                queue_length: sensor.queue_length,
                compression: sensor.compression,
              },
            },
          ),
        );
      }
      if (drive && safety) {
        path = await SafetyPath.start(
          safety,
          {
            topic: drive.topic,
            type: drive.type,
            frameId: drive.frame_id,
            stamp: drive.stamp ?? 'zero',
            maxLinear: drive.max_linear_m_s,
            maxAngular: drive.max_angular_rad_s,
            maxDurationS: drive.max_duration_s,
            rateHz: drive.rate_hz ?? 10,
            stallMs: mapping.safety?.stall_ms ?? DEFAULT_STALL_MS,
            eStopTopic: mapping.safety?.e_stop_topic,
            eStopTimeoutMs: mapping.safety?.e_stop_timeout_ms ?? DEFAULT_E_STOP_TIMEOUT_MS,
            navigationAction: navigation?.action,
            ...(simTopic ? { clockTopic: simTopic } : {}),
          },
          {
            stopped: (why, stalledMs, delivery) => {
              cancelDeadline();
              if (delivery) remember(why, delivery);
              const line = stoppedLine(why, stalledMs, mapping.safety?.e_stop_topic);
              if (!line) return;
              const undelivered = delivery && !delivery.delivered ? ` — ${delivery.detail}` : '';
              kernel.output.print(`[safety] ${line}${undelivered}`);
              if (undelivered) kernel.log.error(`safety: ${line}${undelivered}`);
            },
            eStopFresh: (fresh) => {
              eStopFresh = fresh;
            },
            eStop: (active) => {
              eStopActive = active;
              if (!active) kernel.output.print(`[safety] emergency stop on ${mapping.safety?.e_stop_topic} cleared`);
            },
            log: (message) => kernel.log.error(message),
          },
        );
      }
    },
    emergencyStop: () => halt('emergency stop'),
    stampTime,
    status: () => ({
      drive: drive !== undefined,
      safetyPath: path !== undefined,
      ...(mapping.safety?.e_stop_topic
        ? { eStop: { topic: mapping.safety.e_stop_topic, active: eStopActive, fresh: eStopFresh } }
        : {}),
      ...(lastStop ? { lastStop } : {}),
    }),
    async stop() {
      cancelDeadline();
      navigator?.close();
      if (looking) await looking.close();
      try {
        await skills?.close();
      } catch (error) {
        kernel.log.error(`skills: ${(error as Error).message}`);
      }
      try {
        await path?.close();
      } finally {
        path = undefined;
        for (const unsubscribe of unsubscribers.splice(0)) unsubscribe();
        await transport.close();
      }
    },
  };
}

/** The console line for a stop the safety path made on its own (a console `stop` prints its own line). */
function stoppedLine(
  why: StopCause,
  stalledMs: number | undefined,
  eStopTopic: string | undefined,
): string | undefined {
  switch (why) {
    case 'stall':
      return stalledMs === undefined ? undefined : `stopped: runtime stalled ${(stalledMs / 1000).toFixed(1)} s`;
    case 'e_stop':
      return `stopped: emergency stop on ${eStopTopic}`;
    case 'e_stop_silent':
      return `stopped: the e-stop topic ${eStopTopic} fell silent; drives are refused until it is heard again`;
    case 'link':
      return 'drive ended: the link to the robot failed; it will not resume';
    case 'console':
    case 'quit':
    case 'duration':
      return undefined;
  }
}
