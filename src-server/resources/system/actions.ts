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
