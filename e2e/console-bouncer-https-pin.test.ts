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
import { after, before, describe, it } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import type { TestServer } from '../src-server/test-support/server.ts';
import { launchConsoleBrowser, type ConsoleBrowser } from './support/browser.ts';
import { startConsoleServer } from './support/console-server.ts';
import { startCustomBouncerWithConfig, type RunningBouncer } from './support/custom-bouncer.ts';
import { eventually, openScreen, readClipboard, visible, chooseOption } from './support/page-helpers.ts';

const V3 = '/pbxcore/api/v3/';

describe('console: bouncer configurations pin the HTTPS certificate', () => {
  let server: TestServer;
  let browser: ConsoleBrowser;
  let bouncer: RunningBouncer | undefined;
  const scratch = mkdtempSync(join(tmpdir(), 'pbx-pin-'));

  before(async () => {
    server = await startConsoleServer({ httpsPort: 0 });
    browser = await launchConsoleBrowser();
  });

  after(async () => {
    await bouncer?.stop();
    await browser?.close();
    await server?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it(
    'a custom-bouncer key over HTTPS: ca_cert_path, the fingerprint, a working save line, and ' +
      'the real bouncer verifies the server',
    async () => {
      const certificate = (await server.call(`${V3}system:getCertificate`)).json.data as {
        port: number;
        fingerprint256: string;
        pem?: string;
      };
      assert.ok(certificate.port && certificate.fingerprint256, JSON.stringify(certificate));
      const { page } = browser;
      await page.goto(`${server.url}/`);
      await openScreen(page, 'API keys');
      await page.getByRole('button', { name: 'New API key' }).click();
      const dialog = await visible(page.getByRole('dialog', { name: 'New API key' }));
      await dialog.getByLabel('Description').fill('Custom bouncer over HTTPS');
      await dialog.getByRole('radio', { name: 'crowdsec-custom-bouncer (your script)' }).check();
      // The bouncer runs on this computer: the key is bound to it (there is no default source).
      await chooseOption(
        page,
        dialog.getByRole('combobox', { name: 'Allowed source' }),
        'This computer only (localhost)',
      );
      await dialog.getByRole('button', { name: 'Create key' }).click();

      const issued = await visible(page.getByTestId('issued-key'));
      const apiKey = (await issued.locator('code').first().innerText()).trim();
      const apiUrl = `https://127.0.0.1:${certificate.port}/pbxcore/api/v3/firewall-bouncer/`;
      await issued.getByRole('combobox', { name: 'Address the bouncer host reaches this server on' }).click();
      await page.getByRole('option', { name: apiUrl }).click();
      assert.equal(
        (await issued.getByTestId('certificate-fingerprint').innerText()).trim(),
        certificate.fingerprint256,
      );
      await browser.screenshot('api-keys-https-pin');
      const violations = (
        await new AxeBuilder({ page }).include('[data-testid="issued-key"]').analyze()
      ).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(
        violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 100)).join(' | ')}`),
        [],
        'the issued key panel has no serious axe violation',
      );

      await issued.getByRole('button', { name: 'Copy custom bouncer configuration' }).click();
      const yaml = await eventually(
        () => readClipboard(page),
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
          issued.getByRole('button', { name: 'Download certificate (PEM)' }).click(),
        ]);
        assert.equal(download.suggestedFilename(), 'pbx.pem');
        await download.saveAs(pemFile);
      } else {
        await issued.getByRole('button', { name: 'Copy command that saves the certificate' }).click();
        const line = await eventually(
          () => readClipboard(page),
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

      await issued.getByText('curl check', { exact: true }).click();
      await issued.getByRole('button', { name: 'Copy curl check' }).click();
      const curl = await eventually(
        () => readClipboard(page),
        (text) => text.startsWith('curl '),
        'the curl line',
      );
      assert.ok(curl.includes('--cacert /etc/crowdsec/bouncers/pbx.pem '), curl);
      const { stdout } = await promisify(execFile)(
        'sh',
        ['-c', curl.replace('/etc/crowdsec/bouncers/pbx.pem', pemFile)],
        { encoding: 'utf8', timeout: 15_000 },
      );
      assert.ok('new' in (JSON.parse(stdout) as object), stdout);
      await page.getByRole('button', { name: 'I have copied it' }).click();

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
