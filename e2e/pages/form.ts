import type { Locator, Page } from 'playwright-core';
import { visible } from '../support/page-helpers.ts';
import type { Screen } from './screen.ts';

/** A part of a screen (a dialog, a panel, a form): what every part offers. */
export class Part<S extends Screen = Screen> {
  constructor(
    readonly screen: S,
    readonly root: Locator,
  ) {}

  button(name: string, exact?: boolean): Locator {
    return this.root.getByRole('button', { name, exact });
  }

  text(text: string | RegExp): Locator {
    return this.root.getByText(text);
  }

  /** Waits for a text of the part (an error from the form, a notice) and returns it. */
  see(text: string | RegExp): Promise<Locator> {
    return visible(this.text(text));
  }

  /** An element with a test id, narrowed to those containing a text. */
  byTestId(id: string, hasText?: string): Locator {
    const all = this.root.getByTestId(id);
    return hasText === undefined ? all : all.filter({ hasText });
  }
}

/** A form (one of the Settings screen, or a dialog's): its fields, its errors, its buttons. */
export class Form extends Part {
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

  /** Turns a switch on. */
  switchOn(name: string): Promise<void> {
    return this.root.getByRole('switch', { name }).check();
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

  async save(button: string): Promise<void> {
    const own = this.root.getByRole('button', { name: button });
    if (await own.count()) return own.click();
    // Settings has one save bar for all its forms instead of a button under each.
    return saveBar(this.root.page()).click();
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

  /** A table of the form, by its accessible name. */
  table(name: string): Locator {
    return this.root.getByRole('table', { name });
  }

  /** A list of the form, by its accessible name. */
  list(name: string): Locator {
    return this.root.getByRole('list', { name });
  }
}

/** The "Save changes" button of a page's save bar (Settings). */
export function saveBar(page: Page): Locator {
  return page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save changes' });
}
