import { cidrText } from '../../net/cidr.ts';
import { addressToBigInt, bigIntToAddress, cidrBounds, hasHostBits, rangeToCidrs } from '../../net/cidr-ranges.ts';
import { parseStrictCidr } from '../model/index.ts';
import { FILTER_CATEGORIES } from '../filters/index.ts';
import { MANUAL_BAN_BOUNDS } from '../bans/index.ts';
import { restoreCell } from '../../../src-shared/csv-cells.ts';

import type { BanListFormat } from '../../../src-shared/formats.ts';

export { BAN_LIST_FORMATS, type BanListFormat } from '../../../src-shared/formats.ts';

/** One ban read from a list: `line` is the line (json: the entry) it came from. */
export interface ImportedBan {
  line: number;
  /** Canonical address or CIDR. */
  value: string;
  /** Seconds, or null for permanent. */
  seconds: number | null;
  reason: string;
  services: string[] | null;
}

export interface LineError {
  line: number;
  reason: string;
}

/** What applies to entries that carry no duration or reason of their own. */
export interface ImportDefaults {
  seconds: number | null;
  reason: string;
}

/** The longest address text: a full IPv6 address with an embedded IPv4 part. */
export const MAX_ADDRESS_CHARS = 45;
export const MAX_REASON_CHARS = 200;
/** An import's lines are at most this long: anything longer is not a ban list. */
const MAX_LINE_CHARS = 4096;

const GO_UNITS: Record<string, number> = {
  ns: 1e-9,
  us: 1e-6,
  µs: 1e-6,
  ms: 1e-3,
  s: 1,
  m: 60,
  h: 3600,
  d: 86_400,
  w: 604_800,
};
const DURATION = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h|d|w))+$/;
const DURATION_PART = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d|w)/g;

/**
 * A duration as cscli writes it (Go: `4h`, `1h30m`, `3599.5s`), with `d` and `w`, a bare number of
 * seconds, or `permanent`. Whole seconds (rounded up), from 1 s to 10 years.
 */
export function parseImportDuration(
  raw: unknown,
): { ok: true; seconds: number | null } | { ok: false; reason: string } {
  if (raw === 'permanent') return { ok: true, seconds: null };
  let seconds: number | undefined;
  if (typeof raw === 'number' && Number.isFinite(raw)) seconds = raw;
  else if (typeof raw === 'string') {
    const text = raw.trim();
    if (/^\d{1,12}$/.test(text)) seconds = Number(text);
    else if (DURATION.test(text)) {
      seconds = 0;
      for (const [, amount, unit] of text.matchAll(DURATION_PART)) seconds += Number(amount) * GO_UNITS[unit!]!;
    }
  }
  if (seconds === undefined)
    return {
      ok: false,
      reason: `duration "${String(raw).slice(0, 40)}" is not a duration (e.g. 3600, 4h, 1h30m, 7d or "permanent")`,
    };
  const whole = Math.ceil(seconds);
  if (whole < 1 || whole > MANUAL_BAN_BOUNDS.maxSeconds)
    return {
      ok: false,
      reason: `duration must be from 1 s to 10 years, or "permanent"; got ${String(raw).slice(0, 40)}`,
    };
  return { ok: true, seconds: whole };
}

const DOTTED_QUAD = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** `a.b.c.d` with each part 0-255 written without leading zeros (exactly how it is stored). */
export function isCanonicalIpv4(text: string): boolean {
  const match = DOTTED_QUAD.exec(text);
  return !!match && match.slice(1).every((part) => Number(part) <= 255 && (part.length === 1 || part[0] !== '0'));
}

/**
 * An address or CIDR as an import line gives it: canonical text, or the reason it is refused.
 * A CIDR must name its network (`10.0.0.5/24` is refused: which was meant?).
 */
export function parseBanValue(raw: string): { ok: true; value: string } | { ok: false; reason: string } {
  const text = raw.trim();
  // Most lists are plain dotted quads: already canonical, no need for the general parser.
  if (isCanonicalIpv4(text)) return { ok: true, value: text };
  const address = text.split('/')[0]!;
  if (address.length > MAX_ADDRESS_CHARS)
    return { ok: false, reason: `address longer than ${MAX_ADDRESS_CHARS} characters` };
  const cidr = parseStrictCidr(text);
  if (!cidr) return { ok: false, reason: `"${text.slice(0, 60)}" is not an IPv4 or IPv6 address or CIDR` };
  if (!text.includes('/')) return { ok: true, value: cidr[0].toString() };
  if (hasHostBits(cidr)) {
    const network = `${bigIntToAddress(cidrBounds(cidr).first, cidr[0].kind()).toString()}/${cidr[1]}`;
    return { ok: false, reason: `${text.slice(0, 60)} has host bits set: the network is ${network}` };
  }
  // A /32 or /128 is the address: one value per set of addresses, so unban by address lifts it.
  const single = cidr[1] === (cidr[0].kind() === 'ipv4' ? 32 : 128);
  return { ok: true, value: single ? cidr[0].toString() : cidrText(cidr) };
}

/** `a-b`: the smallest CIDR set covering the range, or the reason it is refused. */
export function parseBanRange(raw: string): { ok: true; values: string[] } | { ok: false; reason: string } {
  const [low, high, extra] = raw.split('-').map((part) => part.trim());
  if (extra !== undefined || !low || !high) return { ok: false, reason: `"${raw.slice(0, 60)}" is not a range a-b` };
  if (low.length > MAX_ADDRESS_CHARS || high.length > MAX_ADDRESS_CHARS)
    return { ok: false, reason: `address longer than ${MAX_ADDRESS_CHARS} characters` };
  const first = low.includes('/') ? undefined : parseStrictCidr(low);
  const last = high.includes('/') ? undefined : parseStrictCidr(high);
  if (!first || !last) return { ok: false, reason: `range "${raw.slice(0, 60)}" needs two addresses` };
  if (first[0].kind() !== last[0].kind())
    return { ok: false, reason: `range "${raw.slice(0, 60)}" mixes IPv4 and IPv6` };
  const a = addressToBigInt(first[0]);
  const b = addressToBigInt(last[0]);
  if (a > b) return { ok: false, reason: `range ${low}-${high} has its ends reversed (${high}-${low}?)` };
  return { ok: true, values: rangeToCidrs(a, b, first[0].kind()) };
}

/** Splits text into lines with their numbers (1-based); \r\n and \n both end a line. */
function lines(text: string): Array<{ line: number; text: string }> {
  return text.split('\n').map((line, i) => ({ line: i + 1, text: line.endsWith('\r') ? line.slice(0, -1) : line }));
}

/** Checks shared by every text format; undefined when the line may be parsed. */
function lineProblem(text: string): string | undefined {
  if (text.includes('\0')) return 'contains a NUL byte';
  if (text.length > MAX_LINE_CHARS) return `longer than ${MAX_LINE_CHARS} characters`;
  return undefined;
}

const skip = (text: string) => text.trim() === '' || text.trimStart().startsWith('#');

interface Collector {
  bans: ImportedBan[];
  errors: LineError[];
}

/** One entry with its own fields (json object, csv row), validated like cscli's decisions. */
function addRecord(out: Collector, line: number, record: Record<string, unknown>, defaults: ImportDefaults): void {
  const problems: string[] = [];
  const value = typeof record.value === 'string' ? parseBanValue(record.value) : undefined;
  if (!value) problems.push('value (an address or CIDR) is required');
  else if (!value.ok) problems.push(value.reason);
  const scope = record.scope === undefined || record.scope === '' ? 'ip' : String(record.scope).toLowerCase();
  if (scope !== 'ip' && scope !== 'range')
    problems.push(`scope "${String(record.scope).slice(0, 20)}" cannot be imported: only Ip and Range`);
  const type = record.type === undefined || record.type === '' ? 'ban' : String(record.type);
  if (type !== 'ban') problems.push(`type "${type.slice(0, 20)}" cannot be imported: only ban`);
  const duration =
    record.duration === undefined || record.duration === ''
      ? { ok: true as const, seconds: defaults.seconds }
      : parseImportDuration(record.duration);
  if (!duration.ok) problems.push(duration.reason);
  const reason = record.reason === undefined || record.reason === '' ? defaults.reason : record.reason;
  if (typeof reason !== 'string' || reason.length > MAX_REASON_CHARS || reason.includes('\0'))
    problems.push(`reason must be text of at most ${MAX_REASON_CHARS} characters`);
  const services = parseServices(record.services);
  if (!services.ok) problems.push(services.reason);
  if (problems.length || !value?.ok || !duration.ok || !services.ok) {
    out.errors.push({ line, reason: problems.join('; ') });
    return;
  }
  out.bans.push({
    line,
    value: value.value,
    seconds: duration.seconds,
    reason: reason as string,
    services: services.services,
  });
}

/** `services` (our extension, so an export keeps a ban's services): a list or space-separated text; empty means all. */
function parseServices(raw: unknown): { ok: true; services: string[] | null } | { ok: false; reason: string } {
  if (raw === undefined || raw === null || raw === '') return { ok: true, services: null };
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/[\s,|]+/).filter(Boolean) : undefined;
  if (!list || list.some((s) => !(FILTER_CATEGORIES as readonly unknown[]).includes(s)))
    return { ok: false, reason: `services must be among ${FILTER_CATEGORIES.join(', ')}` };
  return { ok: true, services: [...new Set(list as string[])] };
}

function parseJson(text: string, defaults: ImportDefaults, out: Collector): void {
  if (text.includes('\0')) {
    const line = text.slice(0, text.indexOf('\0')).split('\n').length;
    out.errors.push({ line, reason: 'contains a NUL byte' });
    return;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    out.errors.push({ line: 1, reason: `not valid JSON (${(error as Error).message.slice(0, 120)})` });
    return;
  }
  if (!Array.isArray(data)) {
    out.errors.push({ line: 1, reason: 'a JSON import is an array of decisions [{"value": ..., "duration": ...}]' });
    return;
  }
  data.forEach((item, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      out.errors.push({ line: index + 1, reason: 'entry is not an object' });
    else addRecord(out, index + 1, item as Record<string, unknown>, defaults);
  });
}

/** RFC 4180 fields of one record starting at `start`; quoted fields may hold commas, quotes ("") and newlines. */
function csvRecord(text: string, start: number): { fields: string[]; next: number; newlines: number } {
  const fields: string[] = [];
  let i = start;
  let newlines = 0;
  for (;;) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        const quote = text.indexOf('"', i);
        if (quote === -1) {
          field += text.slice(i);
          i = text.length;
          break;
        }
        field += text.slice(i, quote);
        i = quote + 1;
        if (text[i] === '"') {
          field += '"';
          i++;
        } else break;
      }
      newlines += field.split('\n').length - 1;
      const end = text.slice(i).search(/[,\n]/);
      i = end === -1 ? text.length : i + end;
    } else {
      const end = text.slice(i).search(/[,\n]/);
      field = end === -1 ? text.slice(i) : text.slice(i, i + end);
      i = end === -1 ? text.length : i + end;
    }
    fields.push(field.endsWith('\r') ? field.slice(0, -1) : field);
    if (text[i] === ',') {
      i++;
      continue;
    }
    return { fields, next: i + 1, newlines: newlines + 1 };
  }
}

function parseCsv(text: string, defaults: ImportDefaults, out: Collector): void {
  let position = 0;
  let line = 1;
  let header: string[] | undefined;
  while (position < text.length) {
    const startLine = line;
    const { fields, next, newlines } = csvRecord(text, position);
    const raw = text.slice(position, next);
    position = next;
    line += newlines;
    const problem = lineProblem(raw);
    if (problem) {
      out.errors.push({ line: startLine, reason: problem });
      continue;
    }
    if (fields.length === 1 && fields[0]!.trim() === '') continue;
    if (!header) {
      header = fields.map((name) => name.trim().toLowerCase());
      if (!header.includes('value')) {
        out.errors.push({
          line: startLine,
          reason: 'the first line is the header and must name a "value" column (value,duration,reason,scope,type)',
        });
        return;
      }
      continue;
    }
    const record: Record<string, string> = {};
    // An export's formula guard (csv-cells.ts) comes off, so a reason reads back as it was.
    header.forEach((name, i) => (record[name] = restoreCell((fields[i] ?? '').trim())));
    addRecord(out, startLine, record, defaults);
  }
}

function parseLines(text: string, format: 'values' | 'opnsense', defaults: ImportDefaults, out: Collector): void {
  for (const { line, text: raw } of lines(text)) {
    const problem = lineProblem(raw);
    if (problem) {
      out.errors.push({ line, reason: problem });
      continue;
    }
    if (skip(raw)) continue;
    const trimmed = raw.trim();
    const cut = format === 'opnsense' ? trimmed.search(/[\s,]/) : -1;
    const token = cut === -1 ? trimmed : trimmed.slice(0, cut);
    const description = cut === -1 ? '' : trimmed.slice(cut + 1).trim();
    if (format === 'values' && /\s/.test(trimmed)) {
      out.errors.push({ line, reason: 'one address or CIDR per line (use the opnsense format for descriptions)' });
      continue;
    }
    if (description.length > MAX_REASON_CHARS) {
      out.errors.push({ line, reason: `description longer than ${MAX_REASON_CHARS} characters` });
      continue;
    }
    const reason = description || defaults.reason;
    if (format === 'opnsense' && token.includes('-')) {
      const range = parseBanRange(token);
      if (!range.ok) out.errors.push({ line, reason: range.reason });
      else
        for (const value of range.values)
          out.bans.push({ line, value, seconds: defaults.seconds, reason, services: null });
      continue;
    }
    const value = parseBanValue(token);
    if (!value.ok) out.errors.push({ line, reason: value.reason });
    else out.bans.push({ line, value: value.value, seconds: defaults.seconds, reason, services: null });
  }
}

/** Reads a ban list; every refused line is reported with its number and reason. */
export function parseBanList(text: string, format: BanListFormat, defaults: ImportDefaults): Collector {
  const out: Collector = { bans: [], errors: [] };
  if (format === 'json') parseJson(text, defaults, out);
  else if (format === 'csv') parseCsv(text, defaults, out);
  else parseLines(text, format, defaults, out);
  return out;
}
