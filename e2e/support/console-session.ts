import { after, before } from 'node:test';
import type { Page } from 'playwright-core';
import type { CreateServerOptions } from '../../src-server/index.ts';
import type { TestServer } from '../../src-server/test-support/server.ts';
import { consoleScreens, type ConsoleScreens } from '../pages/screens.ts';
import { launchConsoleBrowser, type ConsoleBrowser } from './browser.ts';
import { startConsoleServer } from './console-server.ts';

interface ConsoleSession {
  readonly server: TestServer;
  readonly browser: ConsoleBrowser;
  readonly page: Page;
  /** The page object of every screen, on this session's page. */
  readonly screens: ConsoleScreens;
  /** Loads the console (or one of its paths) from the server. */
  open(path?: string): Promise<void>;
}

interface ConsoleSetup {
  /** Server options; the admin password defaults to the one the e2e files share. */
  server?: CreateServerOptions;
  colorScheme?: 'light' | 'dark';
  /** The browser takes taps too (a phone's screen). */
  hasTouch?: boolean;
  /** A 390 px touch phone (Playwright `hasTouch`, `isMobile`): drive it with `tap()`. */
  touch?: boolean;
  /** Loads the console at this path once the browser is up, and waits for its screen's heading. */
  openAt?: string;
  /** Runs once the server is up, before the browser starts (seeding through the API...). */
  prepare?: (server: TestServer) => Promise<void>;
  /** Runs after the browser is closed and before the server stops (stopping a bouncer...). */
  cleanup?: () => Promise<void>;
}

/**
 * The setup every console e2e file shares, as hooks of the enclosing describe: the server on an
 * ephemeral port with a fresh data directory, headless Chromium (on `openAt` when given), both closed at the end.
 */
export function useConsole(setup: ConsoleSetup = {}): ConsoleSession {
  let server: TestServer | undefined;
  let browser: ConsoleBrowser | undefined;
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`The ${what} is not started: use the session inside a test.`);
    return value;
  };

  before(async () => {
    server = await startConsoleServer({ adminPassword: 'e2e-admin-password', ...setup.server });
    await setup.prepare?.(server);
    browser = await launchConsoleBrowser({
      colorScheme: setup.colorScheme,
      hasTouch: setup.hasTouch,
      touch: setup.touch,
    });
    if (setup.openAt === undefined) return;
    await browser.page.goto(`${server.url}${setup.openAt}`);
    await browser.page.getByRole('heading', { level: 1 }).waitFor();
  });

  after(async () => {
    await setup.cleanup?.();
    await browser?.close();
    await server?.close();
  });

  const page = () => ready(browser, 'browser').page;
  return {
    get server() {
      return ready(server, 'server');
    },
    get browser() {
      return ready(browser, 'browser');
    },
    get page() {
      return page();
    },
    screens: consoleScreens({
      get page() {
        return page();
      },
    }),
    async open(path = '/') {
      await page().goto(`${ready(server, 'server').url}${path}`);
    },
  };
}
