import type { Page } from 'playwright-core';
import { eventually, openScreen, readClipboard, visible } from './page-helpers.ts';

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

/** Names of the backend radios in the key dialog. */
export const BACKEND_RADIO = { iptables: 'iptables + ipset (recommended)', nftables: 'nftables' } as const;

/**
 * Creates a firewall-bouncer key as an operator does: API keys screen, New API key, the backend and
 * a filter for the bouncer host, then copies the key's configuration and closes the dialog.
 */
export async function createBouncerKeyInConsole(page: Page, request: BouncerKeyRequest): Promise<IssuedBouncerKey> {
  await openScreen(page, 'API keys');
  await page.getByRole('button', { name: 'New API key' }).click();
  const dialog = await visible(page.getByRole('dialog', { name: 'New API key' }));
  await dialog.getByLabel('Description').fill(request.description);
  await dialog.getByRole('radio', { name: 'Firewall bouncer: read-only firewall export' }).check();
  await dialog.getByRole('radio', { name: BACKEND_RADIO[request.backend], exact: true }).check();
  await dialog.getByRole('button', { name: 'New filter for the bouncer host' }).click();
  await dialog.getByLabel('Bouncer host IP').fill(request.bouncerHostIp);
  await dialog.getByRole('button', { name: 'Create filter' }).click();
  await eventually(
    () => dialog.getByRole('combobox', { name: 'Allowed source' }).inputValue(),
    (v) => v.startsWith(`${request.bouncerHostIp}/`),
    'the new filter to be selected',
  );
  await dialog.getByRole('button', { name: 'Create key' }).click();

  const issued = await visible(page.getByTestId('issued-key'));
  const apiKey = (await issued.locator('code').first().innerText()).trim();
  if (request.apiHost) {
    await issued.getByRole('combobox', { name: 'Address the bouncer host reaches this server on' }).click();
    await page.getByRole('option', { name: 'Another host name or address…' }).click();
    await issued.getByLabel('Host name or address').fill(request.apiHost);
  }
  await issued.getByRole('button', { name: 'Copy bouncer configuration' }).click();
  const yaml = await eventually(
    () => readClipboard(page),
    (text) => text.includes(`api_key: ${apiKey}`),
    'the configuration on the clipboard',
  );
  await page.getByRole('button', { name: 'I have copied it' }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  return { apiKey, yaml };
}
