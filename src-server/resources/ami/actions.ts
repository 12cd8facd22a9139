import { revealAmiSecret } from '../../peers/ami-settings.ts';
import { freshnessOf } from '../../peers/peer-status.ts';
import { guardStoredCredentials, type StoredCredentials } from '../../resource-kit/credential-guard.ts';
import { ok } from '../../resource-kit/results.ts';
import { singletonActions } from '../../resource-kit/singleton.ts';
import { defineActions } from '../../resource-kit/types.ts';
import { AMI_CREDENTIAL_DESTINATIONS, AMI_SETTINGS_KEY } from '../../peers/ami-settings-schema.ts';
import { amiDeclaration } from './declaration.ts';

/** AMI needs a user to log in as once it is on (PUT, PATCH and backup import). */
export const validateAmiSettings = (complete: Record<string, unknown>): string[] =>
  complete.enabled === true && !String(complete.username ?? '').trim()
    ? ['username is required when AMI is enabled.']
    : [];

/** The stored secret and where it is sent: the rule of resource-kit/credential-destination.ts applies. */
export const AMI_CREDENTIALS: StoredCredentials = {
  settingKey: AMI_SETTINGS_KEY,
  destinations: AMI_CREDENTIAL_DESTINATIONS,
  reveal: (db, _name, stored) => revealAmiSecret(db, stored), // stored sealed (storage/secret-box.ts)
  labels: { secret: 'AMI secret' },
  wrongGuessReason: 'wrong AMI secret re-entered',
  validate: validateAmiSettings,
};

const settings = singletonActions(amiDeclaration, { settingKey: AMI_SETTINGS_KEY, validate: validateAmiSettings });

export const amiActions = defineActions(amiDeclaration, {
  getRecord: settings.getRecord,
  update: guardStoredCredentials(amiDeclaration, AMI_CREDENTIALS, settings.update),
  patch: guardStoredCredentials(amiDeclaration, AMI_CREDENTIALS, settings.patch),
  custom: {
    getStatus: (ctx) => {
      const f = freshnessOf(ctx.db, ctx.now());
      return ok({ enabled: f.enabled, connected: f.connected, lastError: f.lastError, stateAgeSeconds: f.ageSeconds });
    },
  },
});
