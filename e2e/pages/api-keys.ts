import type { Locator } from 'playwright-core';
import { eventually, readClipboard, visible } from '../support/page-helpers.ts';
import { Part } from './form.ts';
import { Screen } from './screen.ts';

/** Names of the backend radios in the key dialog. */
const BACKEND_RADIO = { iptables: 'iptables + ipset (recommended)', nftables: 'nftables' } as const;

/** Names of the "what the key is for" radios. */
const PURPOSE_RADIO = {
  firewallBouncer: 'Firewall bouncer: read-only firewall export',
  customBouncer: 'crowdsec-custom-bouncer (your script)',
  routerFeed: 'Router feed: blocklist for routers and firewalls',
} as const;

export const LOCALHOST_SOURCE = 'This computer only (localhost)';

/** The "New API key" dialog, before the key exists. */
class NewKeyDialog extends Part<ApiKeysScreen> {
  describe(text: string): Promise<void> {
    return this.root.getByLabel('Description').fill(text);
  }

  purpose(which: keyof typeof PURPOSE_RADIO): Locator {
    return this.root.getByRole('radio', { name: PURPOSE_RADIO[which] });
  }

  backend(which: keyof typeof BACKEND_RADIO): Locator {
    return this.root.getByRole('radio', { name: BACKEND_RADIO[which], exact: true });
  }

  /** The "Allowed source" combobox. */
  get source(): Locator {
    return this.root.getByRole('combobox', { name: 'Allowed source' });
  }

  chooseSource(option: string): Promise<void> {
    return this.screen.choose('Allowed source', option, this.root);
  }

  /** Opens the inline "New filter for the bouncer host" form. */
  openBouncerHostFilter(): Promise<void> {
    return this.root.getByRole('button', { name: 'New filter for the bouncer host' }).click();
  }

  /** Creates a filter for the bouncer host inline and waits for it to become the key's source. */
  async newBouncerHostFilter(ip: string, selected = `${ip}/`): Promise<void> {
    await this.openBouncerHostFilter();
    await this.createBouncerHostFilter(ip, selected);
  }

  /** Fills the open inline filter form and waits for the new filter to become the key's source. */
  async createBouncerHostFilter(ip: string, selected = `${ip}/`): Promise<void> {
    await this.root.getByLabel('Bouncer host IP').fill(ip);
    await this.root.getByRole('button', { name: 'Create filter' }).click();
    await eventually(
      () => this.source.inputValue(),
      (v) => v.startsWith(selected),
      'the new filter to be selected',
    );
  }

  /** Presses "Create key" (the form may refuse it). */
  submit(): Promise<void> {
    return this.root.getByRole('button', { name: 'Create key' }).click();
  }

  /** Presses "Create key" and returns the panel that shows the new key once. */
  async create(): Promise<IssuedKey> {
    await this.submit();
    return this.screen.issued();
  }
}

/** The panel that shows a new key value once, with its configurations. */
class IssuedKey extends Part {
  /** The key value shown. */
  async value(): Promise<string> {
    return (await this.root.locator('code').first().innerText()).trim();
  }

  /** The "Address the bouncer host reaches this server on" combobox. */
  get address(): Locator {
    return this.root.getByRole('combobox', { name: 'Address the bouncer host reaches this server on' });
  }

  /** Opens the address list and picks an API URL (exactly as offered). */
  async chooseAddress(url: string): Promise<void> {
    await this.address.click();
    await this.screen.option(url).click();
  }

  /** Types a host the bouncer reaches this server by ("Another host name or address…"). */
  async anotherHost(host: string): Promise<void> {
    await this.address.click();
    await this.screen.option('Another host name or address…').click();
    await this.hostField.fill(host);
  }

  get hostField(): Locator {
    return this.root.getByLabel('Host name or address');
  }

  /** Opens a combobox of the panel and picks an option (from the list that opens in a portal). */
  async pick(combobox: string, option: string | RegExp): Promise<void> {
    await this.root.getByRole('combobox', { name: combobox }).click();
    await this.screen.option(option).click();
  }

  /** One of the configuration switches: "Firewall bouncer", "Custom bouncer", "curl check". */
  tab(name: string): Locator {
    return this.root.getByText(name, { exact: true });
  }

  /** Presses a copy button and waits until the clipboard holds what `accept` wants. */
  async copy(button: string, accept: (text: string) => boolean, what: string): Promise<string> {
    await this.button(button).click();
    return eventually(() => readClipboard(this.screen.page), accept, what);
  }

  /** "I have copied it": the value is gone for good. */
  async close(): Promise<void> {
    await this.screen.press('I have copied it');
    await this.screen.dialogsClosed();
  }
}

/** The API keys screen. */
export class ApiKeysScreen extends Screen {
  show(): Promise<void> {
    return this.open('API keys');
  }

  async openNew(): Promise<NewKeyDialog> {
    return new NewKeyDialog(this, await this.pressForDialog('New API key'));
  }

  /** Opens "New API key" and fills what every key says: its description, what it is for and where it is used from. */
  async fillNew(key: {
    description: string;
    purpose: keyof typeof PURPOSE_RADIO;
    source: string;
  }): Promise<NewKeyDialog> {
    const dialog = await this.openNew();
    await dialog.describe(key.description);
    await dialog.purpose(key.purpose).check();
    await dialog.chooseSource(key.source);
    return dialog;
  }

  /** Fills "New API key" as `fillNew` does, presses "Create key" and returns the panel showing the new key once. */
  async createKey(key: Parameters<ApiKeysScreen['fillNew']>[0]): Promise<IssuedKey> {
    return (await this.fillNew(key)).create();
  }

  /** The panel showing a key value once (after Create key or Rotate). */
  async issued(): Promise<IssuedKey> {
    return new IssuedKey(this, await visible(this.page.getByTestId('issued-key')));
  }

  /** A part of the issued-key dialog by its test id (the "router-feed" panel), with the same helpers. */
  async panel(testId: string): Promise<IssuedKey> {
    return new IssuedKey(this, await visible(this.page.getByTestId(testId)));
  }

  /** Every key row, or the one with a description. */
  row(description?: string): Locator {
    return this.byTestId('api-key-row', description);
  }

  /** The status badge of a key: Active, Disabled, Expired. */
  status(description: string): Promise<string | null> {
    return this.row(description).getByTestId('api-key-status').textContent();
  }

  /** A key's expiry cell ("Never" or a date). */
  expiry(description: string): Locator {
    return this.row(description).getByTestId('api-key-expiry');
  }

  /** In the open Details dialog: a place the key was used from. */
  usedFrom(address: string): Locator {
    return this.page.getByTestId('api-key-details').getByTestId('api-key-source').filter({ hasText: address });
  }

  /** Picks an item of a key's actions menu. */
  action(description: string, item: string): Promise<void> {
    return this.rowAction(description, item);
  }

  /** Opens a key's details: from its actions menu, or its own Details button where there is one. */
  async openDetails(row: Locator): Promise<void> {
    await row
      .getByRole('button', { name: /Actions for|Details/ })
      .first()
      .click();
    // A row menu opens with an animation: wait for its item (or the dialog, where the button opens it directly).
    const details = this.page.getByRole('menuitem', { name: 'Details' });
    await details.or(this.page.getByRole('dialog')).first().waitFor({ state: 'visible' });
    if (await details.isVisible()) await details.click();
  }

  /** Rotate… then the confirmation: the new value is shown once. */
  async rotate(description: string): Promise<IssuedKey> {
    await this.action(description, 'Rotate…');
    await this.confirm('Rotate key', /Rotate/);
    return this.issued();
  }

  /** Disable… then the confirmation. */
  async disable(description: string): Promise<void> {
    await this.action(description, 'Disable…');
    await this.confirm('Disable key', /Disable/);
  }
}
