import { ROUTE_TABLE } from "./routes/routeTable.generated";

const compiled = new Map<string, RegExp>();

/** A route path template as a regular expression: `{name}` is one segment, `{name+}` the rest. */
export function pathPattern(template: string): RegExp {
  let regex = compiled.get(template);
  if (!regex) {
    const source = template
      .split("/")
      .map((part) => (/^\{.+\+\}$/.test(part) ? ".+" : /^\{.+\}$/.test(part) ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/");
    regex = new RegExp(`^${source}$`);
    compiled.set(template, regex);
  }
  return regex;
}

/** The methods served at this path (empty when the path is unknown); the catch-all's 404/405. */
export function methodsAt(path: string, routes: readonly (readonly [string, string])[] = ROUTE_TABLE): string[] {
  const methods = new Set<string>();
  for (const [method, template] of routes) if (pathPattern(template).test(path)) methods.add(method);
  // The table is in registry order (path, then method), so a path's methods come in Allow order.
  return [...methods];
}
