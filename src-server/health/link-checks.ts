import type { LinkStatus } from '../upstream/link-state.ts';
import type { Finding } from './finding.ts';

/** A LAPI direction in error with no success for this long is "down" (one failed exchange is not news). */
export const LAPI_DOWN_AFTER_MS = 60_000;
/** AMI enabled and not connected for this long is "disconnected" (a reconnect takes seconds). */
export const AMI_DOWN_AFTER_MS = 60_000;
/** The push queue is reported when it holds at least this many entries and grew over the last 5 minutes. */
export const QUEUE_ALERT_ENTRIES = 1000;
export const QUEUE_GROWTH_WINDOW_MS = 5 * 60_000;

/** When a condition started holding, per check id: a check fails once it held for its delay. */
export class HeldSince {
  private readonly since = new Map<string, number>();

  /** Whether `holds` has been true for at least `forMs` (counting from the first call that saw it). */
  held(id: string, holds: boolean, now: number, forMs: number): boolean {
    if (!holds) {
      this.since.delete(id);
      return false;
    }
    const from = this.since.get(id) ?? now;
    this.since.set(id, from);
    return now - from >= forMs;
  }
}

/** The LAPI link down: a direction in error and not ok for LAPI_DOWN_AFTER_MS. */
export function lapiFindings(status: LinkStatus, now: number, held: HeldSince): Finding[] {
  const down = (['push', 'pull'] as const).filter((name) => {
    const d = status[name];
    return d.enabled && d.state === 'error' && (d.lastOkAt === null || now - d.lastOkAt >= LAPI_DOWN_AFTER_MS);
  });
  if (!held.held('lapi-down', down.length > 0, now, LAPI_DOWN_AFTER_MS)) return [];
  const reasons = down.map((name) => `${name}: ${status[name].lastError ?? 'no answer'}`).join('; ');
  return [
    {
      id: 'lapi-down',
      kind: 'lapi-down',
      severity: 'critical',
      title: `The CrowdSec LAPI link is down (${reasons})`,
      recoveredTitle: 'The CrowdSec LAPI link is up again',
      action: 'Settings › CrowdSec link',
      area: 'settings',
    },
  ];
}

/** Push-queue lengths sampled once a minute (a COUNT of the queue table, not every tick). */
export class QueueGrowth {
  private samples: Array<{ at: number; length: number }> = [];

  sample(now: number, length: number): void {
    this.samples.push({ at: now, length });
    this.samples = this.samples.filter((s) => now - s.at <= QUEUE_GROWTH_WINDOW_MS);
  }

  /** At least QUEUE_ALERT_ENTRIES waiting, and more than at the start of the window (5 min of samples). */
  finding(now: number): Finding[] {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.length < QUEUE_ALERT_ENTRIES) return [];
    if (now - first.at < QUEUE_GROWTH_WINDOW_MS - 60_000 || last.length <= first.length) return [];
    return [
      {
        id: 'lapi-queue',
        kind: 'lapi-queue',
        severity: 'warning',
        title: `${last.length} bans wait to be shared with the CrowdSec LAPI, and the queue keeps growing`,
        recoveredTitle: 'The CrowdSec LAPI push queue drains again',
        action: 'Settings › CrowdSec link',
        area: 'settings',
      },
    ];
  }
}

/** AMI enabled and not connected for AMI_DOWN_AFTER_MS. */
export function amiFindings(
  ami: { enabled: boolean; connected: boolean; lastError: string | null },
  now: number,
  held: HeldSince,
): Finding[] {
  if (!held.held('ami-down', ami.enabled && !ami.connected, now, AMI_DOWN_AFTER_MS)) return [];
  return [
    {
      id: 'ami-down',
      kind: 'ami-down',
      severity: 'critical',
      title: `Asterisk (AMI) is disconnected${ami.lastError ? `: ${ami.lastError}` : ''}`,
      recoveredTitle: 'Asterisk (AMI) is connected again',
      action: 'Settings › Asterisk (AMI)',
      area: 'settings',
    },
  ];
}
