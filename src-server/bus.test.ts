import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ServerBus } from './bus.ts';

test('a handler that throws is reported, and neither stops the other handlers nor reaches the emitter', () => {
  const reported: Array<[string, string]> = [];
  const bus = new ServerBus((error, type) => reported.push([type, (error as Error).message]));
  const seen: string[] = [];
  bus.on('resource-changed', () => {
    throw new Error('SQLITE_BUSY: database is locked');
  });
  const off = bus.on('resource-changed', (event) => seen.push(event.resource));
  assert.doesNotThrow(() => bus.emit({ type: 'resource-changed', resource: 'firewall' }));
  assert.deepEqual(seen, ['firewall']);
  assert.deepEqual(reported, [['resource-changed', 'SQLITE_BUSY: database is locked']]);
  off();
  bus.emit({ type: 'resource-changed', resource: 'fail2ban' });
  assert.deepEqual(seen, ['firewall'], 'unsubscribed');
});
