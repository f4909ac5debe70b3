import { ValidationError } from "../../errors";

/** A value that `{{ }}` cannot fill in: rendering fails with RackHD's message. */
export class TemplateRenderError extends ValidationError {}

const TAG = /\{\{\s*([^{}]*?)\s*\}\}/g;
const PATH = /^[A-Za-z_$][\w$-]*(\.[A-Za-z_$][\w$-]*)*$/;
const MAX_PASSES = 8;

function lookup(context: Record<string, unknown>, path: string): unknown {
  let value: unknown = context;
  for (const part of path.split(".")) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

const missing = (value: unknown): boolean => value === undefined || value === null || value === "";

function fill(expression: string, context: Record<string, unknown>): string {
  const alternatives = expression.split("|").map((part) => part.trim());
  for (const [index, alternative] of alternatives.entries()) {
    const last = index === alternatives.length - 1;
    const value = PATH.test(alternative) ? lookup(context, alternative) : undefined;
    if (!missing(value)) return typeof value === "object" ? JSON.stringify(value) : String(value);
    // `{{ a | b | literal }}`: the last alternative of several is taken literally when it names no value.
    if (last && alternatives.length > 1) return alternative;
  }
  throw new TemplateRenderError(`Value does not exist for ${alternatives[0]}`);
}

/**
 * Renders RackHD's option templates in a string: `{{ path }}` and `{{ a | b | literal }}`. A value
 * may itself hold templates, so rendering repeats until none is left (bounded).
 */
export function renderString(text: string, context: Record<string, unknown>): string {
  let current = text;
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    if (!current.includes("{{")) return current;
    const next = current.replace(TAG, (_tag, expression: string) => fill(expression, context));
    if (next === current) return current;
    current = next;
  }
  if (TAG.test(current)) throw new TemplateRenderError("Template values refer to each other without end");
  return current;
}

/** Renders every string inside a JSON value. */
export function renderDeep<T>(value: T, context: Record<string, unknown>): T {
  if (typeof value === "string") return renderString(value, context) as T;
  if (Array.isArray(value)) return value.map((item) => renderDeep(item, context)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = renderDeep(inner, context);
    return out as T;
  }
  return value;
}
