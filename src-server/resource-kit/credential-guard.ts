import type { Db } from '../storage/database.ts';
import { checkCredentialChange, type CredentialDestinations } from './credential-destination.ts';
import { failure } from './results.ts';
import { prepareSave } from './save.ts';
import { readSingleton } from './singleton.ts';
import type { ActionContext, ActionHandler, ResourceDeclaration } from './types.ts';

/** A settings singleton that holds secrets the server sends somewhere (AMI, the CrowdSec link). */
export interface StoredCredentials {
  settingKey: string;
  destinations: CredentialDestinations;
  /** The clear value of a stored (sealed) secret field; '' when none is stored. */
  reveal: (db: Db, name: string, stored: unknown) => string;
  labels?: Readonly<Record<string, string>>;
  /** Recorded with the security-failure of a wrongly re-entered secret. */
  wrongGuessReason: string;
  validate?: (complete: Record<string, unknown>) => string[];
}

/** Every secret field the destinations guard. */
export const guardedSecrets = (destinations: CredentialDestinations): string[] => [
  ...new Set(Object.values(destinations).flat()),
];

/** The stored settings with their guarded secrets in clear (for checkCredentialChange, never for clients). */
export function revealedSettings(
  db: Db,
  stored: Record<string, unknown>,
  credentials: Pick<StoredCredentials, 'destinations' | 'reveal'>,
): Record<string, unknown> {
  const clear = { ...stored };
  for (const name of guardedSecrets(credentials.destinations)) clear[name] = credentials.reveal(db, name, stored[name]);
  return clear;
}

/**
 * PUT and PATCH of a singleton under the rule of credential-destination.ts: a caller without
 * SENSITIVE gets 403 naming the fields when the save would set a secret or send a stored one to a
 * new destination, and nothing is saved or sent.
 */
export function guardStoredCredentials(
  declaration: ResourceDeclaration,
  credentials: StoredCredentials,
  save: ActionHandler,
): ActionHandler {
  return (ctx) =>
    ctx.canReadSensitive
      ? save(ctx)
      : // One write transaction for the check and the save, so the stored secrets cannot change in between.
        ctx.db.transaction(() => checkedSave(declaration, credentials, save, ctx)).immediate();
}

function checkedSave(
  declaration: ResourceDeclaration,
  credentials: StoredCredentials,
  save: ActionHandler,
  ctx: ActionContext,
): ReturnType<ActionHandler> {
  const existing = readSingleton(declaration, ctx, credentials.settingKey);
  const outcome = prepareSave({
    declaration,
    mode: ctx.verb === 'PUT' ? 'update' : 'patch',
    verb: ctx.verb,
    body: ctx.body,
    existing,
    validate: credentials.validate,
  });
  // Invalid input: the save itself answers 422 and writes nothing.
  if (!outcome.ok) return save(ctx);
  const body = ctx.body as Record<string, unknown>;
  const before = revealedSettings(ctx.db, existing, credentials);
  const sent = new Set(guardedSecrets(credentials.destinations).filter((name) => name in body));
  const after = { ...outcome.complete };
  for (const name of guardedSecrets(credentials.destinations)) if (!sent.has(name)) after[name] = before[name];
  const verdict = checkCredentialChange({
    destinations: credentials.destinations,
    before,
    after,
    sent,
    sensitive: false,
    labels: credentials.labels,
  });
  if (verdict.ok) return save(ctx);
  if (verdict.wrongGuess && ctx.session)
    ctx.emit({
      type: 'security-failure',
      category: 'http',
      ip: ctx.session.remote_addr,
      reason: credentials.wrongGuessReason,
    });
  return failure(verdict.status, verdict.message);
}
