import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ZodNullable, type z } from 'zod';
import { coreResources } from '../resources/index.ts';
import { useTestServer } from '../test-support/server.ts';
import { SETTING_BOUNDS, type IntegerBound } from './setting-bounds.ts';

const DOCS = readFileSync(new URL('../../docs/settings.md', import.meta.url), 'utf8');

/** Rows of docs/settings.md's first table: `resource/setting` -> [min, max]. */
function documentedBounds(): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (const line of DOCS.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const resource = /^`([\w-]+)`$/.exec(cells[1] ?? '')?.[1];
    const setting = /^`(\w+)`/.exec(cells[2] ?? '')?.[1];
    if (resource && setting && /^\d+$/.test(cells[3] ?? '') && /^\d+$/.test(cells[4] ?? ''))
      out.set(`${resource}/${setting}`, [Number(cells[3]), Number(cells[4])]);
  }
  return out;
}

describe('numeric setting bounds', () => {
  it('every writable integer field of every core resource has a finite minimum and maximum, documented in docs/settings.md', () => {
    const documented = documentedBounds();
    const fields: string[] = [];
    for (const { declaration } of coreResources) {
      for (const [name, def] of Object.entries(declaration.fields)) {
        if (def.storage !== 'integer' || def.readOnly) continue;
        // A nullable integer (a port only some types have) is bounded by its number.
        const schema = (def.schema instanceof ZodNullable ? def.schema.unwrap() : def.schema) as z.ZodNumber;
        const key = `${declaration.name}/${name}`;
        fields.push(key);
        assert.ok(
          Number.isFinite(schema.minValue) && schema.minValue! > Number.MIN_SAFE_INTEGER,
          `${key} has a minimum`,
        );
        assert.ok(
          Number.isFinite(schema.maxValue) && schema.maxValue! < Number.MAX_SAFE_INTEGER,
          `${key} has a maximum`,
        );
        assert.deepEqual(
          documented.get(key),
          [schema.minValue, schema.maxValue],
          `${key} is in docs/settings.md with its bounds`,
        );
      }
    }
    assert.ok(fields.length >= 8, fields.join(', '));
  });
});

describe('numeric settings over HTTP: 422 naming the bound outside, stored as sent inside', () => {
  const t = useTestServer();

  const cases = Object.entries(SETTING_BOUNDS).flatMap(([resource, fields]) =>
    Object.entries(fields as Record<string, IntegerBound>).map(([name, bound]) => ({ resource, name, bound })),
  );

  for (const { resource, name, bound } of cases) {
    it(`${resource}.${name}: ${bound.min} to ${bound.max}`, async () => {
      const path = `/pbxcore/api/v3/${resource}`;
      const original = (await t.call(path)).json.data[name] as number;
      try {
        for (const value of [bound.min - 1, bound.max + 1, Number.MAX_SAFE_INTEGER, 1.5]) {
          const res = await t.call(path, { method: 'PATCH', body: { [name]: value } });
          assert.equal(res.status, 422, `${value}: ${res.text}`);
          const message = res.json.messages.error.join(' ');
          assert.match(message, new RegExp(`^${name}: `));
          const named =
            value < bound.min ? String(bound.min) : value === 1.5 ? `${bound.min}.*${bound.max}` : String(bound.max);
          assert.match(message, new RegExp(named), `${value}: the message names the bound`);
          assert.equal((await t.call(path)).json.data[name], original, 'nothing was stored');
        }
        for (const value of [bound.min, bound.max]) {
          const res = await t.call(path, { method: 'PATCH', body: { [name]: value } });
          assert.equal(res.status, 200, `${value}: ${res.text}`);
          assert.equal(res.json.data[name], value, 'stored as sent, not clamped');
        }
      } finally {
        await t.call(path, { method: 'PATCH', body: { [name]: original } });
      }
    });
  }

  it('a unit word agrees with its number: "at least 1 day", "at most 3650 days"', async () => {
    const low = await t.call('/pbxcore/api/v3/general-settings', { method: 'PATCH', body: { auditRetentionDays: 0 } });
    assert.equal(low.json.messages.error[0], 'auditRetentionDays: must be at least 1 day');
    const high = await t.call('/pbxcore/api/v3/general-settings', {
      method: 'PATCH',
      body: { auditRetentionDays: 3651 },
    });
    assert.equal(high.json.messages.error[0], 'auditRetentionDays: must be at most 3650 days (10 years)');
  });

  it('bantime says why its maximum is what it is; an absurd one no longer breaks firewall:getBannedIps', async () => {
    const res = await t.call('/pbxcore/api/v3/fail2ban', { method: 'PATCH', body: { bantime: 9007199254740991 } });
    assert.equal(res.status, 422);
    assert.equal(res.json.messages.error[0], 'bantime: must be at most 31536000 s (365 days)');
    assert.equal((await t.call('/pbxcore/api/v3/firewall:getBannedIps')).status, 200);
  });
});
