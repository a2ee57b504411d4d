import type OpenAI from 'openai';
import { createOpenAIClient, resolveBaseURL } from '@mira/plugin-openai';
import { NotesErrors } from './errors.js';

/** Turns texts into vectors. */
export interface Embedder {
  /** Recorded beside the vectors, e.g. `openai:text-embedding-3-small`; a change is detected. */
  readonly name: string;
  /** Where note text is sent to be embedded, for `notes status`. */
  readonly destination: string;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** The `[notes.embedding]` table. */
export interface EmbeddingConfig {
  provider: 'none' | 'openai';
  model?: string;
  base_url?: string;
  api_key_env: string;
  timeout_ms: number;
  /** Cosine similarity below which a vector neighbour is not a match. */
  min_similarity: number;
}

/** An embedder on any OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, Ollama, llama.cpp, vLLM). */
export class OpenAIEmbedder implements Embedder {
  readonly name: string;
  readonly destination: string;
  readonly #config: EmbeddingConfig;
  readonly #env: NodeJS.ProcessEnv;
  /** Made at the first request (the SDK is loaded then, not at start-up). */
  #client: Promise<OpenAI> | undefined;
  readonly #model: string;

  constructor(config: EmbeddingConfig, env: NodeJS.ProcessEnv = process.env) {
    this.#model = config.model!;
    const baseURL = resolveBaseURL(config, env);
    this.name = `openai:${config.model}`;
    this.destination = `${baseURL}/embeddings (model ${config.model})`;
    this.#config = config;
    this.#env = env;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    try {
      this.#client ??= createOpenAIClient(this.#config, 1, this.#env);
      const response = await (
        await this.#client
      ).embeddings.create({
        model: this.#model,
        input: [...texts],
        encoding_format: 'float',
      });
      const ordered = [...response.data].sort((a, b) => a.index - b.index);
      if (ordered.length !== texts.length)
        throw new Error(`expected ${texts.length} embeddings, got ${ordered.length}`);
      return ordered.map((d) => Float32Array.from(d.embedding as number[]));
    } catch (error) {
      throw NotesErrors.error(
        'EMBEDDER_FAILED.failed',
        { destination: this.destination, reason: (error as Error).message.split('\n')[0] },
        { cause: error },
      );
    }
  }
}
