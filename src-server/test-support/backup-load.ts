import { type Agent, request as httpRequest } from 'node:http';

// The configuration-import load, shared by its test (resources/backup/import-under-load.test.ts)
// and its bench (bench/config-import.ts).

/** `count` filters as an export writes them: a /32 each, every tenth trusted, every other one with a deny entry. */
export function bigBackup(exported: Record<string, unknown>, count: number): Record<string, unknown> {
  const networkFilters = Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    permit: `10.${(i >> 8) & 255}.${i & 255}.1/32`,
    deny: i % 2 ? `172.${16 + (i % 16)}.${(i >> 8) & 255}.${i & 255}` : '0.0.0.0/0',
    description: `site ${i}`,
    newer_block_ip: i % 10 === 0,
    local_network: false,
    currentRules: { SIP: true, WEB: i % 3 !== 0, AMI: false, IAX: true },
  }));
  return { ...exported, networkFilters, apiKeys: [] };
}

/**
 * One poll as a bouncer makes it (gzip accepted, one kept-alive connection per bouncer, as Go's
 * HTTP client does), the body read to its end but not decoded: the
 * bouncers share this process with the server, so parsing 20 answers of 5,000 decisions twice a
 * second here would load the very event loop under test. Resolves with the status.
 */
export function pollRaw(url: string, key: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { 'X-Api-Key': key, 'Accept-Encoding': 'gzip' }, agent }, (res) => {
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
      res.resume();
    });
    req.on('error', reject);
    req.end();
  });
}
