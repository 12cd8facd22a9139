import { ok } from '../results.ts';
import type { ResourceActions } from '../types.ts';

export const systemActions: ResourceActions = {
  custom: {
    ping: () => ok({ pong: true }),
  },
};
