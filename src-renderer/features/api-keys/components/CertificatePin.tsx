import { Button, Code, Group, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { CopyBlock } from '../../../components/CopyBlock.tsx';
import { CA_CERT_PATH } from '../model/bouncer-config.ts';
import type { ServerCertificate } from '../api/types.ts';

/** Saves this server's certificate as pbx.pem, the name the configurations expect. */
function downloadPem(pem: string) {
  const url = URL.createObjectURL(new Blob([pem], { type: 'application/x-pem-file' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'pbx.pem';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Over HTTPS: the certificate the configurations pin, to download (or fetch) and check by its fingerprint. */
export function CertificatePin({ certificate, apiUrl }: { certificate: ServerCertificate; apiUrl: string }) {
  const url = new URL(apiUrl);
  const servername = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return (
    <Stack gap={4} data-testid="certificate-pin">
      <Text size="sm" fw={600}>
        This server’s certificate
      </Text>
      <Text size="xs" c="dimmed">
        The configuration checks the server against it: save it on the bouncer host as <Code>{CA_CERT_PATH}</Code> and
        compare its SHA-256 fingerprint.
      </Text>
      {certificate.pem ? (
        <Group>
          <Button
            variant="light"
            size="xs"
            leftSection={<IconDownload size={14} />}
            onClick={() => downloadPem(certificate.pem!)}
          >
            Download certificate (PEM)
          </Button>
        </Group>
      ) : (
        <CopyBlock
          value={
            `openssl s_client -connect ${url.hostname}:${url.port || '443'} -servername ${servername} ` +
            `</dev/null 2>/dev/null | openssl x509 > ${CA_CERT_PATH}`
          }
          label="command that saves the certificate"
          block
        />
      )}
      <Text size="xs" c="dimmed">
        SHA-256 fingerprint
      </Text>
      <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }} data-testid="certificate-fingerprint">
        {certificate.fingerprint256}
      </Code>
    </Stack>
  );
}
