import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { ServerBus } from '../bus.ts';
import { ManualClock } from '../clock.ts';
import { AMI_SETTINGS_KEY } from './ami-settings-schema.ts';
import { writeSetting } from '../storage/settings.ts';
import { AmiTestServer } from '../test-support/ami-server.ts';
import { openTempDb } from '../test-support/temp-db.ts';
import { PeerMonitor } from './peer-monitor.ts';
import { readDetail, readLink } from './peer-state-store.ts';

describe('PeerMonitor', () => {
  const { db, dispose } = openTempDb('peer-monitor-');
  const clock = new ManualClock();
  let ami: AmiTestServer;
  let monitor: PeerMonitor;
  /** Stores AMI settings that reach the test AMI server, with `changes` on top. */
  const writeAmi = (changes: Record<string, unknown> = {}) =>
    writeSetting(db, AMI_SETTINGS_KEY, {
      enabled: true,
      host: ami.host,
      port: ami.port,
      username: 'admin',
      secret: 'amp111',
      ...changes,
    });

  before(async () => {
    db.exec("INSERT INTO extensions (number, username) VALUES ('100', 'a')");
    ami = await AmiTestServer.start();
    ami.endpoints.set('100', { deviceState: 'Not in use', contact: { uri: 'sip:100@192.0.2.5', userAgent: 'v1' } });
    writeAmi();
    monitor = new PeerMonitor(
      { db, bus: new ServerBus(), logger: pino({ level: 'silent' }), clock },
      { refreshIntervalMs: 3_600_000 },
    );
    await monitor.applySettings();
    await ami.waitFor(() => readDetail(db, '100')?.detail?.UserAgent === 'v1');
  });

  after(async () => {
    await monitor.stop();
    await ami.close();
    dispose();
  });

  it('refreshes a detail on demand once it is over a second old', async () => {
    await monitor.refresh(); // let the refreshes started by login settle
    ami.endpoints.get('100')!.contact!.userAgent = 'v2';
    await monitor.refreshEndpoint('100');
    assert.equal(readDetail(db, '100')?.detail?.UserAgent, 'v1', 'a fresh detail is not fetched again');
    clock.advance(1500);
    const asked = ami.actions.filter((a) => a.Action === 'PJSIPShowEndpoint').length;
    await monitor.refreshEndpoint('100');
    assert.equal(readDetail(db, '100')?.detail?.UserAgent, 'v2');
    assert.equal(ami.actions.filter((a) => a.Action === 'PJSIPShowEndpoint').length, asked + 1);
  });

  it(
    'does not ask Asterisk about unknown extensions, and returns at once while it is down',
    { timeout: 60_000 },
    async () => {
      const asked = ami.actions.length;
      await monitor.refreshEndpoint('999');
      assert.equal(ami.actions.length, asked);
      await ami.goDown();
      await ami.waitFor(() => !monitor.connected);
      clock.advance(5000);
      const askedWhileDown = ami.actions.length;
      // Let wait an hour for an answer, it returns without waiting for one (the test's timeout would end it).
      await monitor.refreshEndpoint('100', 3_600_000);
      assert.equal(ami.actions.length, askedWhileDown, 'nothing was asked');
      assert.equal(readLink(db).connected, false);
      await ami.comeBack();
    },
  );

  it('serialises settings changes so only one client ever runs', async () => {
    writeAmi({ n: 1 });
    const first = monitor.applySettings();
    writeAmi({ host: '127.0.0.1' });
    await Promise.all([first, monitor.applySettings()]);
    await ami.waitFor(() => monitor.connected);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(ami.sessions, 1);
  });
});
