import { ruleFor } from '../firewall/intrusion/index.ts';
import type { BanCategory } from '../firewall/model/index.ts';
import type { TestServer } from './server.ts';
import type { TestRequestOptions } from './http.ts';

export const STREAM = '/pbxcore/api/v3/firewall-bouncer/v1/decisions/stream';
export const WHITELIST = '/pbxcore/api/v3/firewall-bouncer/v1/whitelist';

/** A decision as the stream serves it. */
export interface Decision {
  id: number;
  origin: string;
  type: string;
  scope: string;
  value: string;
  duration: string;
  scenario: string;
}

/** Polls the stream with an API key; returns the parsed `{new, deleted}`. Throws on a non-200. */
export async function poll(
  t: TestServer,
  key: string,
  query = '',
  options: TestRequestOptions = {},
): Promise<{ new: Decision[]; deleted: Decision[] }> {
  const response = await t.call(`${STREAM}${query}`, { ...options, headers: { 'X-Api-Key': key, ...options.headers } });
  if (response.status !== 200) throw new Error(`poll answered ${response.status}: ${response.text}`);
  return response.json;
}

/** Values of a decision list, sorted, for order-insensitive comparisons. */
export const values = (decisions: Decision[]) => decisions.map((d) => `${d.value} ${d.scenario}`).sort();

/** Feeds enough failures for (category, ip) to be banned under the current fail2ban rules (the category's own maxretry). */
export function banThroughFailures(t: TestServer, category: BanCategory, ip: string): void {
  const { maxretry } = ruleFor(t.server.services.firewall!.state.settings, category);
  for (let i = 0; i < maxretry; i++)
    t.server.services.bus.emit({ type: 'security-failure', category, ip, reason: 'test failure' });
}

/** Creates a network filter through the API (from localhost); returns its read shape. */
export async function createFilter(
  t: TestServer,
  body: Record<string, unknown>,
): Promise<{ id: number; permit: string; deny: string }> {
  const response = await t.call('/pbxcore/api/v3/firewall', { method: 'POST', body });
  if (response.status !== 201) throw new Error(`filter create answered ${response.status}: ${response.text}`);
  return response.json.data;
}

/**
 * Polls with `startup=true` until `check` holds on the answer, or fails after `ms`. A poll that finds SQLite's write
 * lock held (a worker's audit row, a flush) is served the last logged snapshot, so a change can show one poll later.
 */
export async function pollUntil(
  t: TestServer,
  key: string,
  check: (answer: { new: Decision[]; deleted: Decision[] }) => boolean,
  ms = 30_000,
): Promise<{ new: Decision[]; deleted: Decision[] }> {
  const deadline = Date.now() + ms;
  for (;;) {
    const answer = await poll(t, key, '?startup=true');
    if (check(answer) || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
