import { createHash, timingSafeEqual } from 'node:crypto';
import { revealAmiSecret } from '../../peers/ami-settings.ts';
import { freshnessOf } from '../../peers/peer-status.ts';
import { failure, ok } from '../../resource-kit/results.ts';
import { prepareSave } from '../../resource-kit/save.ts';
import { readSingleton, singletonActions } from '../../resource-kit/singleton.ts';
import type { ActionContext, ActionHandler, ResourceActions } from '../../resource-kit/types.ts';
import { AMI_SETTINGS_KEY } from '../../peers/ami-settings-schema.ts';
import { amiDeclaration } from './declaration.ts';

/** The fields that decide where (and as whom) the server sends the stored secret when it logs in. */
const DESTINATION_FIELDS = ['host', 'port', 'username'] as const;

const settings = singletonActions(amiDeclaration, {
  settingKey: AMI_SETTINGS_KEY,
  validate: (complete) =>
    complete.enabled === true && !String(complete.username ?? '').trim()
      ? ['username is required when AMI is enabled.']
      : [],
});

const digest = (value: unknown) =>
  createHash('sha256')
    .update(String(value ?? ''))
    .digest();
const sameSecret = (a: unknown, b: unknown) => timingSafeEqual(digest(a), digest(b));

/**
 * The stored secret never leaves for a destination that a caller without SENSITIVE chose.
 * Without SENSITIVE: the secret may not change, and host, port and username may change only
 * when the request re-enters the stored secret (or none is stored), since the server logs in to
 * the new destination with it. A wrong re-entered secret counts as a failed credential.
 */
const guardSecret =
  (save: ActionHandler): ActionHandler =>
  (ctx) =>
    ctx.canReadSensitive
      ? save(ctx)
      : // One write transaction for the check and the save, so the stored secret cannot change in between.
        ctx.db.transaction(() => checkedSave(save, ctx)).immediate();

function checkedSave(save: ActionHandler, ctx: ActionContext): ReturnType<ActionHandler> {
  const existing = readSingleton(amiDeclaration, ctx, AMI_SETTINGS_KEY);
  const mode = ctx.verb === 'PUT' ? 'update' : 'patch';
  const outcome = prepareSave({ declaration: amiDeclaration, mode, verb: ctx.verb, body: ctx.body, existing });
  // Invalid input: the save itself answers 422 and writes nothing.
  if (!outcome.ok) return save(ctx);
  const stored = revealAmiSecret(ctx.db, existing.secret); // stored sealed (storage/secret-box.ts)
  const sentSecret = 'secret' in (ctx.body as Record<string, unknown>);
  const reentered = sentSecret && sameSecret(outcome.complete.secret, stored);
  if (sentSecret && !reentered) {
    if (stored !== '' && ctx.session) {
      ctx.emit({
        type: 'security-failure',
        category: 'http',
        ip: ctx.session.remote_addr,
        reason: 'wrong AMI secret re-entered',
      });
    }
    return failure(403, 'Changing the AMI secret needs the SENSITIVE level.');
  }
  const moved = DESTINATION_FIELDS.filter((name) => outcome.complete[name] !== existing[name]);
  if (moved.length && !reentered && stored !== '') {
    return failure(
      403,
      `Changing ${moved.join(', ')} makes the server send the stored AMI secret to a new ` +
        `destination: it needs the SENSITIVE level, or the secret re-entered in the same request.`,
    );
  }
  return save(ctx);
}

export const amiActions: ResourceActions = {
  getRecord: settings.getRecord,
  update: guardSecret(settings.update),
  patch: guardSecret(settings.patch),
  custom: {
    getStatus: (ctx) => {
      const f = freshnessOf(ctx.db, ctx.now());
      return ok({ enabled: f.enabled, connected: f.connected, lastError: f.lastError, stateAgeSeconds: f.ageSeconds });
    },
  },
};
