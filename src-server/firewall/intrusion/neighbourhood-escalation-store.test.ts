import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../clock.ts';
import { openDatabase } from '../../storage/database.ts';
import { migrate } from '../../storage/migrations.ts';
import { writeSetting } from '../../storage/settings.ts';
import { BanStore } from '../bans/index.ts';
import { FAIL2BAN_SETTING_KEY } from '../filters/index.ts';
import { FirewallState } from '../filters/index.ts';
import { IntrusionDetector } from './intrusion-detector.ts';
import { NeighbourhoodEscalation, type ProtectedCheck } from './neighbourhood-escalation.ts';

const RULES = { maxretry: 1, findtime: 600, bantime: 600, escalation: true, escalationBans: 3 };

/** The web thread's parts on a real SQLite database, with a protected-address check passed in. */
function setup(isProtected?: ProtectedCheck) {
  const db = openDatabase(':memory:');
  migrate(db);
  writeSetting(db, FAIL2BAN_SETTING_KEY, RULES);
  const clock = new ManualClock();
  const build = () => {
    const state = new FirewallState(db, clock);
    const bans = new BanStore(db, clock);
    const escalation = new NeighbourhoodEscalation(state, bans, clock, isProtected);
    return { state, bans, detector: new IntrusionDetector(state, bans, clock, () => 0, undefined, escalation) };
  };
  return { db, clock, build, ...build() };
}

const inForce = (bans: BanStore) =>
  bans
    .active()
    .map((b) => `${b.category} ${b.ip}`)
    .sort();

describe('neighbourhood escalation: protected addresses, atomic writes, restarts', () => {
  test('a range holding a protected address (a registered phone) is never banned: the singles stay', () => {
    const asked: string[] = [];
    const { bans, detector } = setup((range) => {
      asked.push(range);
      return range === '198.51.100.0/24' ? ['198.51.100.20'] : null;
    });
    for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) detector.recordFailure('sip', ip, 'x');
    assert.deepEqual(inForce(bans), ['sip 198.51.100.1', 'sip 198.51.100.2', 'sip 198.51.100.3']);
    assert.deepEqual(asked, ['198.51.100.0/24'], 'asked once the count is reached, with the range');
    assert.equal(
      bans.get('sip', '198.51.100.3')!.reason,
      'x; not escalated to 198.51.100.0/24: it holds 198.51.100.20 (protected)',
    );
    for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) detector.recordFailure('sip', ip, 'x');
    assert.ok(inForce(bans).includes('sip 203.0.113.0/24'), 'another range with no phone escalates');
  });

  test('all or nothing: a failed range write leaves every single ban in force; the next ban escalates', () => {
    const { db, bans, detector } = setup();
    db.exec(
      "CREATE TRIGGER full BEFORE INSERT ON firewall_bans WHEN NEW.escalated_from IS NOT NULL BEGIN SELECT RAISE(ABORT, 'disk full'); END",
    );
    for (const ip of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) detector.recordFailure('http', ip, 'x');
    assert.deepEqual(inForce(bans), ['http 192.0.2.1', 'http 192.0.2.2', 'http 192.0.2.3']);
    const lifted = db.prepare('SELECT COUNT(*) FROM firewall_bans WHERE lifted_at IS NOT NULL').pluck().get();
    assert.equal(lifted, 0, 'no single lifted in the record either');
    db.exec('DROP TRIGGER full');
    detector.recordFailure('http', '192.0.2.4', 'x');
    assert.deepEqual(inForce(bans), ['http 192.0.2.0/24']);
    assert.equal(bans.get('http', '192.0.2.0/24')!.reason, 'escalated: 4 bans in 192.0.2.0/24 within 1 h');
  });

  test('bans from before a restart count; a new IPv4 prefix setting is taken at once', () => {
    const { db, build, detector } = setup();
    detector.recordFailure('iax', '10.9.8.1', 'x');
    detector.recordFailure('iax', '10.9.9.1', 'x');
    const restarted = build();
    restarted.detector.recordFailure('iax', '10.9.10.1', 'x');
    assert.equal(restarted.bans.active().length, 3, 'three /24s: nothing to escalate');
    writeSetting(db, FAIL2BAN_SETTING_KEY, { ...RULES, escalationIpv4Prefix: 16 });
    restarted.state.reload(); // as a fail2ban save does (resource-changed)
    restarted.detector.recordFailure('iax', '10.9.11.1', 'x');
    assert.deepEqual(inForce(restarted.bans), ['iax 10.9.0.0/16']);
    assert.equal(restarted.bans.get('iax', '10.9.0.0/16')!.reason, 'escalated: 4 bans in 10.9.0.0/16 within 1 h');
  });
});
