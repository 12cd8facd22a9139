import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getConnectionState, markContact, markUnreachable, onReconnect } from './connection-state.ts';

describe('connection state', () => {
  it('records contact, the moment it was lost, and runs reconnect listeners once when it is back', () => {
    assert.deepEqual(getConnectionState(), { reachable: true, lastContact: null, lostAt: null });
    markContact(1000);
    assert.deepEqual(getConnectionState(), { reachable: true, lastContact: 1000, lostAt: null });

    let reconnects = 0;
    const stop = onReconnect(() => reconnects++);
    markContact(2000);
    assert.equal(reconnects, 0, 'no reconnect while reachable');

    markUnreachable(3000);
    markUnreachable(4000);
    assert.deepEqual(
      getConnectionState(),
      { reachable: false, lastContact: 2000, lostAt: 3000 },
      'the first loss counts',
    );

    markContact(5000);
    assert.deepEqual(getConnectionState(), { reachable: true, lastContact: 5000, lostAt: null });
    assert.equal(reconnects, 1);

    stop();
    markUnreachable(6000);
    markContact(7000);
    assert.equal(reconnects, 1, 'a stopped listener is not called');
  });
});
