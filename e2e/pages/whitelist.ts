import type { Locator } from 'playwright-core';
import { Screen } from './screen.ts';

/** The Whitelist screen: the one whitelist (entries with comment and end) and the effective list bouncers get. */
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

  /** Opens "Add to whitelist", types an address and, when given, a comment; returns the dialog (not yet saved). */
  async add(address: string, comment?: string): Promise<Locator> {
    const dialog = await this.pressForDialog('Add to whitelist');
    await dialog.getByLabel('Address or network').fill(address);
    if (comment !== undefined) await dialog.getByLabel('Comment').fill(comment);
    return dialog;
  }

  /** Every entry row, or those containing a text. */
  entry(hasText?: string): Locator {
    return this.byTestId('whitelist-entry', hasText);
  }
}
