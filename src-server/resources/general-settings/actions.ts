import { GENERAL_SETTINGS_KEY } from '../../queue/limits.ts';
import { singletonActions } from '../../resource-kit/singleton.ts';
import type { ResourceActions } from '../../resource-kit/types.ts';
import { generalSettingsDeclaration } from './declaration.ts';

export const generalSettingsActions: ResourceActions = singletonActions(generalSettingsDeclaration, {
  settingKey: GENERAL_SETTINGS_KEY,
});
