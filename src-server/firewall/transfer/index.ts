export { renderBanExport } from './ban-export.ts';
export { absorbImportedBans } from './ban-import-absorb.ts';
export { planBanImport } from './ban-import-apply.ts';
export { writeBanImport } from './ban-import-write.ts';
export { BAN_LIST_FORMATS, MAX_REASON_CHARS, parseBanList, parseImportDuration } from './ban-import.ts';
export type { BanListFormat, LineError } from './ban-import.ts';
