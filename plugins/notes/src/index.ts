/**
 * `@mira/plugin-notes`: note memory beside (never instead of) the entity
 * store — short labelled notes with private keys, scopes with a global
 * overlay, hybrid full-text and vector search, export/import and duplicates.
 *
 * @packageDocumentation
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { EPISODE_ORIGINS, definePlugin, storeKey, type EpisodeOrigin, type MiraPlugin } from '@mira/core';
import { ensureParentDirectory, requireDatabasePath } from '@mira/sqlite';
import { notesCommands } from './commands.js';
import { OpenAIEmbedder, type Embedder, type EmbeddingConfig } from './embedder.js';
import { DEFAULT_MIN_SIMILARITY, SqliteNotesStore } from './notes-store.js';
import type { NotesStore } from './contract.js';
import { DEFAULT_KEY_GUARD } from './key-guard.js';
import { NotesErrors } from './errors.js';
import { configValidator } from './config-validator.generated.js';

/** The key of the notes store: `kernel.stores.get(NOTES_STORE)` is the profile's {@link NotesStore} (its contract). */
export const NOTES_STORE = storeKey<NotesStore>('notes');
import { notesTools, searchNotesForAgents } from './tools.js';

export { formatNote, notesCommands } from './commands.js';
export {
  MAX_IMPORT_BYTES,
  jsonNesting,
  validateNotesExport,
  type PreparedExport,
  type PreparedNote,
} from './transfer-format.js';
export { DIRECT_IMPORT_MAX, SLICE_MS, readExport, type ReadFailure } from './transfer.js';
export { OpenAIEmbedder, type Embedder, type EmbeddingConfig } from './embedder.js';
export {
  DEFAULT_KEY_GUARD,
  KEY_ORIGINS,
  KeyGuard,
  type KeyGuardLimits,
  type KeyLockout,
  type KeyOrigin,
} from './key-guard.js';
export {
  GLOBAL_SCOPE,
  BROWSE_SORTS,
  MAX_BROWSE_PAGE,
  MAX_BULK,
  UNLABELED,
  foldForFilter,
  type BrowseCounts,
  type BrowseOptions,
  type BrowsePage,
  type BrowseSort,
  type DuplicatePair,
  type DuplicatesOptions,
  type EmbeddingState,
  type LabelCount,
  type Note,
  type NoteVersion,
  type NotesStore,
  type Relabel,
  type ScopeCounts,
  type SearchHit,
  type SearchResult,
  type Viewer,
} from './contract.js';
export { SqliteNotesStore } from './notes-store.js';
export type { NotesExport } from './transfer-format.js';
export { NOTES_SCHEMA, NOTE_VECTORS_DDL, NOTE_VECTORS_TABLE } from './schema.js';
export { NotesErrorCodes, NotesErrors } from './errors.js';
export { QuantizedIndex, binaryCode, cosine, type VectorFilter } from './vector-index.js';
export {
  MAX_LABELS,
  NOTE_ADVERTISED_CAP,
  NOTE_CAP,
  SCOPE_NAME_PATTERN,
  SEARCH_RESULTS,
  capNote,
  noteAge,
  parseLabels,
} from './text.js';
import { SCOPE_NAME_PATTERN } from './text.js';
export { notesTools, searchNotesForAgents, typedBy } from './tools.js';

/** The plugin's name. */
export const PLUGIN_NAME = '@mira/plugin-notes';

/** What the model is told about note memory in its grounding. */
export function notesGuidance(scope: string): string {
  return [
    `Note memory (scope "${scope}", plus the shared read-only "global" scope):`,
    '- Short free-form notes you keep across sessions: save_memory when the operator tells you something worth keeping that is not a fact about a known entity (a plan, an instruction, an event, where something is), or asks you to note it. Do not save small talk or what is already noted.',
    '- Find notes with search_memory (words or meaning) or get_recent_memories; you do not know what they hold until you search in this episode. Notes are stamped with their creation time: never write dates into them.',
    '- A note saved with a private key is visible only to calls that pass the same key; never guess keys. Per message you may make at most 4 note writes.',
  ].join('\n');
}

/**
 * The `[notes]` table's schema: the runtime validates the table with it and fills the defaults, the
 * configuration reference is generated from it, and {@link NotesConfig} is derived from it.
 */
const CONFIG_SCHEMA = {
  type: 'object',
  properties: {
    enabled: { type: 'boolean', default: false, description: 'keep note memory' },
    database_path: { type: 'string', description: 'the notes database file, relative to the manifest' },
    scope: {
      type: 'string',
      pattern: SCOPE_NAME_PATTERN,
      default: 'default',
      description: "the session's scope: where the model's notes go",
    },
    autonomous_writes: {
      type: 'boolean',
      default: false,
      description: 'offer the write tools to autonomous episodes too (otherwise operator episodes only)',
    },
    key_miss_limit: {
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      default: DEFAULT_KEY_GUARD.misses,
      description: 'wrong keys a scope takes within the window before its keyed calls are refused',
    },
    key_miss_window_minutes: {
      type: 'integer',
      minimum: 1,
      maximum: 10080,
      default: DEFAULT_KEY_GUARD.windowMs / 60_000,
      description: "the key guard's sliding window, in minutes",
    },
    embedding: {
      type: 'object',
      properties: {
        provider: {
          enum: ['none', 'openai'],
          default: 'none',
          description: 'none: full-text search only; openai: also vectors from an OpenAI-compatible server',
        },
        model: { type: 'string', minLength: 1, description: 'the embedding model (required with openai)' },
        base_url: { type: 'string', pattern: '^https?://', description: 'the embedding server (default: OpenAI)' },
        api_key_env: {
          type: 'string',
          default: 'OPENAI_API_KEY',
          description: 'the environment variable holding the API key',
        },
        timeout_ms: { type: 'integer', minimum: 100, default: 30000, description: 'per embedding request' },
        min_similarity: {
          type: 'number',
          minimum: 0,
          maximum: 1,
          default: DEFAULT_MIN_SIMILARITY,
          description: 'the cosine similarity below which a vector hit is dropped',
        },
      },
      additionalProperties: false,
      default: {},
    },
  },
  additionalProperties: false,
} as const satisfies JSONSchema;

/** The `[notes]` table as `setup` receives it (defaults filled in): derived from {@link CONFIG_SCHEMA}. */
export type NotesConfig = FromSchema<typeof CONFIG_SCHEMA, { keepDefaultedPropertiesOptional: false }>;

const plugin: MiraPlugin<NotesConfig> = definePlugin({
  name: PLUGIN_NAME,
  version: '0.1.0',
  configSection: 'notes',
  configSchema: CONFIG_SCHEMA,
  configValidator,
  setup(kernel, config) {
    let scope = config.scope;
    const embedding: EmbeddingConfig = config.embedding;
    if (config.enabled) {
      const path = requireDatabasePath(kernel, 'notes', config.database_path, '../data/mira-notes.sqlite3');
      if (embedding.provider === 'openai' && !embedding.model) {
        throw NotesErrors.error('CONFIG_INVALID.embeddingModel');
      }
      const embedder: Embedder | undefined =
        embedding.provider === 'openai' ? new OpenAIEmbedder(embedding) : undefined;
      kernel.stores.register({
        key: NOTES_STORE,
        files: [path],
        open: async () => {
          const readOnly = kernel.runtime.readOnly;
          if (!readOnly) ensureParentDirectory(path, '[notes] database_path');
          const store = SqliteNotesStore.open(path, {
            clock: kernel.clock,
            onCreated: () => kernel.log.info(`notes: created a new store at ${path}`),
            embedder,
            minSimilarity: embedding.min_similarity,
            log: (message) => kernel.log.error(message),
            readOnly,
            keyGuard: { misses: config.key_miss_limit, windowMs: config.key_miss_window_minutes * 60_000 },
          });
          if (!readOnly) store.ensureScope(scope);
          store.sessionScope = () => scope;
          return store;
        },
      });
    }
    const store = () => {
      if (!config.enabled) throw NotesErrors.error('DISABLED');
      return kernel.stores.get(NOTES_STORE);
    };
    const now = () => kernel.clock.now();
    for (const command of notesCommands({
      enabled: config.enabled,
      store,
      scope: () => scope,
      setScope: (s) => (scope = s),
      protectedFiles: () => kernel.stores.files(),
      now,
      resolvePath: (p) => kernel.resolvePath(p),
    })) {
      kernel.commands.register(command);
    }
    if (config.enabled) {
      const writeOrigins: EpisodeOrigin[] = config.autonomous_writes ? [...EPISODE_ORIGINS] : ['operator'];
      for (const tool of notesTools({
        store,
        scope: () => scope,
        now,
        writeOrigins,
        log: (message) => kernel.log.error(message),
        agents: () => kernel.runtime.readOnly,
      }))
        kernel.tools.register(tool);
      kernel.tools.registerForAgents(
        searchNotesForAgents({
          store,
          scope: () => scope,
          now,
          writeOrigins,
          log: (m) => kernel.log.error(m),
          agents: () => kernel.runtime.readOnly,
        }),
      );
      // The model learns what note memory is for before every call, as it learns about recall and remember:
      // guidance, the same all session, so it sits with the instructions that a prefix cache reuses.
      kernel.hooks.grounding.tap(PLUGIN_NAME, (grounding) => ({
        sections: [...grounding.sections, { source: 'notes', text: notesGuidance(scope), fixed: true }],
      }));
    }
  },
});

export default plugin;
