import type { Locator, Page } from 'playwright-core';

/** Waits until `read()` satisfies `accept`, failing with the last value seen. For UI state that settles asynchronously. */
export async function eventually<T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    try {
      last = await read();
      if (accept(last)) return last;
    } catch {
      // The element may not be there yet.
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; last value: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Waits for a visible element and returns it. */
export async function visible(locator: Locator): Promise<Locator> {
  await locator.first().waitFor({ state: 'visible' });
  return locator.first();
}

/** Follows a navigation link of the side bar, as an operator would. */
export async function openScreen(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name }).click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

/** The text of the clipboard (the context grants clipboard-read). */
export const readClipboard = (page: Page) =>
  // Runs in the page, where `navigator` exists; the e2e tsconfig has no DOM types.
  page.evaluate(() =>
    (
      globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
    ).navigator.clipboard.readText(),
  );

/** Picks an option of a Mantine Select (a combobox whose options open in a portal). */
export async function chooseOption(page: Page, combobox: Locator, option: string): Promise<void> {
  await combobox.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * Closes every notification and waits until none is left: a save's notification slides in, then
 * out seconds later (autoClose), and on a loaded machine that can fall in the middle of an axe run,
 * which then measures its half-faded text. Call it before judging colours.
 */
export async function dismissNotifications(page: Page): Promise<void> {
  const notifications = page.locator('.mantine-Notification-root');
  for (const close of await page.locator('.mantine-Notification-closeButton').all())
    await close.click({ timeout: 2000 }).catch(() => {
      // It closed by itself meanwhile.
    });
  await eventually(
    () => notifications.count(),
    (count) => count === 0,
    'every notification closed',
  );
}

/**
 * Waits until no finite animation or transition runs on the page (a dialog's opening, a toast's slide): half-faded
 * text would be measured as low contrast. Endless ones (a loader's spin) do not count.
 */
export async function transitionsEnded(page: Page): Promise<void> {
  // Two frames first: a transition asked for in this frame has not started yet.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const { requestAnimationFrame: frame } = globalThis as unknown as {
          requestAnimationFrame(cb: () => void): void;
        };
        frame(() => frame(resolve));
      }),
  );
  await page.waitForFunction(() => {
    type Running = { playState: string; effect: { getTiming(): { iterations: number } } | null };
    const { document } = globalThis as unknown as { document: { getAnimations(): Running[] } };
    return document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity);
  });
}
