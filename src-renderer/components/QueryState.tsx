import { Button, Center, Loader, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { ApiError } from '../lib/api-client.ts';
import { ProblemAlert } from './ProblemAlert.tsx';

/** What an empty list says: what is missing, what to do about it, and optionally a button. */
export interface EmptyContent {
  title: string;
  hint: ReactNode;
  action?: ReactNode;
}

export interface QueryLike {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** Loading, error (with a retry) and empty states in one place, so every screen handles all three. */
export function QueryState({
  query,
  isEmpty,
  empty,
  children,
  label,
}: {
  query: QueryLike;
  isEmpty?: boolean;
  empty?: EmptyContent;
  children: ReactNode;
  label: string;
}) {
  if (query.isPending) {
    return (
      <Center py="xl" role="status" aria-live="polite">
        <Stack align="center" gap="xs">
          <Loader size="sm" />
          <Text size="sm" c="dimmed">
            Loading {label}…
          </Text>
        </Stack>
      </Center>
    );
  }
  if (query.isError) {
    const message = query.error instanceof ApiError ? query.error.message : 'Unexpected error.';
    return (
      <ProblemAlert title={`Could not load ${label}`}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{message}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
            Retry
          </Button>
        </Stack>
      </ProblemAlert>
    );
  }
  if (isEmpty) {
    return (
      <Center py="xl">
        <Stack align="center" gap="xs" maw={420} ta="center">
          <ThemeIcon variant="light" size="xl" radius="xl" color="gray">
            <IconInbox size={22} />
          </ThemeIcon>
          {empty && (
            <>
              <Text fw={600}>{empty.title}</Text>
              <Text size="sm" c="dimmed">
                {empty.hint}
              </Text>
              {empty.action}
            </>
          )}
        </Stack>
      </Center>
    );
  }
  return <>{children}</>;
}
