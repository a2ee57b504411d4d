import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ManualClock, type MiraPlugin } from '@mira/core';
import { type MemoryStore, MEMORY_STORE } from '@mira/memory-contract';
import {
  createTestRuntime,
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedReply,
  type ScriptedServerOptions,
  type TestRuntime,
  withoutGrounding,
} from '@mira/core/testing';
import memoryPlugin from '@mira/plugin-memory';
import memoryToolsPlugin from '@mira/plugin-memory-tools';
import openaiPlugin from '@mira/plugin-openai';

/** A runtime with real SQLite memory, the memory tools and the OpenAI provider talking HTTP to a scripted server. */
export interface ModelRuntime {
  readonly rt: TestRuntime;
  readonly server: ScriptedModelServer;
  readonly clock: ManualClock;
  readonly dbPath: string;
  store(): MemoryStore;
  /** Runs a console line; returns its output lines. */
  say(line: string): Promise<{ ok: boolean; output: string[] }>;
  /** Row counts and a content hash of every table, to prove nothing changed. */
  snapshot(): { counts: Record<string, number>; hash: string };
  dispose(): Promise<void>;
}

export interface ModelRuntimeOptions {
  readonly script?: ScriptedReply[];
  readonly stream?: boolean;
  readonly name?: string;
  readonly memory?: boolean;
  readonly plugins?: MiraPlugin<any>[];
  readonly openai?: Record<string, unknown>;
  /** The [memory] table instead of SQLite at data/memory.sqlite3 (e.g. the PostgreSQL backend). */
  readonly memoryTable?: Record<string, unknown>;
  /** More manifest tables, for the extra plugins (e.g. `sim`, `notes`). */
  readonly tables?: Record<string, Record<string, unknown>>;
  /** How the scripted server answers (flavor, context size, whether its template renders tools). */
  readonly server?: ScriptedServerOptions;
}

export async function modelRuntime(options: ModelRuntimeOptions = {}): Promise<ModelRuntime> {
  const server = await startScriptedModelServer(options.script ?? [], options.server);
  const clock = new ManualClock('2026-05-01T09:00:00.000Z');
  const rt = await createTestRuntime({
    name: options.name ?? 'Mira',
    description: 'A test robot.',
    clock,
    plugins: [memoryPlugin, memoryToolsPlugin, openaiPlugin, ...(options.plugins ?? [])],
    tables: {
      memory:
        options.memory === false
          ? { enabled: false }
          : (options.memoryTable ?? { enabled: true, database_path: 'data/memory.sqlite3' }),
      openai: {
        model: 'scripted-model',
        base_url: server.url,
        max_retries: 0,
        timeout_ms: 3000,
        stream: options.stream ?? false,
        ...options.openai,
      },
      ...options.tables,
    },
  });
  const dbPath = join(rt.dir, 'data', 'memory.sqlite3');
  return {
    rt,
    server,
    clock,
    dbPath,
    store: () => rt.app.kernel.store(MEMORY_STORE),
    say: (line) => rt.run(line),
    snapshot: () => {
      const db = new Database(dbPath, { readonly: true });
      const counts: Record<string, number> = {};
      const hash = createHash('sha256');
      for (const table of ['entities', 'aliases', 'memories', 'memory_links', 'payloads', 'proposals']) {
        const rows = db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all();
        counts[table] = rows.length;
        hash.update(JSON.stringify(rows));
      }
      db.close();
      return { counts, hash: hash.digest('hex') };
    },
    dispose: async () => {
      await rt.dispose();
      await server.close();
    },
  };
}

/**
 * The tool results the model received in a request, each as its tool gave it: the runtime's grounding block,
 * which rides on the last result of a step, left out.
 */
export function toolMessages(server: ScriptedModelServer, requestIndex: number): string[] {
  return server.requests[requestIndex]!.body.messages.filter((m) => m.role === 'tool').map((m) =>
    withoutGrounding(m.content ?? ''),
  );
}
