/**
 * The profile side of skills: the `[[<plugin>.skills]]` tables' JSON schema (one source: the plugin's config
 * type is derived from it), what each kind's tool is called, and a parameter value's ROS form.
 */
import type { NavigationState } from './safety/protocol.js';
import type { RosMessage } from './transport.js';
import { TOPIC_NAME_PATTERN } from './topic-name.js';

/** The kinds of skill, and the tool that uses each. */
export const SKILL_TOOLS = {
  topic: 'publish_ros_topic',
  service: 'call_ros_service',
  action: 'send_ros_action_goal',
  parameter: 'set_ros_parameter',
} as const;
export type SkillKind = keyof typeof SKILL_TOOLS;

/** rcl_interfaces/msg/ParameterType names a parameter skill may set, with their number and ParameterValue field. */
export const PARAMETER_TYPES = {
  bool: [1, 'bool_value'],
  integer: [2, 'integer_value'],
  double: [3, 'double_value'],
  string: [4, 'string_value'],
  bool_array: [6, 'bool_array_value'],
  integer_array: [7, 'integer_array_value'],
  double_array: [8, 'double_array_value'],
  string_array: [9, 'string_array_value'],
} as const;
/** A parameter skill's type. */
export type ParameterType = keyof typeof PARAMETER_TYPES;

/** `package/msg|srv|action/Name`, as ROS 2 spells an interface type. */
const INTERFACE_TYPE = '^[A-Za-z][A-Za-z0-9_]*/(msg|srv|action)/[A-Za-z][A-Za-z0-9_]*$';
/** A ROS 2 parameter name (dots separate its namespaces). */
const PARAMETER_NAME = '^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*$';

/** Defaults of a skill's limits. */
export const SKILL_DEFAULTS = { max_rate_hz: 1, service_timeout_ms: 5000, action_timeout_ms: 60000 } as const;
/** The type of a parameter skill's service. */
export const SET_PARAMETERS_TYPE = 'rcl_interfaces/srv/SetParameters';

/** JSON schema of `[[<plugin>.skills]]` (one table per skill), for hardware plugins' config schemas. */
export const SKILLS_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      id: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,63}$', description: 'What the model calls the skill.' },
      kind: { enum: ['topic', 'service', 'action', 'parameter'] },
      name: {
        type: 'string',
        minLength: 1,
        description: 'The topic, service or action (relative names follow the namespace), or the parameter.',
      },
      node: {
        type: 'string',
        pattern: TOPIC_NAME_PATTERN,
        description: 'A parameter skill: the node whose parameter it sets.',
      },
      type: {
        type: 'string',
        description: 'The message, service or action type (pkg/msg/Name…), or a parameter type (double…).',
      },
      description: { type: 'string', minLength: 1, maxLength: 300, description: 'What the model reads.' },
      motion: { type: 'boolean', description: 'It moves the robot: it goes through the safety path.' },
      max_rate_hz: { type: 'number', exclusiveMinimum: 0, maximum: 100, default: SKILL_DEFAULTS.max_rate_hz },
      timeout_ms: { type: 'integer', minimum: 100, maximum: 600000 },
      schema: {
        type: 'object',
        description: 'A JSON Schema the message, request, goal or value must satisfy before anything is sent.',
      },
    },
    required: ['id', 'kind', 'name', 'type', 'description', 'motion', 'schema'],
    additionalProperties: false,
    if: { properties: { kind: { const: 'parameter' } } },
    then: {
      required: ['node'],
      properties: { name: { pattern: PARAMETER_NAME }, type: { enum: Object.keys(PARAMETER_TYPES) } },
    },
    else: {
      not: { required: ['node'] },
      properties: { name: { pattern: TOPIC_NAME_PATTERN }, type: { pattern: INTERFACE_TYPE } },
    },
  },
} as const;

/** One skill, as the profile lists it (names resolved by the hardware plugin). */
export interface SkillMapping {
  readonly id: string;
  readonly kind: SkillKind;
  readonly name: string;
  readonly node?: string;
  readonly type: string;
  readonly description: string;
  readonly motion: boolean;
  readonly max_rate_hz?: number;
  readonly timeout_ms?: number;
  readonly schema: Readonly<Record<string, unknown>>;
}

/** What a motion skill needs from the safety path (the robot bridge gives it, as it gives navigation). */
export interface SkillSafety {
  /** Why motion may not start now (the e-stop, an unheard e-stop, no safety path), or undefined. */
  refusal(): { reason: string; error: string } | undefined;
  /** A motion goal to `action` asked at `askedAt` is about to be sent: the stop fence's answer. */
  sending(askedAt: number, action: string): Promise<{ reason: string; error: string } | undefined>;
  /** The goal is running (under its name), known where the name cancels it, or ended. */
  navigating(state: NavigationState, action: string, goal?: string, known?: boolean): void;
  /** A motion service call asked at `askedAt` is about to go out: the stop fence's and the e-stop's answer. */
  fence(askedAt: number): Promise<{ reason: string; error: string } | undefined>;
}

/** A skill's time-out (ms): its own, or the default of its kind. */
export const timeoutOf = (skill: SkillMapping) =>
  skill.timeout_ms ?? (skill.kind === 'action' ? SKILL_DEFAULTS.action_timeout_ms : SKILL_DEFAULTS.service_timeout_ms);

/** The ParameterValue for `value` of `type`, or why it is not one. */
export function parameterValue(type: ParameterType, value: unknown): RosMessage | string {
  const [number, field] = PARAMETER_TYPES[type];
  const scalar = type.replace(/_array$/, '');
  const fits = (v: unknown) =>
    scalar === 'bool'
      ? typeof v === 'boolean'
      : scalar === 'integer'
        ? Number.isSafeInteger(v)
        : scalar === 'double'
          ? typeof v === 'number' && Number.isFinite(v)
          : typeof v === 'string';
  const ok = type.endsWith('_array') ? Array.isArray(value) && value.every(fits) : fits(value);
  if (!ok)
    return `a ${type} parameter takes ${type.endsWith('_array') ? `an array of ${scalar}` : `a ${scalar}`} value`;
  return { type: number, [field]: value };
}
