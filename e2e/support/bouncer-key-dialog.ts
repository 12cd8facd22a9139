import type { Page } from 'playwright-core';
import { ApiKeysScreen } from '../pages/api-keys.ts';

export interface BouncerKeyRequest {
  description: string;
  backend: 'iptables' | 'nftables';
  /** The bouncer host's IP: the key is bound to a new filter for it, created in the dialog. */
  bouncerHostIp: string;
  /** Typed as "Another host name or address" for api_url; the first address offered otherwise. */
  apiHost?: string;
}

export interface IssuedBouncerKey {
  apiKey: string;
  /** The crowdsec-firewall-bouncer configuration, as the dialog's copy button put it on the clipboard. */
  yaml: string;
}

/**
 * Creates a firewall-bouncer key as an operator does: API keys screen, New API key, the backend and
 * a filter for the bouncer host, then copies the key's configuration and closes the dialog.
 */
export async function createBouncerKeyInConsole(page: Page, request: BouncerKeyRequest): Promise<IssuedBouncerKey> {
  const keys = new ApiKeysScreen({ page });
  await keys.show();
  const dialog = await keys.openNew();
  await dialog.describe(request.description);
  await dialog.purpose('firewallBouncer').check();
  await dialog.backend(request.backend).check();
  await dialog.newBouncerHostFilter(request.bouncerHostIp);
  const issued = await dialog.create();
  const apiKey = await issued.value();
  if (request.apiHost) await issued.anotherHost(request.apiHost);
  const yaml = await issued.copy(
    'Copy bouncer configuration',
    (text) => text.includes(`api_key: ${apiKey}`),
    'the configuration on the clipboard',
  );
  await issued.close();
  return { apiKey, yaml };
}
