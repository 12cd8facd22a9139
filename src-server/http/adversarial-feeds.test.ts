import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { createTestApiKey } from '../test-support/api-keys.ts';
import { poll, type Decision } from '../test-support/bouncer.ts';
import { startLinkedTestServer } from '../test-support/crowdsec-link.ts';
import { parseF5, parseJuniper, parseMikrotik, parsePlainText } from '../test-support/feed-parsers.ts';
import { csvCells } from '../test-support/csv.ts';
import { FORMULA_TEXTS, HOSTILE_TEXTS } from '../test-support/hostile-text.ts';
import { closeNow, listenOnLoopback } from '../test-support/loopback-server.ts';
import type { TestServer } from '../test-support/server.ts';

/**
 * Adversarial: feed injection. Text that leaves the server (upstream scenarios and origins, ban
 * reasons, list names) must never change the syntax of a router feed or a CSV export.
 */
const V3 = '/pbxcore/api/v3/';
const FEED = `${V3}firewall-bouncer/blocklist`;
const FIREWALL = `${V3}firewall`;

/** Each hostile text arrives from the LAPI as one decision's scenario and origin. */
const upstream = HOSTILE_TEXTS.map((text, i) => ({
  id: 500 + i,
  origin: text,
  type: 'ban',
  scope: 'Ip',
  value: i % 3 === 2 ? `2001:db8:66::${i.toString(16)}` : `198.51.113.${i + 1}`,
  duration: '3h59m59s',
  scenario: text,
}));
const upstreamValues = new Set(upstream.map((d) => d.value));

async function waitFor<T>(what: string, check: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const sorted = (list: unknown[]) => list.map((x) => JSON.stringify(x)).sort();
const seconds = (duration: string) => {
  const match = /^(\d+)([hs])$/.exec(duration);
  assert.ok(match, duration);
  return Number(match[1]) * (match[2] === 'h' ? 3600 : 1);
};

describe('adversarial: feed injection', { timeout: 120_000 }, () => {
  let lapi: Server;
  let pbx: TestServer;
  let key: string;
  let published: Decision[];
  const feed = async (query: string) => {
    const answer = await pbx.remote(`${FEED}${query}`, { headers: { 'X-Api-Key': key } });
    assert.equal(answer.status, 200, answer.text);
    return answer.text;
  };

  before(async () => {
    const body = JSON.stringify({ new: upstream, deleted: null });
    lapi = createServer((_req, res) => res.end(body));
    pbx = await startLinkedTestServer(await listenOnLoopback(lapi), {
      pushEnabled: false,
      pullEnabled: true,
      bouncerKey: 'k'.repeat(40),
      pullIntervalSeconds: 1,
    });
    key = createTestApiKey(pbx.server.services.db).key;
    // A write key's ban with a hostile reason: the reason never reaches a feed, whose comment is the scenario.
    const manual = await pbx.call(`${FIREWALL}:banIp`, {
      method: 'POST',
      body: { ip: '192.0.2.77', duration: 3600, reason: HOSTILE_TEXTS[0] },
    });
    assert.equal(manual.status, 201, manual.text);
    published = await waitFor('every upstream decision republished', async () => {
      const answer = await poll(pbx, key, '?startup=true');
      return answer.new.filter((d) => upstreamValues.has(d.value)).length === upstream.length ? answer.new : undefined;
    });
  });
  after(async () => {
    await pbx?.close();
    if (lapi) await closeNow(lapi);
  });

  test('pulled scenarios and origins are bounded and in the safe set before anything publishes them', () => {
    for (const d of published.filter((d) => upstreamValues.has(d.value))) {
      for (const text of [d.scenario, d.origin]) {
        assert.match(text, /^[A-Za-z0-9 _.:/@+'()-]{0,128}$/, JSON.stringify(text));
      }
    }
    const scenarioOf = new Map(published.map((d) => [d.value, d.scenario]));
    const pulled = (text: string) => scenarioOf.get(upstream[HOSTILE_TEXTS.indexOf(text)]!.value);
    assert.equal(pulled(HOSTILE_TEXTS[0]!), 'x_ _ /system reset-configuration _ :put _');
    assert.equal(pulled('a,b,c'), 'a_b_c');
    assert.equal(pulled('crowdsecurity/ssh-bf'), 'crowdsecurity/ssh-bf');
    assert.equal(scenarioOf.get('192.0.2.77'), 'pbx/manual');
  });

  test('mikrotik: only the setup lines and one add call per published decision, read back exactly', async () => {
    const script = await feed('?format=mikrotik');
    const entries = parseMikrotik(script);
    assert.deepEqual(
      sorted(entries.map((e) => [e.address, e.comment])),
      sorted(published.map((d) => [d.value, d.scenario])),
    );
    const left = new Map(published.map((d) => [d.value, seconds(d.duration)]));
    for (const entry of entries) {
      const timeout = seconds(entry.timeout);
      assert.ok(timeout >= 1 && timeout <= left.get(entry.address)!, `${entry.address}: ${entry.timeout}`);
    }
    assert.doesNotMatch(script, /reset-configuration ; :put ""/);
  });

  test('mikrotik, one family and a list name: the same lines for that family only', async () => {
    const entries = parseMikrotik(await feed('?format=mikrotik&ipv6only&listname=pbx.bans-6'), {
      listname: 'pbx.bans-6',
      families: ['ipv6'],
    });
    assert.deepEqual(
      sorted(entries.map((e) => [e.address, e.comment])),
      sorted(published.filter((d) => d.value.includes(':')).map((d) => [d.value, d.scenario])),
    );
  });

  test('f5: four columns on every line, the category a plain word', async () => {
    const lines = parseF5(await feed('?format=f5'));
    const category = (scenario: string) =>
      (scenario.includes('/') ? scenario.split('/')[1]! : scenario).replace(/[^A-Za-z0-9_.-]/g, '_');
    assert.deepEqual(
      sorted(lines.map((l) => [l.address, l.category])),
      sorted(published.map((d) => [d.value, category(d.scenario)])),
    );
  });

  test('plain_text and juniper: addresses only', async () => {
    const values = published.map((d) => d.value).sort();
    assert.deepEqual(parsePlainText(await feed('')).sort(), values);
    assert.deepEqual(
      parseJuniper(await feed('?format=juniper')).sort(),
      values.map((v) => (v.includes('/') ? v : `${v}/${v.includes(':') ? 128 : 32}`)).sort(),
    );
  });

  test('a list name that could leave its quotes is refused with 400 naming listname, never a 5xx', async () => {
    const names = ['x" ; /system reboot ; :put "', '$[/system reboot]', 'a b', 'new\nline', '', 'x'.repeat(65), 'ü'];
    for (const name of names) {
      const answer = await pbx.remote(`${FEED}?format=mikrotik&listname=${encodeURIComponent(name)}`, {
        headers: { 'X-Api-Key': key },
      });
      assert.equal(answer.status, 400, `${JSON.stringify(name)}: ${answer.text}`);
      assert.match(answer.json.message, /listname: 1 to 64 letters, digits/);
    }
  });

  test('csv export: no cell a spreadsheet evaluates; the reasons import back exactly', async () => {
    const ips = FORMULA_TEXTS.map((_, i) => `192.0.2.${100 + i}`);
    for (const [i, reason] of FORMULA_TEXTS.entries()) {
      const answer = await pbx.call(`${FIREWALL}:banIp`, {
        method: 'POST',
        body: { ip: ips[i], duration: 7200, reason },
      });
      assert.equal(answer.status, 201, answer.text);
    }
    const exported = (await pbx.call(`${FIREWALL}:exportBans?format=csv`)).json.data.content as string;
    for (const row of csvCells(exported))
      for (const cell of row) assert.doesNotMatch(cell, /^[=+\-@\t\r]/, JSON.stringify(cell));
    const lifted = await pbx.call(`${FIREWALL}:unbanIps`, { method: 'POST', body: { ips } });
    assert.equal(lifted.status, 200, lifted.text);
    const imported = await pbx.call(`${FIREWALL}:importBans`, {
      method: 'POST',
      body: { format: 'csv', content: exported },
    });
    assert.equal(imported.status, 200, imported.text);
    const banned = (await pbx.call(`${FIREWALL}:getBannedIps`)).json.data as Array<{ ip: string; reason: string }>;
    const reasons = new Map(banned.map((b) => [b.ip, b.reason]));
    assert.deepEqual(
      ips.map((ip) => reasons.get(ip)),
      [...FORMULA_TEXTS],
    );
  });
});
