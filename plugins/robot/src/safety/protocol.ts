/**
 * Messages between the runtime (main thread) and its safety path (a worker
 * thread with its own connection to the robot transport). Plain data only:
 * they cross threads by structured clone.
 */

/** How the safety worker builds its own transport: a module it imports and the export it calls with `options`. */
export interface SafetyTransportSpec {
  /** A `file:` URL (or package specifier) of an ES module. */
  readonly module: string;
  /** The name of the exported factory: `(options, context) => RobotTransport | Promise<RobotTransport>`. */
  readonly export: string;
  /** Serializable options for the factory (a URL, a bus name, a node name…). */
  readonly options: Readonly<Record<string, unknown>>;
}

/** What a safety transport factory gets besides its options: where its log lines go (the runtime's log). */
export interface SafetyTransportContext {
  log(message: string): void;
}

/** The drive the safety path owns: its topic, limits and timing. */
export interface SafetyDriveConfig {
  readonly topic: string;
  readonly type: string;
  /** The frame of a TwistStamped command. */
  readonly frameId?: string;
  /** How a TwistStamped command is stamped (`zero`: the controller stamps it on arrival). */
  readonly stamp?: 'zero' | 'now';
  /** Under `use_sim_time`: the `rosgraph_msgs/msg/Clock` topic whose time `now` stamps carry. */
  readonly clockTopic?: string;
  readonly maxLinear: number;
  readonly maxAngular: number;
  readonly maxDurationS: number;
  readonly rateHz: number;
  /** Dead-man: zero velocity when no heartbeat came for this long while driving. */
  readonly stallMs: number;
  /** Optional `std_msgs/msg/Bool` topic: `true` stops and refuses drives until `false`. */
  readonly eStopTopic?: string;
  /**
   * How fresh the e-stop topic must be: drives are refused until it is heard, and while driving a silence
   * longer than this stops the robot (fail closed). 0: heard once is enough (a latched e-stop).
   */
  readonly eStopTimeoutMs: number;
  /** Nav2's NavigateToPose action: while Mira has a goal running, every stop also cancels it. */
  readonly navigationAction?: string;
}

/** What became of a zero velocity: written on a live link (and heard back), or not delivered at all. */
export interface StopDelivery {
  readonly delivered: boolean;
  /** Heard back on the command topic (the bridge carried it to ROS). */
  readonly confirmed?: boolean;
  /** One line for the console and the log: what was sent where, or why nothing was. */
  readonly detail: string;
}

/**
 * Where Mira's navigation goal is once sent: running (sent under its name), known where that name cancels it
 * (a bridge holds the goal's handle: `ActionGoal.known`), or ended.
 */
export type NavigationState = 'running' | 'known' | 'ended';

/** Why the worker stopped the robot on its own. */
export type StopCause = 'stall' | 'console' | 'e_stop' | 'e_stop_silent' | 'duration' | 'quit' | 'link';

/** What the worker is started with (`workerData`). */
export interface SafetyWorkerData {
  readonly transport: SafetyTransportSpec;
  readonly drive: SafetyDriveConfig;
}

/** Main → worker. */
export type ToSafety =
  | {
      readonly type: 'drive';
      readonly id: number;
      readonly linear: number;
      readonly angular: number;
      readonly durationS: number;
      /**
       * When the motion was asked (`crossThreadNow()` of @mira/core, a clock all threads share): a drive
       * asked before a stop is refused, however late it reaches the safety path.
       */
      readonly askedAt: number;
    }
  /** Zero velocity now; every motion asked at or before `at` (`crossThreadNow()`) is fenced off. */
  | { readonly type: 'stop'; readonly id: number; readonly why: string; readonly at: number }
  /**
   * Mira's navigation goal is about to be sent: refused (`superseded`) when a stop came after it was asked
   * (`transport_error` when that was the link's loss and the link is still down), otherwise recorded as being
   * sent, so a stop from now on cancels it.
   */
  | {
      readonly type: 'goal';
      readonly id: number;
      readonly askedAt: number;
      /** The goal's action (a motion skill's); navigation's (`navigationAction`) when absent. */
      readonly action?: string;
    }
  /**
   * A motion service is about to be called: refused when a stop came after it was asked, or while the e-stop is
   * active or unheard or the link is down (as a drive is); nothing is held, since a call cannot be cancelled.
   */
  | { readonly type: 'fence'; readonly id: number; readonly askedAt: number }
  | { readonly type: 'heartbeat' }
  /**
   * Mira's navigation goal (announced by `goal` before it is sent): running, under the name its transport
   * gave it (`goal` = `ActionGoal.id`, when it gave one), or ended (`active: false`). `known: false`: the
   * name does not cancel it yet (a bridge that holds no handle for it drops a cancel); `goal_known` follows.
   */
  | {
      readonly type: 'navigating';
      readonly active: boolean;
      readonly goal?: string;
      readonly known?: boolean;
      /** As in `goal`: navigation's action when absent. */
      readonly action?: string;
    }
  /** The goal named `goal` is now known where its name cancels it (a cancel sent before was lost). */
  | { readonly type: 'goal_known'; readonly goal: string }
  | { readonly type: 'close'; readonly id: number };

/** Worker → main. */
export type FromSafety =
  | { readonly type: 'ready' }
  | { readonly type: 'failed'; readonly error: string }
  | { readonly type: 'reply'; readonly id: number; readonly ok: true; readonly delivery?: StopDelivery }
  | { readonly type: 'reply'; readonly id: number; readonly ok: false; readonly reason: string; readonly error: string }
  /** The worker stopped the robot on its own: a stalled runtime, an operator `stop`, the e-stop, the duration. */
  | {
      readonly type: 'stopped';
      readonly why: StopCause;
      readonly stalledMs?: number;
      readonly delivery?: StopDelivery;
    }
  | { readonly type: 'e_stop'; readonly active: boolean }
  /** The e-stop topic became fresh (heard within its timeout) or stale (never heard, or silent too long). */
  | { readonly type: 'e_stop_fresh'; readonly fresh: boolean }
  | { readonly type: 'log'; readonly message: string };

/** What the operator's console sends on an emergency-stop port, straight from the line reader thread. */
/** `at`: when the line was read (`crossThreadNow()`), the stop fence's time. */
export type ConsoleSignal =
  { readonly type: 'stop'; readonly at: number } | { readonly type: 'quit'; readonly at: number };
