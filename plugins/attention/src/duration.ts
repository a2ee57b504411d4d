import { AttentionErrors } from './errors.js';

/** The longest follow-up delay: seven days. */
export const MAX_DELAY_MS = 7 * 24 * 3_600_000;

/**
 * Parses a duration such as `90s`, `5m`, `1h30m` or `2h5m10s` into milliseconds.
 *
 * @throws MiraError MIRA_ERR_ATTENTION_DURATION
 */
export function parseDuration(text: string): number {
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text.trim());
  const ms =
    match && text.trim() !== ''
      ? (Number(match[1] ?? 0) * 3600 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0)) * 1000
      : NaN;
  if (!(ms > 0 && ms <= MAX_DELAY_MS)) {
    throw AttentionErrors.error('DURATION', { text });
  }
  return ms;
}
