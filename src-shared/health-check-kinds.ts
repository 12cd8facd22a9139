/** Every health check kind, in a technician's words (notification rules pick from these). */
export const HEALTH_CHECK_LABELS = {
  'bouncer-silent': 'A bouncer stopped polling',
  'feed-not-fetched': 'A router feed is not fetched',
  'no-consumer': 'No bouncer enforces the bans',
  'key-refused': 'A key is refused',
  'lapi-down': 'The CrowdSec link is down',
  'lapi-queue': 'The CrowdSec push queue grows',
  'ami-down': 'Asterisk (AMI) is unreachable',
  'cap-drops-own': "A capped key leaves out this PBX's own bans",
  'account-flagged': 'An account is flagged',
  'attack-surge': 'An attack surge',
} as const;

export type HealthCheckKindName = keyof typeof HEALTH_CHECK_LABELS;
export const HEALTH_CHECK_KINDS = Object.keys(HEALTH_CHECK_LABELS) as HealthCheckKindName[];
