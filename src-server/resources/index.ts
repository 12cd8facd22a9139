import { apiKeysActions } from './api-keys/actions.ts';
import { apiKeysDeclaration } from './api-keys/declaration.ts';
import { amiActions } from './ami/actions.ts';
import { amiDeclaration } from './ami/declaration.ts';
import { auditLogActions } from './audit-log/actions.ts';
import { auditLogDeclaration } from './audit-log/declaration.ts';
import { authDeclaration } from './auth/declaration.ts';
import { backupActions } from './backup/actions.ts';
import { backupDeclaration } from './backup/declaration.ts';
import { crowdsecLinkActions } from './crowdsec-link/actions.ts';
import { crowdsecLinkDeclaration } from './crowdsec-link/declaration.ts';
import { httpsActions } from './https/actions.ts';
import { httpsDeclaration } from './https/declaration.ts';
import { fail2banActions } from './fail2ban/actions.ts';
import { fail2banDeclaration } from './fail2ban/declaration.ts';
import { firewallActions } from './firewall/actions.ts';
import { firewallDeclaration } from './firewall/declaration.ts';
import { networkFiltersActions } from './network-filters/actions.ts';
import { networkFiltersDeclaration } from './network-filters/declaration.ts';
import { extensionsActions } from './extensions/actions.ts';
import { extensionsDeclaration } from './extensions/declaration.ts';
import { generalSettingsActions } from './general-settings/actions.ts';
import { generalSettingsDeclaration } from './general-settings/declaration.ts';
import { modulesActions } from './modules/actions.ts';
import { modulesDeclaration } from './modules/declaration.ts';
import { openapiActions } from './openapi/actions.ts';
import { openapiDeclaration } from './openapi/declaration.ts';
import { providersActions } from './providers/actions.ts';
import { providersDeclaration } from './providers/declaration.ts';
import { sipActions } from './sip/actions.ts';
import { sipDeclaration } from './sip/declaration.ts';
import { systemActions } from './system/actions.ts';
import { systemDeclaration } from './system/declaration.ts';
import type { ResourceDefinition } from '../resource-kit/types.ts';

/** Every core v3 resource. Workers and the web thread both build their registry from this list. */
export const coreResources: ResourceDefinition[] = [
  { declaration: systemDeclaration, actions: systemActions },
  // Served on the web thread (http/auth-routes.ts): no worker actions.
  { declaration: authDeclaration, actions: {} },
  { declaration: apiKeysDeclaration, actions: apiKeysActions },
  { declaration: httpsDeclaration, actions: httpsActions },
  { declaration: extensionsDeclaration, actions: extensionsActions },
  { declaration: providersDeclaration, actions: providersActions },
  { declaration: generalSettingsDeclaration, actions: generalSettingsActions },
  { declaration: sipDeclaration, actions: sipActions },
  { declaration: amiDeclaration, actions: amiActions },
  { declaration: firewallDeclaration, actions: firewallActions },
  { declaration: networkFiltersDeclaration, actions: networkFiltersActions },
  { declaration: fail2banDeclaration, actions: fail2banActions },
  { declaration: modulesDeclaration, actions: modulesActions },
  { declaration: openapiDeclaration, actions: openapiActions },
  { declaration: backupDeclaration, actions: backupActions },
  { declaration: auditLogDeclaration, actions: auditLogActions },
  { declaration: crowdsecLinkDeclaration, actions: crowdsecLinkActions },
];
