import type { HealthCheckState } from '../wire/types.ts';
import { ruleMessage, type NotificationMessage } from './message.ts';
import { atLeast } from './severity.ts';

/** A rule as the web thread reads it (notification_rules). */
export interface NotificationRule {
  id: number;
  name: string;
  channelId: number;
  checks: string[];
  minSeverity: HealthCheckState['severity'];
  digestMinutes: number;
  recoveries: boolean;
  enabled: boolean;
}

/** Events one digest lists at most; the rest are counted ("… and 12 more"). */
export const MAX_DIGEST_EVENTS = 50;

/** Whether a rule sends this event: its checks, its minimum severity, recoveries. */
export function ruleMatches(rule: NotificationRule, event: HealthCheckState): boolean {
  if (!rule.enabled) return false;
  if (rule.checks.length && !rule.checks.includes(event.kind)) return false;
  if (event.state === 'ok' && !rule.recoveries) return false;
  return atLeast(event.severity, rule.minSeverity);
}

interface DigestState {
  lastSentAt: number;
  pending: HealthCheckState[];
  omitted: number;
}

/**
 * At most one message per rule per `digestMinutes`: the first event after a quiet window goes at
 * once, later ones wait for the window's end and go together. In memory: a restart starts quiet.
 */
export class RuleDigests {
  private readonly states = new Map<number, DigestState>();

  constructor(private readonly site: () => string) {}

  /** The message to send now for this event, or null when it waits for the rule's digest. */
  offer(rule: NotificationRule, event: HealthCheckState, now: number): NotificationMessage | null {
    const state = this.states.get(rule.id);
    const windowMs = rule.digestMinutes * 60_000;
    if (!state || windowMs === 0 || (now - state.lastSentAt >= windowMs && !state.pending.length)) {
      this.states.set(rule.id, { lastSentAt: now, pending: [], omitted: 0 });
      return ruleMessage(rule.name, [event], 0, this.site());
    }
    if (state.pending.length < MAX_DIGEST_EVENTS) state.pending.push(event);
    else state.omitted++;
    return null;
  }

  /** The digests whose window has ended, by rule (rules gone or disabled drop theirs). */
  due(
    rules: ReadonlyMap<number, NotificationRule>,
    now: number,
  ): { rule: NotificationRule; message: NotificationMessage }[] {
    const out: { rule: NotificationRule; message: NotificationMessage }[] = [];
    for (const [id, state] of this.states) {
      const rule = rules.get(id);
      if (!rule || !rule.enabled) {
        this.states.delete(id);
        continue;
      }
      if (!state.pending.length || now - state.lastSentAt < rule.digestMinutes * 60_000) continue;
      out.push({ rule, message: ruleMessage(rule.name, state.pending, state.omitted, this.site()) });
      this.states.set(id, { lastSentAt: now, pending: [], omitted: 0 });
    }
    return out;
  }
}
