// Shard 1 of 3 of the console's accessibility and layout checks (e2e/support/screen-layouts.ts).
import { describeScreenLayouts } from './support/screen-layouts.ts';

describeScreenLayouts(0, 3);
