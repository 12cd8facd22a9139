import { Alert, Code, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { CopyBlock } from '../../../components/CopyBlock.tsx';
import { BOUNCER_CONFIG_PATH, bouncerYaml, EXPAND_LIMIT, hostProblem, withHost, type FirewallBackend } from '../api/bouncer-config.ts';

/** The Select value that asks for a host typed by the operator. */
const OTHER_HOST = 'other-host';

/**
 * The new key, shown this once, with the bouncer configuration that uses it. `backend` is the one
 * chosen when the key was created; without it (a revoked key's replacement) the configuration is
 * for iptables mode, which enforces every decision whatever the key's options.
 */
export function IssuedKeyPanel({
  apiKey,
  bouncerApiUrls,
  forBouncer,
  backend = 'iptables',
}: {
  apiKey: string;
  bouncerApiUrls: string[];
  forBouncer: boolean;
  backend?: FirewallBackend;
}) {
  const urls = bouncerApiUrls.length ? bouncerApiUrls : [`${window.location.origin}/pbxcore/api/v3/firewall-bouncer/`];
  const first = urls[0] ?? '';
  const [choice, setChoice] = useState(first);
  const [otherHost, setOtherHost] = useState('');
  const [otherTouched, setOtherTouched] = useState(false);
  const apiUrl = choice === OTHER_HOST ? withHost(first, otherHost) : choice;
  const otherError = choice === OTHER_HOST && (otherTouched || otherHost.trim()) ? hostProblem(otherHost) : null;

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
          <Select
            label="Address the bouncer host reaches this server on"
            description="Every address this server listens on, this computer (loopback) included, or another name or address."
            data={[...urls.map((url) => ({ value: url, label: url })), { value: OTHER_HOST, label: 'Another host name or address…' }]}
            value={choice}
            onChange={(v) => v && setChoice(v)}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
          {choice === OTHER_HOST && (
            <TextInput
              label="Host name or address"
              placeholder="pbx.example.net"
              value={otherHost}
              onChange={(e) => setOtherHost(e.currentTarget.value)}
              onBlur={() => setOtherTouched(true)}
              error={otherError}
              data-autofocus
            />
          )}
          <div>
            <Text size="sm" fw={600} mb={4}>
              crowdsec-firewall-bouncer configuration ({backend} mode)
            </Text>
            {apiUrl ? (
              <CopyBlock value={bouncerYaml(apiUrl, apiKey, backend)} label="bouncer configuration" block />
            ) : (
              <Text size="sm" c="dimmed">
                Enter the host above to see the configuration.
              </Text>
            )}
            <Text size="xs" c="dimmed" mt={4}>
              On the firewall host (Debian package), save it as <Code>{BOUNCER_CONFIG_PATH}</Code>, which overrides the package’s own file, then run{' '}
              <Code>systemctl restart crowdsec-firewall-bouncer</Code>.
            </Text>
            {backend === 'nftables' && (
              <Text size="xs" c="dimmed" mt={4}>
                nftables mode: blocked networks up to {EXPAND_LIMIT.ipv4} (IPv4) and {EXPAND_LIMIT.ipv6} (IPv6) reach this bouncer as single addresses; wider
                networks are only enforced by a bouncer in iptables mode.
              </Text>
            )}
          </div>
        </>
      )}
    </Stack>
  );
}
