// A bulk import is all or nothing even when the server dies while writing it: a real server
// process is killed with SIGKILL while the import's slices are being written (seen in the file's
// journal), then started again. Nothing of the import may remain, and the ban it was replacing
// must be in force again. An import that was answered survives a kill right after its answer.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { killServerProcess, startServerProcess, type ServerProcess } from './support/server-process.ts';

const LINES = 50_000;
const OLD_BAN = '10.0.0.7';
const list = Array.from({ length: LINES }, (_, n) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`).join('\n');

/** A POST over loopback (the localhost bypass); resolves with the status, or 0 when the server died. */
function post(url: string, path: string, body: string, type: string): Promise<number> {
  return new Promise((resolve) => {
    const payload = Buffer.from(body);
    const req = request(
      `${url}${path}`,
      { method: 'POST', agent: false, headers: { 'Content-Type': type, 'Content-Length': payload.length } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(payload);
  });
}

const importList = (server: ServerProcess) =>
  post(server.url, '/pbxcore/api/v3/firewall:importBans?format=values&duration=24h', list, 'text/plain');

test(
  'an import killed while it is written leaves nothing; an answered one survives a kill',
  { timeout: 120_000 },
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pbx-import-crash-'));
    let server = await startServerProcess(dataDir);
    // The test reads the file as a bystander would (WAL: readers never block the server).
    const file = new Database(join(dataDir, 'pbx.sqlite'), { readonly: true });
    const count = (sql: string) => file.prepare(sql).pluck().get() as number;
    try {
      const banned = await post(
        server.url,
        '/pbxcore/api/v3/firewall:banIp',
        JSON.stringify({ ip: OLD_BAN, duration: 3600, reason: 'before the import' }),
        'application/json',
      );
      assert.equal(banned, 201);

      // Killed mid-write: as soon as some slices are in the file and the journal says unfinished.
      const answer = importList(server);
      const deadline = Date.now() + 60_000;
      let seenMidWrite = 0;
      while (Date.now() < deadline) {
        const written = count('SELECT COUNT(*) FROM firewall_bans WHERE import_id IS NOT NULL');
        if (count('SELECT COUNT(*) FROM ban_import_journal') > 0 && written > 0 && written < LINES) {
          seenMidWrite = written;
          break;
        }
        await new Promise((r) => setTimeout(r, 2));
      }
      await killServerProcess(server);
      assert.ok(seenMidWrite > 0, 'the kill landed while the import was being written');
      assert.equal(await answer, 0, 'the client got no answer');

      server = await startServerProcess(dataDir);
      assert.equal(count('SELECT COUNT(*) FROM firewall_bans WHERE import_id IS NOT NULL'), 0, 'nothing of it remains');
      assert.equal(count('SELECT COUNT(*) FROM ban_import_journal'), 0);
      assert.equal(
        count(
          `SELECT COUNT(*) FROM firewall_bans WHERE ip = '${OLD_BAN}' AND lifted_at IS NULL AND reason = 'before the import'`,
        ),
        1,
        'the ban it was replacing is in force again',
      );

      // Answered, then killed at once: every ban is in the file at the next start.
      assert.equal(await importList(server), 200);
      await killServerProcess(server);
      server = await startServerProcess(dataDir);
      assert.equal(
        count('SELECT COUNT(*) FROM firewall_bans WHERE import_id IS NOT NULL AND lifted_at IS NULL'),
        LINES,
      );
      assert.equal(count(`SELECT COUNT(*) FROM firewall_bans WHERE ip = '${OLD_BAN}' AND lifted_at IS NULL`), 1);
      assert.equal(count('SELECT COUNT(*) FROM ban_import_journal'), 0);
    } finally {
      file.close();
      await killServerProcess(server);
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
);
