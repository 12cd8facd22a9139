import { readSetting } from '../../storage/settings.ts';
import { failure, invalid, ok } from '../../resource-kit/results.ts';
import { runtimeSetting } from '../system/runtime-setting.ts';
import type { ResourceActions } from '../../resource-kit/types.ts';
import { exportConfig, importConfig } from './config-backup.ts';
import { flagValue } from '../../resource-kit/fields.ts';

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[value.length - 1] : value);

export const backupActions: ResourceActions = {
  custom: {
    exportConfig: (ctx) => {
      const secrets = flagValue(single(ctx.query.secrets)) === true; // a flag form or absent (the declared input)
      if (secrets && !ctx.canReadSensitive)
        return failure(403, 'Exporting secrets (secrets=true) needs the SENSITIVE level.');
      const version = readSetting(ctx.db, runtimeSetting)?.version ?? 'unknown';
      return ok(exportConfig(ctx.db, { secrets, serverVersion: version, now: ctx.now() }));
    },
    importConfig: (ctx) => {
      // The declared input holds: an object with `config`, and `dryRun` a flag form or absent.
      const body = ctx.body as { config: unknown; dryRun?: unknown };
      const dryRun = flagValue(body.dryRun) === true;
      const outcome = importConfig(ctx.db, body.config, {
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
};
