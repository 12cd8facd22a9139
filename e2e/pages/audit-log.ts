import type { Locator } from 'playwright-core';
import { visible } from '../support/page-helpers.ts';
import { Screen } from './screen.ts';

/** The Audit log screen. */
export class AuditLogScreen extends Screen {
  show(): Promise<void> {
    return this.open('Audit log');
  }

  /** Every entry shown, or those containing a text. */
  rows(hasText?: string | RegExp): Locator {
    return this.byTestId('audit-row', hasText);
  }

  /** Opens an entry's changed fields and returns their table. */
  async changes(row: Locator): Promise<Locator> {
    await row.getByRole('button', { name: /Show \d+ changes/ }).click();
    return visible(row.getByRole('table', { name: 'Changed fields' }));
  }

  /** "3 attempts, the last at …" of a repeated entry. */
  repeats(row: Locator): Promise<string> {
    return row.getByTestId('audit-repeats').innerText();
  }

  /** Sets the end of the date range ('' clears it). */
  until(value: string): Promise<void> {
    return this.page.getByLabel('To', { exact: true }).fill(value);
  }

  showKind(kind: string): Promise<void> {
    return this.choose('Kind', kind);
  }

  /** Presses Export CSV and returns the file's name and text. */
  async exportCsv(): Promise<{ name: string; path: string }> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.press('Export CSV')]);
    return { name: download.suggestedFilename(), path: await download.path() };
  }
}
