import type { Db } from '../database.ts';

/** One schema step. Versions are unique; each feature owns a range (see migrations/index.ts). */
export interface Migration {
  version: number;
  name: string;
  up(db: Db): void;
  /**
   * Rewrite the whole file after this step (VACUUM, then truncate the WAL): for steps that replace
   * sensitive values, whose old bytes could otherwise survive in free pages and old WAL frames.
   */
  compactAfter?: boolean;
}
