import { Button, Group, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconChevronLeft, IconChevronRight, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useNarrowScreen } from '../lib/use-narrow-screen.ts';

/**
 * The search box of a table searched on the server: it keeps the text being typed and calls
 * `onSearch` once typing has paused for `debounceMs` (the caller resets its page).
 */
export function ServerSearchField({
  onSearch,
  debounceMs,
  placeholder,
  width,
}: {
  onSearch: (value: string) => void;
  debounceMs: number;
  placeholder: string;
  /** The width on a wide screen; on a phone the box takes the whole width. */
  width: number;
}) {
  const narrow = useNarrowScreen();
  const [text, setText] = useState('');
  const search = useDebouncedCallback(onSearch, debounceMs);
  return (
    <TextInput
      label="Search"
      placeholder={placeholder}
      leftSection={<IconSearch size={16} aria-hidden />}
      type="search"
      value={text}
      onChange={(event) => {
        setText(event.currentTarget.value);
        search(event.currentTarget.value);
      }}
      w={narrow ? '100%' : width}
    />
  );
}

/** "1–25 of 80" and Previous/Next for a table paged on the server; nothing when there are no rows. */
export function ServerPageControls({
  offset,
  pageSize,
  shown,
  total,
  onOffset,
}: {
  offset: number;
  pageSize: number;
  shown: number;
  total: number;
  onOffset: (offset: number) => void;
}) {
  if (total <= 0) return null;
  return (
    <Group justify="space-between" mt="md" gap="sm">
      <Text size="sm" c="dimmed" aria-live="polite">
        {(offset + 1).toLocaleString('en-US')}–{Math.min(offset + shown, total).toLocaleString('en-US')} of{' '}
        {total.toLocaleString('en-US')}
      </Text>
      <Group gap="xs">
        <Button
          variant="default"
          size="xs"
          leftSection={<IconChevronLeft size={14} />}
          disabled={offset === 0}
          onClick={() => onOffset(Math.max(0, offset - pageSize))}
        >
          Previous
        </Button>
        <Button
          variant="default"
          size="xs"
          rightSection={<IconChevronRight size={14} />}
          disabled={offset + pageSize >= total}
          onClick={() => onOffset(offset + pageSize)}
        >
          Next
        </Button>
      </Group>
    </Group>
  );
}
