// Peers (issue 22, item 4): extensions are added, edited and removed in the console with the v3
// validation messages under their fields; names show; without AMI a peer's page says once what is
// unknown and why instead of a wall of dashes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useConsole } from './support/console-session.ts';
import { eventually, visible } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';

describe('console: extensions from the Peers page', () => {
  const app = useConsole();
  const { peers } = app.screens;

  const stored = async () =>
    (await app.server.call(`${V3}extensions`)).json.data as Array<{
      number: string;
      username: string;
      callerid: string;
    }>;

  it('adds an extension after the server refuses bad fields under their names, then edits and removes it', async () => {
    const { browser } = app;
    await app.open();
    await peers.show();
    const dialog = await peers.openNewExtension();

    await dialog.field('Number', true).fill('2a');
    await dialog.field('Name', true).fill('Alice');
    await dialog.fill({ 'SIP password': 'long-enough-secret' });
    await dialog.save('Add extension');
    assert.match(await (await visible(dialog.error('Number'))).innerText(), /2 to 8 digits/);
    assert.deepEqual(await stored(), [], 'nothing stored');

    await dialog.field('Number', true).fill('201');
    await dialog.fill({ 'SIP password': 'short' });
    await dialog.save('Add extension');
    const password = dialog.errorByLabel('SIP password');
    assert.match(await (await visible(password)).innerText(), /at least 8 characters/);
    assert.deepEqual(await stored(), [], 'nothing stored');
    await browser.screenshot('peers-extension-refused');

    await dialog.fill({ 'SIP password': 'long-enough-secret' });
    await dialog.save('Add extension');
    await peers.dialogsClosed();
    const row = await visible(peers.extension('201'));
    await eventually(
      () => row.innerText(),
      (t) => t.includes('Alice'),
      'the name in the row',
    );
    assert.deepEqual(
      (await stored()).map((e) => [e.number, e.username]),
      [['201', 'Alice']],
    );

    const edit = await peers.editExtension('201');
    await edit.field('Name', true).fill('Alice Smith');
    await edit.save('Save extension');
    await peers.dialogsClosed();
    await eventually(
      () => row.innerText(),
      (t) => t.includes('Alice Smith'),
      'the new name',
    );
    assert.equal((await stored())[0]?.username, 'Alice Smith');

    await peers.deleteExtension('201');
    await eventually(stored, (list) => list.length === 0, 'the extension removed');
  });

  it('without AMI, a peer page says once what is unknown and why', async () => {
    const { server, browser } = app;
    const created = await server.call(`${V3}extensions`, {
      method: 'POST',
      body: { number: '202', username: 'Bob', secret: 'long-enough-secret' },
    });
    assert.equal(created.status, 201, created.text);
    await app.open('/peers/202');
    await peers.see('Unknown: the Asterisk manager is not connected');
    await visible(peers.link('Check the AMI connection in Settings'));
    assert.equal(await peers.detailValues(/^—$/).count(), 0, 'no wall of dashes');
    await browser.screenshot('peer-detail-no-ami');
  });
});
