import type { Migration } from './migration.ts';
import { coreMigration } from './001-core.ts';
import { keysAndFiltersMigration } from './002-keys-and-filters.ts';
import { canonicalAddressesMigration } from './003-canonical-addresses.ts';
import { sealedSecretsMigration } from './004-sealed-secrets.ts';
import { accountsAndSessionsMigration } from './010-accounts-and-sessions.ts';
import { apiKeyLifecycleMigration } from './011-api-key-lifecycle.ts';
import { apiKeyCapsMigration } from './012-api-key-caps.ts';
import { keyDeliveryStateMigration } from './013-key-delivery-state.ts';
import { apiKeyBouncerSetupMigration } from './014-api-key-bouncer-setup.ts';
import { apiKeyResyncsMigration } from './015-api-key-resyncs.ts';
import { firewallMigration } from './020-firewall.ts';
import { bouncerExportOptionsMigration } from './021-bouncer-export-options.ts';
import { decisionIdentityMigration } from './022-decision-identity.ts';
import { banHistoryMigration } from './023-ban-history.ts';
import { deliveryWindowMigration } from './024-delivery-window.ts';
import { escalatedBansMigration } from './025-escalated-bans.ts';
import { canonicalRangesMigration } from './026-canonical-ranges.ts';
import { banImportJournalMigration } from './027-ban-import-journal.ts';
import { singleAddressBansMigration } from './028-single-address-bans.ts';
import { peerStateMigration } from './030-peer-state.ts';
import { registeredContactsMigration } from './031-registered-contacts.ts';
import { banNumbersMigration } from './050-ban-numbers.ts';
import { auditLogMigration } from './060-audit-log.ts';
import { auditRejectionCountsMigration } from './061-audit-rejection-counts.ts';
import { auditDeepSecretsMigration } from './062-audit-deep-secrets.ts';
import { crowdsecLinkMigration } from './070-crowdsec-link.ts';
import { linkUrlCredentialsMigration } from './071-link-url-credentials.ts';
import { crowdsecShareRunsMigration } from './072-crowdsec-share-runs.ts';
import { healthMigration } from './080-health.ts';
import { notificationsMigration } from './085-notifications.ts';

/**
 * Every schema step of the product. Version ranges by feature, so parallel work never collides:
 * 1-9 core, 10-19 auth, 20-29 firewall, 30-39 peers/AMI, 40-49 modules and async jobs, 50-54 ban policy, 60-69
 * audit log, 70-79 the CrowdSec LAPI link, 80-84 health checks,
 * 85-89 notifications.
 */
export const allMigrations: readonly Migration[] = [
  coreMigration,
  keysAndFiltersMigration,
  canonicalAddressesMigration,
  sealedSecretsMigration,
  accountsAndSessionsMigration,
  apiKeyLifecycleMigration,
  apiKeyCapsMigration,
  keyDeliveryStateMigration,
  apiKeyBouncerSetupMigration,
  apiKeyResyncsMigration,
  firewallMigration,
  bouncerExportOptionsMigration,
  decisionIdentityMigration,
  banHistoryMigration,
  deliveryWindowMigration,
  escalatedBansMigration,
  canonicalRangesMigration,
  banImportJournalMigration,
  singleAddressBansMigration,
  peerStateMigration,
  registeredContactsMigration,
  banNumbersMigration,
  auditLogMigration,
  auditRejectionCountsMigration,
  auditDeepSecretsMigration,
  crowdsecLinkMigration,
  linkUrlCredentialsMigration,
  crowdsecShareRunsMigration,
  healthMigration,
  notificationsMigration,
];
