import type { BouncerSetup, KeyStatus, PathPermission } from '#shared/access.ts';
import type { Answer, Body, RecordOf } from '#shared/contract/types.ts';

export type { BouncerSetup, KeyStatus };
export type Permission = PathPermission;

/** An API key record as listed (the key itself is never read back). */
export type ApiKey = RecordOf<'ApiKeys'>;

/** How each bouncer setup is named on screen. */
export const BOUNCER_SETUP_LABELS: Record<BouncerSetup, string> = {
  iptables: 'crowdsec-firewall-bouncer, iptables mode',
  nftables: 'crowdsec-firewall-bouncer, nftables mode',
  'custom-bouncer': 'crowdsec-custom-bouncer (a script)',
  'router-feed': 'a router or firewall fetching the blocklist feed',
};

/** The record's bouncer setup; keys made before it was stored are judged by expand_ranges. */
export const bouncerSetupOf = (key: Pick<ApiKey, 'bouncer_setup' | 'expand_ranges'>): BouncerSetup =>
  key.bouncer_setup ?? (key.expand_ranges ? 'nftables' : 'iptables');

export type KeySource = ApiKey['sources'][number];

/** What the Edit dialog changes (api-keys needs the description on every verb). */
export type ApiKeyEdit = Required<Pick<Body<'api-keys.patch'>, 'description' | 'networkfilterid' | 'expires_at'>> &
  Pick<Body<'api-keys.patch'>, 'entry_cap' | 'cap_preset' | 'aggregate' | 'feed_interval_minutes'>;

/** The key's state at `now`, so a key shows Expired as soon as its expiry passes (not at the next refetch). */
export function statusOf(key: Pick<ApiKey, 'status' | 'enabled' | 'expires_at'>, now = Date.now()): KeyStatus {
  if (key.enabled === false || key.status === 'disabled') return 'disabled';
  if (key.expires_at) return Date.parse(key.expires_at) <= now ? 'expired' : 'active';
  return key.status ?? 'active';
}

/** What POST api-keys takes from the create dialog. */
export type ApiKeyInput = Required<
  Pick<
    Body<'api-keys.create'>,
    'description' | 'allowed_paths' | 'full_permissions' | 'networkfilterid' | 'expand_ranges' | 'bouncer_setup'
  >
> &
  Pick<Body<'api-keys.create'>, 'entry_cap' | 'cap_preset' | 'aggregate'>;

/**
 * The create (or rotate) answer: the record and the key, the only time it is seen. A create answers
 * `key` when the server generated it, which is what the console asks for.
 */
export type IssuedKey = Answer<'api-keys.create'> & Pick<Answer<'api-keys.rotate'>, 'key'>;

/** The firewall-export preset: read-only access to the bouncer endpoints and nothing else. */
export const BOUNCER_PRESET: Record<string, Permission> = { '/api/v3/firewall-bouncer': 'read' };

/**
 * The HTTPS certificate bouncers pin (from system:getCertificate, supplied by the app): its SHA-256
 * fingerprint and its PEM, when the server gives it (offered as a download).
 */
export type ServerCertificate = Pick<Answer<'system.getCertificate'>, 'fingerprint256' | 'pem'>;
