import { Alert, Code, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { CopyBlock } from '../../../components/CopyBlock.tsx';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import {
  BOUNCER_CONFIG_PATH,
  bouncerYaml,
  curlCheck,
  CUSTOM_BOUNCER_CONFIG_PATH,
  customBouncerYaml,
  EXPAND_LIMIT,
  hostProblem,
  withHost,
  type BouncerClient,
  type FirewallBackend,
} from '../model/bouncer-config.ts';
import type { ServerCertificate } from '../api/types.ts';
import { CertificatePin } from './CertificatePin.tsx';

/** Whether an api_url points at this computer's loopback, the only source a localhost-bound key is accepted from. */
export function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
    return host === 'localhost' || host === '::1' || /^127\./.test(host);
  } catch {
    return false;
  }
}

/** The Select value that asks for a host typed by the operator. */
const OTHER_HOST = 'other-host';

/**
 * The new key, shown this once, with ready configurations that use it: crowdsec-firewall-bouncer
 * (for the `backend` chosen when the key was created, or derived from its expand_ranges), the custom
 * bouncer, or a curl check. Over HTTPS they pin `certificate` when it is known.
 */
export function IssuedKeyPanel({
  apiKey,
  bouncerApiUrls,
  forBouncer,
  backend = 'iptables',
  client: initialClient = 'firewall',
  certificate,
  localOnly = false,
}: {
  apiKey: string;
  bouncerApiUrls: string[];
  forBouncer: boolean;
  backend?: FirewallBackend;
  client?: BouncerClient;
  certificate?: ServerCertificate | null;
  /** The key is bound to this computer: only loopback addresses work (any other is refused with 403). */
  localOnly?: boolean;
}) {
  const offered = bouncerApiUrls.length
    ? bouncerApiUrls
    : [`${window.location.origin}/pbxcore/api/v3/firewall-bouncer/`];
  const loopbackOnly = offered.filter(isLoopbackUrl);
  const urls = localOnly && loopbackOnly.length ? loopbackOnly : offered;
  const first = urls[0] ?? '';
  const [choice, setChoice] = useState(first);
  const narrow = useNarrowScreen();
  const [client, setClient] = useState<BouncerClient>(initialClient);
  const [otherHost, setOtherHost] = useState('');
  const [otherTouched, setOtherTouched] = useState(false);
  const apiUrl = choice === OTHER_HOST ? withHost(first, otherHost) : choice;
  const otherError = choice === OTHER_HOST && (otherTouched || otherHost.trim()) ? hostProblem(otherHost) : null;
  const https = apiUrl?.startsWith('https:') ?? false;
  const trust = { pinned: https && Boolean(certificate?.fingerprint256) };

  const configuration = apiUrl
    ? {
        firewall: {
          value: bouncerYaml(apiUrl, apiKey, backend, trust),
          label: 'bouncer configuration',
          title: `crowdsec-firewall-bouncer configuration (${backend} mode)`,
        },
        custom: {
          value: customBouncerYaml(apiUrl, apiKey, trust),
          label: 'custom bouncer configuration',
          title: 'crowdsec-custom-bouncer configuration',
        },
        curl: {
          value: curlCheck(apiUrl, apiKey, trust),
          label: 'curl check',
          title: 'Check the key from the bouncer host',
        },
      }[client]
    : null;

  return (
    <Stack data-testid="issued-key">
      <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} title="Copy the key now">
        This is the only time it is shown. The server keeps only a hash of it: if it is lost, rotate the key to get a
        new value.
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
            description={
              localOnly
                ? 'This key is accepted from this computer only, so the bouncer must run here and use the loopback address.'
                : 'Every address this server listens on, this computer (loopback) included, or another name or address.'
            }
            data={[
              ...urls.map((url) => ({ value: url, label: url })),
              ...(localOnly ? [] : [{ value: OTHER_HOST, label: 'Another host name or address…' }]),
            ]}
            value={choice}
            onChange={(v) => v && setChoice(v)}
            allowDeselect={false}
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
          {/* First the certificate to save on the bouncer host, then the configuration that points at it. */}
          {https && certificate?.fingerprint256 && apiUrl && (
            <CertificatePin certificate={certificate} apiUrl={apiUrl} />
          )}
          <SegmentedControl
            aria-label="Configuration for"
            // Three choices do not fit side by side on a phone.
            orientation={narrow ? 'vertical' : 'horizontal'}
            value={client}
            onChange={(value) => setClient(value as BouncerClient)}
            fullWidth
            data={[
              { value: 'firewall', label: 'Firewall bouncer' },
              { value: 'custom', label: 'Custom bouncer' },
              { value: 'curl', label: 'curl check' },
            ]}
          />
          <div>
            {configuration ? (
              <>
                <Text size="sm" fw={600} mb={4}>
                  {configuration.title}
                </Text>
                <CopyBlock value={configuration.value} label={configuration.label} block />
              </>
            ) : (
              <Text size="sm" c="dimmed">
                Enter the host above to see the configuration.
              </Text>
            )}
            {client === 'firewall' && (
              <Text size="xs" c="dimmed" mt={4}>
                On the firewall host (Debian package), save it as <Code>{BOUNCER_CONFIG_PATH}</Code>, which overrides
                the package’s own file, then run <Code>systemctl restart crowdsec-firewall-bouncer</Code>.
              </Text>
            )}
            {client === 'firewall' && backend === 'nftables' && (
              <Text size="xs" c="dimmed" mt={4}>
                nftables mode: blocked networks up to {EXPAND_LIMIT.ipv4} (IPv4) and {EXPAND_LIMIT.ipv6} (IPv6) reach
                this bouncer as single addresses; wider networks are only enforced by a bouncer in iptables mode.
              </Text>
            )}
            {client === 'custom' && (
              <Text size="xs" c="dimmed" mt={4}>
                Save it as <Code>{CUSTOM_BOUNCER_CONFIG_PATH}</Code>, point <Code>bin_path</Code> at your script, then
                run <Code>systemctl restart crowdsec-custom-bouncer</Code>. The script is run once per decision (
                <Code>add</Code> when a ban starts, <Code>del</Code> when it ends), not on every poll.
              </Text>
            )}
            {client === 'curl' && (
              <Text size="xs" c="dimmed" mt={4}>
                Run it on the bouncer host: a JSON answer with <Code>new</Code> and <Code>deleted</Code> lists means the
                key, its network filter and the address work.
              </Text>
            )}
          </div>
        </>
      )}
    </Stack>
  );
}
