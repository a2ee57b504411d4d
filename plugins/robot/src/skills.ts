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
import { HardwareErrors } from './errors.js';
import { json, rejected } from './tool-result.js';
import { call, compact, publish, runGoal, type Skill } from './skill-calls.js';
import {
  SET_PARAMETERS_TYPE,
  SKILL_DEFAULTS,
  SKILL_TOOLS,
  parameterValue,
  timeoutOf,
  type ParameterType,
  type SkillKind,
  type SkillMapping,
  type SkillSafety,
} from './skill-schema.js';
import type { RobotTransport, RosMessage } from './transport.js';

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

/**
 * The message (request, goal, value) from its JSON text, checked against the skill's schema (and, for a
 * parameter, its type), or the refusal saying what is wrong and what the schema is.
 */
function checkMessage(
  kind: SkillKind,
  skill: Skill,
  text: unknown,
): { value: unknown; parameter?: RosMessage } | ToolResult {
  const argument = ARGUMENT[kind];
  let value: unknown;
  try {
    value = JSON.parse(String(text));
  } catch (error) {
    return rejected('invalid_message', `${argument} is not JSON text (${(error as Error).message}); nothing was sent`);
  }
  if (!skill.validate(value)) {
    const problems = (skill.validate.errors ?? [])
      .map((e) => `${argument}${e.instancePath} ${e.message ?? 'is invalid'}`)
      .join('; ');
    return rejected('invalid_message', `${problems}; the schema is ${compact(skill.schema)}; nothing was sent`);
  }
  if (kind !== 'parameter') return { value };
  const parameter = parameterValue(skill.type as ParameterType, value);
  if (typeof parameter === 'string') return rejected('invalid_message', `${parameter}; nothing was sent`);
  return { value, parameter };
}

/** The refusal of a call that comes sooner than the skill's rate allows after the last one sent. */
function rateLimited(skill: Skill): ToolResult | undefined {
  const wait = skill.lastAt + skill.minIntervalMs - performance.now();
  if (wait <= 0) return undefined;
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
      const checked = checkMessage(kind, skill, args[argument]);
      if ('content' in checked) return checked;
      const { value, parameter } = checked;
      if (kind === 'action' && skill.running) {
        return rejected('busy', `a goal of ${skill.id} is still running; wait for its result; nothing was sent`);
      }
      const limited = rateLimited(skill);
      if (limited) return limited;
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
              response: boundMessage(`${skill.type}_Response`, response).message,
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
