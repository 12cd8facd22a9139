import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderFamilyError, routeFamilyOf, type RouteFamily } from './family-errors.ts';

const bodyOf = (family: RouteFamily) =>
  JSON.parse(renderFamilyError(family, 401, ['Missing API key.', 'Send X-Api-Key.']).body) as Record<string, unknown>;

describe('family error members', () => {
  it('knows each family from its path', () => {
    assert.equal(routeFamilyOf('/pbxcore/api/v3/firewall-bouncer/v1/decisions/stream'), 'bouncer');
    assert.equal(routeFamilyOf('/pbxcore/api/sip/getPeersStatuses'), 'legacy');
    assert.equal(routeFamilyOf('/pbxcore/api/v3/extensions'), 'v3');
    assert.equal(routeFamilyOf('/'), 'v3');
  });

  it("renders the envelope with the family's members: message for bouncers, jsonapi for legacy, none for v3", () => {
    const bouncer = bodyOf('bouncer');
    assert.equal(bouncer.message, 'Missing API key.; Send X-Api-Key.');
    assert.equal(bouncer.jsonapi, undefined);
    assert.deepEqual(bodyOf('legacy').jsonapi, { version: '1.0' });
    assert.equal(bodyOf('legacy').message, undefined);
    const v3 = bodyOf('v3');
    assert.deepEqual([v3.message, v3.jsonapi], [undefined, undefined]);
    assert.deepEqual((v3.messages as { error: string[] }).error, ['Missing API key.', 'Send X-Api-Key.']);
    assert.equal(v3.httpCode, 401);
  });
});
