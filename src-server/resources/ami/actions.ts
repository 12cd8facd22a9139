import { freshnessOf } from '../../peers/peer-status.ts';
import { failure, ok } from '../results.ts';
import { singletonActions } from '../singleton.ts';
import type { ActionHandler, ResourceActions } from '../types.ts';
import { amiDeclaration, AMI_SETTINGS_KEY } from './declaration.ts';

const settings = singletonActions(amiDeclaration, {
  settingKey: AMI_SETTINGS_KEY,
  validate: (complete) => (complete.enabled === true && !String(complete.username ?? '').trim() ? ['username is required when AMI is enabled.'] : []),
});

/** The secret is write-only, and writing it needs SENSITIVE on top of the ADMIN level of update/patch. */
const guardSecret =
  (save: ActionHandler): ActionHandler =>
  (ctx) => {
    const body = ctx.body as Record<string, unknown> | null;
    if (body && typeof body === 'object' && 'secret' in body && !ctx.canReadSensitive) {
      return failure(403, 'Changing the AMI secret needs the SENSITIVE level.');
    }
    return save(ctx);
  };

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
