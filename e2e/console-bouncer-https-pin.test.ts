// With HTTPS on, the key dialog's configurations pin the server's certificate instead of skipping
// checks: the custom-bouncer YAML (certificate path changed only) verifies the server and works,
// the fingerprint shown is the certificate's, and the line that saves the certificate saves it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';
import { axeAudit } from './support/axe.ts';
import { LOCALHOST_SOURCE } from './pages/api-keys.ts';
import { useConsole } from './support/console-session.ts';
import { startCustomBouncerWithConfig, type RunningBouncer } from './support/custom-bouncer.ts';

const V3 = '/pbxcore/api/v3/';

describe('console: bouncer configurations pin the HTTPS certificate', () => {
  let bouncer: RunningBouncer | undefined;
  const scratch = mkdtempSync(join(tmpdir(), 'pbx-pin-'));
  const app = useConsole({
    server: { adminPassword: undefined, httpsPort: 0 },
    cleanup: async () => await bouncer?.stop(),
    openAt: '/api-keys',
  });
  const { apiKeys } = app.screens;
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it(
    'a custom-bouncer key over HTTPS: ca_cert_path, the fingerprint, a working save line, and ' +
      'the real bouncer verifies the server',
    async () => {
      const { server, browser, page } = app;
      const certificate = (await server.call(`${V3}system:getCertificate`)).json.data as {
        port: number;
        fingerprint256: string;
        pem?: string;
      };
      assert.ok(certificate.port && certificate.fingerprint256, JSON.stringify(certificate));
      // The bouncer runs on this computer: the key is bound to it (there is no default source).
      const issued = await apiKeys.createKey({
        description: 'Custom bouncer over HTTPS',
        purpose: 'customBouncer',
        source: LOCALHOST_SOURCE,
      });
      const apiKey = await issued.value();
      const apiUrl = `https://127.0.0.1:${certificate.port}/pbxcore/api/v3/firewall-bouncer/`;
      await issued.chooseAddress(apiUrl);
      assert.equal((await issued.byTestId('certificate-fingerprint').innerText()).trim(), certificate.fingerprint256);
      await browser.screenshot('api-keys-https-pin');
      const violations = (await axeAudit(page).include('[data-testid="issued-key"]').analyze()).violations.filter(
        (v) => v.impact === 'serious' || v.impact === 'critical',
      );
      assert.deepEqual(
        violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 100)).join(' | ')}`),
        [],
        'the issued key panel has no serious axe violation',
      );

      const yaml = await issued.copy(
        'Copy custom bouncer configuration',
        (text) => text.includes(`api_key: ${apiKey}`),
        'the YAML on the clipboard',
      );
      assert.match(yaml, /^ca_cert_path: \/etc\/crowdsec\/bouncers\/pbx\.pem$/m);
      assert.match(yaml, /^insecure_skip_verify: false$/m);
      assert.doesNotMatch(yaml, /insecure_skip_verify: true/);

      // The certificate as the operator gets it: downloaded when the server gives its PEM, or saved by the line shown.
      const pemFile = join(scratch, 'pbx.pem');
      if (certificate.pem) {
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          issued.button('Download certificate (PEM)').click(),
        ]);
        assert.equal(download.suggestedFilename(), 'pbx.pem');
        await download.saveAs(pemFile);
      } else {
        const line = await issued.copy(
          'Copy command that saves the certificate',
          (text) => text.startsWith('openssl '),
          'the save line on the clipboard',
        );
        assert.ok(line.endsWith('> /etc/crowdsec/bouncers/pbx.pem'), line);
        await promisify(execFile)('sh', ['-c', line.replace('/etc/crowdsec/bouncers/pbx.pem', pemFile)], {
          timeout: 15_000,
        });
      }
      assert.equal(
        new X509Certificate(readFileSync(pemFile)).fingerprint256,
        certificate.fingerprint256,
        'the saved certificate is the one whose fingerprint is shown',
      );

      await issued.tab('curl check').click();
      const curl = await issued.copy('Copy curl check', (text) => text.startsWith('curl '), 'the curl line');
      assert.ok(curl.includes('--cacert /etc/crowdsec/bouncers/pbx.pem '), curl);
      const { stdout } = await promisify(execFile)(
        'sh',
        ['-c', curl.replace('/etc/crowdsec/bouncers/pbx.pem', pemFile)],
        { encoding: 'utf8', timeout: 15_000 },
      );
      assert.ok('new' in (JSON.parse(stdout) as object), stdout);
      await apiKeys.press('I have copied it');

      const banned = await server.call(`${V3}firewall:banIp`, {
        method: 'POST',
        body: { ip: '198.51.100.99', duration: '1h' },
      });
      assert.equal(banned.status, 201, banned.text);
      bouncer = startCustomBouncerWithConfig(yaml, { caCertPath: pemFile });
      assert.match(await bouncer.waitForLine(/^add 198\.51\.100\.99 /, 30_000), / pbx\/manual /);
    },
  );
});
