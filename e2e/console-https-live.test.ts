// HTTPS from the console without a restart: enable it, re-key it, try a port that is taken (the
// listener stays and the console says why), move it, and turn it off. What the console shows is
// checked against what a TLS client and curl see on the port.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { axeAudit } from './support/axe.ts';
import type { HttpsSection } from './pages/settings.ts';
import { useConsole } from './support/console-session.ts';
import { eventually, visible } from './support/page-helpers.ts';
import { freePort, servedFingerprint } from '../src-server/test-support/tls.ts';

/** curl's exit code and body for a ping over HTTPS (-k: the certificate is checked by fingerprint above). */
async function curlPing(port: number): Promise<{ code: number; body: string }> {
  try {
    const { stdout } = await promisify(execFile)(
      'curl',
      ['-sS', '-k', '--max-time', '5', `https://127.0.0.1:${port}/pbxcore/api/v3/system:ping`],
      { encoding: 'utf8' },
    );
    return { code: 0, body: stdout };
  } catch (error) {
    return { code: (error as { code?: number }).code ?? -1, body: '' };
  }
}

describe('console: HTTPS applies live', () => {
  const app = useConsole({ server: { adminPassword: undefined } });
  const { settings } = app.screens;
  let section: HttpsSection;
  let port = 0;

  const fingerprintShown = () => section.fingerprint();

  it('enabling HTTPS starts the listener at once, with the fingerprint it serves', async () => {
    const { browser } = app;
    await app.open();
    await settings.show();
    section = settings.https();
    await visible(section.status('Not running'));

    port = await freePort();
    await section.serve.check();
    await section.port.fill(String(port));
    await section.save();
    await visible(section.status(`Running on port ${port}`));
    const shown = await fingerprintShown();
    assert.match(shown, /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    assert.equal(await servedFingerprint(port), shown, 'the console shows the certificate the port serves');
    const ping = await curlPing(port);
    assert.equal(ping.code, 0);
    assert.equal(JSON.parse(ping.body).result, true);
    assert.equal(await section.text(/Restart/i).count(), 0, 'nothing asks for a restart');
    await browser.screenshot('settings-https-live');
    const violations = (
      await axeAudit(browser.page).include('[aria-labelledby="settings-https"]').analyze()
    ).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(
      violations.map((v) => v.id),
      [],
      'the HTTPS section has no serious axe violation',
    );
  });

  it('a saved change shows as Applying… until the listener has it', async () => {
    const { server, browser, page } = app;
    // Saved, but the web thread is not yet told: exactly the window the console must show.
    const next = await freePort();
    const db = server.server.services.db;
    const saved = JSON.parse(
      (db.prepare("SELECT value FROM settings WHERE key = 'https'").get() as { value: string }).value,
    ) as Record<string, unknown>;
    db.prepare("UPDATE settings SET value = ? WHERE key = 'https'").run(JSON.stringify({ ...saved, port: next }));
    await page.reload();
    section = settings.https();
    await visible(section.status('Applying…'));
    assert.equal(await section.runtime.getAttribute('aria-busy'), 'true');
    assert.ok(await section.rekey.isDisabled(), 'no re-key while a change is pending');
    await browser.screenshot('settings-https-applying');
    assert.equal((await curlPing(port)).code, 0, 'the listener serves its port until the change is applied');

    server.server.services.bus.emit({ type: 'resource-changed', resource: 'https' });
    await visible(section.status(`Running on port ${next}`));
    assert.equal(await section.status('Applying…').count(), 0);
    assert.equal((await curlPing(next)).code, 0);
    port = next;
  });

  it('a new self-signed certificate is served at once, after a confirmation that warns pinned bouncers', async () => {
    const before = await fingerprintShown();
    await section.rekey.click();
    const dialog = settings.formIn(await visible(settings.dialog('Replace the self-signed certificate?')));
    await dialog.see(/pinned the old certificate/);
    await dialog.save('Re-key now');
    await settings.dialogsClosed();
    const after = await eventually(
      fingerprintShown,
      (f) => f !== before && /^([0-9A-F]{2}:){31}/.test(f),
      'the new fingerprint in the console',
    );
    assert.equal(await servedFingerprint(port), after);
    await visible(section.status(`Running on port ${port}`));
  });

  it('a port that is taken leaves the listener where it was, and the console says why', async () => {
    const { server, browser } = app;
    await section.port.fill(String(server.server.port));
    await section.save();
    const alert = await visible(section.alert);
    assert.match(await alert.innerText(), /not applied[\s\S]*EADDRINUSE[\s\S]*keeps running on port/);
    await visible(section.status(`Running on port ${port}`));
    assert.equal((await curlPing(port)).code, 0, 'the old port still answers');
    await browser.screenshot('settings-https-port-taken');
  });

  it('a free port moves the listener; turning HTTPS off closes it', async () => {
    const { server } = app;
    const moved = await freePort();
    await section.port.fill(String(moved));
    await section.save();
    await visible(section.status(`Running on port ${moved}`));
    assert.equal(await section.alert.count(), 0, 'the earlier error is gone');
    assert.equal((await curlPing(moved)).code, 0);
    assert.equal((await curlPing(port)).code, 7, 'curl: the old port refuses connections');

    await section.serve.uncheck();
    await section.save();
    await visible(section.status('Not running'));
    assert.equal((await curlPing(moved)).code, 7);
    const info = (await server.call('/pbxcore/api/v3/system:getInfo')).json.data as { httpsPort: number | null };
    assert.equal(info.httpsPort, null);
  });
});
