import { checkCredentialChange } from '../../resource-kit/credential-destination.ts';
import { guardedSecrets, revealedSettings, type StoredCredentials } from '../../resource-kit/credential-guard.ts';
import type { Db } from '../../storage/database.ts';

export type CredentialSectionCheck =
  | { ok: true; secretsChanged: string[] }
  | { ok: false; status: 403; errors: string[]; wrongGuess: boolean };

/**
 * A backup section that holds stored credentials, under the same rule as PUT of its resource
 * (resource-kit/credential-destination.ts): a secret in the file counts as re-entered, and one
 * absent is kept as stored.
 */
export function checkCredentialSection(
  db: Db,
  input: {
    section: string;
    credentials: StoredCredentials;
    /** The stored settings (secrets sealed) and the section's values as they would be stored. */
    stored: Record<string, unknown>;
    complete: Record<string, unknown>;
    raw: Record<string, unknown>;
    canWriteSecrets: boolean;
  },
): CredentialSectionCheck {
  const { credentials } = input;
  const secrets = guardedSecrets(credentials.destinations);
  const before = revealedSettings(db, input.stored, credentials);
  const sent = new Set(secrets.filter((name) => name in input.raw));
  const after = { ...input.complete };
  for (const name of secrets) if (!sent.has(name)) after[name] = before[name];
  const verdict = checkCredentialChange({
    destinations: credentials.destinations,
    before,
    after,
    sent,
    sensitive: input.canWriteSecrets,
    section: input.section,
    labels: credentials.labels,
  });
  if (!verdict.ok) return { ok: false, status: 403, errors: [verdict.message], wrongGuess: verdict.wrongGuess };
  return { ok: true, secretsChanged: secrets.filter((name) => sent.has(name) && after[name] !== before[name]) };
}
