import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import {
  MiraError,
  progressOf,
  writeFileSafely,
  type CommandDefinition,
  type ConsoleOutput,
  type Progress,
} from '@mira/core';
import { GLOBAL_SCOPE, type Note, type NotesStore, type Viewer } from './contract.js';
import { MAX_IMPORT_BYTES } from './transfer-format.js';
import { readExport } from './transfer-read.js';
import type { KeyLockout, KeyOrigin } from './key-guard.js';
import { readableFileWarnings } from '@mira/sqlite';
import { NotesErrors } from './errors.js';
import { NOTE_CAP, SCOPE_NAME_PATTERN, noteAge } from './text.js';

/** What the console commands need from the plugin. */
export interface NotesCommandContext {
  readonly enabled: boolean;
  store(): NotesStore;
  scope(): string;
  setScope(scope: string): void;
  /** Files the runtime's stores keep: an export never writes over one. */
  protectedFiles(): readonly string[];
  now(): Date;
  resolvePath(path: string): string;
}

function parseId(text: string): number {
  const id = /^N?([1-9]\d{0,15})$/i.exec(text.trim());
  if (!id) throw NotesErrors.error('NOT_FOUND.notId', { text });
  return Number(id[1]);
}

/** `N3 · 2d ago · preference, tea · [key: k] · text` */
export function formatNote(note: Note, now: Date): string {
  const labels = note.labels.length > 0 ? note.labels.join(', ') : 'unlabeled';
  const key = note.privateKey === null ? '' : ` · key ${JSON.stringify(note.privateKey)}`;
  const scope = note.scope === GLOBAL_SCOPE ? ' · global' : '';
  return `N${note.id} · ${noteAge(note.createdAt, now)} · ${labels}${key}${scope} · ${note.content}`;
}

/** The `notes …` console commands. The operator sees every note of the session's scopes, keys included. */
export function notesCommands(ctx: NotesCommandContext): CommandDefinition[] {
  // A database error reaches the console as a notes error, never as a raw SqliteError.
  return commandList(ctx).map((command) => ({
    ...command,
    run: async (input, out) => {
      try {
        await command.run(input, out);
      } catch (error) {
        if (error instanceof MiraError) throw error;
        throw NotesErrors.error(
          'BACKEND',
          { reason: (error as Error).message },
          {
            cause: error,
          },
        );
      }
    },
  }));
}

function commandList(ctx: NotesCommandContext): CommandDefinition[] {
  const operator = (): Viewer => ({ scopes: [...new Set([ctx.scope(), GLOBAL_SCOPE])], key: null, operator: true });
  const print = (out: ConsoleOutput, notes: readonly Note[], empty?: string) => {
    if (notes.length === 0 && empty) out.print(empty);
    for (const note of notes) out.print(formatNote(note, ctx.now()));
  };
  const single = (input: { options: ReadonlyMap<string, readonly string[]> }, name: string) =>
    input.options.get(name)?.[0] ?? null;
  return [
    {
      name: 'notes save',
      summary: `Save a note in the session scope (over ${NOTE_CAP} characters is trimmed at a word boundary)`,
      usage: '"<text>"',
      args: { min: 1, max: 1 },
      options: {
        label: { takesValue: true, valueName: 'a,b', description: 'comma-separated labels' },
        key: { takesValue: true, valueName: '<key>', description: 'private key' },
        global: { takesValue: false, description: 'save in the shared global scope' },
      },
      run: async (input, out) => {
        const scope = input.options.has('global') ? GLOBAL_SCOPE : ctx.scope();
        const { note, cut, embeddingError } = await ctx
          .store()
          .save(scope, input.args[0]!, single(input, 'label'), single(input, 'key'));
        out.print(formatNote(note, ctx.now()));
        if (cut) out.print(`note: trimmed at a word boundary; not saved: ${JSON.stringify(cut)}`);
        if (embeddingError) out.print(`warning: saved without a vector: ${embeddingError}`);
      },
    },
    {
      name: 'notes search',
      summary: 'Search notes: full-text, then vector similarity, fused',
      usage: '"<query>"',
      args: { min: 1, max: 1 },
      options: {
        label: { takesValue: true, valueName: '<label>' },
        key: { takesValue: true, valueName: '<key>', description: 'search as a model call passing this key would' },
      },
      run: async (input, out) => {
        const key = single(input, 'key');
        const viewer: Viewer = key === null ? operator() : { ...operator(), key, operator: false };
        const { hits, mode, why } = await ctx.store().search(viewer, input.args[0]!, single(input, 'label'));
        out.print(`${hits.length} found (${mode})${why ? `: ${why}` : ''}`);
        print(
          out,
          hits.map((h) => h.note),
        );
      },
    },
    {
      name: 'notes recent',
      summary: 'The newest notes',
      usage: '[N]',
      args: { min: 0, max: 1 },
      run: (input, out) => {
        const count = input.args[0] === undefined ? 10 : Number(input.args[0]);
        if (!Number.isInteger(count) || count < 1 || count > 1000) throw NotesErrors.error('CONSOLE_USAGE.recentCount');
        print(out, ctx.store().recent(operator(), count), 'no notes in this scope');
      },
    },
    {
      name: 'notes show',
      summary: 'Show one note',
      usage: 'N<n>',
      args: { min: 1, max: 1 },
      run: (input, out) => {
        const note = ctx.store().get(parseId(input.args[0]!), operator());
        if (!note) throw NotesErrors.error('NOT_FOUND.inScope', { id: input.args[0], scope: ctx.scope() });
        out.print(formatNote(note, ctx.now()));
        out.print(`  scope: ${note.scope}, created ${note.createdAt}, updated ${note.updatedAt}`);
      },
    },
    {
      name: 'notes edit',
      summary: 'Replace the text of a note',
      usage: 'N<n> "<text>"',
      args: { min: 2, max: 2 },
      options: { label: { takesValue: true, valueName: 'a,b' } },
      run: async (input, out) => {
        const { note, cut } = await ctx
          .store()
          .update(parseId(input.args[0]!), operator(), ctx.scope(), input.args[1]!, single(input, 'label'));
        out.print(formatNote(note, ctx.now()));
        if (cut) out.print(`note: trimmed at a word boundary; not saved: ${JSON.stringify(cut)}`);
      },
    },
    {
      name: 'notes delete',
      summary: 'Delete a note',
      usage: 'N<n>',
      args: { min: 1, max: 1 },
      run: (input, out) => {
        // The global overlay is read-only from another scope's session, as on the page and for the tools.
        const note = ctx.store().delete(parseId(input.args[0]!), operator(), ctx.scope());
        out.print(`N${note.id} deleted`);
      },
    },
    {
      name: 'notes labels',
      summary: 'Labels in use, most common first',
      run: (_input, out) => {
        const labels = ctx.store().labels(operator());
        if (labels.length === 0) out.print('no labels yet');
        for (const { label, count } of labels) out.print(`${label} ${count}`);
      },
    },
    {
      name: 'notes scope',
      summary: 'Show or switch the scope this session reads and writes (reads also see global)',
      usage: '[name]',
      args: { min: 0, max: 1 },
      run: (input, out) => {
        if (input.args[0] !== undefined) {
          ctx.store().ensureScope(input.args[0]);
          ctx.setScope(input.args[0]);
        }
        out.print(`scope: ${ctx.scope()} (reads also see ${GLOBAL_SCOPE}); scopes: ${ctx.store().scopes().join(', ')}`);
      },
    },
    {
      name: 'notes duplicates',
      summary: 'Find near-identical notes (of one label with --label); then combine, delete or skip each pair',
      options: { label: { takesValue: true, valueName: '<label>' } },
      run: async (input, out) => {
        const bar = progressBar(out, 'comparing notes');
        let pairs;
        try {
          // Any number of notes, compared in slices that leave the console free (`unlabeled`: notes without a label).
          pairs = await ctx.store().duplicates(operator(), { label: single(input, 'label'), onProgress: bar.report });
        } finally {
          bar.stop();
        }
        if (pairs.length === 0) out.print('no near-identical notes');
        for (const { a, b, similarity } of pairs) {
          out.print(`N${a.id} ~ N${b.id} (similarity ${similarity.toFixed(2)})`);
          out.print(`  ${formatNote(a, ctx.now())}`);
          out.print(`  ${formatNote(b, ctx.now())}`);
          out.print(`  combine: notes combine N${a.id} N${b.id} · delete: notes delete N${b.id} · skip: do nothing`);
        }
      },
    },
    {
      name: 'notes combine',
      summary: 'Combine two notes: the first keeps its text and gains the labels of the second, which is deleted',
      usage: 'N<keep> N<drop>',
      args: { min: 2, max: 2 },
      run: (input, out) => {
        const note = ctx.store().combine(parseId(input.args[0]!), parseId(input.args[1]!), operator(), ctx.scope());
        out.print(formatNote(note, ctx.now()));
      },
    },
    {
      name: 'notes export',
      summary: "Write a scope's notes (keys included) to a new JSON file (owner-only; --force replaces a file)",
      usage: '<file>',
      args: { min: 1, max: 1 },
      options: {
        scope: { takesValue: true, valueName: '<scope>' },
        force: { takesValue: false, description: 'replace an existing file (never a database)' },
      },
      run: async (input, out) => {
        const scope = single(input, 'scope') ?? ctx.scope();
        if (!new RegExp(SCOPE_NAME_PATTERN).test(scope)) {
          throw NotesErrors.error('SCOPE_INVALID.notName', { scope });
        }
        // Read in slices: a large scope never holds the runtime's thread for long (see transfer-export.ts).
        const { text, count } = await ctx.store().exportText(scope, 2);
        const path = ctx.resolvePath(input.args[0]!);
        // Never over an existing file without --force, never over a store's file at all; written whole or not at all.
        writeFileSafely(path, `${text}\n`, {
          force: input.options.has('force'),
          protect: ctx.protectedFiles(),
        });
        out.print(`exported ${count} notes of scope "${scope}" to ${path}`);
      },
    },
    {
      name: 'notes import',
      summary: 'Import notes from an export file (all or nothing; re-importing adds nothing)',
      usage: '<file>',
      args: { min: 1, max: 1 },
      options: {
        scope: { takesValue: true, valueName: '<scope>', description: "import into this scope instead of the file's" },
      },
      run: async (input, out) => {
        const path = ctx.resolvePath(input.args[0]!);
        // Bounded before reading: a device or a pipe (/dev/zero) never ends, and a huge file would fill memory.
        let size: number;
        try {
          const stats = statSync(path);
          if (!stats.isFile()) throw new Error('it is not a regular file');
          size = stats.size;
        } catch (error) {
          throw NotesErrors.error('IMPORT_INVALID.unreadable', { path, reason: (error as Error).message });
        }
        if (size > MAX_IMPORT_BYTES) {
          throw NotesErrors.error('IMPORT_INVALID.tooLarge', { path, size, max: MAX_IMPORT_BYTES });
        }
        let bytes: Buffer;
        try {
          bytes = await readFile(path);
        } catch (error) {
          throw NotesErrors.error('IMPORT_INVALID.unreadable', { path, reason: (error as Error).message });
        }
        // Parsed, validated and prepared in a worker thread: the runtime's thread stays free (see transfer-read.ts).
        const read = await readExport(bytes, { maxDepth: null });
        if (!read.ok) {
          const { failure } = read;
          if (failure.kind === 'notExport') {
            throw NotesErrors.error('IMPORT_INVALID.notExport', { path, invalid: failure.invalid });
          }
          const reason = failure.kind === 'notJson' ? failure.reason : `nested ${failure.depth} deep`;
          throw NotesErrors.error('IMPORT_INVALID.notJson', { path, reason });
        }
        const bar = progressBar(out, 'embedding imported notes');
        let result;
        try {
          result = await ctx.store().importNotes(read.data, single(input, 'scope') ?? undefined, bar.report);
        } finally {
          bar.stop();
        }
        const { added, skipped, trimmed } = result;
        out.print(
          `imported ${added} notes, ${skipped} already present${trimmed > 0 ? `, ${trimmed} trimmed to ${NOTE_CAP} characters` : ''}`,
        );
      },
    },
    {
      name: 'notes reembed',
      summary: 'Embed every note again with the configured embedder',
      run: async (_input, out) => {
        const bar = progressBar(out, 'embedding notes');
        let count;
        try {
          count = await ctx.store().reembed(undefined, bar.report);
        } finally {
          bar.stop();
        }
        out.print(`re-embedded ${count} notes with ${ctx.store().embedder!.name}`);
      },
    },
    {
      name: 'notes unlock',
      summary: "End a scope's lockout of keyed calls after too many wrong keys (default: the session scope)",
      usage: '[<scope>]',
      args: { min: 0, max: 1 },
      run: (input, out) => {
        const scope = input.args[0] ?? ctx.scope();
        const store = ctx.store();
        if (!store.scopes().includes(scope)) throw NotesErrors.error('SCOPE_INVALID.unknownHint', { scope });
        const locked = store.keyLockouts().some((lock) => lock.scope === scope);
        const misses = store.clearKeyMisses(scope);
        out.print(
          locked
            ? `scope ${scope}: unlocked; its ${misses} wrong keys are forgotten`
            : `scope ${scope}: was not locked; ${misses === 0 ? 'no wrong keys' : `${misses} wrong key${misses === 1 ? '' : 's'}`} forgotten`,
        );
      },
    },
    {
      name: 'notes status',
      summary: 'Where notes live, how many, and where note text is sent to be embedded',
      run: (_input, out) => {
        if (!ctx.enabled) {
          out.print('notes: disabled in this profile (set [notes] enabled = true and database_path to enable them)');
          return;
        }
        const store = ctx.store();
        out.print(`notes: ${store.path}`);
        for (const warning of readableFileWarnings(store.path)) out.print(warning);
        out.print(`session scope: ${ctx.scope()} (reads also see ${GLOBAL_SCOPE})`);
        for (const row of store.countsByScope()) out.print(`  ${row.scope}: ${row.notes} notes (${row.keyed} keyed)`);
        for (const lock of store.keyLockouts()) out.print(lockoutLine(lock));
        const state = store.embeddingState();
        if (!store.embedder)
          out.print('embedding: none — search is full-text only, and note text never leaves this machine');
        else {
          out.print(
            `embedding: ${store.embedder.name}; note text, keyed notes included, is sent to ${store.embedder.destination} when saved (the key gates recall, not embedding)`,
          );
          if (state.mismatch)
            out.print(
              `warning: stored vectors come from ${state.stored}; run "notes reembed" (until then search is full-text only)`,
            );
        }
      },
    },
  ];
}

/** Whose keyed calls a lockout refuses. */
const LOCKOUT_ORIGIN: Readonly<Record<KeyOrigin, string>> = {
  operator: 'keys the operator typed',
  model: "the model's own keys",
  autonomous: 'autonomous episodes',
  mcp: 'MCP clients',
};

/** `locked: scope default for the model's own keys — 5 wrong keys …`, `locked: scope default for MCP clients — …` */
export function lockoutLine(lock: KeyLockout): string {
  const whose = ` for ${LOCKOUT_ORIGIN[lock.origin]}`;
  return `locked: scope ${lock.scope}${whose} — ${lock.misses} wrong keys within the window; keyed calls refused until ${lock.until.toISOString()} ("notes unlock ${lock.scope}" ends it)`;
}

/** A progress bar on `out` (a terminal only) sized by the total the operation reports first. */
function progressBar(out: ConsoleOutput, label: string): { report(done: number, total: number): void; stop(): void } {
  let bar: Progress | undefined;
  return {
    report: (done, total) => {
      bar ??= progressOf(out, label, total);
      bar.update(done);
    },
    stop: () => bar?.stop(),
  };
}
