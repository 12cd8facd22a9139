import type { Locator } from 'playwright-core';
import { Screen } from './screen.ts';

/** The Whitelist screen: the fail2ban whitelist editor, its entries and the effective list bouncers get. */
export class WhitelistScreen extends Screen {
  show(): Promise<void> {
    return this.open('Whitelist');
  }

  /** The effective list, as bouncers get it from /v1/whitelist. */
  get effective(): Locator {
    return this.page.getByTestId('effective-whitelist');
  }

  /** The texts of the effective list's entries. */
  async effectiveEntries(): Promise<string[]> {
    return (await this.effective.locator('[data-entry]').allInnerTexts()).map((t) => t.trim());
  }

  /** Types entries in the "Whitelisted addresses" field, each followed by Enter. */
  async type(...entries: string[]): Promise<void> {
    const input = this.page.getByRole('combobox', { name: 'Whitelisted addresses' });
    for (const entry of entries) {
      await input.fill(entry);
      await input.press('Enter');
    }
  }

  save(): Promise<void> {
    return this.press('Save whitelist');
  }

  /** Every entry row, or those containing a text. */
  entry(hasText?: string): Locator {
    return this.byTestId('whitelist-entry', hasText);
  }
}
