import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpError } from './errors.ts';
import { parseV3Path } from './v3-path.ts';

const status = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof HttpError);
    return error.status;
  }
  return 0;
};

describe('parseV3Path', () => {
  it('parses every row of the grammar', () => {
    assert.deepEqual(parseV3Path('extensions'), { resource: 'extensions' });
    assert.deepEqual(parseV3Path('extensions/201'), { resource: 'extensions', id: '201' });
    assert.deepEqual(parseV3Path('extensions:getForSelect'), { resource: 'extensions', method: 'getForSelect' });
    assert.deepEqual(parseV3Path('sip/201:getStatus'), { resource: 'sip', id: '201', method: 'getStatus' });
    assert.deepEqual(parseV3Path('extensions/'), { resource: 'extensions' });
  });

  it('keeps the module prefix as part of the resource', () => {
    assert.deepEqual(parseV3Path('module-demo/items'), { resource: 'module-demo/items' });
    assert.deepEqual(parseV3Path('module-demo/items/7:archive'), {
      resource: 'module-demo/items',
      id: '7',
      method: 'archive',
    });
  });

  it('decodes percent-encoded ids', () => {
    assert.deepEqual(parseV3Path('firewall/a%20b'), { resource: 'firewall', id: 'a b' });
  });

  it('rejects malformed custom methods and missing segments with 400', () => {
    for (const bad of [
      '',
      'x:',
      ':y',
      'a:b:c',
      'extensions/:getStatus',
      'a//b',
      'ext ensions',
      'modules/x:y/z',
      'a:b/c',
      'extensions:get-x',
      'firewall/%E0%A4%A',
    ]) {
      assert.equal(
        status(() => parseV3Path(bad)),
        400,
        `"${bad}" should be 400`,
      );
    }
  });

  it('answers 404 for well-formed paths deeper than the grammar (unknown nested endpoints)', () => {
    for (const deep of ['modules/x/y', 'extensions/1/2', 'modules/x/y/z:run', 'module-demo/items/7/8']) {
      assert.equal(
        status(() => parseV3Path(deep)),
        404,
        `"${deep}" should be 404`,
      );
    }
    // Still 400 when the custom method is malformed.
    for (const bad of ['modules/x/y:', 'modules/x/:y', 'modules/x/a:b:c'])
      assert.equal(
        status(() => parseV3Path(bad)),
        400,
        `"${bad}" should be 400`,
      );
  });

  it('rejects ids with encoded slashes, colons or control characters', () => {
    for (const bad of ['firewall/a%2Fb', 'firewall/a%3Ab', 'firewall/a%00b', `firewall/${'9'.repeat(300)}`]) {
      assert.equal(
        status(() => parseV3Path(bad)),
        400,
        `"${bad}" should be 400`,
      );
    }
  });
});
