import { defineTool, type PluginKernel, type ToolResult } from '@mira/core';
import { boundMessage, cutValues } from './bounded-message.js';
import { json, rejected } from './tool-result.js';
import type { GraphEntry, RobotTransport, RosGraph, RosMessage } from './transport.js';

/** At most this many names in one graph listing (the rest are counted: narrow with `filter`). */
export const GRAPH_ITEMS_SHOWN = 50;
/** How long a graph query or a parameter service may take before the tool says so (ms). */
export const GRAPH_TIMEOUT_MS = 3000;
/** `echo_ros_topic` waits this long for a message unless told (s), and at most {@link ECHO_MAX_WAIT_S}. */
export const ECHO_DEFAULT_WAIT_S = 2;
/** The longest `echo_ros_topic` waits (s). */
export const ECHO_MAX_WAIT_S = 10;

/** rcl_interfaces/srv/ListParameters and GetParameters: the parameter services every ROS 2 node offers. */
export const LIST_PARAMETERS_TYPE = 'rcl_interfaces/srv/ListParameters';
export const GET_PARAMETERS_TYPE = 'rcl_interfaces/srv/GetParameters';

/** rcl_interfaces/msg/ParameterType, by number: the type's name and the ParameterValue field holding it. */
const PARAMETER_TYPES: Readonly<Record<number, readonly [string, string]>> = {
  1: ['bool', 'bool_value'],
  2: ['integer', 'integer_value'],
  3: ['double', 'double_value'],
  4: ['string', 'string_value'],
  5: ['byte_array', 'byte_array_value'],
  6: ['bool_array', 'bool_array_value'],
  7: ['integer_array', 'integer_array_value'],
  8: ['double_array', 'double_array_value'],
  9: ['string_array', 'string_array_value'],
};

/** An absolute ROS name, as the graph listings give them. */
const ABSOLUTE_NAME = '^(/[A-Za-z_][A-Za-z0-9_]*)+$';

type Kind = 'topics' | 'nodes' | 'services' | 'actions';

async function listing(graph: RosGraph, kind: Kind): Promise<Array<{ name: string; type?: string }>> {
  const named = (names: string[]) => names.map((name) => ({ name }));
  const typed = (entries: GraphEntry[]) => entries.map(({ name, type }) => ({ name, type }));
  switch (kind) {
    case 'topics':
      return typed(await graph.topics());
    case 'services':
      return typed(await graph.services());
    case 'nodes':
      return named(await graph.nodes());
    case 'actions':
      return named(await graph.actions());
  }
}

/** Rejects with `what` timed out after {@link GRAPH_TIMEOUT_MS} when `promise` takes longer. */
function bounded<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} gave no answer within ${GRAPH_TIMEOUT_MS} ms`)),
      GRAPH_TIMEOUT_MS,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Registers the read-only ROS graph tools over `graph` (the transport's): `list_ros_graph` (topics with their
 * types, nodes, services with their types, actions), `get_ros_parameters` (a node's parameters, through
 * its own parameter services) and `echo_ros_topic` (one bounded message of a topic). Acquisitions, offered
 * to operator episodes; results are the same whichever transport carries them.
 */
export function attachGraphTools(kernel: PluginKernel, transport: RobotTransport, graph: RosGraph): void {
  const unavailable = (what: string, error: unknown): ToolResult => {
    // The model gets the reason; the log keeps the cause.
    kernel.log.warn(`${what}: ${(error as Error).stack ?? String(error)}`);
    return rejected('graph_unavailable', `${what} failed: ${(error as Error).message}`);
  };

  kernel.tools.register(
    defineTool({
      name: 'list_ros_graph',
      description:
        `List the robot's ROS 2 topics, nodes, services or actions (read-only). Sorted by name, topics and services with their ` +
        `types; at most ${GRAPH_ITEMS_SHOWN} names, the rest counted (narrow with filter).`,
      agentDescription:
        "Lists the robot's ROS 2 topics, nodes, services or actions, with types where the graph has them.",
      kind: 'acquisition',
      origins: ['operator'],
      parameters: {
        type: 'object',
        properties: {
          kind: { type: 'string', enum: ['topics', 'nodes', 'services', 'actions'], description: 'What to list.' },
          filter: {
            type: ['string', 'null'],
            description: 'Only names containing this text (case-sensitive); null for all.',
          },
        },
        required: ['kind', 'filter'],
        additionalProperties: false,
      },
      run: async ({ kind, filter }): Promise<ToolResult> => {
        let items: Array<{ name: string; type?: string }>;
        try {
          items = await bounded(listing(graph, kind), `listing the ROS ${kind}`);
        } catch (error) {
          return unavailable(`listing the ROS ${kind}`, error);
        }
        const matching = items
          .filter((item) => filter === null || item.name.includes(filter))
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        const shown = matching.slice(0, GRAPH_ITEMS_SHOWN);
        const omitted = matching.length - shown.length;
        return {
          content: json({ kind, total: matching.length, items: shown, ...(omitted > 0 ? { omitted } : {}) }),
          display: `${matching.length} ${kind}${filter === null ? '' : ` matching "${filter}"`}`,
        };
      },
    }),
  );

  kernel.tools.register(
    defineTool({
      name: 'get_ros_parameters',
      description:
        `Read a ROS 2 node's parameters. By the node's full name as list_ros_graph gives it: names, types and values; ` +
        `at most ${GRAPH_ITEMS_SHOWN}, long arrays and strings cut.`,
      agentDescription: "Reads a ROS 2 node's parameters: names, types and values.",
      kind: 'acquisition',
      origins: ['operator'],
      parameters: {
        type: 'object',
        properties: {
          node: { type: 'string', pattern: ABSOLUTE_NAME, description: 'The full node name, e.g. /controller_server.' },
          filter: {
            type: ['string', 'null'],
            description: 'Only parameter names containing this text; null for all.',
          },
        },
        required: ['node', 'filter'],
        additionalProperties: false,
      },
      run: async ({ node, filter }): Promise<ToolResult> => {
        let nodes: string[];
        try {
          nodes = await bounded(graph.nodes(), 'listing the ROS nodes');
        } catch (error) {
          return unavailable('listing the ROS nodes', error);
        }
        if (!nodes.includes(node)) {
          return rejected(
            'unknown_node',
            `no node ${node} in the ROS graph; list_ros_graph with kind "nodes" lists the nodes by their full names`,
          );
        }
        let names: string[];
        let values: RosMessage[];
        try {
          const listed = await transport.callService(
            `${node}/list_parameters`,
            LIST_PARAMETERS_TYPE,
            { prefixes: [], depth: 0 },
            GRAPH_TIMEOUT_MS,
          );
          const all = ((listed.result as { names?: string[] } | undefined)?.names ?? []).slice().sort();
          names = all.filter((name) => filter === null || name.includes(filter));
          const asked = names.slice(0, GRAPH_ITEMS_SHOWN);
          const got =
            asked.length === 0
              ? { values: [] }
              : await transport.callService(
                  `${node}/get_parameters`,
                  GET_PARAMETERS_TYPE,
                  { names: asked },
                  GRAPH_TIMEOUT_MS,
                );
          values = (got.values as RosMessage[] | undefined) ?? [];
        } catch (error) {
          kernel.log.warn(`parameters of ${node}: ${(error as Error).stack ?? String(error)}`);
          return rejected(
            'parameters_unavailable',
            `${node}'s parameter services did not answer (${(error as Error).message}); not every node offers them`,
          );
        }
        const parameters = names.slice(0, GRAPH_ITEMS_SHOWN).map((name, i) => {
          const value = values[i] ?? {};
          const [type, field] = PARAMETER_TYPES[Number(value.type)] ?? ['not_set', undefined];
          return { name, type, value: field === undefined ? null : cutValues(value[field]) };
        });
        const omitted = names.length - parameters.length;
        return {
          content: json({ node, total: names.length, parameters, ...(omitted > 0 ? { omitted } : {}) }),
          display: `${names.length} parameters of ${node}`,
        };
      },
    }),
  );

  kernel.tools.register(
    defineTool({
      name: 'echo_ros_topic',
      description:
        `Show one message of a ROS 2 topic. By name, as list_ros_graph gives it: arrays and strings cut with a marker, ` +
        `images summarised by size, at most 4 KB; waits ${ECHO_DEFAULT_WAIT_S} s unless told (at most ${ECHO_MAX_WAIT_S} s).`,
      agentDescription: 'Shows one message of a ROS 2 topic, cut to a bound.',
      kind: 'acquisition',
      origins: ['operator'],
      parameters: {
        type: 'object',
        properties: {
          topic: { type: 'string', pattern: ABSOLUTE_NAME, description: 'The topic, e.g. /odom.' },
          wait_s: {
            type: ['number', 'null'],
            description: `How long to wait for a message, in seconds (null: ${ECHO_DEFAULT_WAIT_S}).`,
          },
        },
        required: ['topic', 'wait_s'],
        additionalProperties: false,
      },
      run: async ({ topic, wait_s }): Promise<ToolResult> => {
        const waitS = wait_s ?? ECHO_DEFAULT_WAIT_S;
        if (!(waitS > 0 && waitS <= ECHO_MAX_WAIT_S)) {
          return rejected('out_of_range', `wait_s must be above 0 and at most ${ECHO_MAX_WAIT_S}`);
        }
        let topics: GraphEntry[];
        try {
          topics = await bounded(graph.topics(), 'listing the ROS topics');
        } catch (error) {
          return unavailable('listing the ROS topics', error);
        }
        const type = topics.find((t) => t.name === topic)?.type;
        if (!type) {
          return rejected(
            'unknown_topic',
            `no topic ${topic} in the ROS graph; list_ros_graph with kind "topics" lists them`,
          );
        }
        const waitMs = Math.round(waitS * 1000);
        let unsubscribe: (() => void) | undefined;
        let message: RosMessage | undefined;
        try {
          message = await new Promise<RosMessage | undefined>((resolve, reject) => {
            const timer = setTimeout(() => resolve(undefined), waitMs);
            try {
              unsubscribe = transport.subscribe(
                topic,
                type,
                (received) => {
                  clearTimeout(timer);
                  resolve(received);
                },
                // Best effort matches every publisher; the bridge forwards one message per wait at most.
                {
                  reliability: 'best_effort',
                  durability: 'volatile',
                  depth: 1,
                  bridge: { throttle_rate: waitMs, queue_length: 0 },
                },
              );
            } catch (error) {
              clearTimeout(timer);
              reject(error instanceof Error ? error : new Error(String(error)));
            }
          });
        } catch (error) {
          kernel.log.warn(`echo ${topic}: ${(error as Error).stack ?? String(error)}`);
          return rejected('unsupported_type', `cannot subscribe to ${topic} (${type}): ${(error as Error).message}`);
        } finally {
          unsubscribe?.();
        }
        if (!message) {
          return {
            content: json({
              status: 'no_message',
              topic,
              type,
              error: `nothing was published on ${topic} within ${waitMs} ms`,
            }),
            display: `no message on ${topic} within ${waitMs} ms`,
          };
        }
        const shown = boundMessage(type, message);
        return {
          content: json({ status: 'received', topic, type, message: shown.message, cut: shown.cut }),
          display: `${type} on ${topic}${shown.cut ? ' (cut)' : ''}`,
        };
      },
    }),
  );
}
