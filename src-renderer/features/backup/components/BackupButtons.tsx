import { Button, FileButton, Group, List, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ModalFooter } from '../../../components/ModalFooter.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { exportConfig, importConfig, type ImportReport } from '../api/config-backup.ts';
import { ImportPreviewTable } from './ImportPreviewTable.tsx';

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const messagesOf = (error: unknown) =>
  error instanceof ApiError ? error.messages : [String((error as Error)?.message ?? error)];

/** Export and Import on the Settings page: the import shows what would change before Apply. */
export function BackupButtons() {
  const queryClient = useQueryClient();
  const [exporting, setExporting] = useState(false);
  const [config, setConfig] = useState<unknown>(null);
  const [fileName, setFileName] = useState('');
  const [preview, setPreview] = useState<ImportReport | null>(null);
  /** The configuration as it is now, for the old values of changed settings. */
  const [current, setCurrent] = useState<unknown>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [applying, setApplying] = useState(false);
  const open = config !== null;

  const onExport = async () => {
    setExporting(true);
    try {
      const doc = await exportConfig();
      download(`pbx-console-config-${doc.exportedAt.slice(0, 10)}.json`, `${JSON.stringify(doc, null, 2)}\n`);
    } finally {
      setExporting(false);
    }
  };

  const onFile = async (file: File | null) => {
    if (!file) return;
    setFileName(file.name);
    setPreview(null);
    setErrors([]);
    let parsed: unknown;
    try {
      parsed = JSON.parse(await file.text()) as unknown;
    } catch {
      setConfig({});
      setErrors([`${file.name} is not JSON: choose a file that Export produced.`]);
      return;
    }
    setConfig(parsed);
    // Another JSON file (a ban export, a bouncer's config) is named as such before the server is asked.
    if ((parsed as { format?: unknown } | null)?.format !== 'pbx-console-config') {
      setErrors([`${file.name} is not a configuration backup (Export on this page makes one); nothing was changed.`]);
      return;
    }
    try {
      const [report, now] = await Promise.all([importConfig(parsed, true), exportConfig().catch(() => null)]);
      setCurrent(now);
      setPreview(report);
    } catch (error) {
      setErrors(messagesOf(error));
    }
  };

  const close = () => {
    setConfig(null);
    setPreview(null);
    setErrors([]);
  };

  const apply = async () => {
    setApplying(true);
    try {
      await importConfig(config, false);
      await queryClient.invalidateQueries();
      notifications.show({ color: 'green', title: 'Configuration imported', message: `${fileName} was applied.` });
      close();
    } catch (error) {
      setErrors(messagesOf(error));
    } finally {
      setApplying(false);
    }
  };

  return (
    <>
      <Group gap="sm">
        <Button
          variant="default"
          leftSection={<IconDownload size={16} />}
          loading={exporting}
          onClick={() => void onExport()}
        >
          Export
        </Button>
        <FileButton accept="application/json,.json" onChange={(file) => void onFile(file)}>
          {(props) => (
            <Button variant="default" leftSection={<IconUpload size={16} />} {...props}>
              Import
            </Button>
          )}
        </FileButton>
      </Group>
      <Modal opened={open} onClose={close} title={`Import ${fileName}`} size="lg">
        <Stack gap="md">
          {preview && (
            <>
              <Text size="sm">Applying this file replaces the configuration below. Nothing has been written yet.</Text>
              <ImportPreviewTable preview={preview} current={current} config={config} />
              {preview.warnings.length > 0 && (
                <List size="sm" aria-label="Import warnings">
                  {preview.warnings.map((w) => (
                    <List.Item key={w}>{w}</List.Item>
                  ))}
                </List>
              )}
            </>
          )}
          {errors.length > 0 && (
            <>
              <Text size="sm">Nothing was imported. Fix these in the file, then import it again:</Text>
              <List size="sm" aria-label="Import errors">
                {errors.map((e) => (
                  <List.Item key={e}>{e}</List.Item>
                ))}
              </List>
            </>
          )}
          {preview && errors.length === 0 ? (
            <ModalFooter onCancel={close} submitLabel="Apply" loading={applying} onConfirm={() => void apply()} />
          ) : (
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Close
              </Button>
            </Group>
          )}
        </Stack>
      </Modal>
    </>
  );
}
