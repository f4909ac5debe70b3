import { isPlainObject } from "../json";
import { oneLine } from "./scriptValues";

/**
 * The template language of the template and profile library: RackHD's EJS variables
 * (`<%= repo %>`, `<%=nodeId%>`, `<%= api.templates %>`), values only. No code runs: a tag names
 * a dotted path into the render context, and anything else in a tag is left as written. Each
 * value is made one line (it cannot add lines to a kickstart or a script); a missing one is "".
 */
const TAG = /<%=\s*([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*%>/g;

export function renderText(contents: string, context: Readonly<Record<string, unknown>>): string {
  return contents.replace(TAG, (_tag, path: string) => {
    const value = path
      .split(".")
      .reduce<unknown>((at, key) => (isPlainObject(at) && Object.hasOwn(at, key) ? at[key] : undefined), context);
    return value === undefined || value === null ? "" : typeof value === "object" ? JSON.stringify(value) : oneLine(value);
  });
}

/** An object whose every property reads as its own tag: `placeholders().repo` is `<%=repo%>`. */
export function placeholders(): Record<string, string> {
  return new Proxy({}, { get: (_target, key) => (typeof key === "string" ? `<%=${key}%>` : undefined) });
}
