import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../../clock.ts';
import { describeCutOff, protectionText, RegisteredAddresses, type RegisteredContact } from './registered-addresses.ts';

function index(settings = { protectRegistered: true, registeredLingerMinutes: 5 }) {
  const clock = new ManualClock();
  const written: RegisteredContact[][] = [];
  const registered = new RegisteredAddresses(
    () => settings,
    clock,
    (rows) => written.push(rows),
  );
  return { clock, written, registered, settings };
}

describe('the registered-address index', () => {
  it('protects an address while a phone is registered there, and for the linger after', () => {
    const { clock, registered } = index();
    registered.contactUp('198.51.100.10', '101');
    registered.contactUp('198.51.100.10', '103');
    assert.equal(registered.isProtected('198.51.100.10'), true);
    assert.equal(registered.isProtected('198.51.100.11'), false);
    registered.contactDown('198.51.100.10', '101');
    assert.deepEqual(registered.phonesAt('198.51.100.10'), ['101', '103']);
    registered.contactDown('198.51.100.10', '103');
    clock.advance(5 * 60_000 - 1);
    assert.equal(registered.isProtected('198.51.100.10'), true, 'within the linger');
    clock.advance(1);
    assert.equal(registered.isProtected('198.51.100.10'), false, 'the linger is over');
    assert.deepEqual(registered.phonesAt('198.51.100.10'), []);
  });

  it('protects nothing while the protection is off', () => {
    const { registered, settings } = index();
    registered.contactUp('198.51.100.10', '101');
    settings.protectRegistered = false;
    assert.equal(registered.isProtected('198.51.100.10'), false);
    assert.equal(registered.protectedPhones('198.51.100.0/24').size, 0);
    assert.deepEqual(registered.list(), []);
  });

  it('names the phones a ban of a range would cut off, IPv4 and IPv6', () => {
    const { registered } = index();
    registered.contactUp('198.51.100.10', '101');
    registered.contactUp('198.51.100.10', '99');
    registered.contactUp('198.51.100.200', '205');
    registered.contactUp('198.51.101.1', '300');
    registered.contactUp('2001:db8::5', '400');
    registered.contactUp('::ffff:192.0.2.9', '500');
    assert.deepEqual(
      [...registered.protectedPhones('198.51.100.0/24')],
      [
        ['198.51.100.10', ['99', '101']],
        ['198.51.100.200', ['205']],
      ],
    );
    assert.deepEqual([...registered.protectedPhones('198.51.100.0/25')], [['198.51.100.10', ['99', '101']]]);
    assert.deepEqual([...registered.protectedPhones('2001:db8::/64')], [['2001:db8::5', ['400']]]);
    assert.deepEqual([...registered.protectedPhones('192.0.2.9')], [['192.0.2.9', ['500']]], 'IPv4-mapped unwrapped');
    assert.equal(registered.protectedPhones('203.0.113.0/24').size, 0);
    assert.equal(registered.protectedPhones('garbage/99').size, 0);
    assert.equal(
      describeCutOff(registered.protectedPhones('198.51.100.0/24')),
      '198.51.100.10 (phones 99 and 101), 198.51.100.200 (phone 205)',
    );
    assert.equal(protectionText(['101', '102', '103']), '3 registered phones, 101, 102 and 103');
  });

  it('replaces every contact from a refresh: new ones up, missing ones ended, in one write', () => {
    const { registered, written } = index();
    const seen: string[] = [];
    registered.onRegistered((endpoint) => seen.push(endpoint));
    registered.contactUp('198.51.100.10', '101');
    written.length = 0;
    registered.replaceAll([
      { address: '198.51.100.20', endpoint: '102' },
      { address: '198.51.100.20', endpoint: '103' },
    ]);
    assert.equal(written.length, 1, 'one write for the whole refresh');
    assert.deepEqual(
      written[0]!.map((r) => [r.address, r.endpoint, r.endedAt === null]),
      [
        ['198.51.100.20', '102', true],
        ['198.51.100.20', '103', true],
        ['198.51.100.10', '101', false],
      ],
    );
    assert.deepEqual(seen, ['101', '102', '103']);
    registered.endAll();
    assert.ok(registered.list().every((a) => a.phones.every((p) => p.endedAt !== null)));
  });
});
