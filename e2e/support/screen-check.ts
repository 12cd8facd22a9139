import assert from 'node:assert/strict';
import { axeAudit } from './axe.ts';
import type { Page } from 'playwright-core';
import type { ConsoleBrowser } from './browser.ts';
import { dismissNotifications, transitionsEnded } from './page-helpers.ts';

const WIDTHS = [1440, 390] as const;

/**
 * A screen state at 1440 and 390 px: no serious or critical axe violation, nothing wider than the
 * window, a screenshot of each (`<name>-<width>`). `ready` waits for the state after each resize.
 */
export async function checkScreen(
  page: Page,
  browser: ConsoleBrowser,
  name: string,
  ready: () => Promise<unknown>,
): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
    await ready();
    await dismissNotifications(page);
    await transitionsEnded(page);
    const results = await axeAudit(page).analyze();
    const serious = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 100)}`).join(' | ')}`);
    assert.deepEqual(serious, [], `${name} at ${width} px`);
    const scrollWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    assert.ok(scrollWidth <= width, `${name} at ${width} px is ${scrollWidth} px wide: something is off screen`);
    await browser.screenshot(`${name}-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}
