import { MiraError } from '@mira/core';
import { MemoryErrors } from '@mira/memory-contract';
import { FleetErrors } from './errors.js';

/** The server, database and user of a connection string, without the password. */
export function describeUrl(url: string): { server: string; database: string; user: string } {
  try {
    const u = new URL(url);
    return {
      server: `${u.hostname || 'localhost'}:${u.port || '5432'}`,
      database: decodeURIComponent(u.pathname.replace(/^\//, '')) || '(default)',
      user: decodeURIComponent(u.username) || '(default)',
    };
  } catch {
    return { server: '(unparsable connection string)', database: '?', user: '?' };
  }
}

/** The SQLSTATE of a driver error, as typeorm wraps it or as pg throws it. */
export function sqlState(error: unknown): string | undefined {
  const e = error as { code?: string; driverError?: { code?: string } };
  return e.driverError?.code ?? e.code;
}

/** A driver or network failure as one clear Mira error. */
export function fleetError(error: unknown, where: string): MiraError {
  if (error instanceof MiraError) return error;
  const e = error as { driverError?: { message?: string }; message?: string };
  const code = sqlState(error);
  const message = e.driverError?.message ?? e.message ?? String(error);
  if (code === '28P01' || code === '28000') return FleetErrors.error('SERVER_AUTH', { where, reason: message });
  if (code === '3D000') return FleetErrors.error('SERVER_DATABASE', { where, reason: message });
  if (
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'ECONNRESET' ||
    code === 'ETIMEDOUT' ||
    code === 'EHOSTUNREACH' ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03' ||
    /Connection terminated|connection timeout|timeout expired|not queryable|Client has encountered a connection error|not currently accepting connections|database system is (starting up|shutting down)/i.test(
      message,
    )
  ) {
    return FleetErrors.error('SERVER_UNREACHABLE', { where, reason: message });
  }
  return MemoryErrors.error(
    'BACKEND.failed',
    { reason: message },
    {
      cause: error,
    },
  );
}
