import { Anchor } from '@mantine/core';
import type { ReactNode } from 'react';
import { paths } from '../config/paths.ts';
import { formatDateTime } from '../lib/format.ts';
import { linkProps } from '../lib/router.ts';

// An ISO time the server wrote, and the address after "the whitelisted" in a clash.
const PIECES = /(\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?Z)|(?<=the whitelisted )([0-9A-Fa-f:.]+(?:\/\d+)?)/g;

/** Where a whitelist entry is shown: the Whitelist page, searched for it. */
export const whitelistEntryHref = (value: string) => `${paths.whitelist}?entry=${encodeURIComponent(value)}`;

/**
 * A server message as the console shows it: its times in the console's one format (24 h, local zone) and a
 * whitelisted address it clashes with as a link to that entry.
 */
export function serverMessage(text: string | undefined): ReactNode {
  if (!text) return text;
  const out: ReactNode[] = [];
  let at = 0;
  for (const match of text.matchAll(PIECES)) {
    out.push(text.slice(at, match.index));
    const [whole, time, address] = match;
    out.push(
      time ? (
        formatDateTime(time)
      ) : (
        <Anchor key={match.index} {...linkProps(whitelistEntryHref(address!))} inherit>
          {address}
        </Anchor>
      ),
    );
    at = match.index + whole.length;
  }
  out.push(text.slice(at));
  return out.length === 1 ? text : <>{out}</>;
}
