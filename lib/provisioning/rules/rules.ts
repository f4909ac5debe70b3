import { ValidationError } from "../../errors";
import { isPlainObject } from "../../json";
import { IPV4 } from "../ipAddress";
import { linearRegex, PATTERN_MAX, PROGRAM_MAX } from "./linearRegex";

/**
 * The rule language of SKUs and tags (RackHD §4.1): `{path: "<source>.<key>…", <rule>: <arg>, …}`,
 * each rule key one of anchor 0.10's validators, as RackHD's Waterline model checked them. The
 * value at the path is taken as a string (undefined as "") for the string rules, as validator.js
 * did; the numeric rules pass when the value is not a number (so a missing path satisfies them).
 */
export interface Rule {
  path: string;
  [rule: string]: unknown;
}

const text = (value: unknown): string =>
  value === undefined || value === null ? "" : typeof value === "object" ? JSON.stringify(value) : String(value);
const number = (value: unknown): number => (typeof value === "number" ? value : Number.parseFloat(text(value)));
const numeric = (test: (value: number, arg: number) => boolean) => (value: unknown, arg: unknown) => {
  const n = number(value);
  return Number.isNaN(n) || test(n, Number(arg));
};
const member = (value: unknown, arg: unknown): boolean =>
  Array.isArray(arg) ? arg.map(text).includes(text(value)) : text(arg).includes(text(value));
/** A pattern checkRules let through compiles; one that RE2 does not take matches nothing. */
const matches = (value: unknown, arg: unknown): boolean => linearRegex(text(arg))?.(text(value)) ?? false;
const IPV6 = /^[0-9a-fA-F:]+(:\d+\.\d+\.\d+\.\d+)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A type check passes when its argument is false (anchor skipped it) or the value is of that type. */
const typed = (check: (value: unknown) => boolean) => (value: unknown, arg: unknown) => arg === false || check(value);

const RULES: Record<string, (value: unknown, arg: unknown) => boolean> = {
  equals: (value, arg) => text(value) === text(arg),
  contains: (value, arg) => text(value).includes(text(arg)),
  notContains: (value, arg) => !text(value).includes(text(arg)),
  in: member,
  notIn: (value, arg) => !member(value, arg),
  regex: matches,
  notRegex: (value, arg) => !matches(value, arg),
  greaterThan: numeric((n, arg) => n > arg),
  lessThan: numeric((n, arg) => n < arg),
  min: numeric((n, arg) => n >= arg),
  max: numeric((n, arg) => n <= arg),
  minLength: (value, arg) => text(value).length >= Number(arg),
  maxLength: (value, arg) => text(value).length <= Number(arg),
  empty: (value, arg) => arg === false || text(value) === "",
  notEmpty: (value, arg) => arg === false || text(value) !== "",
  required: (value, arg) => arg === false || (value !== undefined && value !== null && value !== ""),
  string: typed((value) => typeof value === "string"),
  number: typed((value) => typeof value === "number" || (typeof value === "string" && value.trim() !== "" && !Number.isNaN(Number(value)))),
  numeric: typed((value) => /^-?\d+(\.\d+)?$/.test(text(value))),
  integer: typed((value) => /^-?\d+$/.test(text(value))),
  boolean: typed((value) => typeof value === "boolean" || ["true", "false"].includes(text(value))),
  array: typed(Array.isArray),
  ip: typed((value) => IPV4.test(text(value)) || (text(value).includes(":") && IPV6.test(text(value)))),
  ipv4: typed((value) => IPV4.test(text(value))),
  ipv6: typed((value) => text(value).includes(":") && IPV6.test(text(value))),
  uuid: typed((value) => UUID.test(text(value))),
};

export const RULE_NAMES = Object.keys(RULES);

/** 400 unless `rules` is an array of rules with a path and only known rule keys (RackHD's model check). */
export function checkRules(rules: unknown, what: string): asserts rules is Rule[] {
  if (!Array.isArray(rules)) throw new ValidationError(`${what} rules must be an array of rules`);
  rules.forEach((rule, i) => {
    if (!isPlainObject(rule)) throw new ValidationError(`${what} rule ${i} must be an object`);
    if (typeof rule.path !== "string" || pathOf(rule.path).length < 1) {
      throw new ValidationError(`${what} rule ${i} needs a path: "<source>.<key>…"`);
    }
    for (const [key, arg] of Object.entries(rule)) {
      if (key === "path") continue;
      if (!Object.hasOwn(RULES, key))
        throw new ValidationError(`${what} rule ${i} has an unknown rule ${key}: one of ${RULE_NAMES.join(", ")}`);
      if ((key === "regex" || key === "notRegex") && !validPattern(arg)) {
        throw new ValidationError(
          `${what} rule ${i}: ${key} must be a regular expression of at most ${PATTERN_MAX} characters, without back-references or look-around (RE2 syntax), and not past ${PROGRAM_MAX} compiled instructions (fewer or smaller counted repeats)`,
        );
      }
    }
  });
}

const validPattern = (arg: unknown): boolean => typeof arg === "string" && linearRegex(arg) !== undefined;

/** The path's segments (empty ones dropped): the catalog source, then keys or array indices into its data. */
export const pathOf = (path: string): string[] => path.split(".").filter((segment) => segment !== "");

/** The catalog sources a rule set reads. */
export const sourcesOf = (rules: readonly Rule[]): string[] => [...new Set(rules.map((rule) => pathOf(rule.path)[0]))];

/** Whether every rule passes against the node's latest catalogs (`{source: data}`). No rules: true. */
export function rulesPass(rules: readonly Rule[], catalogs: Readonly<Record<string, unknown>>): boolean {
  return rules.every((rule) => {
    const [source, ...keys] = pathOf(rule.path);
    const value = keys.reduce<unknown>(
      (at, key) => (at !== null && typeof at === "object" && Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined),
      Object.hasOwn(catalogs, source) ? catalogs[source] : undefined,
    );
    return Object.entries(rule).every(([key, arg]) => key === "path" || RULES[key](value, arg));
  });
}

/** The largest number of path segments among the rules (SKU tie-break: the deepest rule wins). */
export const depthOf = (rules: readonly Rule[]): number => Math.max(0, ...rules.map((rule) => pathOf(rule.path).length));
