import { HEALTH_CHECK_KINDS, HEALTH_CHECK_LABELS, type HealthCheckKindName } from '#shared/health-check-kinds.ts';
import type { Rule, RuleBody } from '../api/rules.ts';

export const CHECK_OPTIONS = HEALTH_CHECK_KINDS.map((kind) => ({ value: kind, label: HEALTH_CHECK_LABELS[kind] }));
export const checkLabel = (kind: string) => HEALTH_CHECK_LABELS[kind as HealthCheckKindName] ?? kind;

export const SEVERITIES: { value: Rule['minSeverity']; label: string }[] = [
  { value: 'info', label: 'Everything (info and up)' },
  { value: 'warning', label: 'Warnings and critical' },
  { value: 'critical', label: 'Critical only' },
];

export interface RuleInput {
  name: string;
  channelId: string;
  checks: HealthCheckKindName[];
  minSeverity: Rule['minSeverity'];
  digestMinutes: number;
  recoveries: boolean;
  enabled: boolean;
}

export const emptyRuleInput = (channelId = ''): RuleInput => ({
  name: '',
  channelId,
  checks: [],
  minSeverity: 'warning',
  digestMinutes: 0,
  recoveries: true,
  enabled: true,
});

export const toRuleInput = (rule: Rule): RuleInput => ({
  name: rule.name,
  channelId: String(rule.channelId),
  checks: rule.checks as HealthCheckKindName[],
  minSeverity: rule.minSeverity,
  digestMinutes: rule.digestMinutes,
  recoveries: rule.recoveries,
  enabled: rule.enabled,
});

export const toRuleBody = (input: RuleInput): RuleBody => ({
  ...input,
  name: input.name.trim(),
  channelId: Number(input.channelId),
});

export const RULE_FIELDS = ['name', 'channelId', 'checks', 'minSeverity', 'digestMinutes', 'recoveries'] as const;

/** How often, in words. */
export const digestText = (minutes: number) =>
  minutes === 0 ? 'Each change at once' : `At most one message per ${minutes} min`;
