import { maskChanges, maskSecretsDeep, type MaskableChange } from '../secret-mask.ts';
import type { Migration } from './migration.ts';

const BATCH = 500;

/**
 * Secrets are masked at any depth of an audit diff (issue 19): rows written before kept nested
 * secrets in clear, such as a backup import's `config.ami.secret`. Each diff is masked again by
 * name (the core resources' declared secrets all have secret names), and the file is compacted so
 * the old bytes do not survive in free pages or the WAL.
 */
export const auditDeepSecretsMigration: Migration = {
  version: 62,
  name: 'audit log: secrets masked at any depth in existing diffs',
  compactAfter: true,
  up(db) {
    const page = db.prepare('SELECT id, diff FROM audit_log WHERE diff IS NOT NULL AND id > ? ORDER BY id LIMIT ?');
    const update = db.prepare('UPDATE audit_log SET diff = ? WHERE id = ?');
    let last = 0;
    for (;;) {
      const rows = page.all(last, BATCH) as Array<{ id: number; diff: string }>;
      if (rows.length === 0) return;
      for (const { id, diff } of rows) {
        last = id;
        let changes: unknown;
        try {
          changes = JSON.parse(diff);
        } catch {
          // Not JSON: nothing here can be told apart from a secret, so the row keeps no diff.
          update.run(null, id);
          continue;
        }
        const masked = JSON.stringify(
          Array.isArray(changes)
            ? changes.map((c) => (isChange(c) ? maskChanges([c])[0] : maskSecretsDeep(c)))
            : maskSecretsDeep(changes),
        );
        if (masked !== diff) update.run(masked, id);
      }
    }
  },
};

function isChange(value: unknown): value is MaskableChange {
  return typeof value === 'object' && value !== null && typeof (value as { field?: unknown }).field === 'string';
}
