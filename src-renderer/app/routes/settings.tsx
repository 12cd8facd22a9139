import { Card, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { PageHeader } from '../../components/PageHeader.tsx';
import { SaveBarPage } from '../../components/SaveBar.tsx';
import { BackupButtons } from '../../features/backup/components/BackupButtons.tsx';
import { CrowdsecLinkForm } from '../../features/crowdsec-link/components/CrowdsecLinkForm.tsx';
import { AdminPasswordForm } from '../../features/auth/components/AdminPasswordForm.tsx';
import { AmiSettingsForm } from '../../features/peers/components/AmiSettingsForm.tsx';
import { HttpsSettingsForm } from '../../features/system/components/HttpsSettingsForm.tsx';
import { QueueLimitsForm } from '../../features/system/components/QueueLimitsForm.tsx';
import { RetentionSettingsForm } from '../../features/system/components/RetentionSettingsForm.tsx';
import { Fail2banSettingsForm } from '../../features/whitelist/components/Fail2banSettingsForm.tsx';

function Section({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id}>
        {title}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {description}
      </Text>
      {children}
    </Card>
  );
}

/** The settings screen's sections, in the order operators need them. */
const SECTIONS: { id: string; title: string; description: string; form: () => ReactNode }[] = [
  {
    id: 'settings-bans',
    title: 'Ban rules',
    description: 'When an address is banned for failed SIP, IAX, AMI or web logins, and for how long.',
    form: Fail2banSettingsForm,
  },
  {
    id: 'settings-ami',
    title: 'Asterisk manager (AMI)',
    description: 'The connection that gives live peer states and reports attacks on SIP, IAX and AMI.',
    form: AmiSettingsForm,
  },
  {
    id: 'settings-queue',
    title: 'Request queue',
    description: 'How many API requests may wait for a worker, and for how long.',
    form: QueueLimitsForm,
  },
  {
    id: 'settings-retention',
    title: 'Retention',
    description: 'How long the ban history and the audit log keep what they record.',
    form: RetentionSettingsForm,
  },
  {
    id: 'settings-password',
    title: 'Administrator password',
    description: 'Needed to open the console from another computer.',
    form: AdminPasswordForm,
  },
  {
    id: 'settings-https',
    title: 'HTTPS',
    description: 'An encrypted listener for remote consoles and bouncers.',
    form: HttpsSettingsForm,
  },
  {
    id: 'settings-crowdsec-link',
    title: 'Many sites (CrowdSec)',
    description:
      'Share bans with your other sites through a CrowdSec Local API: this PBX pushes its bans and enforces the decisions of the others.',
    form: CrowdsecLinkForm,
  },
];

export function SettingsRoute() {
  return (
    <>
      <PageHeader
        title="Settings"
        description={
          'Export saves network filters, ban rules, the whitelist, queue, retention and AMI settings ' +
          '(without the AMI secret) and API key metadata to a file; Import previews the changes ' +
          'before it applies them.'
        }
        actions={<BackupButtons />}
      />
      <SaveBarPage>
        <Stack gap="lg">
          {SECTIONS.map(({ id, title, description, form: Form }) => (
            <Section key={id} id={id} title={title} description={description}>
              <Form />
            </Section>
          ))}
        </Stack>
      </SaveBarPage>
    </>
  );
}
