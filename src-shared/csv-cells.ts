/**
 * Spreadsheet formula injection (OWASP "CSV Injection"): a cell that starts with `=`, `+`, `-`,
 * `@`, a tab or a CR is evaluated by Excel, LibreOffice and Sheets. An export prefixes such a
 * cell with `'` (shown as text, the `'` hidden); an import removes that one `'`, so a reason
 * comes back exactly. A cell already starting with `'` before such a character gets one more, so
 * the pair stays a bijection (`'=x` exports as `''=x` and imports as `'=x`). Two regular
 * expressions: no CSV library fits the hand-written RFC 4180 reader and writer here.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;
const DEFUSED = /^'+[=+\-@\t\r]/;

/** A cell as an export writes it: never starting with a character a spreadsheet evaluates. */
export const defuseCell = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

/** A cell as an import reads it: the export's guard `'` removed. */
export const restoreCell = (text: string): string => (DEFUSED.test(text) ? text.slice(1) : text);
