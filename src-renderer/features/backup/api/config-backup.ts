import type { Answer } from '../../../../src-shared/contract/types.ts';
import { api } from '../../../lib/api-client.ts';

/** An export, as backup:exportConfig gives it (the console treats the sections as opaque). */
export type ConfigBackup = Answer<'backup.exportConfig'>;

export type ImportReport = Answer<'backup.importConfig'>;
export type SectionChanges = ImportReport['sections']['fail2ban'];

/** backup:exportConfig: the configuration as one JSON document (no secrets). */
export const exportConfig = () => api.get<ConfigBackup>('backup:exportConfig');

/** backup:importConfig: a dry run (what would change) or the import itself; errors are shown by the caller. */
export const importConfig = (config: unknown, dryRun: boolean) =>
  api.post<ImportReport>('backup:importConfig', { config, dryRun }, { quiet: true });
