import type { Locator } from 'playwright-core';
import { visible } from '../support/page-helpers.ts';
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

  /** The detail list of the open extension. */
  details(): Promise<string> {
    return this.page.locator('dl').innerText();
  }
}
