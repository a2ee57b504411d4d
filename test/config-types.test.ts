// The config types are derived from the plugins' schemas (json-schema-to-ts): these assignments are
// checked by the type-check of `npm test` (tsc -p tsconfig.test.json), and each @ts-expect-error fails
// that check the day the derived type stops refusing what the schema refuses.
import { expect } from 'chai';
import { defineTool, type ToolArgs } from '@mira/core';
import type { REMEMBER_PARAMETERS } from '@mira/plugin-memory-tools';
import { recallMemoryTool, type RememberProposal } from '@mira/plugin-memory-tools';
import type { AttentionConfig } from '@mira/plugin-attention';
import type { McpToolsConfig } from '@mira/plugin-mcp-tools';
import type { MemoryConfig } from '@mira/plugin-memory';
import type { MindViewConfig } from '@mira/plugin-mind-view';
import type { NotesConfig } from '@mira/plugin-notes';
import type { OpenAIConfig } from '@mira/plugin-openai';
import type { Ros2Config } from '@mira/plugin-ros2';
import type { SimConfig } from '@mira/plugin-sim';

const memory: MemoryConfig = {
  enabled: true,
  backend: 'postgres',
  url_env: 'PG',
  proposal_expiry_days: 7,
  space: 'w',
  max_object_bytes: 4194304,
};
// @ts-expect-error: the backend is sqlite or postgres
const badBackend: MemoryConfig = { ...memory, backend: 'mysql' };
// @ts-expect-error: a key with a default is always there when setup runs
const noExpiry: MemoryConfig = { enabled: true, backend: 'sqlite', url_env: 'PG' };
// @ts-expect-error: no key beyond the schema's (additionalProperties: false)
const extra: MemoryConfig = { ...memory, colour: 'blue' };

const notes: NotesConfig = {
  enabled: true,
  scope: 'default',
  autonomous_writes: false,
  key_miss_limit: 5,
  key_miss_window_minutes: 15,
  embedding: { provider: 'none', api_key_env: 'OPENAI_API_KEY', timeout_ms: 30000, min_similarity: 0.3 },
};
// @ts-expect-error: the embedding provider is none or openai
const badProvider: NotesConfig = { ...notes, embedding: { ...notes.embedding, provider: 'cohere' } };

const openai: OpenAIConfig = {
  model: 'm',
  api_key_env: 'K',
  timeout_ms: 1000,
  max_retries: 2,
  stream: false,
  stream_idle_ms: 60000,
  max_tokens: 1024,
  max_tokens_field: 'max_tokens',
  vision: false,
};
// @ts-expect-error: the token limit goes in max_tokens or max_completion_tokens
const badField: OpenAIConfig = { ...openai, max_tokens_field: 'max_new_tokens' };
// @ts-expect-error: model is required (no default)
const noModel: OpenAIConfig = { api_key_env: 'K', timeout_ms: 1000, max_retries: 2, stream: false };

const mindView: MindViewConfig = { enabled: true, host: '::1', port: 0 };
// @ts-expect-error: the host is one of the loopback names
const anyHost: MindViewConfig = { ...mindView, host: '0.0.0.0' };

const attention: AttentionConfig = {
  tick_ms: 250,
  monitors: [{ id: 'low', sensor: 'battery', field: 'percent', below: 20, message: 'The battery is low.' }],
};
// @ts-expect-error: a monitor needs below or above (the schema's anyOf)
const noThreshold: AttentionConfig = { tick_ms: 250, monitors: [{ id: 'x', sensor: 'battery', message: 'm' }] };

const mcpTools: McpToolsConfig = {
  servers: [
    {
      name: 'tickets',
      url: 'http://127.0.0.1:1/mcp',
      args: [],
      env: {},
      tools: ['find'],
      origins: ['operator'],
      timeout_ms: 100,
    },
  ],
};
// @ts-expect-error: an origin is one of the episode origins
const badOrigin: McpToolsConfig = { servers: [{ ...mcpTools.servers[0]!, origins: ['anyone'] }] };

const ros2: Ros2Config = {
  transport: 'rosbridge',
  url: 'ws://127.0.0.1:9090',
  connect_timeout_ms: 5000,
  liveness_ms: 500,
  goal_accept_timeout_ms: 5000,
  outage_queue_messages: 100,
  outage_queue_max_age_ms: 5000,
  node_name: 'mira',
  namespace: '',
  use_sim_time: false,
  node: { utterances: false, reply: true, events: true, recall: true, rosout: true, diagnostics: true },
  sensors: [{ id: 'battery', topic: '/battery_state', type: 'sensor_msgs/msg/BatteryState' }],
  drive: {
    topic: '/cmd_vel',
    type: 'geometry_msgs/msg/TwistStamped',
    stamp: 'zero',
    max_linear_m_s: 0.5,
    max_angular_rad_s: 1,
    max_duration_s: 10,
  },
};
// @ts-expect-error: a sensor's type is one of the message types Mira reads
const badSensorType: Ros2Config = { ...ros2, sensors: [{ id: 'cam', topic: '/cam', type: 'sensor_msgs/msg/Foo' }] };
// @ts-expect-error: the drive's message type is Twist or TwistStamped
const badDrive: Ros2Config = { ...ros2, drive: { ...ros2.drive!, type: 'geometry_msgs/msg/Wrench' } };
// @ts-expect-error: the transport is rclnodejs or rosbridge
const badTransport: Ros2Config = { ...ros2, transport: 'zenoh' };
// @ts-expect-error: [ros2.node] has no key beyond its schema's
const badNode: Ros2Config = { ...ros2, node: { ...ros2.node, services: true } };

const sim: SimConfig = {
  battery_percent: 100,
  battery_drain_percent_per_min: 0.5,
  battery_drain_percent_per_m: 0.2,
  room_half_size_m: 5,
  cmd_timeout_s: 0.5,
  tick_ms: 50,
  rates_hz: { battery: 1 },
};
// @ts-expect-error: a rate is a number
const badRate: SimConfig = { ...sim, rates_hz: { battery: 'fast' } };
// @ts-expect-error: the sim's safety table has no key beyond its schema's
const badSafety: SimConfig = { ...sim, safety: { stall_ms: 250, brake: true } };

// Tool arguments: derived from the parameter schema, in defineTool's run as in a named schema's ToolArgs.
const greet = defineTool({
  name: 'greet',
  description: 'Greets someone.',
  kind: 'acquisition',
  origins: ['operator'],
  parameters: {
    type: 'object',
    properties: { name: { type: 'string' }, times: { type: ['integer', 'null'] } },
    required: ['name', 'times'],
    additionalProperties: false,
  },
  run: async ({ name, times }) => {
    const text: string = name;
    // @ts-expect-error: a nullable integer is number | null, not number
    const count: number = times;
    return { content: '{}', display: `${text} ${count}` };
  },
});
// Calls checked by the type-check only (never run).
const calls = () => {
  const episode = { episode: { id: 1, origin: 'operator', startedAt: new Date() } } as const;
  void greet.run({ name: 'Ada', times: null }, episode);
  const recall = recallMemoryTool(
    () => undefined as never,
    () => {},
  );
  void recall.run({ query: 'Ada' }, episode);
  // @ts-expect-error: the schema requires times (null when not given)
  void greet.run({ name: 'Ada' }, episode);
  // @ts-expect-error: recall_memory's query is a string
  void recall.run({ query: 3 }, episode);
};
const proposal: RememberProposal = {
  kind: 'fact',
  subject: 'Ada',
  predicate: 'likes',
  value: 'tea',
  evidence: 'Ada likes tea',
  related_entity: null,
  related_role: null,
};
// @ts-expect-error: a remember kind is fact, preference or relationship
const badKind: ToolArgs<typeof REMEMBER_PARAMETERS> = { ...proposal, kind: 'event' };

describe('config types derived from the schemas', () => {
  it('type-check as the schemas validate (the @ts-expect-error lines above)', () => {
    // At run time only that the values above exist; the check is the type-check.
    expect([
      memory,
      notes,
      openai,
      mindView,
      badBackend,
      noExpiry,
      extra,
      badProvider,
      badField,
      noModel,
      anyHost,
      attention,
      noThreshold,
      mcpTools,
      badOrigin,
      ros2,
      badSensorType,
      badDrive,
      badTransport,
      badNode,
      sim,
      badRate,
      badSafety,
      greet,
      proposal,
      badKind,
      calls,
    ]).to.have.length(27);
  });
});
