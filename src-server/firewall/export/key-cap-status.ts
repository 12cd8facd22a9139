import { capStatusText, zeroCounts, type ClassCounts } from '../feeds/index.ts';

function parseCounts(text: string | null): ClassCounts {
  const counts = zeroCounts();
  try {
    const parsed = JSON.parse(text ?? '{}') as Record<string, unknown>;
    for (const cls of Object.keys(counts) as Array<keyof ClassCounts>) {
      const n = parsed[cls];
      if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) counts[cls] = n;
    }
  } catch {
    // Unreadable: nothing known left out.
  }
  return counts;
}

/**
 * A key's cap as its status shows it: the cap it has now, and what it left out at its last answer
 * (`capped at 15,000: 12,340 left out, all upstream`); null for a key without a cap. A key capped
 * since its last answer shows its cap with nothing known left out yet.
 */
export function capOf(
  entryCap: number | null,
  stateCap: number | null,
  leftOutText: string | null,
): { cap: number; leftOut: ClassCounts; text: string } | null {
  if (entryCap === null) return null;
  const leftOut = stateCap === entryCap ? parseCounts(leftOutText) : zeroCounts();
  const text =
    stateCap === entryCap
      ? capStatusText(entryCap, leftOut)
      : `capped at ${entryCap.toLocaleString('en-US')}: not served with this cap yet`;
  return { cap: entryCap, leftOut, text };
}
