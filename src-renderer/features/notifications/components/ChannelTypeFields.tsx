import { SegmentedControl, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { ChangeEvent } from 'react';
import { SecretInput } from '../../../components/SecretInput.tsx';
import type { ChannelInput } from '../model/channel-form.ts';

type Bind = <K extends keyof ChannelInput>(
  key: K,
) => { value: string; onChange: (e: ChangeEvent<HTMLInputElement>) => void };

interface Props {
  values: ChannelInput;
  text: Bind;
  edit: (patch: Partial<ChannelInput>) => void;
  errors: Partial<Record<keyof ChannelInput, string>>;
  /** A secret is stored: an empty field keeps it. */
  hasSecret: boolean;
}

const secretHint = (hasSecret: boolean, what: string) =>
  `${what}${hasSecret ? ' Leave empty to keep the stored one.' : ''} It is stored encrypted and never shown again.`;

/** The fields one channel type needs, in a technician's words. */
export function ChannelTypeFields({ values, text, edit, errors, hasSecret }: Props) {
  const placeholder = hasSecret ? 'unchanged' : '';
  switch (values.type) {
    case 'webhook':
      return (
        <Stack>
          <TextInput
            label="URL"
            placeholder="https://hooks.example.net/pbx"
            required
            {...text('url')}
            error={errors.url}
          />
          <SecretInput
            label="Signing secret"
            description={secretHint(hasSecret, 'Each POST carries X-PBX-Signature: sha256=HMAC of the body with it.')}
            placeholder={placeholder}
            {...text('secret')}
            error={errors.secret}
          />
        </Stack>
      );
    case 'ntfy':
      return (
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="ntfy server" placeholder="https://ntfy.sh" required {...text('url')} error={errors.url} />
            <TextInput label="Topic" placeholder="pbx-alerts" required {...text('topic')} error={errors.topic} />
          </SimpleGrid>
          <SecretInput
            label="Access token (optional)"
            description={secretHint(hasSecret, 'For a protected topic.')}
            placeholder={placeholder}
            {...text('secret')}
            error={errors.secret}
          />
        </Stack>
      );
    case 'syslog':
      return (
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Collector"
              placeholder="logs.example.net"
              required
              {...text('host')}
              error={errors.host}
            />
            <TextInput label="Port" inputMode="numeric" required {...text('port')} error={errors.port} />
          </SimpleGrid>
          <Stack gap={4}>
            <Text size="sm" fw={500} id="syslog-transport">
              Transport
            </Text>
            <SegmentedControl
              aria-labelledby="syslog-transport"
              data={[
                { value: 'udp', label: 'UDP (514)' },
                { value: 'tcp', label: 'TCP (601)' },
              ]}
              value={values.transport}
              onChange={(value) => edit({ transport: value as ChannelInput['transport'] })}
            />
          </Stack>
          <TextInput label="App name" placeholder="pbx-console" {...text('appName')} error={errors.appName} />
        </Stack>
      );
    default:
      return (
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Mail server"
              placeholder="smtp.example.net"
              required
              {...text('host')}
              error={errors.host}
            />
            <TextInput label="Port" inputMode="numeric" required {...text('port')} error={errors.port} />
          </SimpleGrid>
          <Stack gap={4}>
            <Text size="sm" fw={500} id="smtp-security">
              Encryption
            </Text>
            <SegmentedControl
              aria-labelledby="smtp-security"
              data={[
                { value: 'starttls', label: 'STARTTLS (587)' },
                { value: 'tls', label: 'TLS (465)' },
              ]}
              value={values.security}
              onChange={(value) => edit({ security: value as ChannelInput['security'] })}
            />
          </Stack>
          <Switch
            label="Check the mail server's certificate"
            checked={values.tlsVerify}
            onChange={(e) => edit({ tlsVerify: e.currentTarget.checked })}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="From" placeholder="pbx@example.net" required {...text('from')} error={errors.from} />
            <TextInput
              label="To"
              description="Separate several with commas"
              placeholder="tech@example.net"
              required
              {...text('to')}
              error={errors.to}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Login (optional)" autoComplete="off" {...text('username')} error={errors.username} />
            <SecretInput
              label="Password"
              description={secretHint(hasSecret, '')}
              placeholder={placeholder}
              {...text('secret')}
              error={errors.secret}
            />
          </SimpleGrid>
        </Stack>
      );
  }
}
