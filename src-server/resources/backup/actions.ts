import { readSetting } from '../../storage/settings.ts';
import { failure, invalid, ok } from '../../resource-kit/results.ts';
import { runtimeSetting } from '../system/runtime-setting.ts';
import { defineActions } from '../../resource-kit/types.ts';
import { backupDeclaration } from './declaration.ts';
import { exportConfig, importConfig } from './config-backup.ts';

export const backupActions = defineActions(backupDeclaration, {
  custom: {
    exportConfig: (ctx) => {
      const secrets = ctx.input.secrets === true;
      if (secrets && !ctx.canReadSensitive)
        return failure(403, 'Exporting secrets (secrets=true) needs the SENSITIVE level.');
      const version = readSetting(ctx.db, runtimeSetting)?.version ?? 'unknown';
      return ok(exportConfig(ctx.db, { secrets, serverVersion: version, now: ctx.now() }));
    },
    importConfig: (ctx) => {
      const { config, dryRun = false } = ctx.input;
      const outcome = importConfig(ctx.db, config, {
        dryRun,
        canWriteSecrets: ctx.canReadSensitive,
        changed: (resource) => ctx.emit({ type: 'resource-changed', resource }),
      });
      if (!outcome.ok && outcome.wrongGuess && ctx.session)
        ctx.emit({
          type: 'security-failure',
          category: 'http',
          ip: ctx.session.remote_addr,
          reason: 'wrong stored secret re-entered in a backup import',
        });
      return outcome.ok
        ? ok(outcome.report)
        : outcome.status === 422
          ? invalid(outcome.errors)
          : failure(outcome.status, ...outcome.errors);
    },
  },
});
