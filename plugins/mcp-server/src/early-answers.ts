import { PassThrough, type Readable, type Writable } from 'node:stream';
import { serverIdentity } from './tools.js';

/**
 * The protocol versions the MCP SDK's server accepts, newest first: its `LATEST_PROTOCOL_VERSION`, then
 * the rest of `SUPPORTED_PROTOCOL_VERSIONS`. Copied, because reading them from the SDK loads its protocol
 * schemas, which take about as long as the profile's boot; `test/mcp-server.test.ts` pins them to the SDK's.
 */
export const SDK_PROTOCOL_VERSIONS: readonly string[] = [
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2024-10-07',
];

type Message = Record<string, unknown>;
type RequestId = string | number;

/** The SDK's ReadBuffer splits at 10 MiB; a line this long is left to it (it refuses the line). */
const LONGEST_EARLY_LINE = 1024 * 1024;

const isObject = (value: unknown): value is Message =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** Exactly the keys the SDK accepts here and no other: anything else is the SDK's to judge. */
const keysWithin = (value: Message, allowed: readonly string[]) => Object.keys(value).every((k) => allowed.includes(k));
const isRequestId = (value: unknown): value is RequestId =>
  typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
const isEmptyObject = (value: unknown) => isObject(value) && Object.keys(value).length === 0;

/**
 * What {@link EarlyAnswers} answers itself: a message the SDK's server would accept and answer in a way known
 * without it, or undefined (the SDK's to answer). Each check is narrower than the SDK's schema, never wider:
 * a message it does not recognise waits for the SDK, which answers it as it always did.
 */
function earlyKind(message: unknown): 'initialize' | 'initialized' | 'tools/list' | 'cancelled' | undefined {
  if (!isObject(message) || message.jsonrpc !== '2.0') return undefined;
  const { method, params } = message;
  if (method === 'notifications/initialized') {
    return keysWithin(message, ['jsonrpc', 'method', 'params']) && (params === undefined || isEmptyObject(params))
      ? 'initialized'
      : undefined;
  }
  if (method === 'notifications/cancelled') {
    return keysWithin(message, ['jsonrpc', 'method', 'params']) &&
      isObject(params) &&
      keysWithin(params, ['requestId', 'reason']) &&
      isRequestId(params.requestId) &&
      (params.reason === undefined || typeof params.reason === 'string')
      ? 'cancelled'
      : undefined;
  }
  if (!keysWithin(message, ['jsonrpc', 'id', 'method', 'params']) || !isRequestId(message.id)) return undefined;
  if (method === 'tools/list') return params === undefined || isEmptyObject(params) ? 'tools/list' : undefined;
  if (method !== 'initialize' || !isObject(params)) return undefined;
  const { protocolVersion, capabilities, clientInfo } = params;
  const knownCapabilities =
    isObject(capabilities) &&
    keysWithin(capabilities, ['roots', 'sampling']) &&
    (capabilities.roots === undefined ||
      (isObject(capabilities.roots) &&
        keysWithin(capabilities.roots, ['listChanged']) &&
        (capabilities.roots.listChanged === undefined || typeof capabilities.roots.listChanged === 'boolean'))) &&
    (capabilities.sampling === undefined || isEmptyObject(capabilities.sampling));
  const knownClient =
    isObject(clientInfo) &&
    keysWithin(clientInfo, ['name', 'version', 'title']) &&
    typeof clientInfo.name === 'string' &&
    typeof clientInfo.version === 'string' &&
    (clientInfo.title === undefined || typeof clientInfo.title === 'string');
  return keysWithin(params, ['protocolVersion', 'capabilities', 'clientInfo']) &&
    typeof protocolVersion === 'string' &&
    knownCapabilities &&
    knownClient
    ? 'initialize'
    : undefined;
}

/** What {@link EarlyAnswers} needs. */
export interface EarlyAnswersOptions {
  /** The client's messages, one JSON-RPC message a line. */
  readonly stdin: Readable;
  /** Where answers go: protocol messages only. */
  readonly stdout: Writable;
  /** The version `initialize` reports (the same as the SDK's server reports). */
  readonly version: string;
  /** The result of `tools/list`, once the profile has booted; rejects with the boot's error. */
  readonly toolList: Promise<object>;
}

/**
 * `mira mcp`'s first answers, given before the MCP SDK has loaded: the SDK's protocol schemas take about as
 * long to load as the profile takes to boot, and a client's first requests need neither. From start, it
 * reads the client's messages in order and answers each one exactly as the SDK's server does while it
 * recognises it: `initialize` (at once), `notifications/initialized`, `tools/list` (once the profile has
 * booted, or with the boot's error), `notifications/cancelled` for one of those. At the first other message
 * it stops ({@link serverNeeded} resolves), and {@link handOver} gives the SDK's server that message and
 * every one after it. The SDK's server never sees the handshake answered here; it would only consult the
 * client's capabilities before a request of its own to the client, and `mira mcp` makes none.
 */
export class EarlyAnswers {
  readonly #stdout: Writable;
  readonly #version: string;
  #buffer: Buffer = Buffer.alloc(0);
  #answering = true;
  #handshakeAnswered = false;
  #ended = false;
  /** How a tools/list request is answered, once the boot has settled. */
  #listed: ((id: RequestId) => Message) | undefined;
  #rest: PassThrough | undefined;
  /** tools/list requests waiting for the boot, in arrival order; a cancelled one is dropped. */
  readonly #waiting: RequestId[] = [];
  #serverNeeded!: () => void;
  /** Resolves at the first message only the SDK's server answers. */
  readonly serverNeeded: Promise<void> = new Promise((resolve) => (this.#serverNeeded = resolve));
  /** Resolves once the boot has settled and the `tools/list` requests that waited for it have their answer. */
  readonly toolListAnswered: Promise<void>;

  constructor(options: EarlyAnswersOptions) {
    this.#stdout = options.stdout;
    this.#version = options.version;
    options.stdin.on('data', (chunk: Buffer | string) => {
      if (this.#rest) this.#rest.write(chunk);
      else this.#read(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    });
    options.stdin.on('end', () => {
      this.#ended = true;
      this.#rest?.end();
    });
    // The SDK's transport listens for stdin's errors and reports them to nobody; so does this.
    options.stdin.on('error', (error: Error) => this.#rest?.emit('error', error));
    this.toolListAnswered = options.toolList.then(
      (result) => this.#answerWaiting((id) => ({ result, jsonrpc: '2.0', id })),
      (error: unknown) => this.#answerWaiting((id) => ({ jsonrpc: '2.0', id, error: errorAnswer(error) })),
    );
  }

  /** Whether a message came that only the SDK's server answers. */
  get needsServer(): boolean {
    return !this.#answering;
  }

  /** Whether the client closed its stdin with nothing left for the SDK's server. */
  get clientLeft(): boolean {
    return this.#ended && this.#answering;
  }

  /**
   * Stops answering: what is left unread, and all the client sends after, comes out of the stream returned
   * (for the SDK's server). `tools/list` requests already waiting are still answered here.
   */
  handOver(): Readable {
    this.#answering = false;
    this.#rest ??= new PassThrough();
    if (this.#buffer.length > 0) this.#rest.write(this.#buffer);
    this.#buffer = Buffer.alloc(0);
    if (this.#ended) this.#rest.end();
    return this.#rest;
  }

  #read(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    while (this.#answering) {
      const end = this.#buffer.indexOf('\n');
      if (end === -1) {
        if (this.#buffer.length > LONGEST_EARLY_LINE) this.#stop();
        return;
      }
      // Split as the SDK's ReadBuffer splits: at \n, a trailing \r dropped.
      const line = this.#buffer.toString('utf8', 0, end).replace(/\r$/, '');
      if (!this.#answer(line)) {
        this.#stop();
        return;
      }
      this.#buffer = this.#buffer.subarray(end + 1);
    }
  }

  #stop(): void {
    this.#answering = false;
    this.#serverNeeded();
  }

  /** Answers one line if it is an early message; false leaves it (and all after) to the SDK's server. */
  #answer(line: string): boolean {
    let message: Message;
    try {
      message = JSON.parse(line) as Message;
    } catch {
      return false;
    }
    switch (earlyKind(message)) {
      case 'initialize': {
        // Only the first: a second handshake is the SDK's to judge.
        if (this.#handshakeAnswered) return false;
        this.#handshakeAnswered = true;
        const requested = (message.params as Message).protocolVersion as string;
        const { serverInfo, capabilities } = serverIdentity(this.#version);
        this.#send({
          result: {
            protocolVersion: SDK_PROTOCOL_VERSIONS.includes(requested) ? requested : SDK_PROTOCOL_VERSIONS[0],
            capabilities,
            serverInfo,
          },
          jsonrpc: '2.0',
          id: message.id,
        });
        return true;
      }
      case 'initialized':
        // The SDK's server calls its `oninitialized`, which `mira mcp` does not set.
        return true;
      case 'tools/list':
        if (this.#listed) this.#send(this.#listed(message.id as RequestId));
        else this.#waiting.push(message.id as RequestId);
        return true;
      case 'cancelled': {
        // A cancelled request is not answered (the SDK aborts its handler); another id is the SDK's business.
        const at = this.#waiting.indexOf((message.params as Message).requestId as RequestId);
        if (at === -1) return false;
        this.#waiting.splice(at, 1);
        return true;
      }
      default:
        return false;
    }
  }

  #answerWaiting(answer: (id: RequestId) => Message): void {
    this.#listed = answer;
    for (const id of this.#waiting.splice(0)) this.#send(answer(id));
  }

  /** Writes one message as the SDK's stdio transport does: its JSON, then a newline. */
  #send(message: Message): void {
    this.#stdout.write(`${JSON.stringify(message)}\n`);
  }
}

/** A failure as the SDK's server answers it: a numeric code kept, any other code an internal error (-32603). */
function errorAnswer(error: unknown): Message {
  const e = (isObject(error) || error instanceof Error ? error : {}) as Message;
  return {
    code: Number.isSafeInteger(e.code) ? e.code : -32603,
    message: e.message ?? 'Internal error',
    ...(e.data !== undefined && { data: e.data }),
  };
}
