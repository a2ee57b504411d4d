import { toMiraError, type EpisodeInfo, type LogLevel, type PluginKernel, type ToolResult } from '@mira/core';
import type { RobotTransport } from '@mira/robot';

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

/** The `[ros2.node]` table: what other ROS nodes may do with Mira. */
export interface NodeConfig {
  /** Subscribe `~/utterance` (std_msgs/msg/String): each message is said to the robot by the operator. */
  readonly utterances: boolean;
  /** Publish every reply on `~/reply` (std_msgs/msg/String). */
  readonly reply: boolean;
  /** Publish episode events as JSON on `~/events` (std_msgs/msg/String). */
  readonly events: boolean;
  /** Offer `~/recall` (mira_interfaces/srv/Recall) with recall_memory's semantics and bounds. */
  readonly recall: boolean;
  /** Publish the runtime's log lines on `/rosout` (rcl_interfaces/msg/Log), as every ROS node does. */
  readonly rosout: boolean;
}

/** The JSON schema of `[ros2.node]`. */
export const NODE_CONFIG_SCHEMA = {
  type: 'object',
  properties: {
    utterances: { type: 'boolean', default: false },
    reply: { type: 'boolean', default: true },
    events: { type: 'boolean', default: true },
    recall: { type: 'boolean', default: true },
    rosout: { type: 'boolean', default: true },
  },
  additionalProperties: false,
  default: {},
} as const;

const STRING = 'std_msgs/msg/String';
/** rcl_interfaces/msg/Log levels. */
const ROSOUT_LEVELS: Record<LogLevel, number> = { info: 20, warn: 30, error: 40 };
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
  options: { readonly rosoutLevel?: LogLevel | 'none' } = {},
): () => void {
  const undo: Array<() => void> = [];
  let open = true;
  const publish = (topic: string, data: string) => {
    if (!open) return;
    transport
      .publish(name(topic), STRING, { data })
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
        stamp: { sec: Math.floor(now / 1000), nanosec: (now % 1000) * 1_000_000 },
        level: ROSOUT_LEVELS[level],
        name: logger,
        msg: maskSecrets(source === '@mira/core' ? message : `[${source}] ${message}`),
        file: '',
        function: '',
        line: 0,
      };
      transport.publish('/rosout', 'rcl_interfaces/msg/Log', line, ROSOUT_QOS).then(
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
