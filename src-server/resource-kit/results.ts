import type { ActionResult } from '../wire/envelope.ts';

/** Small constructors so actions read as intent. */
export const ok = (data: unknown, extra: Partial<ActionResult> = {}): ActionResult => ({
  result: true,
  data,
  ...extra,
});
export const created = (data: unknown): ActionResult => ({ result: true, data, httpCode: 201 });
export const failure = (httpCode: number, ...errors: string[]): ActionResult => ({
  result: false,
  data: [],
  httpCode,
  messages: { error: errors },
});
export const invalid = (errors: string[]): ActionResult => ({
  result: false,
  data: [],
  httpCode: 422,
  messages: { error: errors },
});
export const recordNotFound = (resource: string, id: string): ActionResult =>
  failure(404, `Record "${id}" was not found in ${resource}.`);
