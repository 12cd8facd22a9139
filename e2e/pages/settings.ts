import type { Locator } from 'playwright-core';
import { visible } from '../support/page-helpers.ts';
import { Form } from './form.ts';
import { Screen } from './screen.ts';

/** The Settings screen. */
export class SettingsScreen extends Screen {
  show(): Promise<void> {
    return this.open('Settings');
  }

  /** A form by its accessible name ("AMI connection", "Ban rules", "Queue limits"...). */
  async form(name: string): Promise<Form> {
    return new Form(this, await visible(this.page.getByRole('form', { name })));
  }

  /** A form that is not on this screen (a dialog's), with the same helpers. */
  formIn(root: Locator): Form {
    return new Form(this, root);
  }

  /** The running HTTPS listener's description (with its fingerprint). */
  httpsRuntime(): Promise<string> {
    return this.page.getByTestId('https-runtime').innerText();
  }
}
