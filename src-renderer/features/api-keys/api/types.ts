export type Permission = 'read' | 'write';

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
  created_at: string;
  last_used_at: string | null;
  last_used_ip: string | null;
}

export interface ApiKeyInput {
  description: string;
  allowed_paths: Record<string, Permission>;
  full_permissions: boolean;
  networkfilterid: string;
  /** For crowdsec-firewall-bouncer in nftables mode, which cannot hold ranges. */
  expand_ranges: boolean;
}

/** The create (or revoke) answer: the only time the key is seen. */
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
