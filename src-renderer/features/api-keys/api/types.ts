import type { BouncerSetup, KeyStatus, PathPermission } from '../../../../src-shared/access.ts';

export type { BouncerSetup, KeyStatus };
export type Permission = PathPermission;

/** An API key record as listed (the key itself is never read back). */
export interface ApiKey {
  id: number | string;
  description: string;
  key_display: string;
  has_key?: boolean;
  allowed_paths: Record<string, Permission> | string;
  full_permissions: boolean | number;
  networkfilterid: string;
  /** Bouncer export option: ranges up to /16 (IPv4) and /112 (IPv6) arrive as single addresses. */
  expand_ranges?: boolean;
  /** The bouncer the key was made for (remembered for Rotate and Details); null for other keys. */
  bouncer_setup?: BouncerSetup | null;
  created_at: string;
  last_used_at: string | null;
  last_used_ip: string | null;
  /** false: every request with the key gets 401 ("this API key is disabled"). */
  enabled?: boolean;
  status?: KeyStatus;
  disabled_at?: string | null;
  /** ISO date-time after which the key is refused; null = never. */
  expires_at?: string | null;
  rotated_at?: string | null;
  /** The most recent source addresses, each with its last use (newest first). */
  sources?: KeySource[];
}

/** How each bouncer setup is named on screen. */
export const BOUNCER_SETUP_LABELS: Record<BouncerSetup, string> = {
  iptables: 'crowdsec-firewall-bouncer, iptables mode',
  nftables: 'crowdsec-firewall-bouncer, nftables mode',
  'custom-bouncer': 'crowdsec-custom-bouncer (a script)',
};

/** The record's bouncer setup; keys made before it was stored are judged by expand_ranges. */
export const bouncerSetupOf = (key: Pick<ApiKey, 'bouncer_setup' | 'expand_ranges'>): BouncerSetup =>
  key.bouncer_setup ?? (key.expand_ranges ? 'nftables' : 'iptables');

export interface KeySource {
  ip: string;
  last_used_at: string;
}

/** What the Edit dialog changes (api-keys needs the description on every verb). */
export interface ApiKeyEdit {
  description: string;
  networkfilterid: string;
  expires_at: string | null;
}

/** The key's state at `now`, so a key shows Expired as soon as its expiry passes (not at the next refetch). */
export function statusOf(key: Pick<ApiKey, 'status' | 'enabled' | 'expires_at'>, now = Date.now()): KeyStatus {
  if (key.enabled === false || key.status === 'disabled') return 'disabled';
  if (key.expires_at) return Date.parse(key.expires_at) <= now ? 'expired' : 'active';
  return key.status ?? 'active';
}

export interface ApiKeyInput {
  description: string;
  allowed_paths: Record<string, Permission>;
  full_permissions: boolean;
  networkfilterid: string;
  /** For crowdsec-firewall-bouncer in nftables mode, which cannot hold ranges. */
  expand_ranges: boolean;
  bouncer_setup: BouncerSetup | null;
}

/** The create (or rotate) answer: the only time the key is seen. */
export interface IssuedKey {
  key: string;
  record: ApiKey | null;
}

/** The firewall-export preset: read-only access to the bouncer endpoints and nothing else. */
export const BOUNCER_PRESET: Record<string, Permission> = { '/api/v3/firewall-bouncer': 'read' };

/** allowed_paths as an object, whether the server sent an object or JSON text. */
export function allowedPathsOf(key: Pick<ApiKey, 'allowed_paths'>): Record<string, Permission> {
  if (typeof key.allowed_paths === 'string') {
    try {
      return JSON.parse(key.allowed_paths) as Record<string, Permission>;
    } catch {
      return {};
    }
  }
  return key.allowed_paths ?? {};
}

/** The HTTPS certificate bouncers pin (from system:getCertificate, supplied by the app). */
export interface ServerCertificate {
  fingerprint256: string;
  /** The certificate in PEM, when the server gives it (offered as a download). */
  pem?: string | null;
}
