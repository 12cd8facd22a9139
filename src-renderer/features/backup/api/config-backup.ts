import type { Answer } from '#shared/contract/types.ts';
import { callOperation } from '../../../lib/api-client.ts';

export type ImportReport = Answer<'backup.importConfig'>;
export type SectionChanges = ImportReport['sections']['fail2ban'];

/** backup:exportConfig: the configuration as one JSON document (no secrets). */
export const exportConfig = () => callOperation('backup.exportConfig');

/** backup:importConfig: a dry run (what would change) or the import itself; errors are shown by the caller. */
export const importConfig = (config: unknown, dryRun: boolean) =>
  callOperation('backup.importConfig', { body: { config, dryRun }, quiet: true });
