import { Alert, Select, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { CopyBlock } from '../../../components/CopyBlock.tsx';
import { bouncerYaml } from '../api/bouncer-config.ts';

/** The new key, shown this once, with the bouncer configuration that uses it. */
export function IssuedKeyPanel({ apiKey, bouncerApiUrls, forBouncer }: { apiKey: string; bouncerApiUrls: string[]; forBouncer: boolean }) {
  const [apiUrl, setApiUrl] = useState(bouncerApiUrls[0] ?? `${window.location.origin}/pbxcore/api/v3/firewall-bouncer/`);
  return (
    <Stack data-testid="issued-key">
      <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} title="Copy the key now">
        This is the only time it is shown. The server keeps only a hash of it: if it is lost, revoke it and issue a new one.
      </Alert>
      <div>
        <Text size="sm" fw={600} mb={4}>
          API key
        </Text>
        <CopyBlock value={apiKey} label="API key" />
      </div>
      {forBouncer && (
        <>
          {bouncerApiUrls.length > 1 && (
            <Select
              label="Address the bouncer host reaches this server on"
              data={bouncerApiUrls}
              value={apiUrl}
              onChange={(v) => v && setApiUrl(v)}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
            />
          )}
          <div>
            <Text size="sm" fw={600} mb={4}>
              crowdsec-firewall-bouncer configuration
            </Text>
            <CopyBlock value={bouncerYaml(apiUrl, apiKey)} label="bouncer configuration" block />
            <Text size="xs" c="dimmed" mt={4}>
              Paste it into /etc/crowdsec/bouncers/crowdsec-firewall-bouncer.yaml on the firewall host, then restart the bouncer.
            </Text>
          </div>
        </>
      )}
    </Stack>
  );
}
