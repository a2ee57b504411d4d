import { crossThreadNow, defineTool, type PluginKernel, type SensorReading, type ToolResult } from '@mira/core';
import { MEMORY_STORE, describePose, resolvePlace } from '@mira/memory-contract';
import { ZERO_STAMP, stamp, yawQuaternion } from './messages.js';
import { json, rejected } from './tool-result.js';
import type { NavigationState } from './safety/protocol.js';
import type { ActionGoal, RobotTransport, RosMessage } from './transport.js';

/** The Nav2 action Mira sends goals to. */
export const NAVIGATE_TO_POSE = 'nav2_msgs/action/NavigateToPose';

/** The `navigation` table of a hardware plugin: where Nav2's NavigateToPose action server is. */
export interface NavigationMapping {
  /** The action name (default `navigate_to_pose`, relative to the namespace, as Nav2 names it). */
  readonly action: string;
  /** The frame goals are given in (default `map`). */
  readonly frame_id?: string;
  /** How far from the frame's origin a goal may be, in metres (default 100). */
  readonly max_distance_m?: number;
  /**
   * The goal pose's stamp: `now` (this host's clock, the default) or `zero` (tf's "latest": what a robot
   * on a simulation clock needs, where a wall-clock stamp would be far in its future).
   */
  readonly stamp?: 'now' | 'zero';
}

/** The id of the sensor that shows navigation feedback. */
export const NAVIGATION_SENSOR = 'navigation';

type State = 'idle' | 'navigating' | 'succeeded' | 'canceled' | 'aborted' | 'rejected' | 'lost';

/** What the navigation needs from the rest of the robot bridge. */
export interface NavigationHooks {
  /** Why a goal may not be sent now (the e-stop, no safety path), or undefined. */
  refusal(): { reason: string; error: string } | undefined;
  /**
   * Asks the safety path to send a goal asked at `askedAt` (`crossThreadNow()`): a refusal when a stop came
   * after it was asked (the stop fence), or undefined, after which every stop cancels the goal.
   */
  sending(askedAt: number): Promise<{ reason: string; error: string } | undefined>;
  /**
   * Tells the safety path about Mira's goal once sent: running (under its transport's name for it,
   * `ActionGoal.id`; `known` false while that name cannot cancel it yet), known (`ActionGoal.known`
   * settled), or ended. It cancels that goal, by name, on every stop, and again once it is known.
   */
  navigating(state: NavigationState, goal?: string, known?: boolean): void;
  /** Now, for a goal's stamp (ms): the runtime's clock, or the simulation clock under `use_sim_time`. */
  stampTime(): number;
}

/**
 * NavigateToPose's own error codes (nav2_msgs, Jazzy; TIMEOUT from Kilted). Other codes are the planner's
 * or controller's, raised through bt_navigator's `error_code_name_prefixes`, and are shown by number.
 */
const NAV2_ERRORS: Readonly<Record<number, string>> = {
  9000: 'UNKNOWN',
  9001: 'FAILED_TO_LOAD_BEHAVIOR_TREE',
  9002: 'TF_ERROR',
  9003: 'TIMEOUT',
};

/** The result's `error_code` and `error_msg`, when it carries an error (a code other than NONE = 0). */
export function navigationError(result: RosMessage): { code: number; message: string } | undefined {
  const code = Number(result.error_code);
  if (!Number.isInteger(code) || code === 0) return undefined;
  return { code, message: typeof result.error_msg === 'string' ? result.error_msg : '' };
}

/** `Nav2 error 9002 (TF_ERROR): map to base_link unavailable`. */
function describeNavigationError({ code, message }: { code: number; message: string }): string {
  const name = NAV2_ERRORS[code];
  return `Nav2 error ${code}${name ? ` (${name})` : ''}${message ? `: ${message}` : ''}`;
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const seconds = (d: unknown) => {
  const { sec, nanosec } = (d ?? {}) as { sec?: number; nanosec?: number };
  return (Number(sec) || 0) + (Number(nanosec) || 0) / 1e9;
};

/**
 * The `navigate_to` tool on Nav2's `NavigateToPose` action, for operator episodes, and the
 * `navigation` sensor with its feedback. A new goal replaces the running one; the safety path
 * cancels a running goal on every stop (the `stop` tool, a console `stop`, the e-stop topic, a
 * stalled runtime, quitting).
 */
export function attachNavigation(
  kernel: PluginKernel,
  transport: RobotTransport,
  mapping: NavigationMapping,
  hooks: NavigationHooks,
): { close(): void } {
  const frame = mapping.frame_id ?? 'map';
  const maxDistance = mapping.max_distance_m ?? 100;
  const { clock } = kernel;
  let current: { goal: ActionGoal; x: number; y: number; serial: number } | undefined;
  let serial = 0;
  let closed = false;

  const publish = (state: State, x: number, y: number, extra: Record<string, number | string> = {}) => {
    const reading: SensorReading = {
      sensorId: NAVIGATION_SENSOR,
      value: { state, goal_x_m: x, goal_y_m: y, ...extra },
      at: clock.now(),
      monotonic: clock.monotonic(),
    };
    kernel.sensors.publish(reading);
  };

  kernel.sensors.register({
    id: NAVIGATION_SENSOR,
    kind: 'navigation',
    unit: 'state',
    fields: ['state', 'goal_x_m', 'goal_y_m', 'distance_remaining_m', 'navigation_time_s', 'recoveries'],
    description: `Nav2 NavigateToPose on ${mapping.action}: state, goal, distance remaining (m), time (s), recoveries`,
    // Feedback streams while navigating; a reading stays the latest word on the goal.
    staleAfterMs: 24 * 3600 * 1000,
  });

  kernel.tools.register(
    defineTool({
      name: 'navigate_to',
      description:
        `Send the robot to a known place by its name, or to a pose in the "${frame}" frame, with its navigation stack ` +
        `(Nav2), avoiding obstacles on the way. Give either place (the place's exact name or alias, as the operator ` +
        `said it; x_m, y_m and yaw_deg null) or x_m, y_m and yaw_deg (place null). Returns when the goal is sent; ` +
        `progress shows on the "${NAVIGATION_SENSOR}" sensor. A new goal replaces the running one; "stop" cancels it. ` +
        `|x_m|, |y_m| ≤ ${maxDistance}.`,
      kind: 'effect',
      origins: ['operator'],
      parameters: {
        type: 'object',
        properties: {
          place: {
            type: ['string', 'null'],
            maxLength: 200,
            description: 'A known place, by its exact name or alias (e.g. "kitchen"); null when giving coordinates.',
          },
          x_m: {
            type: ['number', 'null'],
            description: `x of the goal in the ${frame} frame, metres; null with place.`,
          },
          y_m: {
            type: ['number', 'null'],
            description: `y of the goal in the ${frame} frame, metres; null with place.`,
          },
          yaw_deg: {
            type: ['number', 'null'],
            description: 'Heading at the goal in degrees (0: along x, 90: along y); null with place.',
          },
        },
        required: ['place', 'x_m', 'y_m', 'yaw_deg'],
        additionalProperties: false,
      },
      run: async ({ place, ...coordinates }, context): Promise<ToolResult> => {
        let x_m: number;
        let y_m: number;
        let yaw_deg: number;
        let named: string | undefined;
        if (place !== null) {
          if (coordinates.x_m !== null || coordinates.y_m !== null || coordinates.yaw_deg !== null) {
            return rejected(
              'invalid_tool_arguments',
              'give either place, or x_m, y_m and yaw_deg, not both; no goal was sent',
            );
          }
          // The place is resolved as recall resolves names: exactly, among places; never guessed.
          if (!kernel.stores.has(MEMORY_STORE)) {
            return rejected(
              'place_not_found',
              'this robot keeps no persistent memory, so it knows no places; give x_m, y_m and yaw_deg',
            );
          }
          const found = await resolvePlace(kernel.stores.get(MEMORY_STORE), place);
          if ('reason' in found) {
            return {
              content: json({
                status: 'rejected',
                reason: found.reason,
                error: found.error,
                ...(found.candidates.length > 0 ? { candidate_ids: found.candidates } : {}),
              }),
              display: `rejected ${found.reason}`,
            };
          }
          if (found.pose.frame !== frame) {
            return rejected(
              'place_frame_mismatch',
              `${found.entity.ref} "${found.entity.canonicalName}" is at ${describePose(found.pose)}, but goals go in the ${frame} frame; no goal was sent`,
            );
          }
          ({ x: x_m, y: y_m, yawDeg: yaw_deg } = found.pose);
          named = `${found.entity.canonicalName} (${found.entity.ref})`;
        } else {
          if (coordinates.x_m === null || coordinates.y_m === null || coordinates.yaw_deg === null) {
            return rejected('invalid_tool_arguments', 'give a place, or all of x_m, y_m and yaw_deg; no goal was sent');
          }
          ({ x_m, y_m, yaw_deg } = coordinates as { x_m: number; y_m: number; yaw_deg: number });
        }
        const problems: string[] = [];
        if (!(Math.abs(x_m) <= maxDistance)) problems.push(`|x_m| must be at most ${maxDistance}`);
        if (!(Math.abs(y_m) <= maxDistance)) problems.push(`|y_m| must be at most ${maxDistance}`);
        if (!(Math.abs(yaw_deg) <= 360)) problems.push('|yaw_deg| must be at most 360');
        if (problems.length > 0) return rejected('out_of_range', `${problems.join('; ')}; no goal was sent`);
        const refusal = hooks.refusal();
        if (refusal) return rejected(refusal.reason, refusal.error);
        if (!transport.sendActionGoal) return rejected('transport_error', `${transport.name} has no action client`);
        const previous = current;
        current = undefined;
        if (previous) await previous.goal.cancel().catch(() => undefined);
        const goal = {
          pose: {
            header: {
              stamp: mapping.stamp === 'zero' ? ZERO_STAMP : stamp(hooks.stampTime()),
              frame_id: frame,
            },
            pose: { position: { x: x_m, y: y_m, z: 0 }, orientation: yawQuaternion((yaw_deg * Math.PI) / 180) },
          },
          behavior_tree: '',
        };
        const mine = ++serial;
        let sent: ActionGoal;
        // Asked before the goal goes out: a stop since it was asked refuses it, and a stop while it is being
        // sent still reaches it.
        const fenced = await hooks.sending(context.episode.askedAt ?? crossThreadNow());
        if (fenced) return rejected(fenced.reason, fenced.error);
        try {
          sent = await transport.sendActionGoal(mapping.action, NAVIGATE_TO_POSE, goal, (feedback: RosMessage) => {
            if (current?.serial !== mine) return;
            publish('navigating', x_m, y_m, {
              distance_remaining_m: round(Number(feedback.distance_remaining) || 0),
              navigation_time_s: round(seconds(feedback.navigation_time), 1),
              recoveries: Number(feedback.number_of_recoveries) || 0,
            });
          });
        } catch (error) {
          if (serial === mine) hooks.navigating('ended');
          return rejected('transport_error', `${(error as Error).message}; no goal was sent`);
        }
        current = { goal: sent, x: x_m, y: y_m, serial: mine };
        hooks.navigating('running', sent.id, sent.known === undefined);
        // Told whatever became of it since: a stop meanwhile sent a cancel the bridge may have dropped.
        void sent.known?.then(() => {
          if (!closed) hooks.navigating('known', sent.id);
        });
        // Which place and pose the goal came from, once it is on its way.
        if (named !== undefined) kernel.output.print(`[navigate_to] ${named} → (${x_m}, ${y_m}, ${yaw_deg}°)`);
        publish('navigating', x_m, y_m);
        sent.outcome.then(
          (outcome) => {
            if (closed) return;
            // Why Nav2 gave up, as its result says (Iron and later): on the sensor and the console line.
            const failure = navigationError(outcome.result ?? {});
            publish(outcome.status, x_m, y_m, failure ? { error_code: failure.code, error_msg: failure.message } : {});
            const where = `(${x_m}, ${y_m})`;
            const line =
              outcome.status === 'succeeded'
                ? `reached ${where}`
                : outcome.status === 'rejected'
                  ? `goal ${where} refused: ${outcome.error ?? 'rejected by the navigation server'}`
                  : `goal ${where} ${outcome.status}${failure ? `: ${describeNavigationError(failure)}` : ''}`;
            kernel.output.print(`[navigate_to] ${line}`);
            if (current?.serial === mine) {
              current = undefined;
              hooks.navigating('ended');
            }
          },
          (error: Error) => {
            if (closed) return;
            publish('lost', x_m, y_m);
            kernel.output.print(`[navigate_to] ${error.message}`);
            if (current?.serial === mine) {
              current = undefined;
              hooks.navigating('ended');
            }
          },
        );
        return {
          content: json({
            status: 'started',
            goal: { x_m, y_m, yaw_deg, frame_id: frame },
            ...(named !== undefined ? { place: named } : {}),
          }),
          display: `navigating to ${named !== undefined ? `${named} ` : ''}(${x_m}, ${y_m}) in ${frame}`,
        };
      },
    }),
  );

  return {
    close() {
      closed = true;
    },
  };
}
