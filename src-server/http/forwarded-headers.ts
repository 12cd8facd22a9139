/** SPEC: headers an action may see. Credentials are never forwarded, whatever their spelling. */
const ALLOWED = new Set([
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'x-forwarded-port',
  'x-real-ip',
  'user-agent',
  'referer',
  'origin',
  'host',
  'accept-language',
]);
const ALLOWED_PREFIXES = ['x-pbx-', 'x-module-'];
const STRIPPED = new Set(['authorization', 'cookie', 'set-cookie', 'proxy-authorization', 'x-api-key']);
export const MAX_FORWARDED_VALUE_BYTES = 1024;

/** Lowercased, filtered copy of the request headers, each value cut to 1024 bytes. */
export function forwardedHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [rawName, rawValue] of Object.entries(headers)) {
    if (rawValue === undefined) continue;
    const name = rawName.toLowerCase();
    if (STRIPPED.has(name) || name.startsWith('authentication-')) continue;
    if (!ALLOWED.has(name) && !ALLOWED_PREFIXES.some((p) => name.startsWith(p))) continue;
    out[name] = truncateUtf8(Array.isArray(rawValue) ? rawValue.join(', ') : rawValue, MAX_FORWARDED_VALUE_BYTES);
  }
  return out;
}

/** Cuts to at most `maxBytes` of UTF-8 without splitting a character. */
export function truncateUtf8(value: string, maxBytes: number): string {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length <= maxBytes) return value;
  let end = maxBytes;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--; // back off continuation bytes
  return bytes.subarray(0, end).toString('utf8');
}
