import { useMediaQuery } from '@mantine/hooks';

/** Phones: under 600 px, tables become cards and toolbars stack. */
export const NARROW_SCREEN_QUERY = '(max-width: 599.98px)';

/** Whether the console is on a phone-sized screen; read at once, so the first paint already has the right layout. */
export const useNarrowScreen = () => useMediaQuery(NARROW_SCREEN_QUERY, false, { getInitialValueInEffect: false });
