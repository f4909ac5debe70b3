import type { RE2JS } from "re2js";

/**
 * Regular expressions that operators write and machines' output is matched against (SKU and tag
 * rules, hook filters): run on RE2's linear-time engine (re2js, a pure-JavaScript port of RE2;
 * issue 35 §6), so no pattern can make a match take longer than its input is long. JavaScript's
 * own engine backtracks: `^(a+)+$` against 26 characters took 3.2 s here, RE2 13 ms. RE2 refuses
 * what needs backtracking (back-references, look-around); RackHD's own rules use none.
 *
 * The engine is loaded on the first pattern compiled, not when a bundle starts: re2js sets up its
 * Unicode tables as it loads (12-19 ms here), and most functions that carry it (the boot profile,
 * through discovery's SKU step) never match a rule on most requests (BENCHMARKS.md, "Linear-time rules").
 */
let engine: typeof RE2JS | undefined;
const re2 = (): typeof RE2JS => {
  engine ??= (require("re2js") as typeof import("re2js")).RE2JS;
  return engine;
};

/** Longest pattern accepted, and how much of a subject is matched (bounds of work per match). */
export const PATTERN_MAX = 256;
export const SUBJECT_MAX = 4096;
/**
 * Most instructions a compiled pattern may have. RE2's work is its program's size times the
 * subject's length: 256 characters can compile to 2,000 instructions (`(?i)(.{0,250}a){1,4}z`),
 * and one 4 KB catalog value then cost 390 ms a match here (issue 50: a second for a few rules).
 * At 400, the worst accepted pattern costs about a fifth of that; RackHD's own rules compile to
 * under 40.
 */
export const PROGRAM_MAX = 400;

/** A compiled pattern: whether it is found anywhere in the subject (as RegExp's test). */
export type LinearMatcher = (subject: string) => boolean;

const compiled = new Map<string, LinearMatcher>();
const CACHED = 256;

/** The pattern compiled, or undefined when RE2 does not take it (or it is too long). */
export function linearRegex(pattern: string): LinearMatcher | undefined {
  const known = compiled.get(pattern);
  if (known) return known;
  if (pattern.length > PATTERN_MAX) return undefined;
  let regex: RE2JS;
  try {
    regex = re2().compile(pattern);
  } catch {
    return undefined;
  }
  if (regex.programSize() > PROGRAM_MAX) return undefined;
  const matcher: LinearMatcher = (subject) => regex.matcher(subject.slice(0, SUBJECT_MAX)).find();
  if (compiled.size >= CACHED) compiled.delete(compiled.keys().next().value as string);
  compiled.set(pattern, matcher);
  return matcher;
}
