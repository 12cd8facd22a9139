import type { Download, Locator } from 'playwright-core';
import { visible } from '../support/page-helpers.ts';
import { Form, Part, saveBar } from './form.ts';
import { Screen } from './screen.ts';

/** The HTTPS section of Settings: the form and what the running listener reports. */
export class HttpsSection extends Part {
  /** What the listener reports: Not running, Applying…, Running on port N, an alert. */
  get runtime(): Locator {
    return this.root.getByTestId('https-runtime');
  }

  /** A text of the runtime report. */
  status(text: string): Locator {
    return this.runtime.getByText(text);
  }

  /** The refusal the runtime report shows. */
  get alert(): Locator {
    return this.runtime.getByRole('alert');
  }

  /** The fingerprint the console shows. */
  async fingerprint(): Promise<string> {
    return (await this.runtime.locator('code').first().innerText()).trim();
  }

  get serve(): Locator {
    return this.root.getByRole('switch', { name: 'Serve HTTPS' });
  }

  get port(): Locator {
    return this.root.getByRole('textbox', { name: 'HTTPS port' });
  }

  get rekey(): Locator {
    return this.root.getByRole('button', { name: 'New self-signed certificate' });
  }

  /** Saves and waits for the notice. */
  async save(): Promise<void> {
    await saveBar(this.root.page()).click();
    await this.screen.see('HTTPS settings saved');
  }
}

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

  /** Export: the configuration file the browser downloads. */
  async exportConfig(): Promise<Download> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.press('Export')]);
    return download;
  }

  /** Import: picks a file in the file chooser and returns the dialog that previews it. */
  async importConfig(file: string, dialog: string | RegExp): Promise<Form> {
    const [chooser] = await Promise.all([this.page.waitForEvent('filechooser'), this.press('Import')]);
    await chooser.setFiles(file);
    return new Form(this, await visible(this.dialog(dialog)));
  }

  /** The HTTPS section. */
  https(): HttpsSection {
    return new HttpsSection(this, this.page.getByRole('region', { name: 'HTTPS' }));
  }

  /** The CrowdSec link's status (Off, Connected, Not working, last push, queue). */
  crowdsecStatus(): Promise<string> {
    return this.page.getByTestId('crowdsec-link-status').innerText();
  }

  /** The running HTTPS listener's description (with its fingerprint). */
  httpsRuntime(): Promise<string> {
    return this.page.getByTestId('https-runtime').innerText();
  }
}
