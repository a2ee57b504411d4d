/**
 * The error catalogue of `@mira/core`, grouped by subsystem. Codes are stable
 * strings that scripts may match on; messages are for people.
 */
export const CoreErrorCodes = {
  // Profile manifest and configuration
  MANIFEST_NOT_FOUND: 'MIRA_ERR_MANIFEST_NOT_FOUND',
  MANIFEST_SYNTAX: 'MIRA_ERR_MANIFEST_SYNTAX',
  MANIFEST_INVALID: 'MIRA_ERR_MANIFEST_INVALID',
  CONFIG_INVALID: 'MIRA_ERR_CONFIG_INVALID',
  CONFIG_UNKNOWN_TABLE: 'MIRA_ERR_CONFIG_UNKNOWN_TABLE',
  // Plugin loading and ordering
  PLUGIN_NOT_FOUND: 'MIRA_ERR_PLUGIN_NOT_FOUND',
  PLUGIN_INVALID: 'MIRA_ERR_PLUGIN_INVALID',
  PLUGIN_DUPLICATE: 'MIRA_ERR_PLUGIN_DUPLICATE',
  PLUGIN_DEPENDENCY_MISSING: 'MIRA_ERR_PLUGIN_DEPENDENCY_MISSING',
  PLUGIN_DEPENDENCY_CYCLE: 'MIRA_ERR_PLUGIN_DEPENDENCY_CYCLE',
  PLUGIN_APPLY_FAILED: 'MIRA_ERR_PLUGIN_APPLY_FAILED',
  PLUGIN_START_FAILED: 'MIRA_ERR_PLUGIN_START_FAILED',
  PLUGIN_STOP_FAILED: 'MIRA_ERR_PLUGIN_STOP_FAILED',
  // Registries
  DUPLICATE_REGISTRATION: 'MIRA_ERR_DUPLICATE_REGISTRATION',
  REGISTRATION_INVALID: 'MIRA_ERR_REGISTRATION_INVALID',
  TOOL_SCHEMA_NOT_STRICT: 'MIRA_ERR_TOOL_SCHEMA_NOT_STRICT',
  STORE_NOT_AVAILABLE: 'MIRA_ERR_STORE_NOT_AVAILABLE',
  STORE_OPEN_FAILED: 'MIRA_ERR_STORE_OPEN_FAILED',
  // Console
  CONSOLE_UNTERMINATED_QUOTE: 'MIRA_ERR_CONSOLE_UNTERMINATED_QUOTE',
  CONSOLE_UNKNOWN_FLAG: 'MIRA_ERR_CONSOLE_UNKNOWN_FLAG',
  CONSOLE_FLAG_VALUE_MISSING: 'MIRA_ERR_CONSOLE_FLAG_VALUE_MISSING',
  CONSOLE_FLAG_REPEATED: 'MIRA_ERR_CONSOLE_FLAG_REPEATED',
  CONSOLE_USAGE: 'MIRA_ERR_CONSOLE_USAGE',
  CONSOLE_UNKNOWN_COMMAND: 'MIRA_ERR_CONSOLE_UNKNOWN_COMMAND',
  COGNITION_NOT_CONFIGURED: 'MIRA_ERR_COGNITION_NOT_CONFIGURED',
  // Text normalisation
  TEXT_EMPTY: 'MIRA_ERR_TEXT_EMPTY',
  TEXT_CONTROL_CHARACTER: 'MIRA_ERR_TEXT_CONTROL_CHARACTER',
  TEXT_TOO_LONG: 'MIRA_ERR_TEXT_TOO_LONG',
  TOKEN_INVALID: 'MIRA_ERR_TOKEN_INVALID',
  // CLI
  CLI_USAGE: 'MIRA_ERR_CLI_USAGE',
  // Anything not anticipated
  INTERNAL: 'MIRA_ERR_INTERNAL',
} as const;

/** Every error code `@mira/core` raises. */
export type CoreErrorCode = (typeof CoreErrorCodes)[keyof typeof CoreErrorCodes];

/**
 * An error with a stable `code`. The message reads `CODE: what happened, and
 * what to do`; a lower-layer error rides in `cause`.
 *
 * Plugins define their own catalogue and raise `MiraError` with their codes.
 *
 * @example
 * throw new MiraError('MIRA_ERR_CONFIG_INVALID', 'profile.toml: /memory/enabled must be boolean');
 */
export class MiraError extends Error {
  /** The stable code, e.g. `MIRA_ERR_CONFIG_INVALID`. */
  readonly code: string;
  /** The message without the leading code. */
  readonly detail: string;

  constructor(code: string, detail: string, options?: { cause?: unknown }) {
    super(`${code}: ${detail}`, options);
    this.name = 'MiraError';
    this.code = code;
    this.detail = detail;
  }
}

/** True when `value` is a {@link MiraError}, optionally with the given code. */
export function isMiraError(value: unknown, code?: string): value is MiraError {
  return value instanceof MiraError && (code === undefined || value.code === code);
}

/**
 * Converts anything thrown into a {@link MiraError}, keeping the original as
 * `cause`. Used at boundaries so raw library errors never reach the console.
 */
export function toMiraError(error: unknown, code: string = CoreErrorCodes.INTERNAL, context?: string): MiraError {
  if (error instanceof MiraError) return error;
  const text = error instanceof Error ? error.message : String(error);
  return new MiraError(code, context ? `${context}: ${text}` : text, { cause: error });
}
