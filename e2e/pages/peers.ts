import type { Locator } from 'playwright-core';
import { visible } from '../support/page-helpers.ts';
import { Form } from './form.ts';
import { Screen } from './screen.ts';

/** The Peers screen: extensions and providers with their live states. */
export class PeersScreen extends Screen {
  show(): Promise<void> {
    return this.open('Peers');
  }

  extension(number: string): Locator {
    return this.byTestId('extension-row', number);
  }

  provider(description: string): Locator {
    return this.byTestId('provider-row', description);
  }

  /** The state a row shows: OK, UNKNOWN... */
  state(row: Locator): Promise<string> {
    return row.getByTestId('peer-state').innerText();
  }

  tab(name: RegExp): Promise<void> {
    return this.page.getByRole('tab', { name }).click();
  }

  /** Opens an extension's detail page from its number. */
  async openExtension(number: string): Promise<void> {
    await this.extension(number).getByRole('link', { name: number, exact: true }).click();
    await visible(this.page.getByRole('heading', { name: `Extension ${number}` }));
  }

  /** "New extension" (the first of the page's buttons so named): its form. */
  async openNewExtension(): Promise<Form> {
    await this.button('New extension').first().click();
    return new Form(this, await visible(this.dialog('New extension')));
  }

  /** Edit from an extension row's menu: its form. */
  async editExtension(number: string): Promise<Form> {
    await this.rowAction(/Actions for/, 'Edit', this.extension(number));
    return new Form(this, await visible(this.dialog(`Edit extension ${number}`)));
  }

  /** Delete from an extension row's menu, then the confirmation. */
  async deleteExtension(number: string): Promise<void> {
    await this.rowAction(/Actions for/, 'Delete', this.extension(number));
    await this.confirm('Delete extension', `Delete extension ${number}?`);
    await this.dialogsClosed();
  }

  /** The values of the open peer's detail list, by a pattern. */
  detailValues(text: RegExp): Locator {
    return this.page.locator('dd').filter({ hasText: text });
  }

  link(name: string): Locator {
    return this.page.getByRole('link', { name });
  }

  /** The detail list of the open extension. */
  details(): Promise<string> {
    return this.page.locator('dl').innerText();
  }
}
