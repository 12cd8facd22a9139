import type { Locator } from 'playwright-core';
import { Screen } from './screen.ts';

/** The Dashboard: bouncers, ban counts, the AMI state. */
export class DashboardScreen extends Screen {
  show(): Promise<void> {
    return this.open('Dashboard');
  }

  /** A bouncer's row, by its key's description. */
  bouncer(description: string): Locator {
    return this.byTestId('bouncer-row', description);
  }

  /** The count of active bans of a category (http, sip, manual...). */
  banCount(category: string): Promise<string> {
    return this.page.getByTestId(`ban-count-${category}`).innerText();
  }

  /** Waits for a bar of a category in the ban history chart. */
  chartBar(series: string): Promise<void> {
    return this.page
      .locator(`svg[aria-labelledby="ban-history-title"] rect[data-series="${series}"]`)
      .first()
      .waitFor();
  }

  amiState(): Promise<string> {
    return this.page.getByTestId('ami-state').innerText();
  }
}
