import { readChecks } from '../../health/health-store.ts';
import { readSetting } from '../../storage/settings.ts';
import { getCertificate } from '../https/certificate-action.ts';
import { ok } from '../../resource-kit/results.ts';
import { systemDeclaration } from './declaration.ts';
import { defineActions } from '../../resource-kit/types.ts';
import { bouncerApiUrl, hostAddresses, listeningAddresses } from './info.ts';
import { runtimeSetting } from './runtime-setting.ts';

export const systemActions = defineActions(systemDeclaration, {
  custom: {
    getCertificate,
    ping: () => ok({ pong: true }),
    getHealth: (ctx) =>
      ok({
        checks: readChecks(ctx.db).map((check) => ({
          id: check.id,
          kind: check.kind,
          severity: check.severity,
          title: ctx.canReadSensitive ? check.title : (check.redactedTitle ?? check.title),
          detail: check.detail ?? null,
          // Where to act names the key too: without SENSITIVE, the page only.
          action: ctx.canReadSensitive ? (check.action ?? null) : null,
          area: check.area ?? null,
          since: check.since,
        })),
        checkedAt: new Date(ctx.now()).toISOString(),
      }),
    getInfo: (ctx) => {
      const runtime = readSetting(ctx.db, runtimeSetting);
      const addresses = hostAddresses();
      const httpPort = runtime?.httpPort ?? 0;
      const httpsPort = runtime?.httpsPort ?? null;
      // Only addresses the server answers on, loopback included (a bouncer on the PBX host itself).
      const shown = listeningAddresses(runtime?.bindHost ?? '0.0.0.0');
      return ok({
        version: runtime?.version ?? 'unknown',
        uptimeSeconds: runtime ? Math.max(0, Math.floor((ctx.now() - runtime.startedAt) / 1000)) : 0,
        addresses,
        httpPort,
        httpsPort,
        bouncerApiUrls: shown.map((a) =>
          httpsPort ? bouncerApiUrl('https', a, httpsPort) : bouncerApiUrl('http', a, httpPort),
        ),
      });
    },
  },
});
