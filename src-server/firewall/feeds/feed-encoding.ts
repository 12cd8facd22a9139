/**
 * How text reaches a router feed: one encoder per format, so no scenario, origin or list name can
 * change a feed's syntax. No library writes RouterOS strings or F5 feed fields, so these are here.
 */

/** RouterOS's named escapes (MikroTik scripting manual, "Constant Escape Sequences"). */
const ROUTEROS_ESCAPES: Record<number, string> = {
  0x22: '\\"',
  0x5c: '\\\\',
  0x24: '\\$',
  0x3f: '\\?',
  0x0a: '\\n',
  0x0d: '\\r',
  0x09: '\\t',
};

/**
 * Text as the inside of a RouterOS double-quoted string: `"`, `\`, `$` (variables and `$[...]`
 * commands) and `?` escaped, line breaks and tabs as `\n` `\r` `\t`, and every other byte outside
 * printable ASCII (controls, NUL, DEL, each UTF-8 byte of non-ASCII text) as `\XX` in capital hex,
 * the form RouterOS reads. The result is printable ASCII: it can neither end the string nor the line.
 */
export function routerOsString(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const named = ROUTEROS_ESCAPES[byte];
    if (named !== undefined) out += named;
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The characters an F5 feed field may hold: its format has no quoting, so nothing can add a column or a line. */
const F5_UNSAFE = /[^A-Za-z0-9_.-]/gu;

/** Text as an F5 feed field (the category): each character outside `[A-Za-z0-9_.-]` becomes `_`. */
export const f5Field = (text: string): string => text.replace(F5_UNSAFE, '_');
