import type { Locator } from 'playwright-core';
import { Screen } from './screen.ts';

/** The Dashboard: bouncers, ban counts, the AMI state. */
export class DashboardScreen extends Screen {
  show(): Promise<void> {
    return this.open('Dashboard');
  }

  /** Waits for the dashboard's first content (the bouncer api_url card). */
  firstContent(): Promise<void> {
    return this.text('Bouncer api_url').first().waitFor();
  }

  /** Waits for the last card to load (Active bans). */
  complete(): Promise<void> {
    return this.page.getByRole('heading', { name: 'Active bans' }).waitFor();
  }

  /** A bouncer's row, by its key's description. */
  bouncer(description: string): Locator {
    return this.byTestId('bouncer-row', description);
  }

  /** The badge of a bouncer's state: Served, Never polled, Silent since…, Refused. */
  bouncerState(description: string): Locator {
    return this.bouncer(description).getByTestId('bouncer-state');
  }

  /** Why a bouncer's polls are refused. */
  bouncerRefusal(description?: string): Locator {
    return (description === undefined ? this.page : this.bouncer(description)).getByTestId('bouncer-refusal');
  }

  /** The box listing refused polls. */
  get rejections(): Locator {
    return this.page.getByTestId('bouncer-rejections');
  }

  /** The "bans are not being enforced" banner. */
  get banner(): Locator {
    return this.page.getByTestId('enforcement-banner');
  }

  /** Follows the banner's link to the API keys screen. */
  async openKeysFromBanner(): Promise<void> {
    await this.banner.getByRole('link', { name: 'Open the bouncer keys' }).click();
    await this.page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
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
