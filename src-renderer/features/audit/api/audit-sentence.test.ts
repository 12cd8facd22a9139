import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditSentence } from './audit-sentence.ts';
import { valueText } from './audit-values.ts';
import type { AuditChange, AuditEntry } from './get-audit-log.ts';

const write = (resource: string, operation: string, diff: AuditChange[], status = 200): AuditEntry => ({
  id: 1,
  at: '2026-11-28T00:00:00.000Z',
  kind: 'write',
  channel: 'localhost',
  actor: 'admin',
  keyId: null,
  keyDescription: null,
  address: '127.0.0.1',
  resource,
  recordId: null,
  operation,
  verb: 'POST',
  path: null,
  status,
  reason: null,
  diff,
  count: 1,
  lastAt: '2026-11-28T00:00:00.000Z',
});

describe('auditSentence', () => {
  it('an import with its counts', () => {
    const entry = write('firewall', 'importBans', [
      { field: 'format', after: 'csv' },
      { field: 'content', after: '(40 characters)' },
      { field: 'imported', after: { entries: 3, added: 2, extended: 1, unchanged: 0 } },
    ]);
    assert.equal(auditSentence(entry), 'Imported a ban list (csv): 2 added, 1 extended, 0 unchanged');
  });

  it('unban-and-whitelist with its comment and the bans it lifted', () => {
    const entry = write('firewall', 'unbanAndWhitelist', [
      { field: 'ip', after: '192.0.2.7' },
      { field: 'comment', after: 'Office NAT' },
      { field: 'liftedBans', after: ['192.0.2.7 (sip)'] },
    ]);
    assert.equal(
      auditSentence(entry),
      "Unbanned and whitelisted 192.0.2.7 ('Office NAT', for good); 1 ban lifted: 192.0.2.7 (sip)",
    );
  });

  it('whitelist entries added and removed, never as JSON', () => {
    const kept = { value: '10.0.0.1', comment: '', until: null };
    const entry = write('fail2ban', 'patch', [
      {
        field: 'whitelistEntries',
        before: [kept],
        after: [kept, { value: '203.0.113.60', comment: 'Partner', until: null }],
      },
    ]);
    assert.equal(
      auditSentence(entry),
      "Changed ban rules: Whitelist entries: added 203.0.113.60 ('Partner', for good)",
    );
  });

  it('key details in the words of the form', () => {
    assert.equal(valueText('networkfilterid', 'localhost'), 'This computer only');
    assert.equal(valueText('bouncer_setup', 'nftables'), 'Firewall bouncer (nftables)');
    assert.doesNotMatch(valueText('rotated_at', '2026-11-28T10:00:00.000Z'), /T10:00/);
  });
});

describe('auditSentence: the CrowdSec link', () => {
  it('sharing the bans in force, with its counts', () => {
    const entry = write('crowdsec-link', 'shareActiveBans', [
      { field: 'sharedBans', after: { queued: 316, alreadyShared: 4 } },
    ]);
    assert.equal(
      auditSentence(entry),
      'Shared the bans in force with the CrowdSec LAPI: 316 queued (4 already shared)',
    );
  });
  it('a settings change with the form labels', () => {
    const entry = write('crowdsec-link', 'patch', [{ field: 'pushEnabled', before: false, after: true }]);
    assert.equal(auditSentence(entry), "Changed CrowdSec link: Push this PBX's bans no → yes");
  });
});
