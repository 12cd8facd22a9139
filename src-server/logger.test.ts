import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { createLogger } from './logger.ts';
import { captureLogs } from './test-support/captured-logs.ts';

function capture(tty: boolean): { lines: () => string; log: ReturnType<typeof createLogger> } {
  const { logger, text } = captureLogs('info', { server: true, tty });
  return { log: logger, lines: text };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('logger', () => {
  it('writes one human-readable line per event on a terminal, its fields on the same line', async () => {
    const { log, lines } = capture(true);
    log.info({ port: 8088, urls: ['http://127.0.0.1:8088'] }, 'listening');
    await settle();
    const out = lines();
    assert.match(out, /INFO.*listening.*"port":8088/);
    assert.equal(out.trimEnd().split('\n').length, 1, out);
    assert.doesNotMatch(out.trim(), /^\{/, 'not JSON');
  });

  it('writes one JSON object per line otherwise', async () => {
    const { log, lines } = capture(false);
    log.info({ port: 8088 }, 'listening');
    await settle();
    const record = JSON.parse(lines().trim()) as { msg: string; port: number; level: number };
    assert.equal(record.msg, 'listening');
    assert.equal(record.port, 8088);
    assert.equal(record.level, 30);
  });

  it('never writes a secret-named member, at any depth, in either format', async () => {
    for (const tty of [false, true]) {
      const { log, lines } = capture(tty);
      log.info(
        {
          job: {
            body: { config: { ami: { secret: 'LOG-SECRET-1' } }, password: 'LOG-SECRET-2' },
            headers: { authorization: 'Bearer LOG-SECRET-3' },
          },
          port: 5038,
        },
        'job',
      );
      await settle();
      const out = lines();
      assert.doesNotMatch(out, /LOG-SECRET/, out);
      assert.match(out, /\[redacted\]/);
      assert.match(out, /5038/, 'other members are kept');
    }
  });
});
