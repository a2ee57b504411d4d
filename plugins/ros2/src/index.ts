/**
 * `@mira/plugin-ros2`: connects Mira to a ROS 2 robot, natively (rclnodejs)
 * or through rosbridge (roslib over WebSocket). The profile maps sensors and
 * the drive to topics with standard message types.
 *
 * @packageDocumentation
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { parse as parseYaml } from 'yaml';
import { definePlugin, type MiraPlugin } from '@mira/core';
import {
  CLOCK_TOPIC,
  ROBOT_MAPPING_SCHEMA_PROPERTIES,
  SKILLS_SCHEMA,
  attachRobot,
  type RobotTransport,
} from '@mira/robot';
import { NODE_CONFIG_SCHEMA, attachNode, resolveName } from './node.js';
import { Ros2Errors } from './errors.js';
import { RosArgsError, parseRosArgs, readParamsFile, remapName, type RosArgs } from './ros-args.js';
import { RclnodejsTransport } from './rclnodejs-transport.js';
import {
  DEFAULT_GOAL_ACCEPT_MS,
  DEFAULT_LIVENESS_MS,
  DEFAULT_OUTAGE_QUEUE,
  RosbridgeTransport,
} from './rosbridge-transport.js';
import { configValidator } from './config-validator.generated.js';

export { RclnodejsTransport, loadRclnodejs, type RclnodejsTransportOptions } from './rclnodejs-transport.js';
export type * from './rclnodejs-api.js';
export { toPlainJson, toRclMessage } from './ros-json.js';
export {
  DEFAULT_GOAL_ACCEPT_MS,
  DEFAULT_LIVENESS_MS,
  DEFAULT_OUTAGE_QUEUE,
  RosbridgeTransport,
  describeRosEvent,
  goalStatus,
  type RosbridgeOptions,
} from './rosbridge-transport.js';
export {
  DIAGNOSTICS_PERIOD_MS,
  DIAGNOSTICS_TYPE,
  DIAGNOSTIC_LEVEL,
  RECALL_SERVICE_TYPE,
  diagnosticStatuses,
  resolveName,
  type NodeConfig,
} from './node.js';
export {
  ROS_LOG_LEVELS,
  RosArgsError,
  parseParamRule,
  parseRemapRule,
  parseRosArgs,
  readParamsFile,
  remapName,
  type NameRemap,
  type RosArgs,
  type RosLogLevel,
} from './ros-args.js';
export { Ros2ErrorCodes, Ros2Errors } from './errors.js';
export { connectRclnodejs, connectRosbridge } from './safety-transport.js';

/** The plugin's name. */
export const PLUGIN_NAME = '@mira/plugin-ros2';

/** The JSON schema of the `[ros2]` table: the transport, the node, and the robot's mapping to topics. */
export const ROS2_CONFIG_SCHEMA = {
  type: 'object',
  properties: {
    transport: {
      enum: ['rclnodejs', 'rosbridge'],
      default: 'rclnodejs',
      description: 'rclnodejs (native ROS 2) or rosbridge (JSON over a WebSocket).',
    },
    url: { type: 'string', pattern: '^wss?://', description: 'rosbridge only, e.g. ws://robot.local:9090.' },
    connect_timeout_ms: { type: 'integer', minimum: 100, maximum: 120000, default: 5000 },
    liveness_ms: {
      type: 'integer',
      minimum: 50,
      maximum: 10000,
      default: DEFAULT_LIVENESS_MS,
      description: 'rosbridge only: pings unanswered this long take the link down.',
    },
    goal_accept_timeout_ms: {
      type: 'integer',
      minimum: 100,
      maximum: 120000,
      default: DEFAULT_GOAL_ACCEPT_MS,
      description: 'rosbridge only: a navigation goal with no feedback or result this long is rejected.',
    },
    outage_queue_messages: {
      type: 'integer',
      minimum: 0,
      maximum: 10000,
      default: DEFAULT_OUTAGE_QUEUE.maxMessages,
      description:
        'rosbridge only: replies, events and /rosout lines published while the link is down wait, at most this many (the oldest go first), and are sent in order on reconnection; motion never waits.',
    },
    outage_queue_max_age_ms: {
      type: 'integer',
      minimum: 0,
      maximum: 600000,
      default: DEFAULT_OUTAGE_QUEUE.maxAgeMs,
      description:
        'rosbridge only: a message waiting out an outage longer than this is dropped (said once, on reconnection).',
    },
    node_name: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]*$', default: 'mira' },
    namespace: { type: 'string', pattern: '^(/[A-Za-z][A-Za-z0-9_]*)*$', default: '' },
    use_sim_time: {
      type: 'boolean',
      default: false,
      description:
        'On a simulation clock: every stamp Mira writes follows /clock (zero until it is heard). -p use_sim_time:=… and a --params-file entry win over it, as for any ROS node.',
    },
    ...ROBOT_MAPPING_SCHEMA_PROPERTIES,
    skills: SKILLS_SCHEMA,
    node: NODE_CONFIG_SCHEMA,
  },
  required: ['sensors'],
  additionalProperties: false,
  if: { properties: { transport: { const: 'rosbridge' } } },
  then: { required: ['url'] },
} as const satisfies JSONSchema;

/**
 * The `[ros2]` table, derived from {@link ROS2_CONFIG_SCHEMA} (defaults filled), and the clock topic set
 * up from it under `use_sim_time`. Handing it to `attachRobot` checks that the schema still describes a
 * `RobotMapping`.
 */
export type Ros2Config = FromSchema<typeof ROS2_CONFIG_SCHEMA, { keepDefaultedPropertiesOptional: false }> & {
  readonly sim_clock_topic?: string;
};

/** The ROS 2 plugin: each runtime gets its own transport and bridge. */
export const ros2Plugin: MiraPlugin<Ros2Config> = definePlugin({
  name: PLUGIN_NAME,
  version: '0.1.0',
  configSection: 'ros2',
  stopPhase: 'hardware',
  configSchema: ROS2_CONFIG_SCHEMA,
  configValidator,
  setup(kernel, rawConfig) {
    // Launch files pass the node's namespace, name and remaps as --ros-args, read as rcl reads them;
    // they win over the profile. What rcl would refuse stops start-up in rcl's words.
    let rosArgs: RosArgs;
    try {
      rosArgs = parseRosArgs(kernel.runtime.rosArgs, rawConfig.node_name);
    } catch (error) {
      if (!(error instanceof RosArgsError)) throw error;
      if (error.warning) kernel.log.warn(error.warning);
      throw Ros2Errors.error('ARGS_INVALID', error.message);
    }
    const namespace = rosArgs.namespace ?? rawConfig.namespace;
    const nodeName = rosArgs.nodeName ?? rawConfig.node_name;
    // use_sim_time, the one ROS parameter Mira reads (from -p, or a --params-file entry for this node;
    // -p wins, as in rcl; the profile's use_sim_time otherwise): every stamp Mira writes then follows the
    // simulation clock on /clock, as a ROS node's clock does.
    const fileParams: Record<string, unknown> = {};
    for (const file of rosArgs.paramsFiles) {
      let text: string | undefined;
      try {
        text = readFileSync(resolve(file), 'utf8');
      } catch {
        text = undefined;
      }
      try {
        Object.assign(fileParams, readParamsFile(file, text, resolveName('~', namespace, nodeName), parseYaml));
      } catch (error) {
        if (error instanceof RosArgsError) throw Ros2Errors.error('ARGS_INVALID', error.message);
        throw error;
      }
    }
    const { use_sim_time: simTimeParam, ...otherParams } = rosArgs.params;
    const { use_sim_time: simTimeFile, ...otherFileParams } = fileParams;
    const simTime =
      simTimeParam !== undefined
        ? /^(true|True|TRUE|yes|Yes|YES|on|On|ON)$/.test(simTimeParam)
        : simTimeFile !== undefined
          ? simTimeFile === true
          : rawConfig.use_sim_time === true;
    const unused = [
      ...rosArgs.unused,
      ...Object.entries(otherParams).map(([param, value]) => `-p ${param}:=${value}`),
      ...Object.keys(otherFileParams).map((param) => `${param} (--params-file)`),
      ...Object.entries(rosArgs.loggerLevels).map(([logger, level]) => `--log-level ${logger}:=${level}`),
    ];
    // Said once, each by name: Mira reads no ROS parameters (its settings are the profile's keys).
    if (unused.length > 0) kernel.log.info(`ROS arguments not used by Mira: ${unused.join(' ')}`);
    const expand = (topic: string) => resolveName(topic, namespace, nodeName);
    // Every topic, service and action name Mira uses goes through the remap rules, as rcl's names do.
    const name = (topic: string, kind: 'topic' | 'service' = 'topic') =>
      remapName(expand(topic), rosArgs.remaps, kind, expand);
    const level = rosArgs.logLevel;
    const rosoutLevel =
      rosArgs.rosoutLogs === false || level === 'fatal'
        ? ('none' as const)
        : level === 'warn' || level === 'error'
          ? level
          : ('info' as const);
    // Relative names resolve under the namespace, for rosbridge as for native ROS 2.
    const config: Ros2Config = {
      ...rawConfig,
      namespace,
      node_name: nodeName,
      sensors: rawConfig.sensors.map((s) => ({ ...s, topic: name(s.topic) })),
      drive: rawConfig.drive && {
        ...rawConfig.drive,
        topic: name(rawConfig.drive.topic),
      },
      navigation: rawConfig.navigation && {
        ...rawConfig.navigation,
        action: name(rawConfig.navigation.action),
      },
      skills: rawConfig.skills?.map((skill) =>
        // A parameter's name is the node's own; the node's name follows the namespace and remaps as a topic's.
        skill.kind === 'parameter'
          ? { ...skill, node: name(skill.node!) }
          : { ...skill, name: name(skill.name, skill.kind === 'topic' ? 'topic' : 'service') },
      ),
      use_sim_time: simTime,
      ...(simTime ? { sim_clock_topic: name(CLOCK_TOPIC) } : {}),
      safety: rawConfig.safety && {
        ...rawConfig.safety,
        ...(rawConfig.safety.e_stop_topic ? { e_stop_topic: name(rawConfig.safety.e_stop_topic) } : {}),
      },
    };
    if (config.sim_clock_topic) {
      kernel.log.info(
        `use_sim_time: on the simulation clock ${config.sim_clock_topic}; drive commands stamped "now", navigation goals and /diagnostics carry its time (zero until it is heard)`,
      );
    }
    const transport: RobotTransport =
      config.transport === 'rosbridge'
        ? new RosbridgeTransport(config.url!, config.connect_timeout_ms, (message) => kernel.log.warn(message), {
            livenessMs: config.liveness_ms,
            goalAcceptMs: config.goal_accept_timeout_ms,
            outageQueue: { maxMessages: config.outage_queue_messages, maxAgeMs: config.outage_queue_max_age_ms },
          })
        : new RclnodejsTransport(config.node_name, config.namespace, { log: (message) => kernel.log.warn(message) });
    const safety =
      config.transport === 'rosbridge'
        ? {
            export: 'connectRosbridge',
            options: {
              url: config.url!,
              connect_timeout_ms: config.connect_timeout_ms,
              liveness_ms: config.liveness_ms,
            },
          }
        : {
            export: 'connectRclnodejs',
            options: { node_name: `${config.node_name}_safety`, namespace: config.namespace },
          };
    // The safety path opens its own connection from a worker thread, with the same settings.
    const bridge = attachRobot(kernel, transport, config, {
      module: new URL('./safety-transport.js', import.meta.url).href,
      ...safety,
    });
    let detachNode: (() => void) | undefined;
    return {
      async start() {
        await bridge.start();
        detachNode = attachNode(kernel, transport, config.node, name, {
          rosoutLevel,
          status: () => bridge.status(),
          ...(config.sim_clock_topic ? { stampTime: () => bridge.stampTime() } : {}),
        });
      },
      async stop() {
        detachNode?.();
        await bridge.stop();
      },
    };
  },
});

export default ros2Plugin;
