import { Alert, Button, FileButton, Group, List, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileUpload } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { DurationInput } from '../../../components/DurationInput.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { BAN_LIST_FORMATS, useImportBans, type BanListFormat, type ImportOutcome } from '../api/import-bans.ts';
import { ImportOutcomeSummary } from './ImportOutcomeSummary.tsx';

/** The server's default for entries without a duration (as cscli's): 4 hours. */
const DEFAULT_SECONDS = 4 * 3600;
const MAX_SECONDS = 10 * 365 * 86_400;
/** The server refuses bodies over 20 MB. */
const MAX_BYTES = 20 * 1024 * 1024;
/**
 * "Import bans": a list pasted or read from a file, previewed with a dry run, then imported all or
 * nothing. Refused lines (malformed, whitelisted, trusted, loopback) are listed with their numbers.
 */
export function ImportBansModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const run = useImportBans();
  const [format, setFormat] = useState<BanListFormat>('values');
  const [text, setText] = useState('');
  const [file, setFile] = useState<{ name: string; content: string } | null>(null);
  const [seconds, setSeconds] = useState(DEFAULT_SECONDS);
  const [reason, setReason] = useState('');
  const [preview, setPreview] = useState<ImportOutcome | null>(null);

  useEffect(() => {
    if (!opened) return;
    setFormat('values');
    setText('');
    setFile(null);
    setSeconds(DEFAULT_SECONDS);
    setReason('');
    setPreview(null);
    run.reset();
  }, [opened]);

  const content = file?.content ?? text;
  const tooLarge = new Blob([content]).size > MAX_BYTES;
  const refused = run.error instanceof ApiError ? run.error.messages : run.error ? [run.error.message] : [];
  // The preview named registered phones the list would cut off: importing after it confirms that.
  const cutsOff = preview?.warnings.some((w) => w.startsWith('Importing it would cut off registered phones')) ?? false;

  const send = (dryRun: boolean) => {
    if (!content.trim() || tooLarge) return;
    run.mutate(
      {
        format,
        content,
        duration: seconds === Infinity ? 'permanent' : seconds,
        reason: reason.trim() || undefined,
        dryRun,
        confirmCutOff: !dryRun && cutsOff ? true : undefined,
      },
      {
        onSuccess: (outcome) => {
          if (outcome.dryRun) return setPreview(outcome);
          notifications.show({
            color: 'teal',
            title: 'Bans imported',
            message: `${outcome.added} new and ${outcome.extended} extended bans; bouncers get them at their next poll.`,
          });
          onClose();
        },
      },
    );
  };
  // Any edit makes the preview stale.
  const edited =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPreview(null);
      run.reset();
    };

  return (
    <Modal opened={opened} onClose={onClose} title="Import bans" centered size="lg">
      <Stack>
        <Select
          label="Format"
          data={BAN_LIST_FORMATS.map((f) => ({ value: f.value, label: f.label }))}
          value={format}
          onChange={(v) => v && edited(setFormat)(v as BanListFormat)}
          allowDeselect={false}
        />
        <Group gap="xs">
          <FileButton
            onChange={(chosen) => {
              if (!chosen) return;
              void chosen.text().then((value) => edited(setFile)({ name: chosen.name, content: value }));
            }}
            accept=".txt,.csv,.json,text/plain,text/csv,application/json"
          >
            {(props) => (
              <Button variant="default" size="xs" leftSection={<IconFileUpload size={14} />} {...props}>
                Read a file…
              </Button>
            )}
          </FileButton>
          {file && (
            <Text size="sm">
              {file.name} ({file.content.split('\n').length} lines){' '}
              <Button variant="subtle" size="compact-xs" onClick={() => edited(setFile)(null)}>
                Paste instead
              </Button>
            </Text>
          )}
        </Group>
        {!file && (
          <Textarea
            label="List"
            description="Paste the list. Lines starting with # and empty lines are skipped."
            placeholder={
              format === 'opnsense'
                ? '192.0.2.7 scanner\n198.51.100.0/24 feed\n203.0.113.10-203.0.113.20 range'
                : '192.0.2.7\n198.51.100.0/24'
            }
            autosize
            minRows={6}
            maxRows={14}
            value={text}
            onChange={(e) => edited(setText)(e.currentTarget.value)}
            styles={{ input: { fontFamily: 'monospace' } }}
            data-autofocus
          />
        )}
        {tooLarge && <Alert color="red">The list is over 20 MB: split it into smaller imports.</Alert>}
        <DurationInput
          label="Duration for entries without one"
          value={seconds}
          onChange={edited(setSeconds)}
          min={1}
          max={MAX_SECONDS}
          units={['min', 'h', 'd']}
          allowPermanent
        />
        <TextInput
          label="Reason for entries without one (optional)"
          maxLength={200}
          value={reason}
          onChange={(e) => edited(setReason)(e.currentTarget.value)}
        />
        {refused.length > 0 && (
          <Alert color="red" variant="light" role="alert" title={refused[0]}>
            <List size="xs" spacing={2} style={{ maxHeight: 200, overflow: 'auto' }}>
              {refused.slice(1).map((message, i) => (
                <List.Item key={i}>{message}</List.Item>
              ))}
            </List>
          </Alert>
        )}
        {preview && <ImportOutcomeSummary outcome={preview} />}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            variant="light"
            onClick={() => send(true)}
            loading={run.isPending && run.variables?.dryRun}
            disabled={!content.trim() || tooLarge}
          >
            Preview
          </Button>
          <Button
            color="red"
            onClick={() => send(false)}
            loading={run.isPending && !run.variables?.dryRun}
            disabled={!preview || preview.added + preview.extended === 0}
          >
            {cutsOff ? 'Import anyway' : 'Import'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
