/**
 * Per-key entry caps (issue 4/6): small devices break on big lists, so a bouncer or router-feed key
 * may be capped. Each preset names a device class, its number and where the number comes from.
 */
export const CAP_PRESETS = [
  { id: 'none', label: 'No cap', cap: null, source: 'Every published entry (the default).' },
  {
    id: 'mikrotik-hex',
    label: 'MikroTik hEX class',
    cap: 35_000,
    source: 'A MikroTik hEX S struggles above 35,000 address-list entries (field report).',
  },
  {
    id: 'ipset-default',
    label: 'ipset default set',
    cap: 65_536,
    source: "ipset's default maxelem: a set created without maxelem holds 65,536 entries.",
  },
  {
    id: 'nftables-default',
    label: 'nftables set without a size',
    cap: 65_535,
    source: 'An nftables set declared without a size holds 65,535 elements.',
  },
  {
    id: 'unifi-small',
    label: 'UniFi, smaller gateways',
    cap: 8_000,
    source: "UniFi's safe cap for its smaller gateways (8,000); 123,000 decisions crashed the Network app.",
  },
  {
    id: 'unifi-large',
    label: 'UniFi, larger gateways',
    cap: 50_000,
    source: "UniFi's safe cap for its larger models (50,000); 123,000 decisions crashed the Network app.",
  },
  {
    id: 'opnsense',
    label: 'OPNsense alias',
    cap: 500_000,
    source: 'OPNsense refused a 527,000-entry alias; 500,000 stays under it.',
  },
  { id: 'custom', label: 'Custom number', cap: null, source: 'A number you choose.' },
] as const;

export type CapPreset = (typeof CAP_PRESETS)[number]['id'];
export const CAP_PRESET_IDS = CAP_PRESETS.map((preset) => preset.id) as [CapPreset, ...CapPreset[]];

/** A cap's bounds: at least one entry, at most two million (more than any device holds). */
export const ENTRY_CAP_MIN = 1;
export const ENTRY_CAP_MAX = 2_000_000;

/** The number a device preset stands for (undefined for `none` and `custom`). */
export function presetCap(preset: CapPreset): number | undefined {
  return CAP_PRESETS.find((p) => p.id === preset)?.cap ?? undefined;
}

/** What a capped key keeps first: this PBX's intrusion bans, manual bans, filter entries, then upstream decisions. */
export const ENTRY_CLASSES = ['intrusion', 'manual', 'filter', 'upstream'] as const;
export type EntryClass = (typeof ENTRY_CLASSES)[number];
