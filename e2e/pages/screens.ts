import { ApiKeysScreen } from './api-keys.ts';
import { AuditLogScreen } from './audit-log.ts';
import { BansScreen } from './bans.ts';
import { DashboardScreen } from './dashboard.ts';
import { FiltersScreen } from './filters.ts';
import { NotificationsScreen } from './notifications.ts';
import { PeersScreen } from './peers.ts';
import type { PageHolder } from './screen.ts';
import { SettingsScreen } from './settings.ts';
import { ShellScreen } from './shell.ts';
import { WhitelistScreen } from './whitelist.ts';

/** The page object of every console screen, all reading the page from one holder (a console session). */
export function consoleScreens(holder: PageHolder) {
  return {
    apiKeys: new ApiKeysScreen(holder),
    audit: new AuditLogScreen(holder),
    bans: new BansScreen(holder),
    dashboard: new DashboardScreen(holder),
    filters: new FiltersScreen(holder),
    notifications: new NotificationsScreen(holder),
    peers: new PeersScreen(holder),
    settings: new SettingsScreen(holder),
    shell: new ShellScreen(holder),
    whitelist: new WhitelistScreen(holder),
  };
}

export type ConsoleScreens = ReturnType<typeof consoleScreens>;
