import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, ElementContext, RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';
import { dismissNotifications } from './page-helpers.ts';

/** axe-core's own build, read once per test process. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Violations only: the tests read nothing else, and leaving out the passes, incomplete and inapplicable results
 * (axe's documented `resultTypes` option) takes a third off each run.
 */
const RUN_OPTIONS: RunOptions = { resultTypes: ['violations'] };

export interface AxeAudit {
  /** Audits only inside the elements `selector` matches (axe's context `include`). */
  include(selector: string): AxeAudit;
  analyze(): Promise<AxeResults>;
}

/**
 * axe-core run in `page`, injected once per document. Why not @axe-core/playwright's AxeBuilder for each audit: it
 * sends axe's 550 KB source into the page and compiles it again at every `analyze()`, and finishes each run in a
 * new blank page (a renderer of its own). Measured on a console screen: 0.9 s of CPU an audit against 0.2 s here,
 * and the suite runs hundreds. The console has no frames, so the page's own `axe.run` sees everything AxeBuilder's
 * frame walk would; `axe-equivalence.test.ts` holds the two to the same violations.
 */
export function axeAudit(page: Page): AxeAudit {
  const include: string[] = [];
  const audit: AxeAudit = {
    include(selector) {
      include.push(selector);
      return audit;
    },
    async analyze() {
      // A navigation or reload gives a new document without axe: inject it again then.
      const injected = await page.evaluate(() => typeof (globalThis as { axe?: unknown }).axe === 'object');
      if (!injected) await page.evaluate(AXE_SOURCE);
      return page.evaluate(
        ([include, options]) => {
          // This runs in the page, where axe and the document are globals (the tests compile without DOM types).
          const { axe, document } = globalThis as unknown as {
            axe: typeof import('axe-core');
            document: ElementContext;
          };
          const context: ElementContext = include.length
            ? { include: include.map((selector) => [selector]) }
            : document;
          return axe.run(context, options);
        },
        [include, RUN_OPTIONS] as const,
      );
    },
  };
  return audit;
}

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
