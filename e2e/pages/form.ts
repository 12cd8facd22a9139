import type { Locator } from 'playwright-core';
import { visible } from '../support/page-helpers.ts';
import type { Screen } from './screen.ts';

/** A form (one of the Settings screen, or a dialog's): its fields, its errors, its buttons. */
export class Form {
  constructor(
    readonly screen: Screen,
    readonly root: Locator,
  ) {}

  /** A text field, by its label. */
  field(name: string, exact?: boolean): Locator {
    return this.root.getByRole('textbox', { name, exact });
  }

  /** Fills text fields by label. */
  async fill(fields: Record<string, string>): Promise<void> {
    for (const [name, value] of Object.entries(fields)) await this.root.getByLabel(name).fill(value);
  }

  /** Sets a duration: its number and its unit ("Unit of <name>"). */
  async duration(name: string, value: string, unit: string): Promise<void> {
    await this.field(name).fill(value);
    await this.root.getByRole('combobox', { name: `Unit of ${name.toLowerCase()}` }).selectOption(unit);
  }

  /** Clicks a preset of the "ban-preset" segments (their radios are visually hidden). */
  preset(name: string): Promise<void> {
    return this.root.getByTestId('ban-preset').getByText(name, { exact: true }).click();
  }

  /** A text field of the per-service rule table. */
  categoryRule(name: string): Locator {
    return this.root.getByTestId('category-rules').getByRole('textbox', { name });
  }

  radio(name: string): Locator {
    return this.root.getByRole('radio', { name });
  }

  /** Flips a switch by clicking it. */
  toggle(name: string): Promise<void> {
    return this.root.getByRole('switch', { name }).click();
  }

  /** The whole wrapper of a text field: label, hint and error. */
  wrapper(textbox: string, exact?: boolean): Locator {
    return this.root.locator('.mantine-InputWrapper-root', {
      has: this.screen.page.getByRole('textbox', { name: textbox, exact }),
    });
  }

  /** The first heading of the form (a dialog's title). */
  heading(): Promise<string> {
    return this.root.getByRole('heading').first().innerText();
  }

  /** Ticks a switch or box by its label (Mantine switches hide the input: forced). */
  check(label: string): Promise<void> {
    return this.root.getByLabel(label).check({ force: true });
  }

  save(button: string): Promise<void> {
    return this.root.getByRole('button', { name: button }).click();
  }

  /** The error under a text field. */
  error(textbox: string): Locator {
    return this.screen.fieldError(this.root, textbox);
  }

  /** The error under a field found by its label (a password field is no textbox). */
  errorByLabel(label: string): Locator {
    return this.root
      .locator('.mantine-InputWrapper-root', { has: this.screen.page.getByLabel(label) })
      .locator('.mantine-InputWrapper-error');
  }

  /** The hint under a text field. */
  hint(textbox: string): Locator {
    return this.wrapper(textbox).locator('.mantine-InputWrapper-description');
  }

  byTestId(id: string): Locator {
    return this.root.getByTestId(id);
  }

  button(name: string, exact?: boolean): Locator {
    return this.root.getByRole('button', { name, exact });
  }

  /** A table of the form, by its accessible name. */
  table(name: string): Locator {
    return this.root.getByRole('table', { name });
  }

  /** A list of the form, by its accessible name. */
  list(name: string): Locator {
    return this.root.getByRole('list', { name });
  }

  /** Waits for a text of the form (an error under a field). */
  see(text: string | RegExp): Promise<Locator> {
    return visible(this.root.getByText(text));
  }
}
