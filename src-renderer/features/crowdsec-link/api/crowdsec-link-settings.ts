import type { Body, RecordOf } from '#shared/contract/types.ts';
import { settingsResource } from '../../../lib/settings-resource.ts';
import { crowdsecLinkStatusKey } from './get-crowdsec-link-status.ts';

import type { BanCategory as SharedCategory } from '#shared/categories.ts';

export type { SharedCategory };

/** The settings as read, and the write-only secrets the form may send. */
export type CrowdsecLinkSettings = RecordOf<'CrowdsecLink'> &
  Pick<Body<'crowdsec-link.patch'>, 'machinePassword' | 'bouncerKey'>;

/** The `crowdsec-link` singleton: the link to an upstream CrowdSec LAPI, applied live. */
export const crowdsecLinkSettings = settingsResource({
  resource: 'crowdsec-link',
  queryKey: ['settings', 'crowdsec-link'],
  alsoInvalidates: [crowdsecLinkStatusKey],
});
