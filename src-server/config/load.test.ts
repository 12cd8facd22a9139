import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, configFromEnv, resolveConfig } from './load.ts';

describe('config', () => {
  it('has the documented defaults', () => {
    const config = resolveConfig();
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.port, 8088);
    assert.equal(config.dataDir, './data');
    assert.equal(config.workers, 3);
  });

  it('reads PBX_* variables and lets later layers win', () => {
    const env = configFromEnv({ PBX_HOST: '127.0.0.1', PBX_PORT: '0', PBX_DATA_DIR: '/tmp/x' });
    assert.deepEqual(resolveConfig(env).port, 0);
    assert.equal(resolveConfig(env, { port: 9000 }).port, 9000);
  });

  it('loads the example modules only when asked (PBX_EXAMPLE_MODULES)', () => {
    assert.equal(resolveConfig().exampleModules, false);
    for (const [text, expected] of [
      ['1', true],
      ['true', true],
      ['0', false],
      ['false', false],
    ] as const) {
      assert.equal(resolveConfig(configFromEnv({ PBX_EXAMPLE_MODULES: text })).exampleModules, expected, text);
    }
    assert.throws(() => resolveConfig(configFromEnv({ PBX_EXAMPLE_MODULES: 'maybe' })), /exampleModules/);
  });

  it('lists every invalid setting at once', () => {
    try {
      resolveConfig({ port: 70000 as number, host: '', logLevel: 'loud' as 'info' });
      assert.fail('should throw');
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.problems.length, 3);
      assert.match(error.message, /port/);
      assert.match(error.message, /host/);
      assert.match(error.message, /logLevel/);
    }
  });
});
