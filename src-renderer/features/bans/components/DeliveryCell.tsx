import { Popover, Stack, Text, UnstyledButton } from '@mantine/core';
import type { Delivery } from '../api/get-banned-ips.ts';

/**
 * "2 of 3 bouncers", "1 of 2: fw1 has never polled", "No bouncer": how many of the keys that should
 * receive a decision (bouncers and router feeds) were sent it, and why not the first one missing.
 */
export function deliveryText(delivery: Delivery): string {
  if (delivery.of === 0) return 'No bouncer';
  const count = `${delivery.served} of ${delivery.of}`;
  const first = delivery.missing[0];
  if (first) return `${count}: ${first.why}${delivery.missing.length > 1 ? ` (+${delivery.missing.length - 1})` : ''}`;
  return `${count} ${delivery.of === 1 ? 'bouncer' : 'bouncers'}`;
}

/** The key names a decision was sent to: "fw1, fw2". */
export const deliveryKeys = (delivery: Delivery) =>
  delivery.keys.map((key) => key.description || `Key #${key.keyId}`).join(', ');

/** A decision that reached no active bouncer is not enforced beyond this server: say so in a warning colour. */
const unenforced = (delivery: Delivery) => delivery.served === 0;

/**
 * The Delivered cell of a ban: the count, and on click the keys that were sent it ("sent" is what
 * the server knows; HTTP has no acknowledgement).
 */
export function DeliveryCell({ delivery, subject }: { delivery: Delivery | undefined; subject: string }) {
  if (!delivery) return <Text size="sm">—</Text>;
  const text = deliveryText(delivery);
  return (
    <Popover width={260} position="bottom-start" withArrow shadow="md">
      <Popover.Target>
        <UnstyledButton
          aria-label={`${text} for ${subject}: show which`}
          data-testid="ban-delivery"
          data-served={delivery.served}
          data-of={delivery.of}
        >
          {/* The count on one line; why a key is missing wraps below it, so a long key name never widens the table. */}
          <Text
            size="sm"
            fw={unenforced(delivery) ? 600 : undefined}
            c={unenforced(delivery) ? 'orange' : undefined}
            td="underline dotted"
            maw={220}
          >
            {text}
          </Text>
        </UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap={4}>
          {delivery.of === 0 ? (
            <Text size="sm">No bouncer or router-feed key is set up: this ban is enforced by this server only.</Text>
          ) : delivery.served === 0 ? (
            <Text size="sm">None of the {delivery.of} bouncer and feed keys has been sent it yet.</Text>
          ) : (
            <Text size="sm">Sent to {deliveryKeys(delivery)}.</Text>
          )}
          {delivery.missing.map((m) => (
            <Text size="xs" key={m.keyId}>
              Not sent: {m.why}.
            </Text>
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
