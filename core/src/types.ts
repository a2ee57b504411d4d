import type { Clock } from './clock.js';

/** The name core uses as owner of its own registrations and hook taps. */
export const CORE_NAME = '@mira/core';

/** Where an episode came from. Only `operator` is a dialogue turn with the operator. */
export type EpisodeOrigin = 'operator' | 'attention' | 'initiative' | 'goal' | 'temporal' | 'monitor';

/** Every episode origin, in a stable order. */
export const EPISODE_ORIGINS: readonly EpisodeOrigin[] = Object.freeze([
  'operator',
  'attention',
  'initiative',
  'goal',
  'temporal',
  'monitor',
]);

/**
 * The phases of shutdown, in the order they run. Stores are not a phase a
 * plugin joins: the application closes them once after the last phase.
 */
export type StopPhase = 'cognition' | 'attention' | 'temporal' | 'hardware' | 'service';

/** Shutdown order. */
export const STOP_PHASES: readonly StopPhase[] = Object.freeze([
  'cognition',
  'attention',
  'temporal',
  'hardware',
  'service',
]);

/** A JSON Schema object, as ajv takes it. */
export type JsonSchema = Record<string, unknown>;

/** The runtime self and where its manifest lives. */
export interface ProfileInfo {
  /** The robot's name: the runtime self. */
  readonly name: string;
  readonly description: string;
  /** Absolute path of `profile.toml`. */
  readonly manifestPath: string;
  /** Absolute directory of the manifest; relative paths resolve against it. */
  readonly dir: string;
}

/** Where log lines go: stderr in the CLI, a buffer in tests. Console output never goes here. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Services a plugin may use at any time after boot. */
export interface RuntimeServices {
  readonly clock: Clock;
  readonly profile: ProfileInfo;
  readonly log: Logger;
}
