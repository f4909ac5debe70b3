/**
 * How a value is written into what a booting machine runs (issue 35 §5): one helper per target
 * language, and no other way. Options are checked when their workflow starts (installOptions.ts:
 * a URL is a URL, a host name a host name); these helpers make the rendering safe even so, since
 * a valid URL may still hold `$(…)`, quotes or `;`.
 *
 * - `shellWord`: POSIX sh (the install scripts, `%pre`/`%post`, preseed commands): one word, single-quoted.
 * - `grubWord`: GRUB's script language (its quoting is sh's): one word, single-quoted.
 * - `lineToken`: one token of a line-based language that has no quoting (iPXE, a kernel command
 *   line, kickstart's and preseed's values): every character that is not plainly part of a URL,
 *   a path or a name (blanks, `$`, quotes, braces, `|`, `\`, `<`, `>`, `^`, backquotes, controls,
 *   anything outside ASCII) is percent-encoded, so the value stays one token that expands to nothing.
 */

/** The service's own value (a URL it built, a name it gave) as one line of a script or a template: line breaks become a space. */
export const oneLine = (value: unknown): string => String(value ?? "").replace(/[\r\n]+/g, " ");

/** A word of POSIX sh that is exactly `text`: single-quoted, with each `'` closed, escaped and reopened. */
export const shellWord = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** A word of GRUB's script that is exactly `text`: GRUB quotes as sh does, so as `shellWord`. */
export const grubWord = shellWord;

/** The characters a token keeps as they are: RFC 3986's unreserved and its URL delimiters that no target language expands. */
const KEPT = /[A-Za-z0-9\-._~:/?#[\]@!&=+,;%]/;

/** A library placeholder (`<%=repo%>`, library/textTemplate.ts): kept whole, since the library shows a built-in template with them. */
const PLACEHOLDER = /(<%=[A-Za-z_$][\w$.]*%>)/;

/** `value` as one inert token: the characters outside KEPT percent-encoded (UTF-8), placeholders kept. */
export function lineToken(value: unknown): string {
  let out = "";
  for (const [index, part] of String(value ?? "")
    .split(PLACEHOLDER)
    .entries()) {
    if (index % 2 === 1) out += part;
    else for (const char of part) out += KEPT.test(char) ? char : percentEncoded(char);
  }
  return out;
}

/** One character's UTF-8 bytes, percent-encoded; a lone surrogate (no UTF-8) as U+FFFD's. */
function percentEncoded(char: string): string {
  try {
    return encodeURIComponent(char).replace(/[!'()*]/g, percentOf);
  } catch {
    return "%EF%BF%BD";
  }
}

const percentOf = (char: string): string => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;

/** Whether `value` is an absolute http(s) URL (what a machine can fetch). */
export const isHttpUrl = (value: unknown): value is string =>
  typeof value === "string" && URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol);
