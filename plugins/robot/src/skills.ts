/**
 * Skills the profile allows, as data: topics to publish, services to call, actions to send goals to and
 * parameters to set, each listed in the profile with its ROS type, a JSON Schema its message must satisfy,
 * its limits (rate, time-out) and whether it moves the robot. Four generic tools, one per kind, take a
 * skill's id: the tool list stays small and byte-stable whatever the profile lists (docs/robots.md says why).
 */
import {
  compileSchemaLazily,
  crossThreadNow,
  defineTool,
  type PluginKernel,
  type ToolResult,
  type Validator,
} from '@mira/core';
import { boundMessage } from './bounded-message.js';
import { HardwareErrorCodes, HardwareErrors } from './errors.js';
import { json, rejected } from './tool-result.js';
import type { NavigationState } from './safety/protocol.js';
import type { ActionGoal, ActionOutcome, RobotTransport, RosMessage } from './transport.js';
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
type ParameterType = keyof typeof PARAMETER_TYPES;

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

/** The argument each kind's tool takes the JSON text in. */
const ARGUMENT: Readonly<Record<SkillKind, string>> = {
  topic: 'message',
  service: 'request',
  action: 'goal',
  parameter: 'value',
};

const WHAT: Readonly<Record<SkillKind, string>> = {
  topic: 'Publish one message on a ROS 2 topic',
  service: 'Call a ROS 2 service and return its response',
  action: 'Send a goal to a ROS 2 action, wait for its result (feedback summarised) and return it',
  parameter: "Set a ROS 2 node's parameter",
};

/** A skill as the tool runs it. */
interface Skill extends SkillMapping {
  readonly validate: Validator;
  readonly minIntervalMs: number;
  lastAt: number;
  running?: ActionGoal;
}

/** `{"type":"object",...}` → the schema's compact JSON, for the tool's description. */
const compact = (schema: Readonly<Record<string, unknown>>) => JSON.stringify(schema);

/**
 * Checks the skills (ids unique, motion topics refused, motion skills only with a safety path, schemas that
 * are JSON Schemas) and registers one tool per kind the profile uses. Returns what cancels running goals at
 * shutdown. @throws MiraError `MIRA_ERR_HARDWARE_SKILL_INVALID` naming the skill and what to change
 */
export function attachSkills(
  kernel: PluginKernel,
  transport: RobotTransport,
  mappings: readonly SkillMapping[],
  safety: SkillSafety | undefined,
): { close(): Promise<void>; cancelOthers(): Promise<void> } {
  const skills = new Map<string, Skill>();
  for (const mapping of mappings) {
    const invalid = (why: string) => HardwareErrors.error('SKILL_INVALID.profile', { id: mapping.id, why });
    if (skills.has(mapping.id)) throw invalid('another skill has the same id');
    if (mapping.kind === 'topic' && mapping.motion) {
      // A stop cannot take back a message once published, and an arbitrary type has no "zero" to send after
      // it; velocity commands go through [drive], whose worker republishes, times out and stops.
      throw invalid(
        'a topic skill cannot be motion: a stop cannot take back a published message, and the safety path knows no ' +
          'zero for its type; command velocity through the drive table, or offer the motion as an action (cancelled on every stop)',
      );
    }
    if (mapping.motion && !safety) {
      throw invalid(
        'a motion skill needs a drive table: the safety path, which owns the drive, refuses and cancels it',
      );
    }
    if (mapping.kind === 'action' && !transport.sendActionGoal)
      throw invalid(`${transport.name} cannot send action goals`);
    let validate: Validator;
    try {
      validate = compileSchemaLazily(mapping.schema, { useDefaults: false });
    } catch (error) {
      throw invalid(`its schema is not a JSON Schema (${(error as Error).message})`);
    }
    const rate = mapping.max_rate_hz ?? SKILL_DEFAULTS.max_rate_hz;
    skills.set(mapping.id, { ...mapping, validate, minIntervalMs: 1000 / rate, lastAt: -Infinity });
  }

  const kinds = (['topic', 'service', 'action', 'parameter'] as const).filter((kind) =>
    [...skills.values()].some((s) => s.kind === kind),
  );
  for (const kind of kinds) kernel.tools.register(skillTool(kernel, transport, kind, skills, safety));

  /**
   * Cancels the goals still running that are not the safety path's. A motion goal is the safety path's: it
   * cancels it, by name, at every stop and at quit, from its own connection (also when this thread is blocked).
   */
  const cancelOthers = async () => {
    await Promise.all(
      [...skills.values()]
        .filter((skill) => !(skill.motion && safety))
        .map((skill) => skill.running?.cancel().catch(() => undefined) ?? Promise.resolve()),
    );
  };
  return { close: cancelOthers, cancelOthers };
}

/** The description of a kind's tool: what it does and each skill of that kind (byte-stable for a profile). */
function describeTool(kind: SkillKind, skills: readonly Skill[]): string {
  const argument = ARGUMENT[kind];
  const lines = skills.map((s) => {
    const limits = [
      s.motion ? 'moves the robot' : undefined,
      kind === 'action' || kind === 'service' || kind === 'parameter'
        ? `times out after ${timeoutOf(s) / 1000} s`
        : undefined,
    ].filter(Boolean);
    return `- ${s.id}: ${s.description}${limits.length ? ` (${limits.join('; ')})` : ''}. ${argument}: ${compact(s.schema)}`;
  });
  return (
    `${WHAT[kind]}, only as one of the skills this robot allows, by its id; ${argument} is JSON text checked ` +
    `against the skill's schema before anything is sent. Skills:\n${lines.join('\n')}`
  );
}

const timeoutOf = (skill: SkillMapping) =>
  skill.timeout_ms ?? (skill.kind === 'action' ? SKILL_DEFAULTS.action_timeout_ms : SKILL_DEFAULTS.service_timeout_ms);

/** The ParameterValue for `value` of `type`, or why it is not one. */
function parameterValue(type: ParameterType, value: unknown): RosMessage | string {
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

/** One kind's tool. */
function skillTool(
  kernel: PluginKernel,
  transport: RobotTransport,
  kind: SkillKind,
  skills: ReadonlyMap<string, Skill>,
  safety: SkillSafety | undefined,
) {
  const argument = ARGUMENT[kind];
  const mine = [...skills.values()].filter((s) => s.kind === kind);
  const toolName = SKILL_TOOLS[kind];
  const allowed = mine.map((s) => s.id).join(', ');
  return defineTool({
    name: toolName,
    description: describeTool(kind, mine),
    kind: 'effect',
    origins: ['operator'],
    parameters: {
      type: 'object',
      properties: {
        skill: { type: 'string', description: `The skill's id: ${allowed}.` },
        [argument]: { type: 'string', description: `The ${argument} as JSON text, e.g. {} or 0.2.` },
      },
      required: ['skill', argument],
      additionalProperties: false,
    },
    run: async (args: Record<string, unknown>, context): Promise<ToolResult> => {
      const askedAt = context.episode.askedAt ?? crossThreadNow();
      const id = String(args.skill);
      const skill = skills.get(id);
      if (!skill || skill.kind !== kind) {
        const elsewhere = skill
          ? `; ${id} is a${skill.kind === 'action' ? 'n' : ''} ${skill.kind}: use ${SKILL_TOOLS[skill.kind]}`
          : '';
        return rejected(
          'skill_not_allowed',
          `${id} is not one of the ${kind} skills this robot allows (${allowed})${elsewhere}; nothing was sent`,
        );
      }
      let value: unknown;
      try {
        value = JSON.parse(String(args[argument]));
      } catch (error) {
        return rejected(
          'invalid_message',
          `${argument} is not JSON text (${(error as Error).message}); nothing was sent`,
        );
      }
      if (!skill.validate(value)) {
        const problems = (skill.validate.errors ?? [])
          .map((e) => `${argument}${e.instancePath} ${e.message ?? 'is invalid'}`)
          .join('; ');
        return rejected('invalid_message', `${problems}; the schema is ${compact(skill.schema)}; nothing was sent`);
      }
      let parameter: RosMessage | undefined;
      if (kind === 'parameter') {
        const built = parameterValue(skill.type as ParameterType, value);
        if (typeof built === 'string') return rejected('invalid_message', `${built}; nothing was sent`);
        parameter = built;
      }
      if (kind === 'action' && skill.running) {
        return rejected('busy', `a goal of ${skill.id} is still running; wait for its result; nothing was sent`);
      }
      const now = performance.now();
      const wait = skill.lastAt + skill.minIntervalMs - now;
      if (wait > 0) {
        return {
          content: json({
            status: 'rejected',
            reason: 'rate_limited',
            error: `${skill.id} is allowed at most ${skill.max_rate_hz ?? SKILL_DEFAULTS.max_rate_hz} times a second; nothing was sent`,
            retry_after_ms: Math.ceil(wait),
          }),
          display: 'rejected rate_limited',
        };
      }
      if (skill.motion && safety) {
        const refusal = safety.refusal();
        if (refusal) return rejected(refusal.reason, refusal.error);
      }
      // Counted when it goes out: a call the safety path refuses is not one.
      const sending = () => (skill.lastAt = performance.now());
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      switch (kind) {
        case 'topic':
          sending();
          return publish(kernel, transport, skill, value as RosMessage);
        case 'service': {
          if (skill.motion && safety) {
            const fenced = await safety.fence(askedAt);
            if (fenced) return rejected(fenced.reason, fenced.error);
          }
          sending();
          return call(kernel, transport, skill, skill.name, skill.type, value as RosMessage, (response) => ({
            content: json({
              status: 'succeeded',
              skill: skill.id,
              service: skill.name,
              response: boundMessage(skill.type, response).message,
              elapsed_ms: elapsed(),
            }),
            display: `${skill.id}: ${skill.name} answered`,
          }));
        }
        case 'parameter':
          sending();
          return call(
            kernel,
            transport,
            skill,
            `${skill.node}/set_parameters`,
            SET_PARAMETERS_TYPE,
            { parameters: [{ name: skill.name, value: parameter }] },
            (response) => {
              const result = ((response.results as RosMessage[] | undefined) ?? [])[0] ?? {};
              if (result.successful !== true) {
                return rejected(
                  'refused_by_robot',
                  `${skill.node} did not set ${skill.name}: ${String(result.reason || 'no reason given')}`,
                );
              }
              return {
                content: json({ status: 'set', skill: skill.id, node: skill.node, parameter: skill.name, value }),
                display: `${skill.id}: ${skill.node} ${skill.name} = ${JSON.stringify(value)}`,
              };
            },
          );
        case 'action':
          return runGoal(kernel, transport, skill, value as RosMessage, askedAt, safety, elapsed, sending);
      }
    },
  });
}

async function publish(
  kernel: PluginKernel,
  transport: RobotTransport,
  skill: Skill,
  message: RosMessage,
): Promise<ToolResult> {
  try {
    await transport.publish(skill.name, skill.type, message, {
      reliability: 'reliable',
      durability: 'volatile',
      depth: 10,
    });
  } catch (error) {
    kernel.log.warn(`skill ${skill.id}: ${(error as Error).stack ?? String(error)}`);
    return rejected('transport_error', `${(error as Error).message}; nothing was published`);
  }
  return {
    content: json({ status: 'published', skill: skill.id, topic: skill.name, type: skill.type }),
    display: `${skill.id}: published on ${skill.name}`,
  };
}

/** A service call with the skill's time-out: a timeout, a refusal by the robot or a link failure, by reason. */
async function call(
  kernel: PluginKernel,
  transport: RobotTransport,
  skill: Skill,
  service: string,
  type: string,
  request: RosMessage,
  answered: (response: RosMessage) => ToolResult,
): Promise<ToolResult> {
  const timeoutMs = timeoutOf(skill);
  let response: RosMessage;
  try {
    response = await transport.callService(service, type, request, timeoutMs);
  } catch (error) {
    const code = (error as { code?: string }).code;
    kernel.log.warn(`skill ${skill.id}: ${(error as Error).stack ?? String(error)}`);
    if (code === HardwareErrorCodes.SERVICE_TIMEOUT) {
      // A native client waits for a server first (SERVICE_TIMEOUT.serviceUnavailable): nothing reached anyone.
      if (/ is not available within /.test((error as Error).message)) {
        return rejected('refused_by_robot', `no server offers ${service} (waited ${timeoutMs} ms); nothing was sent`);
      }
      return rejected(
        'timeout',
        `${service} gave no answer within ${timeoutMs} ms; it may still act on the request (a service call cannot be cancelled)`,
      );
    }
    const failed = /service .* failed: (.*)$/s.exec((error as Error).message);
    if (failed) return rejected('refused_by_robot', `${service} failed: ${failed[1]}`);
    return rejected('transport_error', `${(error as Error).message}; nothing was sent`);
  }
  return answered(response);
}

/** A summary of the feedback: how many, and the last (bounded). */
interface FeedbackSummary {
  count: number;
  last?: unknown;
}

/**
 * A goal, waited for until its result or the skill's time-out (then cancelled). A motion goal is announced to
 * the safety path before it is sent (the fence), and named to it once running, so every stop cancels it.
 */
async function runGoal(
  kernel: PluginKernel,
  transport: RobotTransport,
  skill: Skill,
  goal: RosMessage,
  askedAt: number,
  safety: SkillSafety | undefined,
  elapsed: () => number,
  sending: () => void,
): Promise<ToolResult> {
  const motion = skill.motion && safety ? safety : undefined;
  if (motion) {
    const fenced = await motion.sending(askedAt, skill.name);
    if (fenced) return rejected(fenced.reason, fenced.error);
  }
  sending();
  const feedback: FeedbackSummary = { count: 0 };
  let sent: ActionGoal;
  try {
    sent = await transport.sendActionGoal!(skill.name, skill.type, goal, (message) => {
      feedback.count += 1;
      feedback.last = message;
    });
  } catch (error) {
    motion?.navigating('ended', skill.name);
    kernel.log.warn(`skill ${skill.id}: ${(error as Error).stack ?? String(error)}`);
    return rejected('transport_error', `${(error as Error).message}; no goal was sent`);
  }
  skill.running = sent;
  motion?.navigating('running', skill.name, sent.id, sent.known === undefined);
  void sent.known?.then(() => {
    if (skill.running === sent) motion?.navigating('known', skill.name, sent.id);
  });
  const timeoutMs = timeoutOf(skill);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  let outcome: ActionOutcome | 'timeout';
  try {
    outcome = await Promise.race([sent.outcome, timedOut]);
    if (outcome === 'timeout') {
      await sent.cancel().catch((error: Error) => kernel.log.warn(`skill ${skill.id}: cancel: ${error.message}`));
      // The server's word on the cancel, briefly: the goal is reported cancelled either way.
      await Promise.race([sent.outcome.catch(() => undefined), new Promise((r) => setTimeout(r, 2000).unref())]);
    }
  } catch (error) {
    kernel.log.warn(`skill ${skill.id}: ${(error as Error).stack ?? String(error)}`);
    return rejected('transport_error', `${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
    if (skill.running === sent) skill.running = undefined;
    motion?.navigating('ended', skill.name);
  }
  const summary = {
    count: feedback.count,
    ...(feedback.last === undefined
      ? {}
      : { last: boundMessage(`${skill.type}_Feedback`, feedback.last as RosMessage).message }),
  };
  if (outcome === 'timeout') {
    return {
      content: json({
        status: 'rejected',
        reason: 'timeout',
        error: `${skill.name} gave no result within ${timeoutMs} ms; the goal was cancelled`,
        feedback: summary,
      }),
      display: 'rejected timeout',
    };
  }
  if (outcome.status === 'rejected') {
    return rejected(
      'refused_by_robot',
      `${skill.name} refused the goal: ${outcome.error ?? 'rejected by the action server'}`,
    );
  }
  return {
    content: json({
      status: outcome.status,
      skill: skill.id,
      action: skill.name,
      result: boundMessage(`${skill.type}_Result`, outcome.result ?? {}).message,
      feedback: summary,
      elapsed_ms: elapsed(),
    }),
    display: `${skill.id}: ${outcome.status}`,
  };
}
