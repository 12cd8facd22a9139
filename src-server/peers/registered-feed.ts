import type { RegisteredAddresses } from '../firewall/filters/index.ts';
import { parseAddress } from '../net/cidr.ts';
import type { AmiMessage } from './ami-protocol.ts';
import type { EndpointRow } from './peer-state-store.ts';

/** What the AMI monitor tells the registered-address index (firewall/registered-addresses.ts). */
export type RegisteredSink = Pick<RegisteredAddresses, 'replaceAll' | 'contactUp' | 'contactDown' | 'endAll'>;

/**
 * The address a contact is registered from: the host of its URI (`sip:101@198.51.100.10:5060;ob`,
 * `sip:101@[2001:db8::5]:5060`). Behind NAT this is the office's public address, as Asterisk
 * rewrites the contact to the source of the REGISTER (`rewrite_contact`, FreePBX's default).
 */
export function contactAddress(uri: string): string | undefined {
  const afterScheme = uri.trim().replace(/^sips?:/i, '');
  const hostPart = afterScheme.slice(afterScheme.lastIndexOf('@') + 1).split(/[;?>]/)[0]!;
  const host = hostPart.startsWith('[') ? hostPart.slice(1, hostPart.indexOf(']')) : hostPart.split(':')[0]!;
  return parseAddress(host)?.toString();
}

/** The contacts of PJSIPShowEndpoints rows: `Contacts` is `aor/uri,` per registered contact. */
export function contactsOfEndpoints(rows: readonly EndpointRow[]): Array<{ address: string; endpoint: string }> {
  const out: Array<{ address: string; endpoint: string }> = [];
  for (const row of rows) {
    for (const item of row.contacts.split(',')) {
      const slash = item.indexOf('/');
      if (slash < 0) continue;
      const address = contactAddress(item.slice(slash + 1));
      if (address) out.push({ address, endpoint: row.endpoint });
    }
  }
  return out;
}

/** A `ContactStatus` event applied at once: `Removed` ends the registration, any other status keeps it. */
export function applyContactStatus(sink: RegisteredSink, event: AmiMessage): void {
  const endpoint = (event.EndpointName || event.AOR || '').trim();
  const address = contactAddress(event.URI ?? '');
  if (!endpoint || !address) return;
  if ((event.ContactStatus ?? '').toLowerCase() === 'removed') sink.contactDown(address, endpoint);
  else sink.contactUp(address, endpoint);
}
