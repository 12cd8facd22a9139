import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, describe, it } from 'node:test';
import { z } from 'zod';
import { openTempDb } from '../test-support/temp-db.ts';
import { defineSetting, readSetting, writeSetting } from './settings.ts';

/** A setting declared the way owning modules declare theirs. */
const probe = defineSetting('settings-test-probe', z.object({ limit: z.number().int(), names: z.array(z.string()) }), {
  limit: 5,
  names: [],
});

/** Resolves with the next process warning's message. */
const nextWarning = async () => ((await once(process, 'warning')) as [Error])[0].message;

describe('settings registry', () => {
  const { db, dispose } = openTempDb('pbx-settings-');
  after(dispose);

  it('reads a stored value as its schema gives it', () => {
    writeSetting(db, probe.key, { limit: 9, names: ['a'] });
    const value: { limit: number; names: string[] } = readSetting(db, probe);
    assert.deepEqual(value, { limit: 9, names: ['a'] });
  });

  it('refuses a key no module declared, at compile time (tsc checks this file)', () => {
    const readByKey = () =>
      // @ts-expect-error a bare key is not a declared setting: nothing would say what its value is
      readSetting(db, 'settings-test-probe');
    assert.equal(typeof readByKey, 'function');
  });

  it('reads an absent setting as its default, a copy each time', () => {
    db.prepare('DELETE FROM settings WHERE key = ?').run(probe.key);
    const first = readSetting(db, probe);
    first.names.push('changed');
    assert.deepEqual(readSetting(db, probe), { limit: 5, names: [] });
  });

  it('reads a stored value of the wrong shape as the default, with a warning', async () => {
    writeSetting(db, probe.key, { limit: 'nine', names: 'a' });
    const warning = nextWarning();
    assert.deepEqual(readSetting(db, probe), { limit: 5, names: [] });
    assert.match(await warning, /settings-test-probe read as its default/);
  });

  it('reads stored text that is not JSON as the default, with a warning, never a throw', async () => {
    db.prepare('UPDATE settings SET value = ? WHERE key = ?').run('{not json', probe.key);
    const warning = nextWarning();
    assert.deepEqual(readSetting(db, probe), { limit: 5, names: [] });
    assert.match(await warning, /not JSON/);
  });
});
