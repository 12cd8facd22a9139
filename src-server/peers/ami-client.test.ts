import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { after, afterEach, describe, it } from 'node:test';
import { AmiTestServer } from '../test-support/ami-server.ts';
import { AmiActionError, AmiClient, type AmiClientOptions } from './ami-client.ts';

const clients: AmiClient[] = [];
const servers: AmiTestServer[] = [];

async function setup(overrides: Partial<AmiClientOptions> = {}) {
  const ami = await AmiTestServer.start();
  servers.push(ami);
  const client = new AmiClient({
    host: ami.host,
    port: ami.port,
    username: 'admin',
    secret: 'amp111',
    reconnect: { initialMs: 20, maxMs: 100 },
    ...overrides,
  });
  clients.push(client);
  return { ami, client };
}

async function connected(client: AmiClient) {
  client.start();
  if (!client.connected) await once(client, 'connected');
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.stop()));
});
after(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('AmiClient', () => {
  it('logs in and correlates responses by ActionID', async () => {
    const { ami, client } = await setup();
    await connected(client);
    const login = ami.actions.find((a) => a.Action === 'Login');
    assert.equal(login?.Username, 'admin');
    assert.equal(login?.Secret, 'amp111');
    const [a, b] = await Promise.all([client.action({ Action: 'Ping' }), client.action({ Action: 'NoSuchThing' })]);
    assert.equal(a.Ping, 'Pong');
    assert.equal(b.Response, 'Error');
    assert.notEqual(a.ActionID, b.ActionID);
  });

  it('collects an event list until its Complete event', async () => {
    const { ami, client } = await setup();
    ami.endpoints.set('100', { deviceState: 'Not in use' });
    ami.endpoints.set('101', { deviceState: 'Unavailable' });
    await connected(client);
    const list = await client.actionList({ Action: 'PJSIPShowEndpoints' });
    assert.equal(list.response.EventList, 'start');
    assert.deepEqual(
      list.events.map((e) => [e.ObjectName, e.DeviceState]),
      [
        ['100', 'Not in use'],
        ['101', 'Unavailable'],
      ],
    );
    await assert.rejects(
      client.actionList({ Action: 'PJSIPShowEndpoint', Endpoint: 'nope' }),
      /Unable to retrieve endpoint nope/,
    );
  });

  it('delivers unsolicited events', async () => {
    const { ami, client } = await setup();
    await connected(client);
    const received = new Promise<Record<string, string>>((resolve) =>
      client.on('event', (e) => {
        if (e.Event === 'InvalidPassword') resolve(e);
      }),
    );
    ami.emitEvent({ Event: 'InvalidPassword', Service: 'PJSIP', RemoteAddress: 'IPV4/UDP/203.0.113.9/5060' });
    const event = await received;
    assert.equal(event.Event, 'InvalidPassword');
    assert.equal(event.RemoteAddress, 'IPV4/UDP/203.0.113.9/5060');
  });

  it('reports a refused login and keeps retrying with the right secret later', async () => {
    const { client } = await setup({ secret: 'wrong' });
    client.start();
    const ami = servers.at(-1)!;
    await ami.waitFor(() => ami.actions.filter((a) => a.Action === 'Login').length >= 2);
    assert.equal(client.connected, false);
    assert.match(client.lastError ?? '', /login refused: Authentication failed/);
    await assert.rejects(
      client.action({ Action: 'Ping' }),
      (e: unknown) => e instanceof AmiActionError && /not connected/.test(e.message),
    );
  });

  it('refuses a server whose banner is not AMI', async () => {
    const fake = createServer((s) => s.end('SSH-2.0-OpenSSH_9.2\r\n'));
    fake.listen(0, '127.0.0.1');
    await once(fake, 'listening');
    const port = (fake.address() as { port: number }).port;
    const client = new AmiClient({
      host: '127.0.0.1',
      port,
      username: 'a',
      secret: 'b',
      reconnect: { initialMs: 20, maxMs: 50 },
    });
    clients.push(client);
    client.start();
    const deadline = Date.now() + 30_000;
    while (!/Not an Asterisk manager/.test(client.lastError ?? '') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    assert.match(client.lastError ?? '', /Not an Asterisk manager interface/);
    assert.equal(client.connected, false);
    await client.stop();
    fake.close();
  });

  it('reconnects after the server drops the link, and after Asterisk comes back', async () => {
    const { ami, client } = await setup();
    await connected(client);
    const dropped = once(client, 'disconnected');
    ami.dropConnections();
    await dropped;
    assert.equal(client.connected, false);
    await once(client, 'connected');
    assert.equal(ami.logins, 2);

    await ami.goDown();
    await ami.waitFor(() => !client.connected && /refused/.test(client.lastError ?? ''));
    await assert.rejects(client.action({ Action: 'Ping' }), /not connected: Connection refused/);
    await ami.comeBack();
    await once(client, 'connected');
    assert.equal(client.lastError, null);
  });

  it('caps the reconnect backoff', async () => {
    const { ami, client } = await setup({ reconnect: { initialMs: 10, maxMs: 40 } });
    await ami.goDown();
    client.start();
    await ami.waitFor(() => client.nextReconnectDelayMs === 40);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(client.nextReconnectDelayMs, 40);
  });

  it('pings to keep the link alive and drops a link whose Ping goes unanswered', async () => {
    // The answer budget is long against the ping interval: on a loaded machine an answered Ping may take 100 ms.
    const { ami, client } = await setup({ pingIntervalMs: 30, actionTimeoutMs: 1000 });
    await connected(client);
    await ami.waitFor(() => ami.actions.filter((a) => a.Action === 'Ping').length >= 2);
    assert.equal(client.connected, true);
    ami.stallActions = true;
    await once(client, 'disconnected');
    assert.match(client.lastError ?? '', /keep-alive Ping/);
    ami.stallActions = false;
    await once(client, 'connected');
  });

  it('survives malformed and hostile input', async () => {
    const { ami, client } = await setup();
    await connected(client);
    ami.sendRaw('garbage without any colon\r\n\r\n');
    ami.sendRaw(':\r\n: value\r\n\r\n');
    ami.sendRaw(Buffer.from([0xff, 0xfe, 0x00, 0x0d, 0x0a, 0x0d, 0x0a]));
    ami.sendRaw('Response: Success\r\nActionID: not-ours\r\n\r\n');
    ami.sendRaw('Event: ListItem\r\nActionID: pbx-console-999\r\nEventList: Complete\r\n\r\n');
    client.once('event', () => {
      throw new Error('a listener bug');
    });
    ami.emitEvent({ Event: 'Whatever' });
    const pong = await client.action({ Action: 'Ping' });
    assert.equal(pong.Ping, 'Pong');
    assert.ok(client.malformedMessages >= 3);
    assert.equal(client.connected, true);
    assert.equal(ami.logins, 1);
  });

  it('logs off on stop and does not reconnect', async () => {
    const { ami, client } = await setup();
    await connected(client);
    await client.stop();
    assert.ok(ami.actions.some((a) => a.Action === 'Logoff'));
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(ami.logins, 1);
  });
});
