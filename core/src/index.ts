/**
 * `@mira/core`: the kernel, plugin contract, profile manifests, console,
 * working memory, text normalisation and error catalogue of Mira.
 *
 * @packageDocumentation
 */
export { Application, stderrLogger, type ApplicationOptions } from './application.js';
export {
  ACQUISITION_BUDGET,
  DEFAULT_MAX_MODEL_STEPS,
  EpisodeEngine,
  MAX_RESULT_ERROR_LENGTH,
  rejectedResult,
  type EpisodeRequest,
  type EpisodeResult,
  type ToolCallRecord,
} from './cognition/engine.js';
export { baseInstructions } from './cognition/prompt.js';
export {
  CognitionErrorCodes,
  type ChatMessage,
  type CognitionErrorCode,
  type CognitionProvider,
  type ModelRequest,
  type ModelResponse,
  type ModelToolCall,
  type ToolSpec,
} from './cognition/provider.js';
export { SENSOR_MESSAGE_TYPES, SENSOR_UNITS, stamp, toSensorValue, twist, yawQuaternion, type SensorMessageType } from './hardware/messages.js';
export { registerReadSensor } from './hardware/read-sensor.js';
export {
  DEFAULT_READ_TIMEOUT_MS,
  ROBOT_MAPPING_SCHEMA_PROPERTIES,
  attachRobot,
  type DriveMapping,
  type RobotBridge,
  type RobotMapping,
  type SensorMapping,
} from './hardware/robot.js';
export { HardwareErrorCodes, type QosProfile, type RobotTransport, type RosMessage } from './hardware/transport.js';
export { ManualClock, isoUtc, systemClock, type Clock } from './clock.js';
export type { CommandDefinition, CommandInput, CommandOption, ConsoleOutput } from './console/command.js';
export { CommandConsole, synopsis, type LineResult, type UtteranceHandler } from './console/console.js';
export { startRepl, type Repl, type ReplOptions } from './console/repl.js';
export { tokenize, type Token } from './console/tokenize.js';
export { formatAge } from './format-age.js';
export { CoreErrorCodes, MiraError, isMiraError, toMiraError, type CoreErrorCode } from './errors.js';
export { createHooks, type KernelHooks } from './hooks.js';
export { CORE_NAME, Kernel, type RegisteredTool } from './kernel.js';
export { loadPlugins, orderPlugins, resolvePluginModule, validateConfig, type LoadedPlugin } from './loader.js';
export { CORE_TABLES, MANIFEST_FILE, locateManifest, readManifest, type ProfileManifest } from './manifest.js';
export { explainInvalidPlugin, type MiraPlugin, type PluginKernel } from './plugin.js';
export { Registry } from './registry.js';
export type { SensorDefinition, SensorReading } from './sensors.js';
export type { ClosableStore, StoreDefinition } from './stores.js';
export { caseFold } from './text/case-fold.js';
export {
  MAX_TOKEN_LENGTH,
  assertNoForbiddenCharacters,
  collapseWhitespace,
  findForbiddenCharacter,
  normalizeDisplay,
  normalizeKey,
  normalizeToken,
} from './text/normalize.js';
export {
  assertStrictToolSchema,
  findStrictSchemaViolation,
  type EpisodeInfo,
  type Grounding,
  type GroundingSection,
  type ToolCall,
  type ToolContext,
  type ToolDefinition,
  type ToolKind,
  type ToolResult,
} from './tools.js';
export { EPISODE_ORIGINS, STOP_PHASES, type EpisodeOrigin, type JsonSchema, type Logger, type ProfileInfo, type RuntimeServices, type StopPhase } from './types.js';
export { DEFAULT_WORKING_MEMORY_ENTRIES, WorkingMemory, type Speaker, type WorkingMemoryEntry } from './working-memory.js';
export { MemoryErrorCodes, type MemoryErrorCode } from './memory/errors.js';
export { entityRef, memoryRef, parseEntityRef, parseMemoryRef, type EntityRef, type MemoryRef } from './memory/ids.js';
export type {
  Alias,
  AliasAdded,
  Entity,
  Memory,
  MemoryLink,
  MemorySource,
  MemoryStatus,
  MemoryStore,
  NewMemory,
  NewestMemories,
  Payload,
  PayloadInfo,
  StoreInfo,
} from './memory/types.js';
export { MAX_NAME_LENGTH, MAX_SUMMARY_LENGTH, MAX_VALUE_LENGTH, prepareMemory, prepareName, type PreparedMemory } from './memory/validate.js';
