import type { Locator, Page } from 'playwright-core';
import { chooseOption, eventually, openScreen, transitionsEnded, visible } from '../support/page-helpers.ts';

/** Whatever holds the browser page: a console session (read once the tests run) or `{ page }`. */
export interface PageHolder {
  readonly page: Page;
}

/** What every screen of the console shares: the side bar, dialogs, row menus and notices. */
export class Screen {
  constructor(private readonly holder: PageHolder) {}

  get page(): Page {
    return this.holder.page;
  }

  /** Follows a side-bar link, as an operator would, and waits for the screen's heading. */
  open(name: string): Promise<void> {
    return openScreen(this.page, name);
  }

  /** Follows a link inside the page (a tab of a screen) and waits for the heading it leads to. */
  async follow(link: string, heading: string): Promise<void> {
    await this.page.getByRole('link', { name: link }).click();
    await visible(this.page.getByRole('heading', { level: 1, name: heading }));
  }

  /** The colour scheme the console applied ('light' or 'dark'). */
  colorScheme(): Promise<string | null> {
    return this.page.locator('html').getAttribute('data-mantine-color-scheme');
  }

  /** Every button, link and input of the main area (for layout checks). */
  controls(): Locator {
    return this.page.locator('main button, main a, main input');
  }

  /** The paragraph inside an element (where a cell's colour is set). */
  paragraph(scope: Locator): Locator {
    return scope.locator('p');
  }

  /** A dialog by its title; any dialog without one. */
  dialog(name?: string | RegExp): Locator {
    return name === undefined ? this.page.getByRole('dialog') : this.page.getByRole('dialog', { name });
  }

  /** Presses a button that opens a dialog and returns the dialog once it is shown. */
  async pressForDialog(button: string, title: string = button): Promise<Locator> {
    await this.press(button);
    return visible(this.dialog(title));
  }

  /** The content box of the open modal (for its opening transition). */
  modal(): Locator {
    return this.page.locator('.mantine-Modal-content');
  }

  /** Waits for the open modal's opening transition to end (axe would measure half-faded text). */
  async settled(): Promise<void> {
    // Runs in the page, which has getComputedStyle; the e2e tsconfig has no DOM types.
    const opacity = () =>
      this.modal().evaluate(
        (element) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): { opacity: string } }).getComputedStyle(element)
            .opacity,
      );
    await eventually(opacity, (value) => value === '1', 'the dialog fully shown');
  }

  /** Waits until no finite animation or transition runs (a hover's colour change, a toast's slide). */
  transitionsEnded(): Promise<void> {
    return transitionsEnded(this.page);
  }

  /** A screen's level-1 heading. */
  heading(name: string, exact?: boolean): Locator {
    return this.page.getByRole('heading', { level: 1, name, exact });
  }

  /** How many "Loading …" states are shown. */
  loading(): Promise<number> {
    return this.page.getByText(/^Loading .+…$/).count();
  }

  /** The buttons and links of every row with a test id. */
  rowControls(testId: string): Locator {
    return this.page.getByTestId(testId).locator('button, a');
  }

  /**
   * Waits until every dialog is gone, however many close at once (a confirmation still fading out
   * while the dialog it opened closes): `first()` is looked up again at each check.
   */
  dialogsClosed(): Promise<void> {
    return this.page.getByRole('dialog').first().waitFor({ state: 'detached' });
  }

  /** A button of the page, by its accessible name. */
  button(name: string | RegExp, exact?: boolean): Locator {
    return this.page.getByRole('button', { name, exact });
  }

  /** Presses a button of the page. */
  press(name: string | RegExp, exact?: boolean): Promise<void> {
    return this.button(name, exact).click();
  }

  /** A text of the page: a notice, an empty state, a label. */
  text(text: string | RegExp, exact?: boolean): Locator {
    return this.page.getByText(text, { exact });
  }

  /** A text inside an element (a dialog, a row). */
  textIn(scope: Locator, text: string | RegExp): Locator {
    return scope.getByText(text);
  }

  /** Waits for a text (a notice, an empty state) to be shown and returns it. */
  see(text: string | RegExp): Promise<Locator> {
    return visible(this.text(text));
  }

  /** The element with a test id, narrowed to those containing a text. */
  byTestId(id: string, hasText?: string | RegExp): Locator {
    const all = this.page.getByTestId(id);
    return hasText === undefined ? all : all.filter({ hasText });
  }

  /** Opens the "Actions for <subject>" menu of a row and picks an item. */
  async rowAction(subject: string | RegExp, item: string, scope: Locator | Page = this.page): Promise<void> {
    const name = typeof subject === 'string' ? `Actions for ${subject}` : subject;
    await scope.getByRole('button', { name }).click();
    await this.page.getByRole('menuitem', { name: item }).click();
  }

  /** Presses a button of a dialog (any dialog without a title). */
  async confirm(button: string, dialog?: string | RegExp): Promise<void> {
    await this.dialog(dialog).getByRole('button', { name: button }).click();
  }

  /** Picks an option of a combobox (a Mantine Select) in `scope`. */
  choose(name: string, option: string, scope: Locator | Page = this.page): Promise<void> {
    return chooseOption(this.page, scope.getByRole('combobox', { name }), option);
  }

  /** An option of the open combobox list. */
  option(name: string | RegExp): Locator {
    return this.page.getByRole('option', { name });
  }

  /** The texts of the options a combobox offers, once it is open. */
  options(): Promise<string[]> {
    return this.page.getByRole('option').allInnerTexts();
  }

  /** The error shown under a form field, found by the field's textbox name. */
  fieldError(scope: Locator, textbox: string): Locator {
    return scope
      .locator('.mantine-InputWrapper-root', { has: this.page.getByRole('textbox', { name: textbox, exact: true }) })
      .locator('.mantine-InputWrapper-error');
  }

  /** Every field error shown in `scope`. */
  errors(scope: Locator | Page = this.page): Locator {
    return scope.locator('.mantine-InputWrapper-error');
  }
}
