/**
 * The door for a LAPI decision's text. Its scenario and origin are republished to this PBX's
 * bouncers, written into router feeds and shown in the console, so they are bounded and reduced
 * to a safe set when pulled, before anything holds them (the feeds' encoders still escape them).
 * Reduced, not dropped: the ban is real whatever its label says, and dropping it would unban.
 */

/** The longest scenario or origin kept; longer text is cut. */
export const MAX_UPSTREAM_TEXT = 128;

/**
 * Characters outside what real scenarios and origins use (`crowdsecurity/ssh-bf`, `manual 'ban'
 * from 'machine-id'`, `lists:firehol_level1`, `CAPI`, `cscli-import`): each becomes `_`. As a
 * source so the stream parser's thread builds the same expression.
 */
export const UPSTREAM_UNSAFE_SOURCE = "[^A-Za-z0-9 _.:/@+'()-]";
const UNSAFE = new RegExp(UPSTREAM_UNSAFE_SOURCE, 'gu');

/** A scenario or origin as this PBX keeps it: each unsafe character (a code point) as `_`, then cut to the bound. */
export const safeUpstreamText = (text: string): string => text.replace(UNSAFE, '_').slice(0, MAX_UPSTREAM_TEXT);
