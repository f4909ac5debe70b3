/**
 * What the relay's log must not carry (issue 50): a machine's boot token (`token=` in its URLs), its
 * instance credential (the path segment after `/nocloud/` and `/reports/`), and any Bearer or Basic
 * credential an error message quotes. Each is replaced by `…`; the rest of the line stays, so an
 * operator still sees which machine asked for what. Linear patterns only: a line is any text a
 * machine sent.
 */
const SECRETS: readonly [RegExp, string][] = [
  [/([?&]token=)[^&\s"':;,]+/g, "$1…"],
  [/(\/(?:nocloud|reports)\/)[^/\s?"']+/g, "$1…"],
  [/\b(Bearer|Basic) [A-Za-z0-9._~+/=-]+/g, "$1 …"],
];

export function redact(line: string): string {
  return SECRETS.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), line);
}
