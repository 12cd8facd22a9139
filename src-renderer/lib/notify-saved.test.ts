import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { notificationsStore } from '@mantine/notifications';
import { notifySaved } from './notify-saved.ts';

const shown = () =>
  [...notificationsStore.getState().notifications, ...notificationsStore.getState().queue].map((n) => ({
    color: n.color,
    title: n.title,
    message: n.message,
    autoClose: n.autoClose,
  }));

describe('notifySaved', () => {
  it('appends the info notices to the success message and shows each warning on its own, longer', () => {
    notifySaved(
      { title: 'Whitelisted', message: '192.0.2.7 is never banned.' },
      { info: ['2 bans were lifted.'], warning: ['Still in filter "office".', 'Still in the upstream list.'] },
      'Still blocked elsewhere',
    );
    assert.deepEqual(shown(), [
      {
        color: 'teal',
        title: 'Whitelisted',
        message: '192.0.2.7 is never banned. 2 bans were lifted.',
        autoClose: undefined,
      },
      { color: 'yellow', title: 'Still blocked elsewhere', message: 'Still in filter "office".', autoClose: 12_000 },
      { color: 'yellow', title: 'Still blocked elsewhere', message: 'Still in the upstream list.', autoClose: 12_000 },
    ]);
  });
});
