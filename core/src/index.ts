/**
 * `@mira/core`: the kernel, plugin contract, profile manifests, console,
 * working memory, text normalisation and error catalogue of Mira.
 *
 * @packageDocumentation
 */
export { Application, stderrLogger, type ApplicationOptions } from './application.js';
export type { CliCommandContext, CliCommandDeclaration, CliCommandModule } from './cli-commands.js';
export {
  ACQUISITION_BUDGET,
  DEFAULT_MAX_MODEL_STEPS,
  MAX_RESULT_ERROR_LENGTH,
  rejectedResult,
  type EpisodeRequest,
  type EpisodeResult,
  type ToolCallRecord,
} from './cognition/engine.js';
export { GROUNDING_HEADER, baseInstructions } from './cognition/prompt.js';
export { ARGUMENTS_STAND_IN, parseToolArguments, sendableArguments } from './cognition/arguments.js';
export { TOOL_FORMS, firstSentence, toolsInForm, type ToolForm } from './cognition/compact-tools.js';
export { SHORTENED_HEAD, shortenOldestResult, shortenedMarker } from './cognition/context-budget.js';
export { StreamedReply } from './cognition/streamed-reply.js';
export {
  type ChatMessage,
  type CognitionProvider,
  type ModelRequest,
  type ModelResponse,
  type ModelToolCall,
  type ProviderCheck,
  type ToolSpec,
} from './cognition/provider.js';
export { ManualClock, crossThreadNow, isoUtc, systemClock, type Clock } from './clock.js';
export type {
  CommandDefinition,
  CommandInput,
  CommandOption,
  ConsoleOutput,
  Progress,
  Waiting,
} from './console/command.js';
export { NO_PROGRESS, WAITING_DELAY_MS, progressOf, terminalProgress, terminalWaiting } from './console/progress.js';
export type { LineContext, LineResult } from './console/console.js';
export { formatAge } from './format-age.js';
export { workerEntry } from './worker-entry.js';
export { SQLITE_SIDE_FILES, writeFileSafely, type SafeWriteOptions } from './files.js';
export {
  CognitionErrorCodes,
  CognitionErrors,
  CoreErrorCodes,
  CoreErrors,
  MiraError,
  defineErrors,
  failureText,
  fillTemplate,
  isErrorCatalogue,
  isMiraError,
  toMiraError,
  whatToDo,
  type CognitionErrorCode,
  type CoreErrorCode,
  type ErrorCatalogue,
  type ErrorDefinitions,
  type ErrorArgs,
  type ErrorArgsOf,
  type BareKey,
  type BorrowedEntry,
  type ErrorEntry,
  type Situation,
  type SituationKey,
  type TemplateParams,
  type TemplatePlaceholders,
} from './errors.js';
export { CORE_NAME } from './builtin.js';
export type { EpisodeOutcome, KernelHooks, LogLevel } from './hooks.js';
export type { Kernel } from './kernel.js';
export type { LoadedPlugin } from './loader.js';
export { KERNEL_TABLES, MANIFEST_FILE, locateManifest, readManifest, type ProfileManifest } from './manifest.js';
export { explainManifest, type MergedManifest } from './layers.js';
export {
  definePlugin,
  type MiraPlugin,
  type PluginInstance,
  type PluginKernel,
  type PluginSummary,
  type StopOutcome,
  type StopReport,
} from './plugin.js';
export { compileSchemaLazily, type PrecompiledValidator, type Validator } from './schemas.js';
export { DEFAULT_READ_TIMEOUT_MS, type SensorDefinition, type SensorImage, type SensorReading } from './sensors.js';
export { storeKey, type ClosableStore, type StoreDefinition, type StoreKey } from './stores.js';
export { caseFold } from './text/case-fold.js';
export { codePointSegments, oneGraphemePerCodePoint } from './text/graphemes.js';
export { printable, printableLine, speakerLines } from './text/printable.js';
export {
  MAX_TOKEN_LENGTH,
  assertNoForbiddenCharacters,
  assertNoFormatCharacters,
  findFormatCharacter,
  collapseWhitespace,
  findForbiddenCharacter,
  isPlainAscii,
  longerThan,
  normalizeDisplay,
  normalizeKey,
  normalizeToken,
} from './text/normalize.js';
export {
  assertStrictToolSchema,
  defineTool,
  findStrictSchemaViolation,
  type EpisodeInfo,
  type Grounding,
  type GroundingSection,
  type RegisteredTool,
  type ToolArgs,
  type ToolCall,
  type ToolContext,
  type ToolImage,
  type ToolDefinition,
  type ToolKind,
  type ToolResult,
  type ToolSchema,
} from './tools.js';
export {
  EPISODE_ORIGINS,
  STOP_PHASES,
  type EpisodeOrigin,
  type JsonSchema,
  type Logger,
  type ProfileInfo,
  type RuntimeServices,
  type StopPhase,
} from './types.js';
export {
  DEFAULT_WORKING_MEMORY_ENTRIES,
  WorkingMemory,
  type Speaker,
  type WorkingMemoryEntry,
} from './working-memory.js';
