import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from '../lib/query-client.ts';
import { accessibleColors, theme } from './theme.ts';

/** Theme (dark mode follows the system), data cache and notifications for the whole console. */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={accessibleColors} defaultColorScheme="auto">
      {/* Bottom right, at most three: toasts never cover the header (Sign out) or pile up. */}
      <Notifications position="bottom-right" limit={3} />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
