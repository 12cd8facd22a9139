import { settingsResource } from '../../../lib/settings-resource.ts';
import { crowdsecLinkStatusKey } from './get-crowdsec-link-status.ts';

import type { BanCategory as SharedCategory } from '../../../../src-shared/categories.ts';

export type { SharedCategory };

export interface CrowdsecLinkSettings {
  enabled: boolean;
  url: string;
  siteName: string;
  pushEnabled: boolean;
  machineLogin: string;
  /** Write-only: never read back. */
  machinePassword?: string;
  shareCategories: SharedCategory[];
  shareManual: boolean;
  shareFilters: boolean;
  pullEnabled: boolean;
  /** Write-only: never read back. */
  bouncerKey?: string;
  republish: boolean;
  pullIntervalSeconds: number;
}

/** The `crowdsec-link` singleton: the link to an upstream CrowdSec LAPI, applied live. */
export const crowdsecLinkSettings = settingsResource<CrowdsecLinkSettings>({
  path: 'crowdsec-link',
  queryKey: ['settings', 'crowdsec-link'],
  alsoInvalidates: [crowdsecLinkStatusKey],
});
