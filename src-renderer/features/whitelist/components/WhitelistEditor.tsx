import { Alert, Button, Card, Group, Stack, TagsInput, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState, type FormEvent } from 'react';
import { QueryState } from '../../../components/QueryState.tsx';
import { useFail2ban, useUpdateFail2ban } from '../api/fail2ban-settings.ts';

const split = (value: string) => value.split(/[\s,]+/).filter(Boolean);

/** Edits the fail2ban whitelist: addresses and networks that are never banned. */
export function WhitelistEditor() {
  const settings = useFail2ban();
  const save = useUpdateFail2ban();
  const [entries, setEntries] = useState<string[] | null>(null);
  useEffect(() => {
    if (settings.data) setEntries(split(settings.data.whitelist ?? ''));
  }, [settings.data]);
  const dirty =
    entries !== null &&
    settings.data !== undefined &&
    entries.join(' ') !== split(settings.data.whitelist ?? '').join(' ');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!entries) return;
    save.mutate(
      { whitelist: entries.join(' ') },
      {
        onSuccess: () =>
          notifications.show({
            color: 'teal',
            title: 'Whitelist saved',
            message: 'Bouncers get the new list on their next poll of /v1/whitelist.',
          }),
      },
    );
  };

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="whitelist-editor-title">
      <Title order={2} size="h4" id="whitelist-editor-title" mb={4}>
        Fail2ban whitelist
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Addresses and networks (CIDR) that are never banned. Type one and press Enter; pasting a list separated by
        spaces or commas works too.
      </Text>
      <QueryState query={settings} label="the whitelist">
        {entries && (
          <form onSubmit={submit} noValidate>
            <Stack>
              <TagsInput
                label="Whitelisted addresses"
                placeholder={entries.length ? 'Add another…' : '192.0.2.10 or 198.51.100.0/24'}
                value={entries}
                onChange={(value) => {
                  save.reset();
                  setEntries(value.flatMap(split));
                }}
                splitChars={[',', ' ']}
                clearable
                acceptValueOnBlur
                error={save.error?.message}
              />
              {save.error && (
                <Alert color="red" variant="light" role="alert">
                  Fix or remove the entry named above, then save again.
                </Alert>
              )}
              <Group>
                <Button type="submit" loading={save.isPending} disabled={!dirty}>
                  Save whitelist
                </Button>
                {dirty && (
                  <Button
                    variant="subtle"
                    onClick={() => settings.data && setEntries(split(settings.data.whitelist ?? ''))}
                  >
                    Discard changes
                  </Button>
                )}
              </Group>
            </Stack>
          </form>
        )}
      </QueryState>
    </Card>
  );
}
