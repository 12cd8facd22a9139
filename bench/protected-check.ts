// Benchmark: registered phones are never cut off (issue 3/6). With 5,000 registered contacts, what
// the protected-address check costs each security event. Prints JSON with each target.
//   node --import tsx bench/protected-check.ts
//
// - isProtectedUs: RegisteredAddresses.isProtected over 1,000,000 lookups, half of registered
//   addresses, half of others. Target < 10 µs per check.
// - detectorEventUs: IntrusionDetector.recordFailure for 200,000 failures from registered addresses
//   (the account counted and flagged instead of a ban): the whole per-event path. Target < 10 µs.
// - rangeQueryUs: protectedPhones over a /20 (what a manual ban or import of a range asks). Target < 1,000 µs.
import { ManualClock } from '../src-server/clock.ts';
import { BanStore } from '../src-server/firewall/bans/index.ts';
import { FirewallState, RegisteredAddresses } from '../src-server/firewall/filters/index.ts';
import { AccountFlags, IntrusionDetector } from '../src-server/firewall/intrusion/index.ts';
import { openTempDb } from '../src-server/test-support/temp-db.ts';

const CONTACTS = 5000;
/** Two phones per office address: 2,500 addresses in 10.0.0.0/16. */
const addressOf = (i: number) => `10.0.${(i >> 8) & 255}.${i & 255}`;

function bestOfThree(run: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

const temp = openTempDb('pbx-bench-protected-');
try {
  const clock = new ManualClock();
  const state = new FirewallState(temp.db, clock);
  const registered = new RegisteredAddresses(() => state.settings, clock);
  registered.replaceAll(
    Array.from({ length: CONTACTS }, (_, i) => ({ address: addressOf(i >> 1), endpoint: String(1000 + i) })),
  );

  const LOOKUPS = 1_000_000;
  const probes = Array.from({ length: 4096 }, (_, i) => (i % 2 ? addressOf(i % 2500) : `10.1.${i >> 8}.${i & 255}`));
  let hits = 0;
  const lookupMs = bestOfThree(() => {
    for (let i = 0; i < LOOKUPS; i++) if (registered.isProtected(probes[i & 4095]!)) hits++;
  });

  const flags = new AccountFlags(state, registered, clock, () => undefined);
  const detector = new IntrusionDetector(state, new BanStore(temp.db, clock), clock, Math.random, {
    registered,
    flags,
  });
  const EVENTS = 200_000;
  const eventMs = bestOfThree(() => {
    for (let i = 0; i < EVENTS; i++) {
      clock.advance(1);
      detector.recordFailure('sip', addressOf(i % 2500), 'InvalidPassword (PJSIP)', false, String(i % 50));
    }
  });

  const RANGES = 1000;
  let covered = 0;
  const rangeMs = bestOfThree(() => {
    for (let i = 0; i < RANGES; i++) covered += registered.protectedPhones(`10.0.${(i % 16) * 16}.0/20`).size;
  });

  const result = {
    contacts: CONTACTS,
    isProtectedUs: Number(((lookupMs * 1000) / LOOKUPS).toFixed(3)),
    detectorEventUs: Number(((eventMs * 1000) / EVENTS).toFixed(3)),
    rangeQueryUs: Number(((rangeMs * 1000) / RANGES).toFixed(1)),
    targets: { isProtectedUs: 10, detectorEventUs: 10, rangeQueryUs: 1000 },
    checks: { hits: hits > 0, flags: flags.flags.length, covered: covered > 0 },
  };
  console.log(JSON.stringify(result, null, 2));
  const met = result.isProtectedUs < 10 && result.detectorEventUs < 10 && result.rangeQueryUs < 1000;
  process.exitCode = met ? 0 : 1;
} finally {
  temp.dispose();
}
