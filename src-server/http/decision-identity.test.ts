import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MANUAL_DURATION } from '../firewall/model/index.ts';
import { createTestApiKey } from '../test-support/api-keys.ts';
import { useTestServer } from '../test-support/server.ts';
import { createFilter, poll, values, type Decision } from '../test-support/bouncer.ts';
import { FIREWALL } from '../test-support/v3-paths.ts';

const of = (decisions: Decision[], value: string) => decisions.filter((d) => d.value === value);

/** No answer lists one (value, scenario) in both new and deleted. */
function assertDisjoint(answer: { new: Decision[]; deleted: Decision[] }): void {
  const published = new Set(values(answer.new));
  assert.deepEqual(
    values(answer.deleted).filter((v) => published.has(v)),
    [],
    'a value in both new and deleted',
  );
  assert.equal(new Set(values(answer.new)).size, answer.new.length, 'a (value, scenario) published twice');
}

describe('decision identity: one decision per (value, scenario)', () => {
  const t = useTestServer();

  test(
    'a filter entry and a manual ban of one address are one decision with the longest duration; ' +
      'it is deleted only when both are gone',
    async () => {
      const { key } = createTestApiKey(t.server.services.db);
      const filter = await createFilter(t, { permit: '192.0.2.0/24', deny: '198.51.100.80' });
      assert.equal(
        (await t.call(`${FIREWALL}:banIp`, { method: 'POST', body: { ip: '198.51.100.80', duration: 3600 } })).status,
        201,
      );
      let answer = await poll(t, key);
      assertDisjoint(answer);
      assert.equal(of(answer.new, '198.51.100.80').length, 1);
      assert.equal(
        of(answer.new, '198.51.100.80')[0]!.duration,
        MANUAL_DURATION,
        'the filter entry never ends: it has the longest time left',
      );

      assert.equal((await t.call(`${FIREWALL}/${filter.id}`, { method: 'DELETE' })).status, 200);
      answer = await poll(t, key);
      assertDisjoint(answer);
      assert.deepEqual(of(answer.deleted, '198.51.100.80'), [], 'still banned: not deleted');
      assert.match(of(answer.new, '198.51.100.80')[0]!.duration, /^(3600|35\d\d)s$/, 'now the ban its own time left');

      assert.equal(
        (await t.call(`${FIREWALL}:unbanIp`, { method: 'POST', body: { ip: '198.51.100.80' } })).status,
        200,
      );
      answer = await poll(t, key);
      assertDisjoint(answer);
      assert.equal(of(answer.deleted, '198.51.100.80').length, 1);
    },
  );

  test('the same entry in two filters is one decision, removed only with the second', async () => {
    const { key } = createTestApiKey(t.server.services.db);
    const first = await createFilter(t, { permit: '192.0.2.0/24', deny: '198.51.100.81' });
    const second = await createFilter(t, { permit: '192.0.2.0/24', deny: '198.51.100.81, 198.51.100.82' });
    let answer = await poll(t, key);
    assert.equal(of(answer.new, '198.51.100.81').length, 1);
    await t.call(`${FIREWALL}/${first.id}`, { method: 'DELETE' });
    answer = await poll(t, key);
    assertDisjoint(answer);
    assert.equal(of(answer.new, '198.51.100.81').length, 1);
    assert.deepEqual(of(answer.deleted, '198.51.100.81'), []);
    await t.call(`${FIREWALL}/${second.id}`, { method: 'DELETE' });
    answer = await poll(t, key);
    assert.deepEqual(values(of(answer.deleted, '198.51.100.81')), ['198.51.100.81 pbx/manual']);
  });

  test(
    'an expand_ranges key gets a manual range ban as its addresses, not also the Range; an ' +
      'address still covered is not deleted',
    async () => {
      const created = await t.call('/pbxcore/api/v3/api-keys', {
        method: 'POST',
        body: { description: 'nftables', allowed_paths: { '/api/v3/firewall-bouncer': 'read' }, expand_ranges: true },
      });
      assert.equal(created.status, 201);
      const key = created.json.data.key as string;
      assert.equal(
        (await t.call(`${FIREWALL}:banIp`, { method: 'POST', body: { ip: '198.51.102.0/30', duration: 3600 } })).status,
        201,
      );
      await createFilter(t, { permit: '192.0.2.0/24', deny: '198.51.102.1' });
      let answer = await poll(t, key);
      assertDisjoint(answer);
      const range = answer.new.filter((d) => d.value.startsWith('198.51.102.'));
      assert.deepEqual(
        range.map((d) => d.value).sort(),
        ['198.51.102.0', '198.51.102.1', '198.51.102.2', '198.51.102.3'],
        'the addresses, each once, and no Range',
      );
      assert.ok(range.every((d) => d.scope === 'Ip'));

      assert.equal(
        (await t.call(`${FIREWALL}:unbanIp`, { method: 'POST', body: { ip: '198.51.102.0/30' } })).status,
        200,
      );
      answer = await poll(t, key);
      assertDisjoint(answer);
      assert.deepEqual(
        answer.deleted
          .filter((d) => d.value.startsWith('198.51.102.'))
          .map((d) => d.value)
          .sort(),
        ['198.51.102.0', '198.51.102.2', '198.51.102.3'],
      );
      assert.equal(of(answer.new, '198.51.102.1').length, 1, 'the filter still blocks .1');
    },
  );
});
