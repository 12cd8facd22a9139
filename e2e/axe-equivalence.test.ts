// The suite's axe runner (support/axe.ts: axe-core injected once per document) finds what @axe-core/playwright's
// AxeBuilder finds, on a console screen with violations planted in it: the faster runner weakens no a11y check.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import type { AxeResults } from 'axe-core';
import { axeAudit } from './support/axe.ts';
import { useConsole } from './support/console-session.ts';

/** Each violation as "rule: target", sorted, so two runs compare as lists. */
const found = (results: AxeResults) =>
  results.violations.flatMap((v) => v.nodes.map((node) => `${v.id}: ${node.target.join(' ')}`)).sort();

/** Markup with one violation of several kinds, some inside #scoped. */
const PLANTED = `
  <img src="/favicon.ico" id="no-alt">
  <p id="faint" style="color:#bbb;background:#fff">Hard to read</p>
  <div id="scoped">
    <button id="no-name"></button>
    <input id="no-label" type="text">
    <a href="/settings" id="empty-link"></a>
  </div>`;

describe('e2e support: the axe runner', () => {
  const app = useConsole({ openAt: '/' });

  const plant = () =>
    app.page.evaluate((html) => {
      // In the page (the tests compile without DOM types).
      const { document } = globalThis as unknown as {
        document: {
          createElement(tag: string): { id: string; innerHTML: string };
          body: { append(node: unknown): void };
        };
      };
      const holder = document.createElement('section');
      holder.id = 'planted';
      holder.innerHTML = html;
      document.body.append(holder);
    }, PLANTED);

  it('finds the same violations as AxeBuilder, on the whole page and inside one element', async () => {
    const { page } = app;
    await plant();
    const ours = found(await axeAudit(page).analyze());
    const theirs = found(await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze());
    assert.deepEqual(ours, theirs);
    for (const id of ['no-alt', 'faint', 'no-name', 'no-label', 'empty-link'])
      assert.ok(
        ours.some((line) => line.endsWith(`#${id}`)),
        `the planted #${id} is reported (${ours.join('; ')})`,
      );

    const oursScoped = found(await axeAudit(page).include('#scoped').analyze());
    const theirsScoped = found(
      await new AxeBuilder({ page })
        .options({ resultTypes: ['violations'] })
        .include('#scoped')
        .analyze(),
    );
    assert.deepEqual(oursScoped, theirsScoped);
    assert.deepEqual(
      oursScoped.map((line) => line.split(' ').at(-1)).sort(),
      ['#empty-link', '#no-label', '#no-name'],
      'only what is inside #scoped',
    );
  });

  it('audits a new document after a reload (axe is injected again), and a clean screen stays clean', async () => {
    const { page } = app;
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    const clean = found(await axeAudit(page).analyze());
    assert.deepEqual(clean, found(await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze()));
    assert.ok(!clean.some((line) => line.includes('#no-alt')), 'the planted markup went with the old document');
    await plant();
    assert.ok(found(await axeAudit(page).analyze()).some((line) => line.endsWith('#no-alt')));
  });
});
