import { z } from 'zod';
import { DEFAULT_QUEUE_MAX_LENGTH, DEFAULT_REQUEST_TTL_SECONDS } from '../../queue/limits.ts';
import { field } from '../fields.ts';
import type { ResourceDeclaration } from '../types.ts';

/** Server-wide settings that the SPEC names (queue limits). */
export const generalSettingsDeclaration: ResourceDeclaration = {
  name: 'general-settings',
  description: 'Server-wide settings: request queue length and request age limit.',
  processor: 'GeneralSettingsProcessor',
  kind: 'singleton',
  security: { permission: 'GeneralSettings', channels: ['localhost', 'bearer_token'], levels: { update: 'ADMIN', patch: 'ADMIN' } },
  fields: {
    APIQueueMaxLength: field.integer(z.number().int().min(1).max(10_000), {
      default: DEFAULT_QUEUE_MAX_LENGTH,
      description: 'Requests allowed to wait for a worker; more get 503.',
    }),
    APIRequestTTL: field.integer(z.number().int().min(1).max(3600), {
      default: DEFAULT_REQUEST_TTL_SECONDS,
      description: 'Seconds a request may wait in the queue before it is dropped.',
    }),
  },
  operations: ['getRecord', 'update', 'patch'],
};
