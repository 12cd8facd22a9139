import { Alert, Button, Group, NumberInput, SimpleGrid, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState, type FormEvent } from 'react';
import { QueryState } from '../../../components/QueryState.tsx';
import { fieldErrors } from '../../../lib/field-errors.ts';
import { useFail2ban, useUpdateFail2ban, type Fail2banSettings } from '../api/fail2ban-settings.ts';

type Params = Pick<Fail2banSettings, 'maxretry' | 'bantime' | 'findtime' | 'PBXFirewallMaxReqSec'>;
const FIELDS = ['maxretry', 'bantime', 'findtime', 'PBXFirewallMaxReqSec'] as const;

/** Ban thresholds: failures allowed, over which window, and for how long an address is banned. */
export function Fail2banSettingsForm() {
  const settings = useFail2ban();
  const save = useUpdateFail2ban();
  const [values, setValues] = useState<Params | null>(null);
  useEffect(() => {
    if (settings.data) {
      const { maxretry, bantime, findtime, PBXFirewallMaxReqSec } = settings.data;
      setValues({ maxretry, bantime, findtime, PBXFirewallMaxReqSec });
    }
  }, [settings.data]);
  const errors = fieldErrors(save.error, FIELDS);
  const set = (key: keyof Params) => (v: string | number) => values && setValues({ ...values, [key]: Number(v) });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!values) return;
    save.mutate(values, { onSuccess: () => notifications.show({ color: 'teal', title: 'Ban rules saved', message: 'New bans use them at once.' }) });
  };

  return (
    <QueryState query={settings} label="ban rules">
      {values && (
        <form onSubmit={submit} noValidate aria-label="Ban rules">
          <Stack maw={640}>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <NumberInput label="Failures before a ban" description="1 to 100" min={1} max={100} value={values.maxretry} onChange={set('maxretry')} error={errors.byField.maxretry} />
              <NumberInput label="Counting window (seconds)" description="At least 60" min={60} value={values.findtime} onChange={set('findtime')} error={errors.byField.findtime} />
              <NumberInput label="Ban duration (seconds)" description="At least 60" min={60} value={values.bantime} onChange={set('bantime')} error={errors.byField.bantime} />
              <NumberInput label="Max requests per second" description="Per address, on the web interface" min={1} value={values.PBXFirewallMaxReqSec} onChange={set('PBXFirewallMaxReqSec')} error={errors.byField.PBXFirewallMaxReqSec} />
            </SimpleGrid>
            {errors.other.length > 0 && <Alert color="red" variant="light" role="alert">{errors.other.join(' ')}</Alert>}
            <Group>
              <Button type="submit" loading={save.isPending}>
                Save ban rules
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </QueryState>
  );
}
