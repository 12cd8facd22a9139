import { amiDeclaration, AMI_SETTINGS_KEY } from '../resources/ami/declaration.ts';
import { readSingleton } from '../resources/singleton.ts';
import type { Db } from '../storage/database.ts';

/** The stored `ami` settings, secret included (web thread and actions only; never sent to clients). */
export interface AmiSettings {
  enabled: boolean;
  host: string;
  port: number;
  username: string;
  secret: string;
}

/** Reads the `ami` singleton over its defaults. */
export function readAmiSettings(db: Db): AmiSettings {
  const values = readSingleton(amiDeclaration, { db }, AMI_SETTINGS_KEY);
  return {
    enabled: values.enabled === true,
    host: String(values.host ?? '127.0.0.1'),
    port: Number(values.port ?? 5038),
    username: String(values.username ?? ''),
    secret: String(values.secret ?? ''),
  };
}
