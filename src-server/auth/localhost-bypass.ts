import { isLocalhostSocket } from './remote-address.ts';
import type { AuthRequest } from './request.ts';

/** Host names that always name this machine's loopback interface. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Sec-Fetch-Site values a browser sends for the console's own requests (or for a typed URL). */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

/** A `Host` header (or a configured trusted host) split into a lower-case host name and an optional port. */
export interface HostName {
  hostname: string;
  port?: number;
}

/** Parses `name`, `name:port`, `[v6]` or `[v6]:port`; undefined when it is none of those. */
export function parseHostHeader(value: string): HostName | undefined {
  const match = /^(?:\[([0-9a-f:.]+)\]|([^\s:/?#@[\]]+))(?::(\d{1,5}))?$/i.exec(value.trim());
  if (!match) return undefined;
  const port = match[3] === undefined ? undefined : Number(match[3]);
  if (port !== undefined && port > 65535) return undefined;
  return { hostname: (match[1] ?? match[2]!).toLowerCase(), port };
}

/** Whether the bypass applies; `reason` says why not to a client on this machine (never to a remote one). */
export type BypassDecision = { applies: true } | { applies: false; reason?: string };

/**
 * The localhost bypass (docs/auth.md): it applies only when ALL of these hold, and the request is
 * otherwise treated as remote:
 * 1. the socket address is 127.0.0.1 or ::1 (never a header; 127.0.0.2 is remote);
 * 2. `Host` names a loopback address (127.0.0.1, [::1], localhost, any port) or a host in
 *    `trustedHosts`, so a DNS-rebinding page (Host: attacker.example) is remote;
 * 3. for unsafe methods, `Origin` is absent or exactly this server's own origin, and
 *    `Sec-Fetch-Site` is absent, `same-origin` or `none`, so another page on this machine
 *    (another 127.0.0.1 port is `same-site`) cannot write through it.
 */
export function localhostBypass(ctx: AuthRequest, trustedHosts: readonly string[]): BypassDecision {
  if (!isLocalhostSocket(ctx)) return { applies: false };
  const hostHeader = ctx.get('host');
  const host = parseHostHeader(hostHeader);
  if (!host || !(LOOPBACK_HOSTS.has(host.hostname) || isTrustedHost(host, trustedHosts))) {
    return { applies: false, reason: `Host "${hostHeader.slice(0, 100)}" is not a loopback or trusted host name` };
  }
  if (SAFE_METHODS.has(ctx.method)) return { applies: true };
  const origin = ctx.get('origin');
  if (origin !== '' && !isOwnOrigin(origin, ctx.protocol, host)) {
    return { applies: false, reason: `Origin "${origin.slice(0, 100)}" is not this server's origin` };
  }
  const site = ctx.get('sec-fetch-site').toLowerCase();
  if (site !== '' && !OWN_FETCH_SITES.has(site)) {
    return { applies: false, reason: `a ${site.slice(0, 40)} browser request may not change anything` };
  }
  return { applies: true };
}

/** Configured entries match by host name, and by port too when the entry names one. */
function isTrustedHost(host: HostName, trustedHosts: readonly string[]): boolean {
  return trustedHosts.some((entry) => {
    const trusted = parseHostHeader(entry);
    return (
      trusted !== undefined &&
      trusted.hostname === host.hostname &&
      (trusted.port === undefined || trusted.port === host.port)
    );
  });
}

const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443 };

/** `Origin` equals scheme://Host of this request (default ports written or not). */
function isOwnOrigin(origin: string, protocol: string, host: HostName): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (
    url.protocol !== `${protocol}:` ||
    url.pathname !== '/' ||
    url.username !== '' ||
    origin.includes('/', url.protocol.length + 2)
  )
    return false;
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const port = url.port === '' ? DEFAULT_PORTS[protocol] : Number(url.port);
  return hostname === host.hostname && port === (host.port ?? DEFAULT_PORTS[protocol]);
}
