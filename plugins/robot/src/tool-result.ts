import type { ToolResult } from '@mira/core';

/** A tool's content as JSON. */
export const json = (value: unknown): string => JSON.stringify(value);

/** A refused effect: `{"status":"rejected","reason":…,"error":…}`, shown as `rejected <reason>`. */
export function rejected(reason: string, error: string): ToolResult {
  return { content: json({ status: 'rejected', reason, error }), display: `rejected ${reason}` };
}
