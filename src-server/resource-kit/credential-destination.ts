import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Where stored secrets go: each destination field (a URL, host, port or login) names the secret
 * fields the server sends there. Changing a destination field sends those secrets elsewhere, or as
 * someone else.
 */
export type CredentialDestinations = Readonly<Record<string, readonly string[]>>;

export interface CredentialChange {
  destinations: CredentialDestinations;
  /** The stored settings, secrets in clear ('' when none is stored). */
  before: Record<string, unknown>;
  /** The settings as the change would store them, secrets in clear. */
  after: Record<string, unknown>;
  /** Secret fields the request itself carries (a re-entry, or an attempt to set one). */
  sent: ReadonlySet<string>;
  /** The caller holds the SENSITIVE level (localhost bypass, admin, full-permission key, the CLI). */
  sensitive: boolean;
  /** The backup section the settings come from (`ami`, `crowdsecLink`), named in messages; none for the resource. */
  section?: string;
  /** How messages name a secret (`secret` reads better as `AMI secret`). */
  labels?: Readonly<Record<string, string>>;
}

export type CredentialVerdict =
  | { ok: true }
  | {
      ok: false;
      /** 403, like every refusal of a level the caller lacks (AMI host moves were refused so before). */
      status: 403;
      /** The fields the refusal is about: the secrets set, or the destination fields changed. */
      fields: string[];
      message: string;
      /** A sent secret differed from a stored one: a guess, counted as a failed credential. */
      wrongGuess: boolean;
    };

const digest = (value: unknown) =>
  createHash('sha256')
    .update(String(value ?? ''))
    .digest();
/** Constant-time equality of two secrets (a refusal must not tell how much of a guess was right). */
export const sameSecret = (a: unknown, b: unknown): boolean => timingSafeEqual(digest(a), digest(b));

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const list = (names: string[]) =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];

/**
 * The one rule for moving stored credentials, for every path that writes them (resource PUT and
 * PATCH, backup import, the CLI). Without SENSITIVE a caller may not set a secret (only re-enter the
 * stored value), and may change a destination field only when the request re-enters every stored
 * secret that field guards: knowing them, sending them to the new place leaks nothing.
 */
export function checkCredentialChange(change: CredentialChange): CredentialVerdict {
  if (change.sensitive) return { ok: true };
  const { before, after, sent, section, labels = {} } = change;
  const field = section ? `${section}.` : '';
  const label = (name: string) => labels[name] ?? name;
  const secrets = [...new Set(Object.values(change.destinations).flat())];

  const reentered = (name: string) => sent.has(name) && sameSecret(after[name], before[name]);
  const set = secrets.filter((name) => sent.has(name) && !reentered(name));
  if (set.length)
    return {
      ok: false,
      status: 403,
      fields: set,
      message:
        `${field}${set.join(', ')}: setting the ${list(set.map(label))} needs the SENSITIVE level; ` +
        'without it a request may only re-enter the stored value.',
      wrongGuess: set.some((name) => String(before[name] ?? '') !== ''),
    };

  // Clearing a destination sends nothing (and giving it a value later is a move from nothing, guarded too).
  const cleared = (name: string) => after[name] === undefined || after[name] === null || after[name] === '';
  const moved = Object.keys(change.destinations).filter((name) => !cleared(name) && !same(after[name], before[name]));
  const exposed = [...new Set(moved.flatMap((name) => change.destinations[name] ?? []))].filter(
    (name) => String(before[name] ?? '') !== '' && !reentered(name),
  );
  if (!exposed.length) return { ok: true };
  return {
    ok: false,
    status: 403,
    fields: moved,
    message:
      `${section ? `${section}: changing` : 'Changing'} ${moved.join(', ')} makes the server send the stored ${list(exposed.map(label))} to a new ` +
      `destination: it needs the SENSITIVE level, or ${exposed.join(', ')} re-entered in the same request.`,
    wrongGuess: false,
  };
}
