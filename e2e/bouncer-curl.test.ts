import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, test } from 'node:test';
import { REPEAT_POLLS } from '../src-server/firewall/export/index.ts';
import { createTestApiKey } from '../src-server/test-support/api-keys.ts';
import { useTestServer, type TestServer } from '../src-server/test-support/server.ts';
import { createFilter, STREAM, values } from '../src-server/test-support/bouncer.ts';

type Decision = {
  value: string;
  scenario: string;
  id: number;
  origin: string;
  scope: string;
  duration: string;
  type: string;
};

/** Debian's curl (libcurl 7.88, as PHP bouncers use it) decoding the stream with --compressed. */
async function curlPoll(
  t: TestServer,
  key: string,
): Promise<{
  exit: number;
  body: { new: Decision[]; deleted: Decision[] } | undefined;
  stderr: string;
  encoding: string;
}> {
  const result = await new Promise<{ status: number; stdout: string; stderr: string }>((resolve, reject) => {
    execFile(
      'curl',
      [
        '--silent',
        '--show-error',
        '--compressed',
        '--dump-header',
        '-',
        '-H',
        `X-Api-Key: ${key}`,
        `${t.url}${STREAM}`,
      ],
      { encoding: 'utf8', timeout: 20_000, maxBuffer: 64 * 2 ** 20 },
      (error, stdout, stderr) => {
        const code = (error as NodeJS.ErrnoException | null)?.code;
        if (code === 'ENOENT') return reject(new Error('curl is not installed: apt-get install -y curl'));
        resolve({ status: typeof code === 'number' ? code : error ? -1 : 0, stdout, stderr });
      },
    );
  });
  const [head, ...rest] = result.stdout.split('\r\n\r\n');
  const encoding = /content-encoding:\s*(\S+)/i.exec(head ?? '')?.[1] ?? '';
  let body;
  try {
    body = JSON.parse(rest.join('\r\n\r\n'));
  } catch {
    body = undefined;
  }
  return { exit: result.status, body, stderr: result.stderr, encoding };
}

describe('the decision stream read by curl --compressed', () => {
  const t = useTestServer();

  test('a gzip answer (one member) decodes whole, with its deleted, poll after poll', async () => {
    const { key } = createTestApiKey(t.server.services.db);
    const deny = Array.from({ length: 400 }, (_, i) => `198.18.${i >> 8}.${i & 255}`);
    const filter = await createFilter(t, { permit: '10.0.0.0/8', deny: deny.join(',') });
    const first = await curlPoll(t, key);
    assert.equal(first.exit, 0, first.stderr);
    assert.equal(first.encoding, 'gzip', 'large enough to be compressed');
    assert.equal(first.body!.new.length, 400);
    assert.deepEqual(first.body!.deleted, []);

    await t.call(`/pbxcore/api/v3/firewall/${filter.id}`, { method: 'PATCH', body: { deny: deny.slice(2).join(',') } });
    const second = await curlPoll(t, key);
    assert.equal(second.exit, 0, `curl exit ${second.exit} (23 means it could not decode the body): ${second.stderr}`);
    assert.equal(second.encoding, 'gzip');
    assert.equal(second.body!.new.length, 398);
    assert.deepEqual(values(second.body!.deleted), ['198.18.0.0 pbx/manual', '198.18.0.1 pbx/manual']);
    // Repeated on the key's next answers (REPEAT_POLLS in all), each one gzip member that decodes whole.
    for (let i = 2; i <= REPEAT_POLLS; i++) {
      const again = await curlPoll(t, key);
      assert.equal(again.exit, 0, again.stderr);
      assert.deepEqual(values(again.body!.deleted), ['198.18.0.0 pbx/manual', '198.18.0.1 pbx/manual'], `answer ${i}`);
    }
    const after = await curlPoll(t, key);
    assert.equal(after.exit, 0, after.stderr);
    assert.deepEqual(after.body!.deleted, []);
  });
});
