/** A value as text, or "—" when the server gave none. */
export const textOrDash = (value: unknown) =>
  value === undefined || value === null || value === '' ? '—' : String(value);
