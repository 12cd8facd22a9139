import { ActionIcon, Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { Permission } from '../api/types.ts';

/** One allowed path of a custom key, with its permission. */
export interface PathRow {
  path: string;
  permission: Permission;
}

/** The server's rule for an allowed path: starts with "/", no spaces. */
export const pathProblem = (path: string) =>
  /^\/\S*$/.test(path.trim()) ? null : 'Start with "/" and use no spaces, e.g. /api/v3/extensions.';

/** A custom key's allowed paths: a row per path with its permission, added and removed one by one. */
export function CustomPaths({
  rows,
  onChange,
  error,
  showProblems,
}: {
  rows: PathRow[];
  onChange: (rows: PathRow[]) => void;
  error?: string;
  showProblems: boolean;
}) {
  return (
    <Stack gap="xs" role="group" aria-label="Allowed paths">
      {rows.map((row, index) => (
        <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
          <TextInput
            aria-label={`Path ${index + 1}`}
            placeholder="/api/v3/extensions"
            value={row.path}
            onChange={(e) => onChange(rows.map((r, i) => (i === index ? { ...r, path: e.currentTarget.value } : r)))}
            error={showProblems && row.path.trim() ? pathProblem(row.path) : null}
            style={{ flex: 1 }}
          />
          <SegmentedControl
            aria-label={`Permission for path ${index + 1}`}
            value={row.permission}
            onChange={(v) => onChange(rows.map((r, i) => (i === index ? { ...r, permission: v as Permission } : r)))}
            data={[
              { value: 'read', label: 'Read' },
              { value: 'write', label: 'Write' },
            ]}
          />
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={`Remove path ${index + 1}`}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <Button
        variant="subtle"
        size="xs"
        leftSection={<IconPlus size={14} />}
        onClick={() => onChange([...rows, { path: '/api/v3/', permission: 'read' }])}
        style={{ alignSelf: 'flex-start' }}
      >
        Add a path
      </Button>
      {error && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
