import { Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { paths } from '../config/paths.ts';
import { linkProps, usePathname } from '../lib/router.ts';
import { AuthGate } from './AuthGate.tsx';
import { AppProvider } from './provider.tsx';
import { Shell } from './Shell.tsx';

// One chunk per screen: the first screen loads only its own code (charts stay on the dashboard).
const ApiKeysRoute = lazy(() => import('./routes/api-keys.tsx').then((m) => ({ default: m.ApiKeysRoute })));
const AuditRoute = lazy(() => import('./routes/audit.tsx').then((m) => ({ default: m.AuditRoute })));
const BansRoute = lazy(() => import('./routes/bans.tsx').then((m) => ({ default: m.BansRoute })));
const BanHistoryRoute = lazy(() => import('./routes/bans.tsx').then((m) => ({ default: m.BanHistoryRoute })));
const DashboardRoute = lazy(() => import('./routes/dashboard.tsx').then((m) => ({ default: m.DashboardRoute })));
const NetworkFiltersRoute = lazy(() =>
  import('./routes/network-filters.tsx').then((m) => ({ default: m.NetworkFiltersRoute })),
);
const NotificationsRoute = lazy(() =>
  import('./routes/notifications.tsx').then((m) => ({ default: m.NotificationsRoute })),
);
const PeersRoute = lazy(() => import('./routes/peers.tsx').then((m) => ({ default: m.PeersRoute })));
const PeerRoute = lazy(() => import('./routes/peers.tsx').then((m) => ({ default: m.PeerRoute })));
const SettingsRoute = lazy(() => import('./routes/settings.tsx').then((m) => ({ default: m.SettingsRoute })));
const WhitelistRoute = lazy(() => import('./routes/whitelist.tsx').then((m) => ({ default: m.WhitelistRoute })));

/** Each path's title (in the browser tab) and screen; a peer's page is matched apart (its path carries the id). */
const SCREENS: Record<string, { title: string; Screen: ComponentType }> = {
  [paths.dashboard]: { title: 'Dashboard', Screen: DashboardRoute },
  [paths.apiKeys]: { title: 'API keys', Screen: ApiKeysRoute },
  [paths.networkFilters]: { title: 'Network filters', Screen: NetworkFiltersRoute },
  [paths.whitelist]: { title: 'Whitelist', Screen: WhitelistRoute },
  [paths.bans]: { title: 'Bans', Screen: BansRoute },
  [paths.banHistory]: { title: 'Ban history', Screen: BanHistoryRoute },
  [paths.peers]: { title: 'Peers', Screen: PeersRoute },
  [paths.settings]: { title: 'Settings', Screen: SettingsRoute },
  [paths.audit]: { title: 'Audit log', Screen: AuditRoute },
  [paths.notifications]: { title: 'Notifications', Screen: NotificationsRoute },
};
const screenOf = (pathname: string) => SCREENS[pathname.replace(/\/$/, '') || '/'];

function NotFound() {
  return (
    <Stack align="flex-start">
      <Title order={1} size="h2">
        Page not found
      </Title>
      <Text c="dimmed">This address is not a page of the console.</Text>
      <Button component="a" {...linkProps(paths.dashboard)}>
        Go to the dashboard
      </Button>
    </Stack>
  );
}

function CurrentRoute({ pathname }: { pathname: string }) {
  const peer = /^\/peers\/([^/]+)$/.exec(pathname);
  if (peer) return <PeerRoute id={decodeURIComponent(peer[1]!)} />;
  const Screen = screenOf(pathname)?.Screen ?? NotFound;
  return <Screen />;
}

/** The console: providers, the auth gate, the frame and the current screen. */
export function App() {
  const pathname = usePathname();
  useEffect(() => {
    const section = screenOf(pathname)?.title ?? (pathname.startsWith('/peers/') ? 'Peer detail' : 'Not found');
    document.title = `${section} · PBX Console`;
  }, [pathname]);
  return (
    <AppProvider>
      <AuthGate>
        <Shell pathname={pathname}>
          <Suspense
            fallback={
              <Center py="xl">
                <Loader role="status" aria-label="Loading the page" />
              </Center>
            }
          >
            <CurrentRoute pathname={pathname} />
          </Suspense>
        </Shell>
      </AuthGate>
    </AppProvider>
  );
}
