import { createServer, connect, type Server, type Socket } from 'node:net';

/** A Parse or Bind message a client sent, on which of the proxy's connections. */
export interface WireMessage {
  readonly connection: number;
  readonly kind: 'parse' | 'bind' | 'query';
  /** The prepared statement's name (`''` for the unnamed one; the text of a simple query). */
  readonly statement: string;
  /** The statement's text (a Parse or a simple Query only). */
  readonly text?: string;
}

/** A TCP proxy in front of a PostgreSQL server that reads what the clients send. */
export interface PgWireProxy {
  /** `url` with its host and port replaced by the proxy's. */
  readonly url: string;
  /** Every Parse, Bind and simple Query message the clients sent since the last {@link PgWireProxy.clear}. */
  readonly messages: WireMessage[];
  clear(): void;
  /** Resets every connection open now (a TCP RST, as a broken link or a crashed server gives); listens on. */
  reset(): void;
  close(): Promise<void>;
}

function cstring(buffer: Buffer, at: number): [string, number] {
  const end = buffer.indexOf(0, at);
  return [buffer.toString('utf8', at, end), end + 1];
}

/**
 * Listens on 127.0.0.1 and forwards each connection to the server of `url`, reading the frontend messages
 * of PostgreSQL's protocol (version 3: a startup message without a type byte, then typed messages with an
 * Int32 length) to record Parse ('P'), Bind ('B') and Query ('Q') messages. Needs a connection without TLS,
 * as the tests' URLs are.
 */
export async function startPgWireProxy(url: string): Promise<PgWireProxy> {
  const target = new URL(url);
  const messages: WireMessage[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((client) => {
    const connection = (connections += 1);
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let pending = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        if (!started) {
          if (pending.length < 4) break;
          const length = pending.readInt32BE(0);
          if (pending.length < length) break;
          pending = pending.subarray(length);
          started = true;
          continue;
        }
        if (pending.length < 5) break;
        const length = pending.readInt32BE(1);
        if (pending.length < 1 + length) break;
        const type = String.fromCharCode(pending[0]!);
        const body = pending.subarray(5, 1 + length);
        if (type === 'P') {
          const [statement, next] = cstring(body, 0);
          messages.push({ connection, kind: 'parse', statement, text: cstring(body, next)[0] });
        } else if (type === 'B') {
          const [, next] = cstring(body, 0);
          messages.push({ connection, kind: 'bind', statement: cstring(body, next)[0] });
        } else if (type === 'Q') {
          const [text] = cstring(body, 0);
          messages.push({ connection, kind: 'query', statement: text, text });
        }
        pending = pending.subarray(1 + length);
      }
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no TCP port');
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(address.port);
  return {
    url: proxied.toString(),
    messages,
    clear: () => void messages.splice(0),
    reset: () => {
      for (const socket of sockets) socket.resetAndDestroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
