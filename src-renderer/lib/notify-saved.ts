import { notifications } from '@mantine/notifications';
import type { Notices } from './api-client.ts';

/**
 * The notification of a successful save, with what else the server did (its info notices) appended,
 * and each warning notice as a notification of its own that stays longer.
 */
export function notifySaved(saved: { title: string; message: string }, notices: Notices, warningTitle: string): void {
  notifications.show({ color: 'teal', title: saved.title, message: [saved.message, ...notices.info].join(' ') });
  for (const warning of notices.warning)
    notifications.show({ color: 'yellow', title: warningTitle, message: warning, autoClose: 12_000 });
}
