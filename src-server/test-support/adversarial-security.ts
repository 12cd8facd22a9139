import { randomBytes } from 'node:crypto';

/**
 * Security categories of the adversarial suite (test-only, issue 19): levels, deep secrets,
 * limiter keys, stream fairness and headers. The generic corpus (adversarial-corpus.ts) throws bad
 * input at every route; these cases are valid requests from callers who must still be refused,
 * or that carry secrets which must never be kept.
 */

/** The headers every answer must carry, and what each must say. */
export const REQUIRED_SECURITY_HEADERS: ReadonlyArray<[string, RegExp]> = [
  ['content-security-policy', /(^|; )default-src 'self'(;|$)/],
  ['x-frame-options', /^DENY$/],
  ['x-content-type-options', /^nosniff$/],
  ['referrer-policy', /^no-referrer$/],
];

/** What is missing from an answer's security headers, or undefined when all are there. */
export function securityHeaderProblem(headers: Record<string, string | string[] | undefined>): string | undefined {
  for (const [name, pattern] of REQUIRED_SECURITY_HEADERS) {
    const value = headers[name];
    if (typeof value !== 'string' || !pattern.test(value)) return `header ${name}: ${JSON.stringify(value)}`;
  }
  const csp = String(headers['content-security-policy']);
  if (!/(^|; )frame-ancestors 'none'(;|$)/.test(csp)) return "CSP without frame-ancestors 'none'";
  if (/script-src[^;]*'unsafe-(inline|eval)'/.test(csp)) return 'CSP allows inline or evaluated script';
  return undefined;
}

interface DocumentOperation {
  'x-permission'?: string;
}

/** Every ADMIN or SENSITIVE operation of the served document, as a concrete request (ids name no record). */
export function privilegedRequests(
  paths: Record<string, Record<string, DocumentOperation>>,
): Array<{ method: string; path: string; level: string }> {
  const out: Array<{ method: string; path: string; level: string }> = [];
  for (const [template, item] of Object.entries(paths)) {
    for (const [verb, operation] of Object.entries(item)) {
      const level = operation['x-permission']?.split(':').pop();
      if (level !== 'ADMIN' && level !== 'SENSITIVE') continue;
      const path = template.replace(/\{[^}]+\}/g, 'adversarial-missing');
      out.push({ method: verb.toUpperCase(), path, level });
      if (verb === 'get') out.push({ method: 'HEAD', path, level });
    }
  }
  return out;
}

/** A unique value to plant, easy to search for. */
export const plantedSecret = (label: string) => `planted-${label}-${randomBytes(8).toString('hex')}`;

/**
 * A body for any write route that hides `secret` under secret names at several depths, beside the
 * route's own fields: wherever the body is recorded or logged, the secret must be masked.
 */
export function bodyWithNestedSecrets(secret: string, own: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...own,
    password: secret,
    config: {
      ami: { host: '127.0.0.1', secret },
      users: [{ login: 'x', password: secret }],
      nested: { deeper: { apiKey: secret, token: secret } },
    },
    list: [{ currentPassword: secret }, [{ key: secret }]],
  };
}
