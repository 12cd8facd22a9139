// The console's theme. Mantine's default palette puts white text on shade 6 and shade-9 text on
// shade-1 tints, which is below WCAG AA (4.5:1) for most colours (red 3.3, teal 2.6, yellow 1.9), and
// its dimmed grey is 3.3:1. The resolver below keeps the palette but picks, per colour, the first
// shade (or a darkened one) that reads at 4.5:1, so every badge, button, alert and hint passes axe.
import {
  Combobox,
  createTheme,
  darken,
  luminance,
  Modal,
  Notification,
  type CSSVariablesResolver,
  type MantineTheme,
} from '@mantine/core';

/** WCAG contrast ratio of two hex colours. */
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const AA = 4.6; // 4.5:1 with a margin for rounding in the browser

/** The first colour of `candidates` that reads on `background`; else the last one darkened until it does. */
function readable(candidates: string[], background: string): string {
  const found = candidates.find((c) => contrast(c, background) >= AA);
  if (found) return found;
  const last = candidates.at(-1)!;
  for (let amount = 0.05; amount < 1; amount += 0.05) {
    const darker = darken(last, amount);
    if (contrast(darker, background) >= AA) return darker;
  }
  return '#000000';
}

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  fontFamilyMonospace: 'ui-monospace, "SFMono-Regular", "Cascadia Mono", "DejaVu Sans Mono", Menlo, monospace',
  components: {
    // A select's list stays inside the element that holds the select (inside the dialog, not portalled to the
    // body). Portalled out of a dialog, the list first paints unpositioned below the phone's screen: on a touch
    // phone the dialog then scrolls to its top, the select leaves the screen and the list closes at once, so
    // only the keyboard could choose. Inside the dialog it is placed and scrolled with its select.
    Combobox: Combobox.extend({ defaultProps: { withinPortal: false } }),
    // The close button is an icon: give it a name screen readers can say.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    // Toasts too; and their text under a title is Mantine's gray-6 (3.3:1), so it takes the readable dimmed grey.
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close' } },
      styles: { description: { color: 'var(--mantine-color-dimmed)' } },
    }),
  },
});

/** Colour variables that meet WCAG AA on the backgrounds Mantine draws them on. */
export const accessibleColors: CSSVariablesResolver = (resolved: MantineTheme) => {
  const light: Record<string, string> = {};
  const dark: Record<string, string> = {};
  // The darkest light background text sits on: a hovered table row (gray 1).
  const hovered = resolved.colors.gray[1]!;
  for (const [name, shades] of Object.entries(resolved.colors)) {
    if (!Array.isArray(shades) || name === 'dark') continue;
    // Filled: white text on it (buttons, filled badges); in light mode also text and outlines on white, and on a
    // hovered row (an orange hint read 4.23:1 there when judged on white only).
    const filled = readable([shades[6]!, shades[7]!, shades[8]!, shades[9]!], hovered);
    for (const scheme of [light, dark]) {
      scheme[`--mantine-color-${name}-filled`] = filled;
      scheme[`--mantine-color-${name}-filled-hover`] = darken(filled, 0.12);
    }
    light[`--mantine-color-${name}-outline`] = filled;
    // Text of that colour on white (`c="red"`): Mantine's is the filled shade 6.
    light[`--mantine-color-${name}-text`] = filled;
    // Light variant: text of that colour on its own tint (badges, alerts, active nav link), hovered too: the
    // hover tint is shade 2 (a hovered active nav link read 4.12:1 against shade 9 text).
    light[`--mantine-color-${name}-light-color`] = readable([shades[9]!], shades[2]!);
  }
  // Field errors: Mantine's red 6 (#fa5252) reads 3.28:1 on white.
  light['--mantine-color-error'] = light['--mantine-color-red-filled']!;
  const gray = resolved.colors.gray;
  // Muted text on a hovered table row (gray 1) too, not only on the page's gray 0 (4.38:1 there before).
  light['--mantine-color-dimmed'] = readable(
    [gray[6]!, darken(gray[6]!, 0.1), darken(gray[6]!, 0.2), gray[7]!],
    hovered,
  );
  light['--mantine-color-anchor'] = `var(--mantine-color-${resolved.primaryColor}-filled)`;
  return { variables: {}, light, dark };
};
