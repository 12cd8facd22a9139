/**
 * Text that leaves the server lands in an SMTP header, an HTTP header or a syslog line: one line,
 * no control character (CR/LF would start a new header or record), bounded.
 */
export function oneLine(text: string, max = 200): string {
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** Body text: lines kept, every other control character removed, bounded. */
export function bodyText(text: string, max = 16_000): string {
  const clean = text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, ' ');
  return clean.length <= max ? clean : `${clean.slice(0, max - 1)}…`;
}

/** A short, printable form of what a receiver or a socket said, for lastResult and the audit log. */
export const receiverSaid = (text: string): string => oneLine(text, 200);
