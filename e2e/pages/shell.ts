import type { Locator } from 'playwright-core';
import { Screen } from './screen.ts';

/** What surrounds every screen: the header badges, the connection banner, the side bar. */
export class ShellScreen extends Screen {
  /** The app-wide "server cannot be reached" banner. */
  get connectionBanner(): Locator {
    return this.page.getByTestId('connection-banner');
  }

  /** The header's "Offline" badge. */
  get offlineBadge(): Locator {
    return this.page.getByTestId('offline-badge');
  }

  /** The header's "Local" badge (this machine, no sign-in). */
  get localBadge(): Locator {
    return this.text('Local', true);
  }

  /** Toasts containing a text. */
  toasts(hasText: string | RegExp): Locator {
    return this.page.locator('.mantine-Notification-root').filter({ hasText });
  }

  /** Clicks a side-bar link without waiting for the screen (a guard may keep the page). */
  navigate(name: string): Promise<void> {
    return this.page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name }).click();
  }
}
