import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/run-mira.js';

/** One chat request as the recording proxy saw it pass to llama-server and back. */
export interface ProxiedCall {
  readonly stream: boolean;
  readonly status: number;
  readonly finishReason: string | undefined;
  /** llama-server's `timings`: tokens reused from the slot's cache, and tokens processed anew. */
  readonly cacheN: number | undefined;
  readonly promptN: number | undefined;
  readonly errorType: string | undefined;
  readonly requestBytes: number;
  /** The request body as Mira sent it. */
  readonly body: string;
}

/** A running llama-server behind a recording proxy. */
export interface RealModelServer {
  /** What to give Mira as OPENAI_BASE_URL (the proxy). */
  readonly url: string;
  readonly calls: ProxiedCall[];
  /** llama-server itself, without the proxy (for `/props` and `/apply-template`). */
  readonly upstream: string;
  /** The server's own log (stderr). */
  readonly log: () => string;
  /** Chat requests the server has not answered (yet): how a hang shows. */
  readonly unanswered: () => number;
  stop(): Promise<void>;
}

const TOOLS = join(REPO_ROOT, 'tools', 'llama-server');

/** Builds llama-server into the cache outside the clone (reused when present); returns the cache folder. */
export function buildLlamaServer(): string {
  return execFileSync(join(TOOLS, 'build.sh'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

/** Writes the test model into the cache (once per version of its generator and corpus); returns its path. */
export function testModel(cache: string): string {
  const corpus = [
    'README.md',
    ...readdirSync(join(REPO_ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const hash = createHash('sha256');
  for (const file of [join(TOOLS, 'make-model.py'), ...corpus.map((f) => join(REPO_ROOT, f))]) {
    hash.update(readFileSync(file));
  }
  const path = join(cache, `mira-test-${hash.digest('hex').slice(0, 12)}.gguf`);
  if (!existsSync(path)) {
    execFileSync(
      'python3',
      [
        join(TOOLS, 'make-model.py'),
        '--gguf-py',
        join(cache, 'src', 'gguf-py'),
        '--template',
        join(cache, 'src', 'models', 'templates', 'Qwen-Qwen2.5-7B-Instruct.jinja'),
        '--out',
        path,
        ...corpus,
      ],
      { cwd: REPO_ROOT, stdio: 'inherit' },
    );
  }
  return path;
}

/**
 * One request to llama-server on a connection of its own. Not fetch: its pool reuses keep-alive
 * connections, and a POST sent on one that llama-server (cpp-httplib) is closing as idle fails with
 * "other side closed" (an HTTP client must then retry, as Mira's provider does for connection errors);
 * the proxy is not the client under test, so it opens a fresh connection for each request.
 */
export function forward(url: string, method: string, body: Buffer) {
  return new Promise<{ status: number; contentType: string; text: string }>((resolve, reject) => {
    const req = httpRequest(url, { method, agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: res.headers['content-type'] ?? 'application/json',
          text: Buffer.concat(parts).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(method === 'GET' ? undefined : body);
  });
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function record(stream: boolean, status: number, text: string, body: string): ProxiedCall {
  let finishReason: string | undefined;
  let timings: { cache_n?: number; prompt_n?: number } | undefined;
  let errorType: string | undefined;
  const read = (json: any) => {
    finishReason = json?.choices?.[0]?.finish_reason ?? finishReason;
    timings = json?.timings ?? timings;
    errorType = json?.error?.type ?? errorType;
  };
  if (stream && status === 200) {
    for (const line of text.split('\n')) {
      if (line.startsWith('data: ') && line !== 'data: [DONE]') read(JSON.parse(line.slice(6)));
    }
  } else {
    read(JSON.parse(text));
  }
  const { cache_n: cacheN, prompt_n: promptN } = timings ?? {};
  return { stream, status, finishReason, cacheN, promptN, errorType, requestBytes: Buffer.byteLength(body), body };
}

/** How llama-server is started. */
export interface RealServerOptions {
  /** The context in tokens (`-c`); 8,192 by default. */
  readonly context?: number;
  /** A chat template file instead of the model's own (Qwen2.5's, with tools): `--chat-template-file`. */
  readonly templateFile?: string;
}

/**
 * Starts llama-server with the test model (`--jinja`, the model's Qwen2.5 template with tools unless another
 * is given, one slot, an 8,192-token context unless another is given) and a proxy in front of it that records
 * every chat request.
 */
export async function startRealModelServer(
  cache: string,
  model: string,
  options: RealServerOptions = {},
): Promise<RealModelServer> {
  const port = await freePort();
  const args = ['-m', model, '--jinja', '-c', String(options.context ?? 8192), '-np', '1', '-t', '1'];
  if (options.templateFile) args.push('--chat-template-file', options.templateFile);
  const server: ChildProcess = spawn(
    join(cache, 'bin', 'llama-server'),
    [...args, '--host', '127.0.0.1', '--port', String(port)],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  server.stderr!.on('data', (d) => (log += d));
  const upstream = `http://127.0.0.1:${port}`;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`llama-server exited (${server.exitCode}):\n${log}`);
    const healthy = await fetch(`${upstream}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const calls: ProxiedCall[] = [];
  let inFlight = 0;
  const proxy: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const chat = req.url?.endsWith('/chat/completions') === true;
      if (chat) inFlight += 1;
      try {
        const response = await forward(`${upstream}${req.url}`, req.method ?? 'GET', body);
        const { text } = response;
        if (chat) {
          const sent = body.toString('utf8');
          calls.push(record(JSON.parse(sent).stream === true, response.status, text, sent));
        }
        res.writeHead(response.status, { 'content-type': response.contentType });
        res.end(text);
      } catch (error) {
        // The proxy's own failure is recorded as one, never left to look like the server's silence.
        const message = error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error);
        if (chat) calls.push({ ...record(false, 502, '{}', body.toString('utf8')), errorType: `proxy: ${message}` });
        res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message } }));
      } finally {
        if (chat) inFlight -= 1;
      }
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`,
    calls,
    upstream,
    log: () => log,
    unanswered: () => inFlight,
    stop: async () => {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    },
  };
}
