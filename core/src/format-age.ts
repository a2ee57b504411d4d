/** Formats a duration in milliseconds as a short age: `850ms`, `4.2s`, `3m5s`, `2h10m`. */
export function formatAge(duration: number): string {
  const ms = Math.round(duration);
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)}m${Math.floor((ms % 60_000) / 1000)}s`;
  return `${Math.floor(ms / 3_600_000)}h${Math.floor((ms % 3_600_000) / 60_000)}m`;
}
