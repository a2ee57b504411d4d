/**
 * What a skill's tool does once its checks passed: publish, call a service (a parameter's too), or send a goal
 * and wait for its result — each failure mapped to a reason the model can act on.
 */
import type { PluginKernel, ToolResult, Validator } from '@mira/core';
import { boundMessage } from './bounded-message.js';
import { HardwareErrorCodes } from './errors.js';
import { json, rejected } from './tool-result.js';
import { timeoutOf, type SkillMapping, type SkillSafety } from './skill-schema.js';
import type { ActionGoal, ActionOutcome, RobotTransport, RosMessage } from './transport.js';

/** A skill as the tool runs it. */
export interface Skill extends SkillMapping {
  readonly validate: Validator;
  readonly minIntervalMs: number;
  lastAt: number;
  running?: ActionGoal;
}

/** `{"type":"object",...}` → the schema's compact JSON, for the tool's description. */
export const compact = (schema: Readonly<Record<string, unknown>>) => JSON.stringify(schema);

export async function publish(
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
export async function call(
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
export async function runGoal(
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
