import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { ROOT } from './renderer-build.ts';

export const CHROMIUM = process.env.PBX_E2E_CHROMIUM ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(ROOT, 'e2e', 'screenshots');
/**
 * Screenshots are for people to look at (`npm run test:screenshots`), never asserted: a full-page PNG costs the
 * browser and the test about 0.4 s of CPU, and npm test would take 170 of them.
 */
export const TAKE_SCREENSHOTS = process.env.PBX_E2E_SCREENSHOTS === '1';

export interface ConsoleBrowser {
  context: BrowserContext;
  page: Page;
  /** Saves a full-page PNG under e2e/screenshots/<name>.png when PBX_E2E_SCREENSHOTS=1 (scrolls to the top either way). */
  screenshot(name: string, page?: Page): Promise<void>;
  close(): Promise<void>;
}

/** Debian Chromium, headless, with a fresh profile and clipboard access for copy-button checks. */
export async function launchConsoleBrowser(
  options: {
    colorScheme?: 'light' | 'dark';
    /** A desktop that takes taps as well as the mouse: `tap()` works. */
    hasTouch?: boolean;
    /** A 390 px phone driven by touch (taps, no hover), instead of a desktop with a mouse. */
    touch?: boolean;
  } = {},
): Promise<ConsoleBrowser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium is not at ${CHROMIUM}: run "apt-get install -y chromium", or set PBX_E2E_CHROMIUM to its path.`,
    );
  const profile = mkdtempSync(join(tmpdir(), 'pbx-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      // Headless Chromium 156 still builds the address bar's WebUI popups in a renderer of their own, which
      // keeps running on an idle page: 0.07 of a core per browser, a tenth of the suite's CPU over its files.
      '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
    ],
    ...(options.touch
      ? { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 }
      : { viewport: { width: 1360, height: 900 }, hasTouch: options.hasTouch ?? false }),
    colorScheme: options.colorScheme ?? 'light',
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  context.setDefaultTimeout(15_000);
  const page = context.pages()[0] ?? (await context.newPage());
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    context,
    page,
    async screenshot(name, target = page) {
      // Toasts from earlier steps would cover the screen being recorded.
      // A full-page capture of a scrolled page draws the fixed header where the scroll left it.
      await target.evaluate('window.scrollTo(0, 0)');
      if (!TAKE_SCREENSHOTS) return;
      await target.screenshot({
        path: join(SCREENSHOTS, `${name}.png`),
        fullPage: true,
        animations: 'disabled',
        style: '.mantine-Notifications-root { display: none !important; }',
      });
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
