import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HOSTILE_TEXTS } from '../../test-support/hostile-text.ts';
import {
  parseF5,
  parseJuniper,
  parseMikrotik,
  parsePlainText,
  unescapeRouterOs,
} from '../../test-support/feed-parsers.ts';
import type { ActiveBan } from '../bans/index.ts';
import { blocklistEntries, parseBlocklistQuery } from './blocklist.ts';
import { renderBlocklist } from './blocklist-formats.ts';
import { f5Field, routerOsString } from './feed-encoding.ts';

const NOW = 1_700_000_000_000;

/**
 * Raw hostile scenarios straight into the renderer (the LAPI door reduces upstream text first;
 * this is the layer behind it): every format must still parse back to exactly what was published.
 */
const decisions = HOSTILE_TEXTS.map((scenario, i) => ({
  value: i % 2 ? `2001:db8::${i.toString(16)}` : `198.51.100.${i}`,
  scenario,
  seconds: 600 + i,
}));
const members = decisions.map(({ value, scenario, seconds }, i) => {
  const ban: ActiveBan = {
    id: -i - 1,
    category: 'upstream',
    ip: value,
    reason: '',
    bannedAt: NOW,
    expiresAt: NOW + seconds * 1000,
    origin: 'crowdsec',
    scenario,
  };
  return { key: { value, scenario, origin: 'crowdsec' }, filterRefs: 0, ban };
});

function render(query: Record<string, string>): string {
  const parsed = parseBlocklistQuery(query);
  assert.ok(parsed.ok);
  return renderBlocklist(blocklistEntries(members, [], parsed.options, NOW), parsed.options, NOW);
}

const published = (pick: (d: (typeof decisions)[number]) => unknown) => decisions.map(pick).sort();
const asSorted = (list: unknown[]) => list.map((x) => JSON.stringify(x)).sort();

describe('feed encoding: hostile scenarios cannot change a feed', () => {
  test('mikrotik: only the expected lines, and each call reads back as (address, scenario, timeout)', () => {
    const script = render({ format: 'mikrotik' });
    assert.deepEqual(
      asSorted(parseMikrotik(script)),
      asSorted(decisions.map((d) => ({ address: d.value, comment: d.scenario, timeout: `${d.seconds}s` }))),
    );
    assert.doesNotMatch(script, /reset-configuration ; :put ""/);
  });

  test('mikrotik with one family and a list name', () => {
    const entries = parseMikrotik(render({ format: 'mikrotik', ipv4only: '', listname: 'pbx.bans_1' }), {
      listname: 'pbx.bans_1',
      families: ['ip'],
    });
    assert.deepEqual(
      asSorted(entries.map((e) => e.comment)),
      asSorted(decisions.filter((d) => !d.value.includes(':')).map((d) => d.scenario)),
    );
  });

  test('f5: four columns per line, one line per decision, the category reduced to [A-Za-z0-9_.-]', () => {
    const lines = parseF5(render({ format: 'f5' }));
    assert.deepEqual(
      asSorted(lines.map((l) => [l.address, l.category])),
      asSorted(
        decisions.map((d) => {
          const part = d.scenario.includes('/') ? d.scenario.split('/')[1]! : d.scenario;
          return [d.value, part.replace(/[^A-Za-z0-9_.-]/gu, '_')];
        }),
      ),
    );
  });

  test('plain_text and juniper carry only the addresses', () => {
    assert.deepEqual(
      parsePlainText(render({})).sort(),
      published((d) => d.value),
    );
    assert.deepEqual(
      parseJuniper(render({ format: 'juniper' })).sort(),
      published((d) => `${d.value}${d.value.includes(':') ? '/128' : '/32'}`),
    );
  });

  test('routerOsString: printable ASCII out, the same text back', () => {
    for (const text of HOSTILE_TEXTS) {
      const encoded = routerOsString(text);
      assert.match(encoded, /^[\x20-\x7e]*$/);
      assert.doesNotMatch(encoded.replace(/\\./g, ''), /["$\\]/, 'every quote, dollar and backslash is escaped');
      assert.equal(unescapeRouterOs(encoded), text);
    }
    assert.equal(routerOsString('a"b\\c$d\ne\u0000é'), 'a\\"b\\\\c\\$d\\ne\\00\\C3\\A9');
  });

  test('f5Field keeps a plain category and reduces anything else', () => {
    assert.equal(f5Field('ssh-bf'), 'ssh-bf');
    assert.equal(f5Field('a,b,c\nd'), 'a_b_c_d');
  });
});

describe('feed origin filter', () => {
  test('an upstream decision is selected by its own origin, not as one of this PBX’s', () => {
    const select = (origin: string) => {
      const parsed = parseBlocklistQuery({ origin });
      assert.ok(parsed.ok);
      return blocklistEntries(members, [], parsed.options, NOW).length;
    };
    assert.equal(select('CrowdSec'), decisions.length);
    assert.equal(select('pbx-fail2ban'), 0);
  });
});
