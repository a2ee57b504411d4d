import {
  EPISODE_ORIGINS,
  defineTool,
  rejectedResult,
  toMiraError,
  type EpisodeInfo,
  type EpisodeOrigin,
  type ToolDefinition,
  type ToolResult,
} from '@mira/core';
import { GLOBAL_SCOPE, type Note, type NotesStore, type Viewer } from './contract.js';
import type { KeyLockout, KeyOrigin } from './key-guard.js';
import { NotesErrorCodes, NotesErrors } from './errors.js';
import {
  MAX_QUERY_LENGTH,
  NOTE_ADVERTISED_CAP,
  NOTE_CAP,
  SCOPE_NAME_PATTERN,
  SEARCH_RESULTS,
  noteAge,
} from './text.js';

/** Per episode: note writes (save, update, delete). Wrong keys are bounded per scope and origin (the key guard). */
export const MAX_NOTE_WRITES_PER_EPISODE = 4;

/** What the tools need from the plugin at call time. */
export interface NotesToolContext {
  store(): NotesStore;
  /** The scope this session reads and writes. */
  scope(): string;
  now(): Date;
  /** Origins offered the write tools (operator only, unless the profile opts autonomous episodes in). */
  readonly writeOrigins: readonly EpisodeOrigin[];
  /** Where the cause of a `backend_failure` goes, with its stack (the runtime's log). */
  log(message: string): void;
  /** True when other agents make the calls (`mira mcp`), not the robot's model: their wrong keys are theirs. */
  agents?(): boolean;
}

/**
 * Whose wrong keys a call's are: an MCP client's, autonomous episodes', and in an operator episode the
 * operator's when the operator typed the key (a whole word of the current utterance), else the model's.
 */
function keyOrigin(ctx: NotesToolContext, episode: EpisodeInfo, key: string | null): KeyOrigin {
  if (ctx.agents?.()) return 'mcp';
  if (episode.origin !== 'operator') return 'autonomous';
  return key !== null && typedBy(episode.utterance ?? '', key) ? 'operator' : 'model';
}

/**
 * Whether `key` stands in `utterance` as a word of its own: between white space or the utterance's ends, with
 * quotes and closing punctuation around it allowed ("the key is '0147'.").
 */
export function typedBy(utterance: string, key: string): boolean {
  if (key === '') return false;
  for (let at = utterance.indexOf(key); at !== -1; at = utterance.indexOf(key, at + 1)) {
    const before = utterance.slice(0, at);
    const after = utterance.slice(at + key.length);
    if (/(?:^|\s)[\p{Ps}\p{Pi}"'`]*$/u.test(before) && /^[\p{Pe}\p{Pf}"'`.,;:!?]*(?:\s|$)/u.test(after)) return true;
  }
  return false;
}

const nullableString = (description: string) => ({ type: ['string', 'null'], description }) as const;
const json = (value: unknown) => JSON.stringify(value);

function viewer(ctx: NotesToolContext, key: string | null): Viewer {
  return { scopes: [...new Set([ctx.scope(), GLOBAL_SCOPE])], key: key === '' ? null : key, operator: false };
}

function render(note: Note, now: Date) {
  return {
    memory_id: note.id,
    age: noteAge(note.createdAt, now),
    labels: note.labels.length > 0 ? note.labels : ['unlabeled'],
    content: note.content,
    ...(note.scope === GLOBAL_SCOPE ? { scope: GLOBAL_SCOPE } : {}),
  };
}

/** Whose misses locked an origin, as the refusal names them. */
const LOCKED_FOR: Readonly<Record<KeyOrigin, string>> = {
  operator: 'keys the operator typed',
  model: "the model's own keys in operator episodes",
  autonomous: 'autonomous episodes',
  mcp: 'MCP clients',
};

/**
 * A scope whose wrong keys reached the limit: every keyed call there is refused until the window passes
 * (an origin's alone when its own misses locked it).
 */
function locked(lock: KeyLockout): ToolResult {
  const until = lock.until.toISOString();
  return rejectedResult(
    'budget_exhausted',
    lock.origin === 'model'
      ? `${lock.misses} wrong keys of the model's own in scope "${lock.scope}"; keys it chose are refused until ${until} (one the operator types still works; or "notes unlock ${lock.scope}"); nothing was done`
      : `${lock.misses} wrong keys from ${LOCKED_FOR[lock.origin]} in scope "${lock.scope}"; their keyed calls there are refused until ${until} (or the operator's "notes unlock ${lock.scope}"); nothing was done`,
  );
}

/**
 * The viewer a keyed read runs as: refused while the scope is locked out; a key no note in the viewer's
 * scopes carries is counted as a miss, and the read goes on as if no key were given (it finds exactly
 * what no key finds, in the same time).
 */
function readingViewer(ctx: NotesToolContext, key: string | null, origin: KeyOrigin): Viewer | ToolResult {
  const asked = viewer(ctx, key);
  const store = ctx.store();
  // A read without a key does the guard's work too (the lockout look-up, a key look-up that finds
  // nothing) and ignores it: a wrong key's answer then costs what no key's costs.
  const lock = store.keyLockout(ctx.scope(), origin);
  const known = store.keyKnown(asked.key === null ? { ...asked, key: NO_KEY } : asked);
  if (asked.key === null) return asked;
  if (lock) return locked(lock);
  if (known) return asked;
  store.recordKeyMiss(ctx.scope(), origin);
  return viewer(ctx, null);
}

/** A key no note carries (a key is at least one character): what a read without a key looks up. */
const NO_KEY = '';

const isResult = (value: Viewer | ToolResult): value is ToolResult => 'content' in value;

/** A note search's result, as `search_memory` (the session's scope) and `search_notes` (any) give it. */
function searchNotes(
  ctx: NotesToolContext,
  name: string,
  args: { query: string; label: string | null; private_key: string | null },
  episode: EpisodeInfo,
): Promise<ToolResult> {
  return guarded(ctx, name, async () => {
    const who = readingViewer(ctx, args.private_key, keyOrigin(ctx, episode, args.private_key));
    if (isResult(who)) return who;
    const { hits, mode, why } = await ctx.store().search(who, args.query, args.label, SEARCH_RESULTS);
    const now = ctx.now();
    return {
      content: json({
        status: hits.length > 0 ? 'found' : 'none',
        mode,
        ...(why ? { note: why } : {}),
        notes: hits.map((h) => render(h.note, now)),
      }),
      display: `${hits.length} found (${mode})`,
    };
  });
}

/** The note writes each episode has made: a model writing in a loop is stopped for the rest of it. */
class EpisodeBudgets {
  readonly #writes = new Map<number, number>();

  /** Counts a write; false when the episode has made its last. */
  write(episode: EpisodeInfo): boolean {
    const made = this.#writes.get(episode.id) ?? 0;
    if (made === 0) {
      // Only recent episodes matter; forget the rest.
      for (const id of this.#writes.keys()) if (id < episode.id - 16) this.#writes.delete(id);
    }
    if (made >= MAX_NOTE_WRITES_PER_EPISODE) return false;
    this.#writes.set(episode.id, made + 1);
    return true;
  }
}

async function guarded(
  ctx: NotesToolContext,
  name: string,
  run: () => Promise<ToolResult>,
  spend?: { budgets: EpisodeBudgets; episode: EpisodeInfo; key: string | null },
): Promise<ToolResult> {
  const keyed = spend?.key ? spend.key : null;
  if (spend) {
    // A locked scope refuses every keyed call, the right key's too: guessing waits out the window.
    const lock = keyed === null ? undefined : ctx.store().keyLockout(ctx.scope(), keyOrigin(ctx, spend.episode, keyed));
    if (lock) return locked(lock);
    if (!spend.budgets.write(spend.episode)) {
      return rejectedResult(
        'budget_exhausted',
        `this episode already made ${MAX_NOTE_WRITES_PER_EPISODE} note writes; no more in this episode; nothing was done`,
      );
    }
  }
  try {
    return await run();
  } catch (error) {
    const failure = toMiraError(error);
    if (keyed !== null && failure.code === NotesErrorCodes.NOT_FOUND) {
      ctx.store().recordKeyMiss(ctx.scope(), keyOrigin(ctx, spend!.episode, keyed));
    }
    const reason =
      {
        [NotesErrorCodes.NOT_FOUND]: 'not_found',
        [NotesErrorCodes.READ_ONLY_SCOPE]: 'read_only_scope',
        [NotesErrorCodes.EMPTY]: 'invalid_content',
        [NotesErrorCodes.LABEL_INVALID]: 'invalid_label',
        [NotesErrorCodes.KEY_INVALID]: 'invalid_key',
        [NotesErrorCodes.QUERY_TOO_LONG]: 'invalid_tool_arguments',
      }[failure.code as string] ?? 'backend_failure';
    if (reason === 'backend_failure') {
      ctx.log(`${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
    return rejectedResult(reason, failure.detail);
  }
}

function writableScope(ctx: NotesToolContext): string {
  const scope = ctx.scope();
  if (scope === GLOBAL_SCOPE) throw NotesErrors.error('READ_ONLY_SCOPE.globalSession');
  return scope;
}

/** The five note tools: save, search, recent, update, delete. */
export function notesTools(ctx: NotesToolContext): ToolDefinition<any>[] {
  const budgets = new EpisodeBudgets();
  const save = defineTool({
    name: 'save_memory',
    description:
      `Save a short note worth keeping: a fact, preference or event, at most ${NOTE_ADVERTISED_CAP} characters. ` +
      "Every note is stamped with its creation time automatically, so never write today's date into the text (a written date is read as the date of the event). " +
      'label: comma-separated free-form labels (reuse common ones such as preference, fact, event; use self for knowledge about yourself), or null. ' +
      'private_key: gate the note so only calls passing the same key can see it, or null.',
    kind: 'effect',
    origins: ctx.writeOrigins,
    parameters: {
      type: 'object',
      properties: {
        content: { type: 'string', description: 'The note text.' },
        label: nullableString('Comma-separated labels, or null.'),
        private_key: nullableString('A private key, or null.'),
      },
      required: ['content', 'label', 'private_key'],
      additionalProperties: false,
    },
    run: (args, { episode }) =>
      guarded(
        ctx,
        'save_memory',
        async () => {
          const { note, cut, embeddingError } = await ctx
            .store()
            .save(writableScope(ctx), args.content, args.label, args.private_key || null);
          const result: Record<string, unknown> = {
            status: 'saved',
            memory_id: note.id,
            day: note.createdAt.slice(0, 10),
            labels: note.labels.length > 0 ? note.labels : ['unlabeled'],
          };
          if (cut) {
            result.trimmed = true;
            result.cut = cut;
            result.advice = `The note was over ${NOTE_CAP} characters, so it was trimmed at the last word boundary and saved; the cut text is above. Skip update_memory unless the cut part is critical.`;
          }
          if (embeddingError)
            result.warning = 'saved without a vector (the embedder failed); full-text search still finds it';
          return { content: json(result), display: `saved N${note.id}${cut ? ' (trimmed)' : ''}` };
        },
        { budgets, episode, key: args.private_key || null },
      ),
  });
  const search = defineTool({
    name: 'search_memory',
    description:
      "Search saved notes: full-text first, then semantic similarity, fused into one ranking. Optional label filter. Results show each note's age.",
    agentDescription:
      "Search the robot's notes in the session's scope (with the global notes): full text first (word forms and " +
      'prefixes found), then meaning, fused into one ranking, at most ten. label narrows to one label; keyed notes ' +
      'are found only with their private_key. Each result has its ID, labels and age. Read-only.',
    kind: 'acquisition',
    origins: EPISODE_ORIGINS,
    parameters: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          maxLength: MAX_QUERY_LENGTH,
          description: `What to look for (at most ${MAX_QUERY_LENGTH} characters).`,
        },
        label: nullableString('Only notes with this label, or null.'),
        private_key: nullableString('The key of keyed notes, or null.'),
      },
      required: ['query', 'label', 'private_key'],
      additionalProperties: false,
    },
    run: (args, { episode }) => searchNotes(ctx, 'search_memory', args, episode),
  });
  const recent = defineTool({
    name: 'get_recent_memories',
    description: 'The most recent notes, newest first, optionally with a label.',
    agentDescription:
      "The robot's most recent notes in the session's scope (with the global notes), newest first: count of them " +
      '(default 10, at most 50), optionally only those with label; keyed notes only with their private_key. Read-only.',
    kind: 'acquisition',
    origins: EPISODE_ORIGINS,
    parameters: {
      type: 'object',
      properties: {
        count: { type: ['integer', 'null'], minimum: 1, maximum: 50, description: 'How many (default 10).' },
        label: nullableString('Only notes with this label, or null.'),
        private_key: nullableString('The key of keyed notes, or null.'),
      },
      required: ['count', 'label', 'private_key'],
      additionalProperties: false,
    },
    run: (args, { episode }) =>
      guarded(ctx, 'get_recent_memories', async () => {
        const who = readingViewer(ctx, args.private_key, keyOrigin(ctx, episode, args.private_key));
        if (isResult(who)) return who;
        const notes = ctx.store().recent(who, args.count ?? 10, args.label);
        const now = ctx.now();
        return {
          content: json({ status: notes.length > 0 ? 'found' : 'none', notes: notes.map((n) => render(n, now)) }),
          display: `${notes.length} notes`,
        };
      }),
  });
  const update = defineTool({
    name: 'update_memory',
    description: `Replace the text of one of your notes (at most ${NOTE_ADVERTISED_CAP} characters); label null keeps its labels.`,
    kind: 'effect',
    origins: ctx.writeOrigins,
    parameters: {
      type: 'object',
      properties: {
        memory_id: { type: 'integer', description: 'The note to change.' },
        content: { type: 'string', description: 'The new text.' },
        label: nullableString('New comma-separated labels, or null to keep them.'),
        private_key: nullableString('The key of a keyed note, or null.'),
      },
      required: ['memory_id', 'content', 'label', 'private_key'],
      additionalProperties: false,
    },
    run: (args, { episode }) =>
      guarded(
        ctx,
        'update_memory',
        async () => {
          const { note, cut } = await ctx
            .store()
            .update(args.memory_id, viewer(ctx, args.private_key), ctx.scope(), args.content, args.label);
          return {
            content: json({ status: 'updated', memory_id: note.id, ...(cut ? { trimmed: true, cut } : {}) }),
            display: `updated N${note.id}`,
          };
        },
        { budgets, episode, key: args.private_key || null },
      ),
  });
  const remove = defineTool({
    name: 'delete_memory',
    description: 'Delete one of your notes.',
    kind: 'effect',
    origins: ctx.writeOrigins,
    parameters: {
      type: 'object',
      properties: {
        memory_id: { type: 'integer', description: 'The note to delete.' },
        private_key: nullableString('The key of a keyed note, or null.'),
      },
      required: ['memory_id', 'private_key'],
      additionalProperties: false,
    },
    run: (args, { episode }) =>
      guarded(
        ctx,
        'delete_memory',
        async () => {
          const note = ctx.store().delete(args.memory_id, viewer(ctx, args.private_key), ctx.scope());
          return { content: json({ status: 'deleted', memory_id: note.id }), display: `deleted N${note.id}` };
        },
        { budgets, episode, key: args.private_key || null },
      ),
  });
  return [save, search, recent, update, remove];
}

/**
 * `search_notes` for other agents (`mira mcp`, never the model): `search_memory` with the scope as a
 * parameter, so an agent can search any scope (with the global notes); keyed notes only with their key.
 */
export function searchNotesForAgents(ctx: NotesToolContext) {
  return defineTool({
    name: 'search_notes',
    description:
      'Search the notes of one scope (and the global ones): full text, then meaning. Keyed notes only with their key.',
    kind: 'acquisition',
    origins: EPISODE_ORIGINS,
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', maxLength: MAX_QUERY_LENGTH, description: 'What to look for.' },
        scope: { type: 'string', pattern: SCOPE_NAME_PATTERN, description: 'The scope, e.g. default.' },
        label: nullableString('Only notes with this label, or null.'),
        private_key: nullableString('The key of keyed notes, or null.'),
      },
      required: ['query', 'scope', 'label', 'private_key'],
      additionalProperties: false,
    },
    run: ({ scope, ...args }, { episode }) =>
      searchNotes({ ...ctx, scope: () => scope }, 'search_notes', args, episode),
  });
}
