import { AppShell, Badge, Burger, Group, NavLink, ScrollArea, Text, ThemeIcon } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconAddressBook,
  IconBan,
  IconBell,
  IconClipboardList,
  IconDashboard,
  IconKey,
  IconListCheck,
  IconNetwork,
  IconPhone,
  IconPlugConnectedX,
  IconSettings,
  IconShieldCheck,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { paths } from '../config/paths.ts';
import { ConnectionBanner } from '../components/ConnectionBanner.tsx';
import { SignOutButton } from '../features/auth/components/SignOutButton.tsx';
import { useAuthSession } from '../lib/auth-session.ts';
import { useConnectionState } from '../lib/connection-state.ts';
import { linkProps } from '../lib/router.ts';

const NAV = [
  { to: paths.dashboard, label: 'Dashboard', icon: IconDashboard },
  { to: paths.bans, label: 'Bans', icon: IconBan },
  { to: paths.networkFilters, label: 'Network filters', icon: IconNetwork },
  { to: paths.whitelist, label: 'Whitelist', icon: IconListCheck },
  { to: paths.apiKeys, label: 'API keys', icon: IconKey },
  { to: paths.peers, label: 'Peers', icon: IconAddressBook },
  { to: paths.notifications, label: 'Notifications', icon: IconBell },
  { to: paths.audit, label: 'Audit log', icon: IconClipboardList },
  { to: paths.settings, label: 'Settings', icon: IconSettings },
];

const isActive = (to: string, pathname: string) =>
  to === '/' ? pathname === '/' : pathname === to || pathname.startsWith(`${to}/`);

/** The frame around every screen: header with the session, side navigation, main content. */
export function Shell({ pathname, children }: { pathname: string; children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const session = useAuthSession();
  const connection = useConnectionState();
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 232, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding={{ base: 'sm', sm: 'lg' }}
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <ThemeIcon size="md" radius="md" variant="filled">
              <IconPhone size={16} />
            </ThemeIcon>
            <Text fw={700} size="lg">
              PBX Console
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            {!connection.reachable && (
              <Badge
                variant="filled"
                color="red"
                leftSection={<IconPlugConnectedX size={12} />}
                title="The server is not answering"
                data-testid="offline-badge"
              >
                Offline
              </Badge>
            )}
            {connection.reachable && session.mode === 'localhost' && (
              <Badge
                variant="light"
                color="teal"
                leftSection={<IconShieldCheck size={12} />}
                title="Opened on the PBX host itself: no sign-in needed"
              >
                Local
              </Badge>
            )}
            {session.mode === 'signed-in' && (
              <>
                <Text size="sm" c="dimmed" visibleFrom="xs" data-testid="signed-in-as">
                  Signed in as <b>{session.login ?? 'admin'}</b>
                </Text>
                <SignOutButton />
              </>
            )}
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label="Main navigation">
        <AppShell.Section grow component={ScrollArea}>
          {NAV.map((item) => (
            <NavLink
              key={item.to}
              {...linkProps(item.to)}
              onClickCapture={close}
              label={item.label}
              leftSection={<item.icon size={18} stroke={1.6} />}
              active={isActive(item.to, pathname)}
              aria-current={isActive(item.to, pathname) ? 'page' : undefined}
              variant="light"
              style={{ borderRadius: 'var(--mantine-radius-md)' }}
              mb={2}
            />
          ))}
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        <div style={{ maxWidth: 1280, margin: '0 auto' }}>
          <ConnectionBanner />
          {children}
        </div>
      </AppShell.Main>
    </AppShell>
  );
}
