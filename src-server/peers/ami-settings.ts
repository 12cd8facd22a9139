import { readSingleton } from '../resource-kit/singleton.ts';
import { revealSecret, type Db } from '../storage/database.ts';
import { SECRET_CONTEXTS } from '../storage/migrations/004-sealed-secrets.ts';
import { AMI_SETTINGS_FIELDS, AMI_SETTINGS_KEY } from './ami-settings-schema.ts';

/** The stored `ami` settings, secret included (web thread and actions only; never sent to clients). */
export interface AmiSettings {
  enabled: boolean;
  host: string;
  port: number;
  username: string;
  /** In clear, decrypted when read: only the AMI login (and change detection) reads it. */
  readonly secret: string;
}

/** Reads the `ami` singleton over its defaults; the secret is decrypted only if `secret` is read. */
export function readAmiSettings(db: Db): AmiSettings {
  const values = readSingleton({ fields: AMI_SETTINGS_FIELDS }, { db }, AMI_SETTINGS_KEY);
  return {
    enabled: values.enabled === true,
    host: String(values.host ?? '127.0.0.1'),
    port: Number(values.port ?? 5038),
    username: String(values.username ?? ''),
    get secret() {
      return revealAmiSecret(db, values.secret);
    },
  };
}

/** The clear AMI secret from its stored (sealed) value; '' when none is stored. */
export function revealAmiSecret(db: Db, stored: unknown): string {
  return revealSecret(db, String(stored ?? ''), SECRET_CONTEXTS.ami);
}
