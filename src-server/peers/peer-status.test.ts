import assert from 'node:assert/strict';
import { after, beforeEach, describe, it } from 'node:test';
import { AMI_SETTINGS_KEY } from './ami-settings-schema.ts';
import { writeSetting } from '../storage/settings.ts';
import { openTempDb } from '../test-support/temp-db.ts';
import { clearState, writeLink, writeSnapshot } from './peer-state-store.ts';
import {
  freshnessMessages,
  freshnessOf,
  peerStateOf,
  peerStatuses,
  registrationFor,
  registryStateOf,
  STALE_STATE_LIMIT_MS,
} from './peer-status.ts';

const { db, dispose } = openTempDb('peer-status-');
after(dispose);

const T0 = Date.parse('2026-01-01T00:00:00Z');

describe('peer status mapping', () => {
  beforeEach(() => {
    db.exec("DELETE FROM extensions; INSERT INTO extensions (number, username) VALUES ('100', 'a'), ('101', 'b')");
    writeSetting(db, AMI_SETTINGS_KEY, { enabled: true, host: '127.0.0.1', port: 5038, username: 'u', secret: 's' });
    clearState(db);
    writeSnapshot(db, [{ endpoint: '100', deviceState: 'In use', contacts: 'x' }], [], T0);
  });

  it('maps device states to OK or UNKNOWN and registrations to OK or OFF', () => {
    for (const s of ['Not in use', 'In use', 'Busy', 'Ringing', 'On Hold'])
      assert.equal(peerStateOf({ endpoint: '1', deviceState: s, contacts: '' }), 'OK', s);
    for (const s of ['Unavailable', 'Invalid', 'Unknown', ''])
      assert.equal(peerStateOf({ endpoint: '1', deviceState: s, contacts: '' }), 'UNKNOWN', s);
    assert.equal(peerStateOf(undefined), 'UNKNOWN');
    const reg = { registration: 'r', status: 'Registered', serverUri: '', clientUri: '' };
    assert.equal(registryStateOf(reg, false), 'OK');
    assert.equal(registryStateOf(reg, true), 'OFF');
    assert.equal(registryStateOf({ ...reg, status: 'Rejected' }, false), 'OFF');
    assert.equal(registryStateOf(undefined, false), 'OFF');
  });

  it('matches registrations by name, -REG suffix, or user and server host', () => {
    const regs = [
      { registration: 'SIP-A', status: 'Registered', serverUri: 'sip:a.example', clientUri: 'sip:x@a.example' },
      { registration: 'SIP-B-REG', status: 'Registered', serverUri: '', clientUri: '' },
      {
        registration: 'other',
        status: 'Registered',
        serverUri: 'sip:[2001:db8::1]:5060',
        clientUri: 'sip:carol@[2001:db8::1]',
      },
    ];
    assert.equal(registrationFor({ id: 'sip-a', username: '', host: 'h' }, regs)?.registration, 'SIP-A');
    assert.equal(registrationFor({ id: 'SIP-B', username: '', host: 'h' }, regs)?.registration, 'SIP-B-REG');
    assert.equal(
      registrationFor({ id: 'SIP-C', username: 'carol', host: '[2001:db8::1]:5060' }, regs)?.registration,
      'other',
    );
    assert.equal(registrationFor({ id: 'SIP-D', username: 'dave', host: '[2001:db8::1]' }, regs), undefined);
  });

  it('serves cached state with its age while disconnected, up to the stale limit', () => {
    writeLink(db, false, 'Connection refused by 127.0.0.1:5038.');
    const aged = freshnessOf(db, T0 + 42_000);
    assert.deepEqual(
      { ...aged },
      {
        enabled: true,
        connected: false,
        lastError: 'Connection refused by 127.0.0.1:5038.',
        ageSeconds: 42,
        usable: true,
      },
    );
    assert.deepEqual(peerStatuses(db, aged), [
      { id: '100', state: 'OK' },
      { id: '101', state: 'UNKNOWN' },
    ]);
    assert.match(freshnessMessages(aged)!.warning![0]!, /refused.*cached, 42 s old/);

    const stale = freshnessOf(db, T0 + STALE_STATE_LIMIT_MS + 1000);
    assert.equal(stale.usable, false);
    assert.deepEqual(peerStatuses(db, stale), [
      { id: '100', state: 'UNKNOWN' },
      { id: '101', state: 'UNKNOWN' },
    ]);
    assert.match(freshnessMessages(stale)!.warning![0]!, /every extension is UNKNOWN/);
  });

  it('keeps serving while connected however old the last refresh, and nothing when disabled', () => {
    writeLink(db, true, null);
    assert.equal(freshnessOf(db, T0 + STALE_STATE_LIMIT_MS * 2).usable, true);
    assert.equal(freshnessMessages(freshnessOf(db, T0)), undefined);
    writeSetting(db, AMI_SETTINGS_KEY, { enabled: false });
    const off = freshnessOf(db, T0);
    assert.deepEqual(
      { ...off },
      { enabled: false, connected: false, lastError: null, ageSeconds: null, usable: false },
    );
    assert.equal(peerStatuses(db, off)[0]!.state, 'UNKNOWN');
  });
});
