import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { dismissNotifications } from './page-helpers.ts';

/**
 * axe-core on `page`, computing violations only: the tests read nothing else, and leaving out the passes,
 * incomplete and inapplicable results (axe's documented `resultTypes` option) takes a third off each run's CPU.
 */
export const axeAudit = (page: Page): AxeBuilder => new AxeBuilder({ page }).options({ resultTypes: ['violations'] });

/**
 * The serious and critical axe violations on `page` (inside `include` when given), one line each, so a failure says
 * what and where. Notifications are closed first: a toast sliding out is not the screen under test.
 */
export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  await dismissNotifications(page);
  const audit = axeAudit(page);
  if (include) audit.include(include);
  return (await audit.analyze()).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} — ` +
        v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''} ${n.html.slice(0, 120)}`).join(' | '),
    );
}
