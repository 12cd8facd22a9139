import { presetCap, type CapPreset } from '../../../src-shared/key-caps.ts';

type Resolved =
  | { ok: true; columns?: { entry_cap: number | null; cap_preset: CapPreset } }
  | { ok: false; error: string };

/**
 * entry_cap and cap_preset as one choice: a device preset stands for its number, `none` for no cap,
 * `custom` for the number given. A cap given alone makes the preset `custom` (or `none` when null).
 * A contradiction gets 422 naming the field rather than one side winning silently.
 */
export function resolveCap(
  values: Record<string, unknown>,
  sent: object,
  existing: { entry_cap?: number | null } | undefined,
): Resolved {
  // What the client gave (a create or a PUT also carries the defaults of what it left out).
  const hasCap = 'entry_cap' in sent && 'entry_cap' in values;
  const cap = hasCap ? (values.entry_cap as number | null) : undefined;
  if (!('cap_preset' in sent && 'cap_preset' in values)) {
    if (!hasCap)
      return 'cap_preset' in values ? { ok: true, columns: { entry_cap: null, cap_preset: 'none' } } : { ok: true };
    return { ok: true, columns: { entry_cap: cap!, cap_preset: cap === null ? 'none' : 'custom' } };
  }
  const preset = values.cap_preset as CapPreset;
  if (preset === 'none') {
    if (cap !== undefined && cap !== null)
      return { ok: false, error: 'entry_cap: must be null (or left out) with cap_preset "none", which means no cap.' };
    return { ok: true, columns: { entry_cap: null, cap_preset: 'none' } };
  }
  if (preset === 'custom') {
    const chosen = cap === undefined ? (existing?.entry_cap ?? null) : cap;
    if (chosen === null)
      return { ok: false, error: 'entry_cap: required with cap_preset "custom": the number of entries to keep.' };
    return { ok: true, columns: { entry_cap: chosen, cap_preset: 'custom' } };
  }
  const number = presetCap(preset)!;
  if (cap !== undefined && cap !== null && cap !== number)
    return {
      ok: false,
      error: `entry_cap: cap_preset "${preset}" stands for ${number}; use cap_preset "custom" for ${cap}.`,
    };
  return { ok: true, columns: { entry_cap: number, cap_preset: preset } };
}
