import { z } from 'zod';
import { defineSetting } from '../../storage/settings.ts';

/** Written by the web thread at start: what workers cannot know by themselves. */
export const RUNTIME_SETTING_KEY = 'runtime';

const runtimeInfo = z.object({
  version: z.string(),
  startedAt: z.number(),
  httpPort: z.number(),
  httpsPort: z.number().nullable(),
  /** The address the listeners are bound to (0.0.0.0, ::, or one address). */
  bindHost: z.string().optional(),
});
export type RuntimeInfo = z.infer<typeof runtimeInfo>;

/** The running server's version, start time and ports; null until a server has started on this data. */
export const runtimeSetting = defineSetting(RUNTIME_SETTING_KEY, runtimeInfo.nullable(), null);
