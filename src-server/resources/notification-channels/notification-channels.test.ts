import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTestApiKey } from '../../test-support/api-keys.ts';
import { useTestServer } from '../../test-support/server.ts';

const CHANNELS = '/pbxcore/api/v3/notification-channels';
const RULES = '/pbxcore/api/v3/notification-rules';
const SECRET = 'hmac-key-do-not-leak-7731';

const webhook = { name: 'Ops hook', type: 'webhook', url: 'https://hooks.example.net/pbx', secret: SECRET };

describe('notification-channels and notification-rules', () => {
  const t = useTestServer();
  const create = (body: Record<string, unknown>) => t.post(CHANNELS, body);
  const errors = (answer: { json: { messages: { error: string[] } } }) => answer.json.messages.error.join(' | ');

  it('a channel with an invalid URL, host, port, address or topic gets 422 naming the field', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...webhook, url: 'ftp://hooks.example.net/' }, /^url: must be an http/],
      [{ ...webhook, url: 'not a url' }, /^url: must not contain spaces/],
      [{ ...webhook, url: 'https://hooks.example.net/\r\nX-Injected: 1' }, /^url: must be one line/],
      [{ ...webhook, url: 'https://user:pw@hooks.example.net/' }, /^url: must not carry a user name or password/],
      [{ name: 'n', type: 'ntfy', url: 'https://ntfy.sh', topic: 'a/b' }, /^topic: must be 1-64 letters/],
      [{ name: 'n', type: 'syslog', host: 'bad host', port: 514, transport: 'udp' }, /^host: must be a host name/],
      [{ name: 'n', type: 'syslog', host: 'log\r\n.example', port: 514, transport: 'udp' }, /^host: must be a host/],
      [
        { name: 'n', type: 'syslog', host: 'logs.example.net', port: 70000, transport: 'udp' },
        /^port: must be 1-65535/,
      ],
      [{ name: 'n', type: 'syslog', host: 'logs.example.net', port: 514, transport: 'quic' }, /^transport: /],
      [
        { name: 'n', type: 'syslog', host: 'logs', port: 514, transport: 'udp', appName: 'a b' },
        /^appName: must be 1-48/,
      ],
      [
        {
          name: 'n',
          type: 'email',
          host: 'smtp.example.net',
          port: 587,
          security: 'starttls',
          from: 'pbx@example.net\r\nBcc: x@y.z',
          to: 'a@example.net',
        },
        /^from: must be one e-mail address/,
      ],
      [
        {
          name: 'n',
          type: 'email',
          host: 'smtp.example.net',
          port: 587,
          security: 'starttls',
          from: 'pbx@example.net',
          to: 'a@example.net, <b@example.net>',
        },
        /^to: must be 1-10 e-mail addresses/,
      ],
      [
        {
          name: 'n',
          type: 'email',
          host: 'smtp.example.net',
          port: 587,
          security: 'none',
          from: 'p@example.net',
          to: 'a@example.net',
        },
        /^security: /,
      ],
      [
        { name: 'n\r\nx', ...{ type: 'webhook', url: 'https://h.example.net', secret: 'k' } },
        /^name: must be one line/,
      ],
      [{ name: 'n', type: 'pager' }, /^type: /],
      [
        {
          name: 'n',
          type: 'email',
          host: 'smtp.example.net',
          port: 587,
          security: 'tls',
          from: 'p@example.net',
          to: 'a@example.net',
          username: 'u\r\nX-Injected: 1',
          secret: 's',
        },
        /^username: must be one line/,
      ],
      [{ name: 'n', type: 'webhook', url: 'https://h.example.net' }, /secret is required for a webhook channel/],
      [{ name: 'n', type: 'email', host: 'smtp.example.net' }, /port is required for a email channel/],
    ];
    for (const [body, message] of cases) {
      const answer = await create(body);
      assert.equal(answer.status, 422, `${JSON.stringify(body)}: ${answer.text}`);
      assert.match(errors(answer), message, JSON.stringify(body));
    }
    assert.equal((await t.call(CHANNELS)).json.data.length, 0, 'nothing was saved');
  });

  it('stores the secret sealed and never answers it; hasSecret says one is there', async () => {
    const answer = await create(webhook);
    assert.equal(answer.status, 201, answer.text);
    assert.equal(answer.json.data.hasSecret, true);
    assert.equal(answer.json.data.lastResult, null);
    const id = answer.json.data.id as number;
    for (const read of [answer, await t.call(`${CHANNELS}/${id}`), await t.call(CHANNELS)])
      assert.ok(!read.text.includes(SECRET) && !read.text.includes('"secret"'), read.text);
    const row = t.server.services.db.prepare('SELECT secret FROM notification_channels WHERE id = ?').get(id) as {
      secret: string;
    };
    assert.ok(row.secret.startsWith('enc:v1:') && !row.secret.includes(SECRET), 'sealed at rest');
  });

  it('a write key cannot send the stored secret to a new URL unless it re-enters it (credential-destination rule)', async () => {
    const id = (await create({ ...webhook, name: 'guarded' })).json.data.id as number;
    const key = createTestApiKey(t.server.services.db, {
      allowedPaths: { '/api/v3/notification-channels': 'write', '/api/v3/notification-rules': 'write' },
    }).key;
    const as = { 'x-api-key': key };
    const moved = await t.remote(`${CHANNELS}/${id}`, {
      method: 'PATCH',
      headers: as,
      body: { url: 'https://attacker.example.org/collect' },
    });
    assert.equal(moved.status, 403, moved.text);
    assert.match(errors(moved), /Changing url makes the server send the stored secret to a new destination/);
    const guess = await t.remote(`${CHANNELS}/${id}`, {
      method: 'PATCH',
      headers: as,
      body: { url: 'https://attacker.example.org/collect', secret: 'a guess' },
    });
    assert.equal(guess.status, 403);
    assert.match(errors(guess), /^secret: setting the secret needs the SENSITIVE level/);
    assert.equal((await t.call(`${CHANNELS}/${id}`)).json.data.url, webhook.url, 'the URL stayed');
    const renamed = await t.remote(`${CHANNELS}/${id}`, { method: 'PATCH', headers: as, body: { name: 'renamed' } });
    assert.equal(renamed.status, 200, 'a change that moves nothing is fine');
    const reentered = await t.remote(`${CHANNELS}/${id}`, {
      method: 'PATCH',
      headers: as,
      body: { url: 'https://hooks2.example.net/pbx', secret: SECRET },
    });
    assert.equal(reentered.status, 200, reentered.text);
    assert.equal(reentered.json.data.url, 'https://hooks2.example.net/pbx');
  });

  it('rules: typed checks, severity and digest bounds, an existing channel; deleted with their channel', async () => {
    const channelId = (await create({ ...webhook, name: 'rules' })).json.data.id as number;
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ name: 'r', channelId: 99999 }, /^channelId: no notification channel has id 99999/],
      [{ name: 'r', channelId, checks: ['bouncer-silent', 'disk-full'] }, /^checks\.1: /],
      [{ name: 'r', channelId, checks: ['ami-down', 'ami-down'] }, /^checks: lists a check twice/],
      [{ name: 'r', channelId, minSeverity: 'fatal' }, /^minSeverity: /],
      [{ name: 'r', channelId, digestMinutes: 1441 }, /^digestMinutes: must be 0-1440/],
      [{ name: 'r', channelId, digestMinutes: -1 }, /^digestMinutes: must be 0-1440/],
      [{ name: 'r', channelId, recoveries: 'yes' }, /^recoveries: must be true or false/],
      [{ channelId }, /^name is required/],
    ];
    for (const [body, message] of refusals) {
      const answer = await t.post(RULES, body);
      assert.equal(answer.status, 422, `${JSON.stringify(body)}: ${answer.text}`);
      assert.match(errors(answer), message);
    }
    const rule = await t.post(RULES, { name: 'On call', channelId, checks: ['bouncer-silent'], digestMinutes: 15 });
    assert.equal(rule.status, 201, rule.text);
    assert.deepEqual(
      { ...rule.json.data, id: 0 },
      {
        id: 0,
        name: 'On call',
        channelId,
        checks: ['bouncer-silent'],
        minSeverity: 'warning',
        digestMinutes: 15,
        recoveries: true,
        enabled: true,
      },
    );
    assert.equal((await t.call(`${CHANNELS}/${channelId}`, { method: 'DELETE' })).status, 200);
    assert.equal((await t.call(`${RULES}/${rule.json.data.id}`)).status, 404, 'the rule went with its channel');
  });

  it('sendTest answers at once and queues; an unknown channel is 404', async () => {
    const id = (await create({ ...webhook, name: 'tested', url: 'http://127.0.0.1:9/never' })).json.data.id as number;
    const answer = await t.post(`${CHANNELS}/${id}:sendTest`, {});
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.json.data, { queued: true, channelId: id });
    assert.equal((await t.post(`${CHANNELS}/424242:sendTest`, {})).status, 404);
    assert.equal((await t.post(`${CHANNELS}/${id}:sendTest`, { extra: 1 })).status, 422);
  });
});
