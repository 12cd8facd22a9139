import type { Locator } from 'playwright-core';
import { visible } from '../support/page-helpers.ts';
import { Part } from './form.ts';
import { Screen } from './screen.ts';

interface BanFields {
  address?: string;
  duration?: string;
  /** 'min', 'h', 'd'... or 'Permanent'. */
  unit?: string;
  reason?: string;
  /** Services whose box is cleared ("Web (console and API)", "AMI"...). */
  spare?: string[];
}

/** The "Ban an address" dialog. */
class BanDialog extends Part {
  get address(): Locator {
    return this.root.getByLabel('Address or network');
  }

  get duration(): Locator {
    return this.root.getByLabel('Duration', { exact: true });
  }

  async fill(fields: BanFields): Promise<void> {
    if (fields.address !== undefined) await this.address.fill(fields.address);
    if (fields.duration !== undefined) await this.duration.fill(fields.duration);
    if (fields.unit !== undefined) await this.root.getByLabel('Unit of duration').selectOption(fields.unit);
    if (fields.reason !== undefined) await this.root.getByLabel('Reason (optional)').fill(fields.reason);
    for (const service of fields.spare ?? []) await this.root.getByLabel(service, { exact: true }).uncheck();
  }

  /** Presses Ban (the server may refuse it). */
  submit(): Promise<void> {
    return this.root.getByRole('button', { name: 'Ban', exact: true }).click();
  }
}

/** The "Import bans" and "Export bans" dialogs. */
class BanListDialog extends Part {
  /** Picks the list's format (options open in a portal). */
  async format(option: RegExp): Promise<void> {
    await this.root.getByRole('combobox', { name: 'Format' }).click();
    await this.screen.option(option).click();
  }

  /** Pastes the list to import. */
  list(text: string): Promise<void> {
    return this.root.getByLabel('List').fill(text);
  }

  /** Buttons here are matched exactly ("Import" is not "Import bans"). */
  override button(name: string, exact = true): Locator {
    return super.button(name, exact);
  }

  /** The refusal shown after a preview. */
  alert(): Promise<Locator> {
    return visible(this.root.getByRole('alert'));
  }

  /** What the preview says would be imported. */
  outcome(): Promise<Locator> {
    return visible(this.root.getByTestId('import-outcome'));
  }

  /** Presses Download and returns the downloaded file's path. */
  async download(): Promise<string | null> {
    const [download] = await Promise.all([this.screen.page.waitForEvent('download'), this.button('Download').click()]);
    return download.path();
  }
}

/** The Bans screen (active bans) and its Ban history tab. */
export class BansScreen extends Screen {
  show(): Promise<void> {
    return this.open('Bans');
  }

  async openBan(): Promise<BanDialog> {
    return new BanDialog(this, await this.pressForDialog('Ban an address'));
  }

  /** Bans through the dialog and waits for it to close. */
  async ban(fields: BanFields): Promise<void> {
    const dialog = await this.openBan();
    await dialog.fill(fields);
    await dialog.submit();
    await this.dialogsClosed();
  }

  async openImport(): Promise<BanListDialog> {
    return new BanListDialog(this, await this.pressForDialog('Import…', 'Import bans'));
  }

  async openExport(): Promise<BanListDialog> {
    return new BanListDialog(this, await this.pressForDialog('Export…', 'Export bans'));
  }

  /** Every active ban row, or those containing a text. */
  row(hasText?: string | RegExp): Locator {
    return this.byTestId('ban-row', hasText);
  }

  /** A row's countdown ("29 min 59 s", "Permanent"). */
  timeLeft(row: Locator): Locator {
    return row.getByTestId('ban-time-left');
  }

  /** Unban from the row, then the confirmation. */
  async unban(ip: string): Promise<void> {
    await this.row(ip)
      .getByRole('button', { name: `Unban ${ip}` })
      .click();
    await this.confirm('Unban');
  }

  /** "Unban and whitelist" on a row: opens its dialog. */
  unbanAndWhitelist(ip: string): Promise<void> {
    return this.row(ip)
      .getByRole('button', { name: `Unban and whitelist ${ip}` })
      .click();
  }

  /** The "3rd ban" rank of a row, or of every row shown. */
  banNumber(row?: Locator): Locator {
    return (row ?? this.page).getByTestId('ban-number');
  }

  /** The "Escalated from 5 bans" mark of a row (a subnet ban that replaced single bans). */
  escalatedMark(row: Locator): Locator {
    return row.getByTestId('ban-escalated');
  }

  /** The Delivered cell of a row ("1 of 1 bouncer", "No bouncer"). */
  delivery(ip: string): Locator {
    return this.row(ip).getByTestId('ban-delivery');
  }

  /** The "Why is this address blocked?" field. */
  get lookupField(): Locator {
    return this.page.getByRole('textbox', { name: 'Address' });
  }

  /** Asks "Why is this address blocked?" (the answer may be an error under the field). */
  async lookUp(address: string): Promise<void> {
    await this.lookupField.fill(address);
    await this.press('Look up');
  }

  /** Every lookup answer, or the one about an address. */
  lookupAnswer(address?: string): Locator {
    return this.byTestId('lookup-answer', address);
  }

  /** The decisions of an answer (or of every answer shown). */
  lookupDecision(answer?: Locator): Locator {
    return (answer ?? this.page).getByTestId('lookup-decision');
  }

  /** What protects the address, in an answer (or in every answer shown). */
  lookupProtection(answer?: Locator): Locator {
    return (answer ?? this.page).getByTestId('lookup-protection');
  }

  /** The element with a DOM id (an error a field is described by). */
  byId(id: string): Locator {
    return this.page.locator(`[id="${id}"]`);
  }

  /** A category chip of the active bans ("All (3)", "SIP (0)"). */
  category(name: RegExp): Promise<void> {
    return this.page.getByText(name).click();
  }

  /** Searches the active bans on the server (address, reason or who banned). */
  filterByIp(text: string): Promise<void> {
    return this.page.getByRole('searchbox', { name: 'Search' }).fill(text);
  }

  /** "1–50 of 3,000" under the active bans (or the history). */
  pageRange(): Promise<Locator> {
    return this.see(/^[\d,]+–[\d,]+ of [\d,]+$/);
  }

  /** Next or Previous page. */
  turnPage(direction: 'Next' | 'Previous'): Promise<void> {
    return this.press(direction, true);
  }

  /** The tick box of a row, or of every row shown ('all'). */
  select(ip: string | 'all'): Promise<void> {
    const name = ip === 'all' ? 'Select all bans shown' : `Select ${ip}`;
    return this.page.getByRole('checkbox', { name, exact: true }).check();
  }

  get unbanSelected(): Locator {
    return this.button(/^Unban selected/);
  }

  showHistory(): Promise<void> {
    return this.follow('Ban history', 'Ban history');
  }

  showActive(): Promise<void> {
    return this.follow('Active bans', 'Bans');
  }

  /** Every row of the ban history, or those containing a text. */
  historyRow(hasText?: string | RegExp): Locator {
    return this.byTestId('ban-log-row', hasText);
  }

  searchHistory(text: string): Promise<void> {
    return this.page.getByLabel('Search').fill(text);
  }
}
