import { hostname } from 'node:os';
import { readSingleton } from '../resource-kit/singleton.ts';
import type { BanKind } from '../firewall/model/index.ts';
import { revealSecret, type Db } from '../storage/database.ts';
import { CROWDSEC_LINK_SECRETS, CROWDSEC_LINK_SETTING_KEY } from '../storage/migrations/070-crowdsec-link.ts';
import { CROWDSEC_LINK_FIELDS } from './link-settings-schema.ts';

/** The `crowdsec-link` settings with secrets in clear (web thread only; never sent to clients). */
export interface LinkSettings {
  enabled: boolean;
  url: string;
  siteName: string;
  pushEnabled: boolean;
  machineLogin: string;
  machinePassword: string;
  /** Which of this PBX's bans are shared: categories, plus `manual` when manual bans are. */
  shared: ReadonlySet<BanKind>;
  /** Network-filter deny entries are shared too. */
  shareFilters: boolean;
  pullEnabled: boolean;
  bouncerKey: string;
  republish: boolean;
  pullIntervalMs: number;
}

/** Reads the settings over their defaults, secrets decrypted. */
export function readLinkSettings(db: Db): LinkSettings {
  const values = readSingleton({ fields: CROWDSEC_LINK_FIELDS }, { db }, CROWDSEC_LINK_SETTING_KEY);
  const shared = new Set<BanKind>((values.shareCategories as BanKind[] | undefined) ?? []);
  if (values.shareManual === true) shared.add('manual');
  return {
    enabled: values.enabled === true,
    url: String(values.url ?? ''),
    siteName: String(values.siteName ?? '') || hostname(),
    pushEnabled: values.pushEnabled === true,
    machineLogin: String(values.machineLogin ?? ''),
    machinePassword: revealSecret(db, String(values.machinePassword ?? ''), CROWDSEC_LINK_SECRETS.machinePassword),
    shared,
    shareFilters: values.shareFilters === true,
    pullEnabled: values.pullEnabled === true,
    bouncerKey: revealSecret(db, String(values.bouncerKey ?? ''), CROWDSEC_LINK_SECRETS.bouncerKey),
    republish: values.republish !== false,
    pullIntervalMs: Number(values.pullIntervalSeconds ?? 10) * 1000,
  };
}
