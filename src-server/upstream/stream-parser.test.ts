import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { HOSTILE_TEXTS } from '../test-support/hostile-text.ts';
import { StreamParser, unpack } from './stream-parser.ts';
import { MAX_UPSTREAM_TEXT, safeUpstreamText } from './upstream-text.ts';

const SAFE = /^[A-Za-z0-9 _.:/@+'()-]*$/;

describe('the stream parser is the door for upstream text', () => {
  const parser = new StreamParser();
  after(() => parser.close());

  test('every scenario and origin comes out bounded and in the safe set; plain ones unchanged; counted once each', async () => {
    const decision = (id: number, text: string) => ({
      id,
      value: `198.51.100.${id}`,
      scope: 'Ip',
      type: 'ban',
      duration: '1h',
      scenario: text,
      origin: text,
    });
    const body = {
      new: HOSTILE_TEXTS.map((text, i) => decision(i + 1, text)),
      deleted: [decision(200, 'x"; gone')],
    };
    const parsed = await parser.parse(Buffer.from(JSON.stringify(body)));
    const added = [...unpack(parsed.added)];
    assert.equal(added.length, HOSTILE_TEXTS.length);
    for (const [i, d] of added.entries()) {
      for (const text of [d.scenario, d.origin]) {
        assert.match(text, SAFE, JSON.stringify(text));
        assert.ok(text.length <= MAX_UPSTREAM_TEXT);
        assert.equal(text, safeUpstreamText(HOSTILE_TEXTS[i]!), 'the thread applies upstream-text.ts’s rule');
      }
    }
    const byRaw = new Map(HOSTILE_TEXTS.map((text, i) => [text, added[i]!.scenario]));
    assert.equal(byRaw.get('crowdsecurity/ssh-bf'), 'crowdsecurity/ssh-bf');
    assert.equal(byRaw.get("manual 'ban' from 'cli'"), "manual 'ban' from 'cli'");
    assert.equal(byRaw.get('a,b,c'), 'a_b_c');
    assert.equal(byRaw.get('x" ; /system reset-configuration ; :put "'), 'x_ _ /system reset-configuration _ :put _');
    assert.equal(byRaw.get('x'.repeat(5000)), 'x'.repeat(MAX_UPSTREAM_TEXT));
    const changed = HOSTILE_TEXTS.filter((text) => safeUpstreamText(text) !== text).length;
    assert.equal(parsed.reduced, changed, 'decisions in new whose text was reduced (deleted ones are not counted)');
    assert.ok(changed >= HOSTILE_TEXTS.length - 2);
  });

  test('a missing or non-text scenario is empty or reduced, never an error', async () => {
    const body = {
      new: [
        { id: 1, value: '192.0.2.1', scope: 'Ip', duration: '1h' },
        { id: 2, value: '192.0.2.2', scope: 'Ip', duration: '1h', scenario: { $: 1 }, origin: 7 },
      ],
      deleted: null,
    };
    const [first, second] = [...unpack((await parser.parse(Buffer.from(JSON.stringify(body)))).added)];
    assert.deepEqual([first!.scenario, first!.origin], ['', '']);
    assert.deepEqual([second!.scenario, second!.origin], ['_object Object_', '7']);
  });
});

describe('a closed stream parser', () => {
  // A poll still in flight when the link stops used to start a new parser thread after close(),
  // which kept the process alive for good.
  test('starts no thread again: a parse after close() is refused', async () => {
    const parser = new StreamParser();
    await parser.parse(Buffer.from('{"new":[],"deleted":[]}'));
    await parser.close();
    await assert.rejects(parser.parse(Buffer.from('{"new":[],"deleted":[]}')), /closed/);
  });
});
