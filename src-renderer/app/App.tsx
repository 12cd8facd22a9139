import { Button, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { paths } from '../config/paths.ts';
import { linkProps, usePathname } from '../lib/router.ts';
import { AuthGate } from './AuthGate.tsx';
import { AppProvider } from './provider.tsx';
import { ApiKeysRoute } from './routes/api-keys.tsx';
import { AuditRoute } from './routes/audit.tsx';
import { BanHistoryRoute, BansRoute } from './routes/bans.tsx';
import { DashboardRoute } from './routes/dashboard.tsx';
import { NetworkFiltersRoute } from './routes/network-filters.tsx';
import { PeerRoute, PeersRoute } from './routes/peers.tsx';
import { SettingsRoute } from './routes/settings.tsx';
import { WhitelistRoute } from './routes/whitelist.tsx';
import { Shell } from './Shell.tsx';

const TITLES: Record<string, string> = {
  [paths.dashboard]: 'Dashboard',
  [paths.apiKeys]: 'API keys',
  [paths.networkFilters]: 'Network filters',
  [paths.whitelist]: 'Whitelist',
  [paths.bans]: 'Bans',
  [paths.banHistory]: 'Ban history',
  [paths.peers]: 'Peers',
  [paths.settings]: 'Settings',
  [paths.audit]: 'Audit log',
};

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
  switch (pathname.replace(/\/$/, '') || '/') {
    case paths.dashboard:
      return <DashboardRoute />;
    case paths.apiKeys:
      return <ApiKeysRoute />;
    case paths.networkFilters:
      return <NetworkFiltersRoute />;
    case paths.whitelist:
      return <WhitelistRoute />;
    case paths.bans:
      return <BansRoute />;
    case paths.banHistory:
      return <BanHistoryRoute />;
    case paths.peers:
      return <PeersRoute />;
    case paths.settings:
      return <SettingsRoute />;
    case paths.audit:
      return <AuditRoute />;
    default:
      return <NotFound />;
  }
}

/** The console: providers, the auth gate, the frame and the current screen. */
export function App() {
  const pathname = usePathname();
  useEffect(() => {
    const section = TITLES[pathname.replace(/\/$/, '') || '/'] ?? (pathname.startsWith('/peers/') ? 'Peer detail' : 'Not found');
    document.title = `${section} · PBX Console`;
  }, [pathname]);
  return (
    <AppProvider>
      <AuthGate>
        <Shell pathname={pathname}>
          <CurrentRoute pathname={pathname} />
        </Shell>
      </AuthGate>
    </AppProvider>
  );
}
