// No deletion is lost, whatever happens to an answer: 100 polls of one key against a real server
// process that is killed with SIGKILL at random points (before a poll, while its body is being
// read, just after it was read), with answers cut by the client and entries removed between polls.
// The bouncer here is modelled as the real ones behave: it applies an answer only when it read the
// whole of it (`new` added, `deleted` removed). At the end it must hold nothing that is not published.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPEAT_POLLS } from '../src-server/firewall/export/index.ts';
import { openDatabase } from '../src-server/storage/database.ts';
import { createTestApiKey } from '../src-server/test-support/api-keys.ts';
import { soakSize } from '../src-server/test-support/soak.ts';
import { killServerProcess as kill, startServerProcess as startServer } from './support/server-process.ts';

const STREAM = '/pbxcore/api/v3/firewall-bouncer/v1/decisions/stream';
/** 40 polls in npm test (about 4 kills of each kind); the soak lane runs 100. */
const POLLS = soakSize(40, 100);
/** Entries that make the body large enough (about 750 KB, several socket reads) to be cut or killed mid-body. */
const BULK_ENTRIES = 5_000;

type Answer = { new: Array<{ value: string; scenario: string }>; deleted: Array<{ value: string; scenario: string }> };

/**
 * One poll. `onFirstChunk` runs when the first bytes arrive (to cut the answer or kill the
 * server); the answer counts only when it was read whole.
 */
function poll(url: string, key: string, onFirstChunk?: () => void): Promise<Answer | undefined> {
  return new Promise((resolve) => {
    const req = request(`${url}${STREAM}`, { headers: { 'X-Api-Key': key }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let first = true;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (first && onFirstChunk) {
          first = false;
          onFirstChunk();
          req.destroy();
          resolve(undefined);
        }
      });
      res.on('end', () => {
        if (res.statusCode !== 200) return resolve(undefined);
        resolve(JSON.parse(Buffer.concat(chunks).toString()) as Answer);
      });
      res.on('error', () => resolve(undefined));
    });
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

/** A seeded generator, so a failing run can be replayed with PBX_CRASH_SEED. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A v3 write over loopback (the localhost bypass). */
function write(url: string, method: string, path: string, body?: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = request(
      `${url}${path}`,
      {
        method,
        agent: false,
        headers: payload ? { 'Content-Type': 'application/json', 'Content-Length': payload.length } : {},
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const identity = (d: { value: string; scenario: string }) => `${d.value} ${d.scenario}`;

test(
  `no deletion is lost over ${POLLS} polls with SIGKILL at random points, cut answers and removals between polls`,
  { timeout: 600_000 },
  async () => {
    const seed = Number(process.env.PBX_CRASH_SEED ?? Date.now() % 1_000_000);
    const next = random(seed);
    const dataDir = mkdtempSync(join(tmpdir(), 'pbx-crash-'));
    let server = await startServer(dataDir);
    const db = openDatabase(join(dataDir, 'pbx.sqlite'));
    try {
      const { key } = createTestApiKey(db, { description: 'crash bouncer' });
      const bulk = Array.from({ length: BULK_ENTRIES }, (_, n) => `100.64.${(n >> 8) & 255}.${n & 255}`).join(',');
      const insert = db.prepare(
        "INSERT INTO network_filters (permit, deny, description, rules) VALUES ('0.0.0.0/0', ?, ?, '{}')",
      );
      insert.run(bulk, 'bulk');
      // The seed went straight into the file: restart so the server reads it.
      await kill(server);
      server = await startServer(dataDir);

      const held = new Set<string>();
      const apply = (answer: Answer) => {
        for (const d of answer.deleted) held.delete(identity(d));
        for (const d of answer.new) held.add(identity(d));
      };
      let small = 0;
      let unread = 0;
      const log: string[] = [];
      for (let i = 0; i < POLLS; i++) {
        // Between polls, through the API: add a small entry, and remove an earlier one.
        assert.equal(
          await write(server.url, 'POST', '/pbxcore/api/v3/firewall', {
            permit: '192.0.2.0/24',
            deny: `198.18.${(small >> 8) & 255}.${small & 255}`,
            description: `small ${small}`,
          }),
          201,
        );
        small++;
        const victim = db
          .prepare("SELECT id FROM network_filters WHERE description LIKE 'small %' ORDER BY random() LIMIT 1")
          .pluck()
          .get() as number | undefined;
        if (victim !== undefined && next() < 0.7)
          assert.equal(await write(server.url, 'DELETE', `/pbxcore/api/v3/firewall/${victim}`), 200);
        let phase = 'poll';
        if (next() < 0.1) {
          phase = 'kill-before';
          await kill(server);
          server = await startServer(dataDir);
        }
        const cut = unread < 3 ? next() : 1; // at most 3 unread answers in a row (REPEAT_POLLS is 5)
        let answer: Answer | undefined;
        if (cut < 0.15) {
          phase += '+kill-during';
          const dying = server;
          answer = await poll(server.url, key, () => void kill(dying));
          await kill(dying);
          server = await startServer(dataDir);
        } else if (cut < 0.3) {
          phase += '+cut';
          answer = await poll(server.url, key, () => undefined);
        } else {
          answer = await poll(server.url, key);
          if (answer && next() < 0.1) {
            phase += '+kill-after';
            await kill(server);
            server = await startServer(dataDir);
          }
        }
        if (answer) {
          apply(answer);
          unread = 0;
        } else unread++;
        log.push(`${i}:${phase}${answer ? '' : ' (unread)'}`);
      }
      let last: Answer | undefined;
      for (let i = 0; i < REPEAT_POLLS; i++) {
        last = await poll(server.url, key);
        assert.ok(last, 'a normal poll is answered');
        apply(last);
      }
      const published = new Set(last!.new.map(identity));
      const stale = [...held].filter((id) => !published.has(id));
      assert.deepEqual(stale, [], `the bouncer still holds removed entries (seed ${seed}; ${log.join(', ')})`);
      assert.equal(held.size, published.size);
    } finally {
      db.close();
      await kill(server);
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
);
