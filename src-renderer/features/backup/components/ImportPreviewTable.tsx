import { Table } from '@mantine/core';
import type { ImportReport, SectionChanges } from '../api/config-backup.ts';
import { fieldLabel } from './field-labels.ts';

const SECTION_NAMES: Record<keyof ImportReport['sections'], string> = {
  networkFilters: 'Network filters',
  fail2ban: 'Ban rules and whitelist',
  generalSettings: 'Request queue and general settings',
  ami: 'Asterisk manager (AMI)',
  crowdsecLink: 'Many sites (CrowdSec link)',
  extensions: 'Extensions',
  apiKeys: 'API keys',
};

/** A setting's value as the preview shows it: short, strings as they are. */
const shown = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text === '') return '(empty)';
  return text === undefined ? '—' : text.length > 60 ? `${text.slice(0, 57)}…` : text;
};

/** A section of a configuration document, when it is an object of settings. */
const sectionOf = (doc: unknown, section: string) => {
  const value = (doc as Record<string, unknown> | null)?.[section];
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
};

/**
 * What a section's import does, in words; a changed setting is named by its form label and shows its value now and
 * in the file ("Failures before a ban: 20 → 5") when both documents have it.
 */
const describeChanges = (
  section: string,
  c: SectionChanges,
  current: Record<string, unknown> | null,
  incoming: Record<string, unknown> | null,
) => {
  const changed = c.changed.map((field) =>
    current && incoming && field in current && field in incoming
      ? `${fieldLabel(section, field)}: ${shown(current[field])} → ${shown(incoming[field])}`
      : fieldLabel(section, field),
  );
  return (
    [
      c.added.length ? `Added: ${c.added.join(', ')}` : '',
      changed.length ? `Changed: ${changed.join(', ')}` : '',
      c.removed.length ? `Removed: ${c.removed.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('. ') || 'No change'
  );
};

/** Each section of the configuration and what applying the file changes in it. */
export function ImportPreviewTable({
  preview,
  current,
  config,
}: {
  preview: ImportReport;
  /** The configuration as it is now, and the file's: the old and new values of changed settings. */
  current: unknown;
  config: unknown;
}) {
  return (
    <Table aria-label="What the import changes">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Section</Table.Th>
          <Table.Th>Change</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {(Object.keys(SECTION_NAMES) as Array<keyof ImportReport['sections']>).map((section) => (
          <Table.Tr key={section}>
            <Table.Td>{SECTION_NAMES[section]}</Table.Td>
            <Table.Td>
              {section === 'apiKeys'
                ? preview.sections.apiKeys.notRestored
                  ? `${preview.sections.apiKeys.notRestored} not restored: keys are secrets; issue new ones.`
                  : 'None in the file'
                : describeChanges(
                    section,
                    preview.sections[section],
                    sectionOf(current, section),
                    sectionOf(config, section),
                  )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
