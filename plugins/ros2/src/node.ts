import { toMiraError, type EpisodeInfo, type LogLevel, type PluginKernel, type ToolResult } from '@mira/core';
import { MEMORY_STORE } from '@mira/memory-contract';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { stamp, type RobotStatus, type RobotTransport } from '@mira/robot';

/**
 * A topic or service name as ROS 2 resolves it for a node: absolute names stay, `~/x` is under the
 * node (`/ns/node/x`), anything else is under the namespace (`/ns/x`).
 */
export function resolveName(name: string, namespace: string, node: string): string {
  const ns = namespace === '/' ? '' : namespace.replace(/\/+$/, '');
  if (name.startsWith('/')) return name;
  if (name.startsWith('~/')) return `${ns}/${node}/${name.slice(2)}`;
  if (name === '~') return `${ns}/${node}`;
  return `${ns}/${name}`;
}

/** The JSON schema of `[ros2.node]`: what other ROS nodes may do with Mira. */
export const NODE_CONFIG_SCHEMA = {
  type: 'object',
  properties: {
    utterances: {
      type: 'boolean',
      default: false,
      description:
        "Subscribe ~/utterance (std_msgs/msg/String): each message is said to the robot by the operator, with the operator's authority.",
    },
    reply: { type: 'boolean', default: true, description: 'Publish every reply on ~/reply (std_msgs/msg/String).' },
    events: {
      type: 'boolean',
      default: true,
      description: 'Publish episode events as JSON on ~/events (std_msgs/msg/String).',
    },
    recall: {
      type: 'boolean',
      default: true,
      description: "Offer ~/recall (mira_interfaces/srv/Recall) with recall_memory's semantics and bounds.",
    },
    rosout: {
      type: 'boolean',
      default: true,
      description: "Publish the runtime's log lines on /rosout (rcl_interfaces/msg/Log), as every ROS node does.",
    },
    diagnostics: {
      type: 'boolean',
      default: true,
      description:
        'Publish /diagnostics (diagnostic_msgs/msg/DiagnosticArray) once a second: link, safety, battery, memory.',
    },
  },
  additionalProperties: false,
  default: {},
} as const satisfies JSONSchema;

/** The `[ros2.node]` table, derived from {@link NODE_CONFIG_SCHEMA} (defaults filled). */
export type NodeConfig = FromSchema<typeof NODE_CONFIG_SCHEMA, { keepDefaultedPropertiesOptional: false }>;

const STRING = 'std_msgs/msg/String';
/** rcl_interfaces/msg/Log levels. */
const ROSOUT_LEVELS: Record<LogLevel, number> = { info: 20, warn: 30, error: 40 };
/**
 * What this node publishes for people and other nodes (replies, events, /rosout) may wait out a short outage
 * of a supervised link in the transport's bounded queue; `/diagnostics` does not (the next tick says what is
 * true then), and service answers cannot (the bridge ties a call to the connection that was lost).
 */
const QUEUED = { queueWhileDown: true } as const;
/** The QoS rcl gives /rosout: reliable, transient local, the last 1000 lines. */
const ROSOUT_QOS = { reliability: 'reliable', durability: 'transient_local', depth: 1000 } as const;

/** A log line as it may leave the robot: credentials (the Mind view's `#token=…`, a bearer token) masked. */
export function maskSecrets(line: string): string {
  return line.replace(/([#?&]token=)[^\s&#]+/gi, '$1…').replace(/(Bearer\s+)\S+/g, '$1…');
}

/** A node's logger name as rcl forms it: `/robot1/mira` → `robot1.mira`. */
export function loggerName(fullyQualifiedNode: string): string {
  return fullyQualifiedNode.replace(/^\//, '').replaceAll('/', '.');
}
/** The service type of `~/recall`, from the `mira_interfaces` package in `ros/`. */
export const RECALL_SERVICE_TYPE = 'mira_interfaces/srv/Recall';

/**
 * Makes the runtime a ROS node others talk to, over `transport`: replies and episode events out, an
 * opt-in utterance topic in (it carries the operator's authority), and a recall service. Returns the
 * function that withdraws it all.
 */
export function attachNode(
  kernel: PluginKernel,
  transport: RobotTransport,
  config: NodeConfig,
  name: (n: string, kind?: 'topic' | 'service') => string,
  options: {
    readonly rosoutLevel?: LogLevel | 'none';
    /** The robot's safety state, for `/diagnostics`. */
    readonly status?: () => RobotStatus;
    /** Now for `/diagnostics` stamps (ms): the host's clock, or the simulation clock under `use_sim_time`. */
    readonly stampTime?: () => number;
  } = {},
): () => void {
  const undo: Array<() => void> = [];
  let open = true;
  const publish = (topic: string, data: string) => {
    if (!open) return;
    // A reply or an event may wait out a short outage of the link (bounded; motion never does).
    transport
      .publish(name(topic), STRING, { data }, undefined, QUEUED)
      .catch((error: Error) => kernel.log.warn(`ROS node: ${topic} not published: ${error.message}`));
  };
  const event = (payload: Record<string, unknown>) => {
    if (config.events) publish('~/events', JSON.stringify(payload));
  };
  const episodeFields = (episode: EpisodeInfo) => ({ episode: episode.id, origin: episode.origin });

  kernel.hooks.episodeStarted.tap('@mira/plugin-ros2', (episode) =>
    event({ event: 'started', ...episodeFields(episode) }),
  );
  kernel.hooks.afterToolCall.tapPromise('@mira/plugin-ros2', async (call, result, episode) =>
    event({ event: 'tool', ...episodeFields(episode), tool: call.name, display: result.display }),
  );
  kernel.hooks.episodeFinished.tap('@mira/plugin-ros2', (episode, outcome) => {
    event({ event: 'finished', ...episodeFields(episode), ...outcome });
    if (config.reply && 'reply' in outcome) publish('~/reply', outcome.reply);
  });
  undo.push(() => (open = false));
  // Advertised now, not at the first message, so `ros2 topic info` and `ros2 node info` show them.
  const advertise = (topic: string, type: string, qos?: typeof ROSOUT_QOS) =>
    transport
      .advertise?.(topic, type, qos)
      .catch((error: Error) => kernel.log.warn(`ROS node: ${topic} not advertised: ${error.message}`));
  if (config.events) void advertise(name('~/events'), STRING);
  if (config.reply) void advertise(name('~/reply'), STRING);
  if (config.rosout && options.rosoutLevel !== 'none') void advertise('/rosout', 'rcl_interfaces/msg/Log', ROSOUT_QOS);

  if (config.rosout && options.rosoutLevel !== 'none') {
    const logger = loggerName(name('~'));
    // --log-level: lines below it stay off /rosout (Mira's levels are info, warn and error).
    const least = ROSOUT_LEVELS[options.rosoutLevel ?? 'info'];
    let failing = false;
    kernel.hooks.logLine.tap('@mira/plugin-ros2', (level, message, source) => {
      if (!open || ROSOUT_LEVELS[level] < least) return;
      const now = kernel.clock.now().getTime();
      const line = {
        stamp: stamp(now),
        level: ROSOUT_LEVELS[level],
        name: logger,
        msg: maskSecrets(source === '@mira/core' ? message : `[${source}] ${message}`),
        file: '',
        function: '',
        line: 0,
      };
      transport.publish('/rosout', 'rcl_interfaces/msg/Log', line, ROSOUT_QOS, QUEUED).then(
        () => (failing = false),
        (error: Error) => {
          // Said once per outage: the warning is itself a log line, and would fail the same way.
          if (failing) return;
          failing = true;
          kernel.log.warn(
            `ROS node: /rosout not published (${error.message}); further failures are not logged until it works again`,
          );
        },
      );
    });
  }

  if (config.diagnostics) {
    const node = name('~');
    let busy = false;
    const tick = async () => {
      if (busy || !open) return;
      busy = true;
      try {
        const statuses = await diagnosticStatuses(kernel, transport, node, options.status?.());
        if (!open) return;
        const now = options.stampTime?.() ?? Date.now();
        await transport.publish('/diagnostics', DIAGNOSTICS_TYPE, {
          header: { stamp: stamp(now), frame_id: '' },
          status: statuses,
        });
      } catch {
        // A link that is down is itself what the next tick reports, once it is back.
      } finally {
        busy = false;
      }
    };
    void advertise('/diagnostics', DIAGNOSTICS_TYPE);
    const timer = setInterval(() => void tick(), DIAGNOSTICS_PERIOD_MS);
    timer.unref();
    void tick();
    undo.push(() => clearInterval(timer));
  }

  if (config.utterances) {
    // One at a time, in arrival order, like lines typed on the console.
    let queue = Promise.resolve();
    undo.push(
      transport.subscribe(name('~/utterance'), STRING, (message) => {
        const text = typeof message.data === 'string' ? message.data.trim() : '';
        if (text === '') return;
        queue = queue.then(async () => {
          if (!open) return;
          kernel.output.print(`[ros ${name('~/utterance')}] ${text}`);
          try {
            await kernel.cognition.run({ origin: 'operator', utterance: text, out: kernel.output });
          } catch (error) {
            const failure = toMiraError(error);
            kernel.output.print(`error: ${failure.code}: ${failure.detail}`);
          }
        });
      }),
    );
  }

  if (config.recall) {
    undo.push(
      transport.advertiseService(name('~/recall', 'service'), RECALL_SERVICE_TYPE, async (request) => {
        const recall = kernel.tools.list().find((tool) => tool.name === 'recall_memory');
        if (!recall) return { status: 'unavailable', text: 'persistent memory is not enabled in this profile' };
        const query = typeof request.query === 'string' ? request.query : '';
        const episode: EpisodeInfo = { id: 0, origin: 'attention', startedAt: kernel.clock.now() };
        const result: ToolResult = await recall.run({ query }, { episode });
        // hit / miss / ambiguous / rejected — the first word of what the console shows.
        return { status: result.display.split(' ')[0]!, text: result.content };
      }),
    );
  }
  return () => {
    for (const step of undo.splice(0).reverse()) step();
  };
}

/** `/diagnostics`, as diagnostic_aggregator and rqt_robot_monitor read it. */
export const DIAGNOSTICS_TYPE = 'diagnostic_msgs/msg/DiagnosticArray';
/** How often `/diagnostics` is published (diagnostic_updater's default period). */
export const DIAGNOSTICS_PERIOD_MS = 1000;
/** diagnostic_msgs/msg/DiagnosticStatus levels. */
export const DIAGNOSTIC_LEVEL = { OK: 0, WARN: 1, ERROR: 2, STALE: 3 } as const;

type DiagnosticStatus = {
  level: number;
  name: string;
  message: string;
  hardware_id: string;
  values: Array<{ key: string; value: string }>;
};

const kv = (values: Record<string, string | number | boolean | undefined>) =>
  Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([key, value]) => ({ key, value: String(value) }));

/**
 * One DiagnosticStatus per concern, named `mira: …` under the node: the robot link, the safety path
 * (e-stop, the last stop and whether its zero velocity was delivered), the battery, the memory store.
 */
export async function diagnosticStatuses(
  kernel: PluginKernel,
  transport: RobotTransport,
  node: string,
  robot: RobotStatus | undefined,
): Promise<DiagnosticStatus[]> {
  const status = (level: number, what: string, message: string, values: DiagnosticStatus['values'] = []) => ({
    level,
    name: `${node}: ${what}`,
    message,
    hardware_id: node,
    values,
  });
  const statuses: DiagnosticStatus[] = [];
  const link = transport.link?.() ?? { up: true, since: 0 };
  statuses.push(
    status(
      link.up ? DIAGNOSTIC_LEVEL.OK : DIAGNOSTIC_LEVEL.ERROR,
      'robot link',
      link.up ? 'up' : `down: ${link.why ?? 'no connection'}`,
      kv({ transport: transport.name, since: link.since ? new Date(link.since).toISOString() : undefined }),
    ),
  );
  if (robot) {
    const values = kv({
      drive: robot.drive,
      safety_path: robot.safetyPath,
      e_stop_topic: robot.eStop?.topic,
      e_stop_active: robot.eStop?.active,
      e_stop_heard: robot.eStop?.fresh,
      last_stop: robot.lastStop?.why,
      last_stop_at: robot.lastStop ? new Date(robot.lastStop.at).toISOString() : undefined,
      last_stop_delivered: robot.lastStop?.delivered,
      last_stop_detail: robot.lastStop?.detail,
    });
    const [level, message] = !robot.drive
      ? [DIAGNOSTIC_LEVEL.OK, 'no drive']
      : !robot.safetyPath
        ? [DIAGNOSTIC_LEVEL.ERROR, 'the safety path is not running: drives are refused']
        : robot.eStop?.active
          ? [DIAGNOSTIC_LEVEL.ERROR, `emergency stop engaged on ${robot.eStop.topic}`]
          : robot.eStop && !robot.eStop.fresh
            ? [DIAGNOSTIC_LEVEL.ERROR, `the e-stop topic ${robot.eStop.topic} is not heard: drives are refused`]
            : robot.lastStop && !robot.lastStop.delivered
              ? [DIAGNOSTIC_LEVEL.WARN, `the last stop was not delivered: ${robot.lastStop.detail}`]
              : [DIAGNOSTIC_LEVEL.OK, 'ready'];
    statuses.push(status(level, 'safety', message, values));
  }
  const battery = kernel.sensors.latest('battery');
  if (kernel.sensors.list().some((s) => s.id === 'battery')) {
    const value = battery?.value as { percent?: number; charging?: boolean } | undefined;
    statuses.push(
      battery && typeof value?.percent === 'number'
        ? status(
            value.percent < 20 ? DIAGNOSTIC_LEVEL.WARN : DIAGNOSTIC_LEVEL.OK,
            'battery',
            `${value.percent} %${value.charging ? ', charging' : ''}`,
            kv({ percent: value.percent, charging: value.charging, at: battery.at.toISOString() }),
          )
        : status(DIAGNOSTIC_LEVEL.STALE, 'battery', 'no reading yet'),
    );
  }
  if (kernel.stores.has(MEMORY_STORE)) {
    try {
      const info = await kernel.stores.get(MEMORY_STORE).info();
      statuses.push(
        status(
          DIAGNOSTIC_LEVEL.OK,
          'memory',
          `${info.backend}: ${info.entities} entities, ${info.activeMemories} active memories`,
          kv({ backend: info.backend, location: info.location, entities: info.entities, memories: info.memories }),
        ),
      );
    } catch (error) {
      statuses.push(status(DIAGNOSTIC_LEVEL.ERROR, 'memory', toMiraError(error).message));
    }
  }
  return statuses;
}
