import type { Locator } from 'playwright-core';
import { Screen } from './screen.ts';

/** The sign-in screen a remote browser gets, and the header's session controls. */
export class LoginScreen extends Screen {
  /** The sign-in screen's heading. */
  get signInHeading(): Locator {
    return this.page.getByRole('heading', { name: 'Sign in to PBX Console' });
  }

  get password(): Locator {
    return this.page.getByRole('textbox', { name: 'Password' });
  }

  /** Types a password and presses Sign in. */
  async signIn(password: string): Promise<void> {
    await this.password.fill(password);
    await this.press('Sign in');
  }

  /** Types a password and presses Enter in the field (keyboard only). */
  async signInWithEnter(password: string): Promise<void> {
    await this.password.fill(password);
    await this.password.press('Enter');
  }

  /** The header's "signed in as". */
  get signedInAs(): Locator {
    return this.page.getByTestId('signed-in-as');
  }

  /** The header's Sign out button. */
  get signOut(): Locator {
    return this.button('Sign out');
  }

  /** The toasts shown. */
  toasts(): Locator {
    return this.page.locator('.mantine-Notification-root');
  }
}
