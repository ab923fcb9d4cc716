// How long to wait before trying a request again: what the server's `Retry-After` says (seconds, or
// an HTTP date), else a doubling backoff; never longer than the caller's cap.

/** The backoff of the first retry when the server names no time; each further retry doubles it. */
export const BASE_BACKOFF_MS = 250;

/** Milliseconds `Retry-After` asks for at `nowMs`, or null when it is missing or unreadable. */
export function retryAfterMs(header: string | null, nowMs: number): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

/** The wait before retry number `retry` (1 for the first), `Retry-After` first, capped by `maxDelayMs`. */
export function retryDelayMs(retry: number, retryAfter: string | null, maxDelayMs: number, nowMs: number): number {
  const asked = retryAfterMs(retryAfter, nowMs) ?? BASE_BACKOFF_MS * 2 ** (retry - 1);
  return Math.min(asked, maxDelayMs);
}
