import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadFilters, manualBanValues } from '../../firewall/filters/index.ts';
import { migrate } from '../../storage/migrations.ts';
import { useTestServer } from '../../test-support/server.ts';
import { FAIL2BAN, FIREWALL } from '../../test-support/v3-paths.ts';

describe('network filters store and check canonical addresses', () => {
  const t = useTestServer();

  it('stores IPv4-mapped and uncompressed IPv6 entries canonical, ranges included', async () => {
    const res = await t.post(FIREWALL, {
      permit: '::ffff:10.1.0.0/112',
      deny: '::ffff:192.0.2.77, ::ffff:198.51.100.0/120, 2001:DB8:0:0::5',
      description: 'mapped',
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.json.data.permit, '10.1.0.0/16');
    assert.equal(res.json.data.deny, '192.0.2.77,198.51.100.0/24,2001:db8::5');
    const stored = t.server.services.db
      .prepare('SELECT permit, deny FROM network_filters WHERE id = ?')
      .get(res.json.data.id);
    assert.deepEqual(stored, { permit: '10.1.0.0/16', deny: '192.0.2.77,198.51.100.0/24,2001:db8::5' });
  });

  it("takes network + subnet with a mapped address in either family's prefix", async () => {
    for (const subnet of [24, 120]) {
      const res = await t.post(FIREWALL, { network: '::ffff:203.0.113.0', subnet, description: `subnet ${subnet}` });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.json.data.permit, '203.0.113.0/24');
    }
    const tooLong = await t.post(FIREWALL, { network: '::ffff:203.0.113.0', subnet: 60, description: 'x' });
    assert.equal(tooLong.status, 422);
    assert.match(tooLong.json.messages.error[0], /larger than 32/);
  });

  it('checks a mapped deny entry against the whitelist as the IPv4 address it is', async () => {
    const whitelisted = await t.call(FAIL2BAN, { method: 'PATCH', body: { whitelist: '192.0.2.128/25' } });
    assert.equal(whitelisted.status, 200, whitelisted.text);
    try {
      for (const deny of ['::ffff:192.0.2.200', '::ffff:c000:2c8', '::ffff:192.0.2.192/122']) {
        const res = await t.post(FIREWALL, { permit: '10.9.0.0/16', deny });
        assert.equal(res.status, 422, `${deny}: ${res.text}`);
        assert.match(res.json.messages.error[0], /overlaps the fail2ban whitelist entry 192\.0\.2\.128\/25/);
      }
    } finally {
      await t.call(FAIL2BAN, { method: 'PATCH', body: { whitelist: '' } });
    }
  });

  it('refuses a deny entry covering the host loopback (it could never be published), mapped forms included', async () => {
    for (const deny of [
      '127.0.0.0/8',
      '127.0.0.1',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:127.0.0.0/104',
      '0.0.0.0/1',
      '198.51.100.9, 127.0.0.0/30',
    ]) {
      const res = await t.post(FIREWALL, { permit: '10.8.0.0/16', deny });
      assert.equal(res.status, 422, `${deny}: ${res.text}`);
      assert.match(
        res.json.messages.error[0],
        /^deny: ".+" covers this PBX's own loopback address .*never published to bouncers/,
      );
    }
    // 127.0.0.2 is not the host's own loopback address: a block of it is published.
    const ok = await t.post(FIREWALL, { permit: '10.8.0.0/16', deny: '127.0.0.2, 198.51.100.9' });
    assert.equal(ok.status, 201, ok.text);
    // A row stored before this rule is still never published.
    t.server.services.db
      .prepare("INSERT INTO network_filters (permit, deny) VALUES ('10.7.0.0/16', '127.0.0.0/8,198.51.100.10')")
      .run();
    const published = manualBanValues(loadFilters(t.server.services.db));
    assert.ok(published.includes('198.51.100.9') && published.includes('198.51.100.10'));
    assert.ok(!published.some((v) => v.startsWith('127.0.0.0') || v === '127.0.0.1'), published.join(' '));
  });

  it('overlap errors name a filter by its description and network, as the console shows it', async () => {
    const office = await t.post(FIREWALL, { permit: '10.60.0.0/16', deny: '203.0.113.0/24', description: 'Office' });
    assert.equal(office.status, 201, office.text);
    const whitelist = await t.call(FAIL2BAN, { method: 'PATCH', body: { whitelist: '203.0.113.5' } });
    assert.equal(whitelist.status, 422);
    assert.equal(
      whitelist.json.messages.error[0],
      'whitelist: "203.0.113.5" overlaps the deny entry 203.0.113.0/24 of network filter "Office" (10.60.0.0/16).',
    );
    const trusted = await t.post(FIREWALL, { permit: '203.0.113.0/28', newer_block_ip: true });
    assert.equal(trusted.status, 422);
    assert.match(
      trusted.json.messages.error.join(' '),
      /deny entry 203\.0\.113\.0\/24 of network filter "Office" \(10\.60\.0\.0\/16\)/,
    );
    assert.doesNotMatch(trusted.json.messages.error.join(' '), /filter \d/);
    await t.call(`${FIREWALL}/${office.json.data.id as number}`, { method: 'DELETE' });
  });

  it('rewrites addresses stored before canonicalisation (migration 3)', () => {
    const db = t.server.services.db;
    const info = db
      .prepare(
        "INSERT INTO network_filters (permit, deny) VALUES ('::ffff:c000:200/120', '::ffff:127.0.0.1,2001:DB8:0::7')",
      )
      .run();
    db.prepare(
      `INSERT INTO settings (key, value) VALUES ('fail2ban', json_object('whitelist', '::ffff:10.0.0.1, 2001:DB8::/32'))
       ON CONFLICT(key) DO UPDATE SET value = json_set(value, '$.whitelist', '::ffff:10.0.0.1, 2001:DB8::/32')`,
    ).run();
    db.prepare('DELETE FROM schema_migrations WHERE version = 3').run();
    assert.deepEqual(migrate(db), [3]);
    assert.deepEqual(db.prepare('SELECT permit, deny FROM network_filters WHERE id = ?').get(info.lastInsertRowid), {
      permit: '192.0.2.0/24',
      deny: '127.0.0.1,2001:db8::7',
    });
    const whitelist = (
      JSON.parse(
        (db.prepare("SELECT value FROM settings WHERE key = 'fail2ban'").get() as { value: string }).value,
      ) as { whitelist: string }
    ).whitelist;
    assert.equal(whitelist, '10.0.0.1, 2001:db8::/32');
  });
});
