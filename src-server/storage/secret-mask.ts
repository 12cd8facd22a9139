/**
 * Secret masking shared by the audit log (every thread that writes it), its migration 062 and the
 * logger: a value under a secret-looking name, at any depth of a body or record, is replaced.
 */

export const MASKED = '•••• (changed)';

/**
 * Names that carry secrets whatever the resource: `key`, `*_key`, `apiKey`, `token`, `*Token`,
 * anything containing `secret`, `password` or `passphrase`, and the credential headers.
 * `key_display`, `keyId` and `privateKeyPath` are not secrets.
 */
const SNAKE_SECRET = /(^|[_-])(key|token|passwd)$/i;
/** Case-sensitive, so `monkey` is no key. */
const CAMEL_SECRET = /[a-z0-9](Key|Token)$/;
const SECRET_ANYWHERE = /secret|password|passphrase/i;
const CREDENTIAL_HEADER = /^(authorization|cookie|set-cookie)$/i;

/** Nesting past this is replaced whole: no real body is this deep, and the walk stays bounded. */
const MAX_DEPTH = 32;

/** Whether a field name alone says its value is secret. */
export function isSecretName(name: string): boolean {
  return (
    SNAKE_SECRET.test(name) || CAMEL_SECRET.test(name) || SECRET_ANYWHERE.test(name) || CREDENTIAL_HEADER.test(name)
  );
}

const isPlain = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

/** An empty secret says nothing: kept as it is (the diff shows "no change"). */
const isEmpty = (value: unknown) => value === null || value === undefined || value === '';

/**
 * A copy of `value` where every member named like a secret, or listed in `secretNames` (the
 * declared write-only and sensitive fields), holds MASKED, at any depth of objects and arrays.
 * Other values (Error objects, Buffers) are returned as they are.
 */
export function maskSecretsDeep(
  value: unknown,
  secretNames: ReadonlySet<string> = new Set(),
  mask: string = MASKED,
  depth = 0,
): unknown {
  if (depth > MAX_DEPTH) return mask;
  if (Array.isArray(value)) return value.map((item) => maskSecretsDeep(item, secretNames, mask, depth + 1));
  if (!isPlain(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) {
    out[name] =
      (isSecretName(name) || secretNames.has(name)) && !isEmpty(member)
        ? mask
        : maskSecretsDeep(member, secretNames, mask, depth + 1);
  }
  return out;
}

/** One changed field of an audit diff, `{field, before?, after?}`. */
export interface MaskableChange {
  field: string;
  before?: unknown;
  after?: unknown;
}

/**
 * Every change with secrets masked at any depth: a secret-named change is masked whole, and nested
 * members named like a secret (or declared one in any resource) inside `before` and `after` are
 * masked. The declared names apply below the top level only: there the resource's own declaration
 * decides (another resource's write-only `network` is no secret of this one).
 * Applied to every diff before it is stored, and by migration 062 to the rows already written.
 */
export function maskChanges<Change extends MaskableChange>(
  changes: readonly Change[],
  secretNames: ReadonlySet<string> = new Set(),
): Change[] {
  return changes.map((change) => {
    const secret = isSecretName(change.field);
    const masked = { field: change.field } as Change;
    if ('before' in change)
      masked.before = secret && !isEmpty(change.before) ? MASKED : maskSecretsDeep(change.before, secretNames);
    if ('after' in change)
      masked.after = secret && !isEmpty(change.after) ? MASKED : maskSecretsDeep(change.after, secretNames);
    return masked;
  });
}
