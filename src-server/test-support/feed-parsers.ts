import assert from 'node:assert/strict';
import { isIP } from 'node:net';

/**
 * Strict readers of the router feeds, written from the formats' own rules (not from the server's
 * encoders): any line that is not exactly what the format allows fails the test.
 */

/** An address or a CIDR, as a feed line must hold it. */
function assertAddressOrCidr(text: string, line: string): void {
  const [address, bits, extra] = text.split('/');
  assert.ok(extra === undefined && isIP(address!) !== 0, `not an address or CIDR: ${JSON.stringify(line)}`);
  if (bits !== undefined) assert.match(bits, /^\d{1,3}$/, `bad prefix in ${JSON.stringify(line)}`);
}

const linesOf = (text: string) => {
  assert.ok(text === '' || text.endsWith('\n'), 'a feed ends with a newline');
  return text === '' ? [] : text.slice(0, -1).split('\n');
};

/** `plain_text`: one address or CIDR per line, nothing else. */
export function parsePlainText(text: string): string[] {
  return linesOf(text).map((line) => {
    assertAddressOrCidr(line, line);
    return line;
  });
}

/** `juniper`: one CIDR per line (a single address as /32 or /128). */
export function parseJuniper(text: string): string[] {
  return linesOf(text).map((line) => {
    assert.ok(line.includes('/'), `juniper lines are CIDRs: ${JSON.stringify(line)}`);
    assertAddressOrCidr(line, line);
    return line;
  });
}

interface F5Line {
  address: string;
  mask: number;
  category: string;
}

/** `f5`: exactly `address,mask,bl,category` per line; the category a plain word. */
export function parseF5(text: string): F5Line[] {
  return linesOf(text).map((line) => {
    const fields = line.split(',');
    assert.equal(fields.length, 4, `an f5 line has 4 columns: ${JSON.stringify(line)}`);
    const [address, mask, list, category] = fields as [string, string, string, string];
    assert.ok(isIP(address) !== 0, `f5 address: ${JSON.stringify(line)}`);
    assert.match(mask, /^\d{1,3}$/);
    assert.equal(list, 'bl');
    assert.match(category, /^[A-Za-z0-9_.-]*$/, `f5 category: ${JSON.stringify(line)}`);
    return { address, mask: Number(mask), category };
  });
}

interface MikrotikEntry {
  address: string;
  comment: string;
  timeout: string;
}

/** RouterOS's escapes (MikroTik scripting manual): named ones, and `\XX` in capital hex for any byte. */
const NAMED: Record<string, number> = {
  '"': 0x22,
  '\\': 0x5c,
  $: 0x24,
  '?': 0x3f,
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
  _: 0x20,
  a: 0x07,
  b: 0x08,
  f: 0x0c,
  v: 0x0b,
};

/** The text a RouterOS string literal's inside stands for; fails on anything RouterOS would not read as plain text. */
export function unescapeRouterOs(inside: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < inside.length; i++) {
    const char = inside[i]!;
    assert.ok(char !== '"' && char !== '$', `unescaped ${char} in a RouterOS string: ${JSON.stringify(inside)}`);
    if (char !== '\\') {
      bytes.push(...Buffer.from(char, 'utf8'));
      continue;
    }
    const next = inside[i + 1];
    assert.ok(next !== undefined, 'a RouterOS string ends with a lone backslash');
    if (/^[0-9A-F]{2}$/.test(inside.slice(i + 1, i + 3))) {
      bytes.push(parseInt(inside.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      assert.ok(next in NAMED, `unknown RouterOS escape \\${next}`);
      bytes.push(NAMED[next]!);
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The fixed lines that set up one family's address list and its add function (cs-blocklist-mirror's template). */
function setupLines(family: 'ip' | 'ipv6', fn: string, list: string): string[] {
  return [
    '',
    `/${family}/firewall/address-list/remove [ find where list="${list}-load" ];`,
    `:global ${fn};`,
    `:set ${fn} do={`,
    `    :do { /${family}/firewall/address-list/add list=${list}-load address=$1 comment="$2" timeout=$3; } on-error={ }`,
    '}',
  ];
}

const CALL = /^\$(CrowdSecAddIP|CrowdSecAddIPv6) "((?:[^"\\]|\\.)*)" "((?:[^"\\]|\\.)*)" "((?:[^"\\]|\\.)*)"$/;

/**
 * `mikrotik` (a full answer): the setup lines for each family (loading into `<list>-load`), then
 * only `$CrowdSecAddIP[v6] "<addr>" "<comment>" "<timeout>"` calls, then the swap into the live
 * list, the `:set` lines that clear the functions and, for a key's fetch, its cursor. Every line is printable ASCII
 * (RouterOS also ends a line at a CR). Any other line fails.
 */
export function parseMikrotik(
  script: string,
  options: { listname?: string; families?: Array<'ip' | 'ipv6'> } = {},
): MikrotikEntry[] {
  const list = options.listname ?? 'CrowdSec';
  const families = options.families ?? ['ip', 'ipv6'];
  const lines = script.split('\n');
  for (const line of lines) assert.match(line, /^[\x20-\x7e]*$/, `non-printable byte in ${JSON.stringify(line)}`);
  const header = families.flatMap((f) => setupLines(f, f === 'ip' ? 'CrowdSecAddIP' : 'CrowdSecAddIPv6', list));
  assert.deepEqual(lines.slice(0, header.length), header, 'the setup lines');
  // The swap of the loaded list into the live one, the functions cleared, then (for a key's fetch) its cursor.
  if (/^:global PbxFeed[A-Za-z0-9]+; :set PbxFeed[A-Za-z0-9]+ "[A-Za-z0-9_-]+";$/.test(lines[lines.length - 2] ?? ''))
    lines.splice(-2, 1);
  const footer = [
    '',
    ...families.map(
      (f) =>
        `/${f}/firewall/address-list/remove [ find where list="${list}" ]; ` +
        `/${f}/firewall/address-list/set [ find where list="${list}-load" ] list=${list};`,
    ),
    ...families.map((f) => (f === 'ip' ? ':set CrowdSecAddIP;' : ':set CrowdSecAddIPv6;')),
    '',
  ];
  assert.deepEqual(lines.slice(-footer.length), footer, 'the closing lines');
  return lines.slice(header.length, -footer.length).map((line) => {
    const call = CALL.exec(line);
    assert.ok(call, `not an add call: ${JSON.stringify(line)}`);
    const [, fn, address, comment, timeout] = call;
    const entry = { address: unescapeRouterOs(address!), comment: unescapeRouterOs(comment!), timeout: timeout! };
    assertAddressOrCidr(entry.address, line);
    assert.equal(fn === 'CrowdSecAddIPv6', entry.address.includes(':'), `family of ${line}`);
    assert.match(entry.timeout, /^\d+[hs]$/, `timeout of ${line}`);
    return entry;
  });
}
