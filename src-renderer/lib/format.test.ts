import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  formatAgo,
  formatDateTime,
  formatDuration,
  formatExactDuration,
  formatHourMinute,
  formatLocalInput,
  formatTime,
  localInputInstant,
  ordinal,
  parseLocalInput,
  plural,
  toMillis,
  zoneName,
} from './format.ts';

describe('format', () => {
  it('formatDuration: seconds, then minutes, hours and days, two units at most; never negative', () => {
    const cases: Array<[number, string]> = [
      [0, '0 s'],
      [59.9, '59 s'],
      [60, '1 min 00 s'],
      [185, '3 min 05 s'],
      [3599, '59 min 59 s'],
      [3600, '1 h 00 min'],
      [7800, '2 h 10 min'],
      [86400, '1 d 0 h'],
      [4 * 86400 + 3 * 3600 + 59, '4 d 3 h'],
      [-5, '0 s'],
    ];
    for (const [seconds, text] of cases) assert.equal(formatDuration(seconds), text, `${seconds}`);
  });

  it('toMillis: seconds and milliseconds, numeric strings and ISO dates; null for nothing or nonsense', () => {
    const ms = Date.parse('2026-11-22T08:30:12Z');
    assert.equal(toMillis(ms), ms);
    assert.equal(toMillis(ms / 1000), ms, 'seconds');
    assert.equal(toMillis(String(ms / 1000)), ms, 'seconds as text');
    assert.equal(toMillis('2026-11-22T08:30:12Z'), ms);
    for (const nothing of [null, undefined, '', 'soon']) assert.equal(toMillis(nothing), null, String(nothing));
  });

  it('formatAgo: the time since, or "never"', () => {
    const now = Date.parse('2026-11-22T08:30:12Z');
    assert.equal(formatAgo(now - 12_000, now), '12 s ago');
    assert.equal(formatAgo((now - 3_600_000) / 1000, now), '1 h 00 min ago');
    assert.equal(formatAgo(null, now), 'never');
  });

  it('formatDateTime and formatTime: local 24-hour time with the zone, a dash for no time', () => {
    const date = new Date(2026, 10, 22, 20, 5, 9); // local time
    const zone = zoneName(date);
    assert.ok(zone.length > 0, 'a zone is named');
    assert.equal(formatTime(date.getTime()), `20:05:09 ${zone}`);
    assert.equal(formatDateTime(date.getTime()), `2026-11-22 20:05:09 ${zone}`);
    assert.equal(formatDateTime(date.getTime() / 1000), `2026-11-22 20:05:09 ${zone}`, 'seconds too');
    assert.equal(formatHourMinute(date.getTime()), '20:05');
    assert.equal(formatTime(null), '—');
    assert.equal(formatDateTime('not a date'), '—');
  });

  it('formatExactDuration: every unit that is not zero, "0 s" for nothing', () => {
    assert.equal(formatExactDuration(60), '1 min');
    assert.equal(formatExactDuration(2147483), '24 d 20 h 31 min 23 s');
    assert.equal(formatExactDuration(86400 + 1), '1 d 1 s');
    assert.equal(formatExactDuration(0), '0 s');
    assert.equal(formatExactDuration(-3), '0 s');
  });

  it('plural and ordinal', () => {
    assert.equal(plural(1, 'entry', 'entries'), '1 entry');
    assert.equal(plural(0, 'entry', 'entries'), '0 entries');
    assert.equal(plural(3, 'entry', 'entries'), '3 entries');
    const ranks = '1st 2nd 3rd 4th 11th 12th 13th 21st 22nd 23rd 101st 111th 112th'.split(' ');
    for (const rank of ranks) assert.equal(ordinal(parseInt(rank, 10)), rank);
  });

  it('a date-time field reads and writes the one format, 24-hour local time, and refuses what is not one', () => {
    const ms = new Date(2026, 11, 31, 18, 5, 9).getTime();
    assert.equal(formatLocalInput(ms), '2026-12-31 18:05:09');
    assert.equal(parseLocalInput('2026-12-31 18:05:09'), ms);
    assert.equal(parseLocalInput('2026-12-31T18:05:09'), ms);
    assert.equal(parseLocalInput('2026-12-31 18:05'), ms - 9000);
    for (const bad of ['12/31/2026 06:05 PM', '2026-13-01 10:00', '2026-02-30 10:00', '2026-12-31 24:00', '', 'soon'])
      assert.ok(Number.isNaN(parseLocalInput(bad)), `"${bad}" is not a time`);
  });

  it("a filter's typed bound becomes an instant once it reads as a time, and nothing before", () => {
    assert.equal(localInputInstant('2026-12-31 18:05'), new Date(2026, 11, 31, 18, 5).toISOString());
    for (const unfinished of ['', '  ', '2026-12-3', '12/31/2026 06:05 PM'])
      assert.equal(localInputInstant(unfinished), '');
  });
});
