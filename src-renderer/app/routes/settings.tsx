import { Card, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { PageHeader } from '../../components/PageHeader.tsx';
import { AdminPasswordForm } from '../../features/auth/components/AdminPasswordForm.tsx';
import { AmiSettingsForm } from '../../features/peers/components/AmiSettingsForm.tsx';
import { HttpsSettingsForm } from '../../features/system/components/HttpsSettingsForm.tsx';
import { QueueLimitsForm } from '../../features/system/components/QueueLimitsForm.tsx';
import { Fail2banSettingsForm } from '../../features/whitelist/components/Fail2banSettingsForm.tsx';

function Section({ id, title, description, children }: { id: string; title: string; description: string; children: ReactNode }) {
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

export function SettingsRoute() {
  return (
    <>
      <PageHeader title="Settings" />
      <Stack gap="lg">
        <Section id="settings-bans" title="Ban rules" description="When an address is banned for failed SIP, IAX, AMI or web logins, and for how long.">
          <Fail2banSettingsForm />
        </Section>
        <Section id="settings-ami" title="Asterisk manager (AMI)" description="The connection that gives live peer states and reports attacks on SIP, IAX and AMI.">
          <AmiSettingsForm />
        </Section>
        <Section id="settings-queue" title="Request queue" description="How many API requests may wait for a worker, and for how long.">
          <QueueLimitsForm />
        </Section>
        <Section id="settings-password" title="Administrator password" description="Needed to open the console from another computer.">
          <AdminPasswordForm />
        </Section>
        <Section id="settings-https" title="HTTPS" description="An encrypted listener for remote consoles and bouncers.">
          <HttpsSettingsForm />
        </Section>
      </Stack>
    </>
  );
}
