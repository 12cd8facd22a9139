import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { field } from './fields.ts';
import { prepareSave } from './save.ts';
import type { ResourceDeclaration } from './types.ts';

const declaration: ResourceDeclaration = {
  name: 'things',
  description: 'test',
  security: { permission: 'Things', channels: ['localhost'] },
  fields: {
    name: field.text(z.string().min(1), { required: true }),
    size: field.integer(z.number().int().min(1), { default: 5 }),
    enabled: field.boolean({ default: true }),
    secret: field.text(z.string(), { writeOnly: true, default: '' }),
    created: field.text(z.string(), { readOnly: true }),
  },
  operations: [],
};

describe('prepareSave (SPEC save rules)', () => {
  it('sanitises input and drops unknown and read-only fields', () => {
    const out = prepareSave({
      declaration,
      mode: 'create',
      verb: 'POST',
      body: { name: '  a ', size: '7', enabled: '0', bogus: 1, created: 'x' },
    });
    assert.ok(out.ok);
    assert.deepEqual(out.values, { name: 'a', size: 7, enabled: false, secret: '' });
  });

  it('enforces required fields on POST and PUT but not on PATCH', () => {
    assert.deepEqual(prepareSave({ declaration, mode: 'create', verb: 'POST', body: {} }), {
      ok: false,
      errors: ['name is required.'],
    });
    const existing = { name: 'a', size: 5, enabled: true, secret: '' };
    assert.equal(prepareSave({ declaration, mode: 'update', verb: 'PUT', body: { size: 2 }, existing }).ok, false);
    const patch = prepareSave({ declaration, mode: 'patch', verb: 'PATCH', body: { size: 2 }, existing });
    assert.ok(patch.ok);
    assert.deepEqual(patch.values, { size: 2 }, 'PATCH writes only the fields present');
  });

  it('older actions require fields on every verb', () => {
    const legacy = { ...declaration, requireOnEveryVerb: true };
    const out = prepareSave({
      declaration: legacy,
      mode: 'patch',
      verb: 'PATCH',
      body: { size: 2 },
      existing: { name: 'a' },
    });
    assert.deepEqual(out, { ok: false, errors: ['name is required.'] });
  });

  it('applies defaults on create only; PUT resets absent optional fields', () => {
    const created = prepareSave({ declaration, mode: 'create', verb: 'POST', body: { name: 'a' } });
    assert.ok(created.ok);
    assert.equal(created.values.size, 5);
    const existing = { name: 'a', size: 9, enabled: false, secret: 'keep' };
    const put = prepareSave({ declaration, mode: 'update', verb: 'PUT', body: { name: 'b' }, existing });
    assert.ok(put.ok);
    assert.equal(put.values.size, 5);
    assert.equal(put.values.secret, 'keep', 'a write-only secret is kept when not resent');
  });

  it('validates the complete dataset after defaults and merges on patch', () => {
    const existing = { name: 'a', size: 5 };
    const out = prepareSave({ declaration, mode: 'patch', verb: 'PATCH', body: { size: 0 }, existing });
    assert.equal(out.ok, false);
    assert.match((out as { errors: string[] }).errors[0]!, /^size: /);
    const validate = (complete: Record<string, unknown>) =>
      complete.name === 'a' && complete.size === 3 ? ['a may not be 3'] : [];
    const cross = prepareSave({ declaration, mode: 'patch', verb: 'PATCH', body: { size: 3 }, existing, validate });
    assert.deepEqual(cross, { ok: false, errors: ['a may not be 3'] });
  });

  it('rejects bodies that are not objects', () => {
    for (const body of [null, [], 'x', 3]) {
      assert.deepEqual(prepareSave({ declaration, mode: 'create', verb: 'POST', body }), {
        ok: false,
        errors: ['The request body must be a JSON object.'],
      });
    }
  });
});
