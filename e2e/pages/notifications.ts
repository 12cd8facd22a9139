import type { Locator } from 'playwright-core';
import { visible } from '../support/page-helpers.ts';
import { Screen } from './screen.ts';

/** Notifications: channels (with "Send a test" and the last result) and rules. */
export class NotificationsScreen extends Screen {
  show(): Promise<void> {
    return this.open('Notifications');
  }

  /** A channel's row (or card on a narrow screen). */
  channel(name: string): Locator {
    return this.byTestId('channel-row', name);
  }

  rule(name: string): Locator {
    return this.byTestId('rule-row', name);
  }

  /** The last result shown for a channel. */
  lastResult(name: string): Promise<string> {
    return this.channel(name).getByTestId('channel-last-result').innerText();
  }

  /** A field of the open dialog by its label (a required one's ends with " *"). */
  field(dialog: Locator, label: string): Locator {
    const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return dialog.getByLabel(new RegExp(`^${escaped}( \\*)?$`));
  }

  /** Opens a combobox of the dialog and picks an option, by tap (touch) or click. */
  async pick(dialog: Locator, combobox: string, option: string, touch: boolean): Promise<void> {
    const box = dialog.getByRole('combobox', { name: combobox });
    await (touch ? box.tap() : box.click());
    const item = await visible(this.page.getByRole('option', { name: option, exact: true }));
    await (touch ? item.tap() : item.click());
  }
}
