// Network filter form: a loopback deny entry is refused under Deny; an edit keeps the reference
// PBX's stored-only categories (SSH...) that a script set and the form does not show.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useConsole } from './support/console-session.ts';
import { visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';

describe('console: network filter rules', () => {
  const app = useConsole();
  const { filters } = app.screens;

  it('shows the loopback refusal under Deny and writes nothing', async () => {
    const { server } = app;
    await app.open();
    await filters.show();
    const dialog = await filters.openNew();
    await dialog.fill({ permit: '10.30.0.0/16', deny: '198.51.100.9, 127.0.0.0/8' });
    await dialog.submit();
    assert.match(
      await (await visible(dialog.error('Deny'))).innerText(),
      /127\.0\.0\.0\/8.*covers this PBX's own loopback address.*never published to bouncers/,
    );
    assert.equal(await dialog.error('Network').count(), 0);
    await dialog.cancel();
    assert.deepEqual((await server.call(`${V3}firewall`)).json.data, []);
  });

  it('an edit in the console keeps the SSH and NTP rules a script stored', async () => {
    const { server, page } = app;
    const created = await server.call(`${V3}firewall`, {
      method: 'POST',
      body: {
        permit: '10.40.0.0/16',
        description: 'Scripted',
        currentRules: { SIP: true, WEB: true, AMI: true, IAX: true, SSH: false, NTP: true },
      },
    });
    assert.equal(created.status, 201, created.text);
    await page.reload();
    await visible(filters.row('10.40.0.0/16'));
    const edit = await filters.edit('10.40.0.0/16');
    await edit.fill({ block: ['IAX'] });
    await edit.save();
    const stored = (await server.call(`${V3}firewall/${created.json.data.id as number}`)).json.data;
    assert.deepEqual(stored.rules, {
      SIP: 'allow',
      WEB: 'allow',
      AMI: 'allow',
      IAX: 'block',
      SSH: 'block',
      NTP: 'allow',
    });
  });
});
