import type { Clock } from '../clock.ts';
import type { Db } from '../storage/database.ts';
import { readSetting } from '../storage/settings.ts';
import { generalSettings } from './general-settings.ts';

export interface QueueLimits {
  /** Jobs allowed to wait for a worker; over it, 503 at once. */
  maxLength: number;
  /** Age after which a waiting job is dropped. */
  ttlMs: number;
}

/** SPEC: the queue length setting is cached 10 s. */
export const LIMITS_CACHE_MS = 10_000;
/** The general-settings singleton holds both limits. */
export { DEFAULT_QUEUE_MAX_LENGTH, DEFAULT_REQUEST_TTL_SECONDS, GENERAL_SETTINGS_KEY } from './general-settings.ts';

/** Reads APIQueueMaxLength / APIRequestTTL from settings at most once per cache period. */
export class CachedQueueLimits {
  private cached?: { value: QueueLimits; readAt: number };

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  current(): QueueLimits {
    const now = this.clock.now();
    if (!this.cached || now - this.cached.readAt >= LIMITS_CACHE_MS) {
      this.cached = { value: this.read(), readAt: now };
    }
    return this.cached.value;
  }

  /** Forget the cached value (after this server itself changed the settings). */
  invalidate(): void {
    this.cached = undefined;
  }

  private read(): QueueLimits {
    const { APIQueueMaxLength, APIRequestTTL } = readSetting(this.db, generalSettings);
    return { maxLength: APIQueueMaxLength, ttlMs: APIRequestTTL * 1000 };
  }
}
