import { z } from 'zod';
import { defineSetting, STORED_FIELDS } from '../../storage/settings.ts';
import { HTTPS_REKEY_KEY, HTTPS_RUNTIME_KEY } from './declaration.ts';

/** The listener's state as the web thread last recorded it (http/https-listener.ts: `HttpsRuntime`), read field by field. */
export const httpsRuntimeSetting = defineSetting(HTTPS_RUNTIME_KEY, STORED_FIELDS, {});

/** How many certificate renewals were requested; a count that is not a whole number reads as 0. */
export const httpsRenewalsSetting = defineSetting(
  HTTPS_REKEY_KEY,
  z.looseObject({ renewals: z.number().int().catch(0) }),
  { renewals: 0 },
);
