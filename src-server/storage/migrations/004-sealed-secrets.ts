import { SEAL_SECRET_FUNCTION } from '../database.ts';
import type { Migration } from './migration.ts';
import { SEALED_PREFIX } from '../secret-box.ts';

/** Contexts sealed values are bound to (revealSecret needs the same one). */
export const SECRET_CONTEXTS = {
  extension: 'extensions.secret',
  provider: 'providers.secret',
  ami: 'ami.secret',
} as const;

const unsealed = (expr: string) => `coalesce(${expr}, '') <> '' AND ${expr} NOT LIKE '${SEALED_PREFIX}%'`;

/** A column sealed by triggers: whatever code writes it, the stored value is AES-256-GCM ciphertext. */
function sealedColumn(table: string, context: string): string {
  const seal = `UPDATE ${table} SET secret = ${SEAL_SECRET_FUNCTION}(NEW.secret, '${context}') WHERE rowid = NEW.rowid;`;
  return `
    CREATE TRIGGER ${table}_secret_sealed_on_insert AFTER INSERT ON ${table} WHEN ${unsealed('NEW.secret')} BEGIN ${seal} END;
    CREATE TRIGGER ${table}_secret_sealed_on_update AFTER UPDATE OF secret ON ${table} WHEN ${unsealed('NEW.secret')} BEGIN ${seal} END;
    UPDATE ${table} SET secret = ${SEAL_SECRET_FUNCTION}(secret, '${context}') WHERE ${unsealed('secret')};`;
}

/** The `ami` settings row keeps its secret as a JSON member. */
function sealedAmiSecret(): string {
  const secret = "json_extract(NEW.value, '$.secret')";
  const when = `NEW.key = 'ami' AND json_valid(NEW.value) AND json_type(NEW.value, '$.secret') = 'text' AND ${unsealed(secret)}`;
  const seal =
    `UPDATE settings SET value = json_set(NEW.value, '$.secret', ` +
    `${SEAL_SECRET_FUNCTION}(${secret}, '${SECRET_CONTEXTS.ami}')) WHERE key = NEW.key;`;
  return `
    CREATE TRIGGER ami_secret_sealed_on_insert AFTER INSERT ON settings WHEN ${when} BEGIN ${seal} END;
    CREATE TRIGGER ami_secret_sealed_on_update AFTER UPDATE OF value ON settings WHEN ${when} BEGIN ${seal} END;
    UPDATE settings SET value = value WHERE key = 'ami';`;
}

/**
 * SIP (extension, provider) and AMI secrets are stored sealed (AES-256-GCM, key in secrets.key).
 * Triggers seal every write, so no writer can store one in clear; values stored earlier are sealed
 * here, and the file is compacted afterwards so their clear bytes do not linger in free pages.
 */
export const sealedSecretsMigration: Migration = {
  version: 4,
  name: 'SIP and AMI secrets sealed at rest',
  compactAfter: true,
  up(db) {
    db.exec(
      sealedColumn('extensions', SECRET_CONTEXTS.extension) +
        sealedColumn('providers', SECRET_CONTEXTS.provider) +
        sealedAmiSecret(),
    );
  },
};
