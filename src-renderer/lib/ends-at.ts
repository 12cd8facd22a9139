/**
 * The end of a time limit chosen in a DurationInput, as the server takes it: null for Permanent, an ISO time
 * otherwise, and the placeholder 'no end given' for an empty amount (the server then names the field).
 */
export const endsAt = (seconds: number, now = Date.now()): string | null =>
  seconds === Infinity ? null : Number.isNaN(seconds) ? 'no end given' : new Date(now + seconds * 1000).toISOString();
