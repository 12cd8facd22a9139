import { revealSecret } from '../../storage/database.ts';
import { CROWDSEC_LINK_SECRETS, CROWDSEC_LINK_SETTING_KEY } from '../../storage/migrations/070-crowdsec-link.ts';
import { initialLinkStatus, pushQueueLength, readLinkStatus, type DirectionStatus } from '../../upstream/link-state.ts';
import { guardStoredCredentials, type StoredCredentials } from '../../resource-kit/credential-guard.ts';
import { invalid, ok } from '../../resource-kit/results.ts';
import { readSingleton, singletonActions } from '../../resource-kit/singleton.ts';
import { defineActions, type ActionHandler } from '../../resource-kit/types.ts';
import { LINK_CREDENTIAL_DESTINATIONS, MAX_CREDENTIAL_LENGTH } from '../../upstream/link-settings-schema.ts';
import { readLinkSettings } from '../../upstream/link-settings.ts';
import { shareActiveBans as queueActiveBans, shareProgress } from '../../upstream/share-active-bans.ts';
import { crowdsecLinkDeclaration } from './declaration.ts';

const CREDENTIALS = ['machineLogin', 'machinePassword', 'bouncerKey'] as const;

/** What the link needs when it is on: a URL, and the credentials of each direction it uses (backup import too). */
export function validateLinkSettings(complete: Record<string, unknown>): string[] {
  if (complete.enabled !== true) return [];
  const problems: string[] = [];
  const missing = (name: string) => String(complete[name] ?? '') === '';
  if (missing('url')) problems.push('url is required when the link is enabled.');
  if (complete.pushEnabled === true) {
    for (const name of ['machineLogin', 'machinePassword'])
      if (missing(name))
        problems.push(`${name} is required when pushing is enabled (1-${MAX_CREDENTIAL_LENGTH} characters).`);
  }
  if (complete.pullEnabled === true && missing('bouncerKey'))
    problems.push(`bouncerKey is required when pulling is enabled (1-${MAX_CREDENTIAL_LENGTH} characters).`);
  return problems;
}

/** The stored password and key and where they are sent: the rule of resource-kit/credential-destination.ts applies. */
export const LINK_CREDENTIALS: StoredCredentials = {
  settingKey: CROWDSEC_LINK_SETTING_KEY,
  destinations: LINK_CREDENTIAL_DESTINATIONS,
  reveal: (db, name, stored) =>
    revealSecret(db, String(stored ?? ''), CROWDSEC_LINK_SECRETS[name as keyof typeof CROWDSEC_LINK_SECRETS]),
  wrongGuessReason: 'wrong CrowdSec link secret re-entered',
  validate: validateLinkSettings,
};

const settings = singletonActions(crowdsecLinkDeclaration, {
  settingKey: CROWDSEC_LINK_SETTING_KEY,
  validate: validateLinkSettings,
});

/** A credential sent empty is a mistake, never "clear it": 422 naming the field (turn the link off with `enabled: false`). */
const refuseEmptyCredentials =
  (save: ActionHandler): ActionHandler =>
  (ctx) => {
    const body: Record<string, unknown> = typeof ctx.input === 'object' && ctx.input !== null ? { ...ctx.input } : {};
    const empty = CREDENTIALS.filter((name) => name in body && (body[name] === '' || body[name] === null));
    if (empty.length)
      return invalid(empty.map((name) => `${name}: must be 1-${MAX_CREDENTIAL_LENGTH} characters, not empty.`));
    return save(ctx);
  };

/** link:getStatus: the web thread's last report, the queue length, and one overall state. */
const getStatus: ActionHandler = (ctx) => {
  const values = readSingleton(crowdsecLinkDeclaration, ctx, CROWDSEC_LINK_SETTING_KEY);
  const status = readLinkStatus(ctx.db) ?? initialLinkStatus();
  const enabled = values.enabled === true;
  const directions: DirectionStatus[] = [status.push, status.pull].filter((d) => d.enabled);
  const failing = directions
    .filter((d) => d.state === 'error')
    .sort((a, b) => (b.lastErrorAt ?? 0) - (a.lastErrorAt ?? 0));
  const state = !enabled
    ? 'off'
    : failing.length
      ? 'error'
      : directions.length && directions.every((d) => d.state === 'ok')
        ? 'connected'
        : 'connecting';
  return ok({
    enabled,
    connected: state === 'connected',
    state,
    queueLength: pushQueueLength(ctx.db),
    lastPushAt: status.push.lastSentAt ? new Date(status.push.lastSentAt).toISOString() : null,
    lastPullAt: status.pull.lastOkAt === null ? null : new Date(status.pull.lastOkAt).toISOString(),
    lastError: failing[0]?.lastError ?? null,
    lastErrorAt: failing[0]?.lastErrorAt ? new Date(failing[0].lastErrorAt).toISOString() : null,
    push: status.push,
    pull: status.pull,
    reportedAt: status.updatedAt ? new Date(status.updatedAt).toISOString() : null,
    share: shareOf(ctx),
  });
};

function shareOf(ctx: Parameters<ActionHandler>[0]) {
  const progress = shareProgress(ctx.db);
  return progress && { ...progress, at: new Date(progress.at).toISOString() };
}

/** link:shareActiveBans: the bans in force into the push queue, once; a dry run counts them. */
const shareActiveBans: ActionHandler = (ctx) => {
  const { dryRun } = ctx.input as { dryRun: boolean };
  const settings = readLinkSettings(ctx.db);
  if (!dryRun && !(settings.enabled && settings.pushEnabled))
    return invalid([
      'pushEnabled: the bans in force are shared once this PBX pushes its bans: switch the link and ' +
        '"Push this PBX\'s bans" on and save first.',
    ]);
  const outcome = queueActiveBans(ctx.db, settings, ctx.now(), dryRun);
  return ok(
    { dryRun, ...outcome },
    dryRun
      ? {}
      : {
          auditChanges: [
            { field: 'sharedBans', after: { queued: outcome.queued, alreadyShared: outcome.alreadyShared } },
          ],
        },
  );
};

export const crowdsecLinkActions = defineActions(crowdsecLinkDeclaration, {
  getRecord: settings.getRecord,
  update: refuseEmptyCredentials(guardStoredCredentials(crowdsecLinkDeclaration, LINK_CREDENTIALS, settings.update)),
  patch: refuseEmptyCredentials(guardStoredCredentials(crowdsecLinkDeclaration, LINK_CREDENTIALS, settings.patch)),
  custom: { getStatus, shareActiveBans },
});
