/**
 * Every route the API serves, as declared in serverless.yml (a test keeps the two in step). The
 * catch-all handler uses it to tell "no such path" (404) from "no such method here" (405).
 */
export interface RouteSpec {
  method: string;
  path: string;
}

export const TASK_ROUTES: readonly RouteSpec[] = [
  { method: "GET", path: "/todo/api/v1.0/tasks" },
  { method: "POST", path: "/todo/api/v1.0/tasks" },
  { method: "GET", path: "/todo/api/v1.0/tasks/{id}" },
  { method: "PUT", path: "/todo/api/v1.0/tasks/{id}" },
  { method: "DELETE", path: "/todo/api/v1.0/tasks/{id}" },
];

export const PROVISIONING_ROUTES: readonly RouteSpec[] = [
  { method: "GET", path: "/api/{version}/nodes" },
  { method: "POST", path: "/api/{version}/nodes" },
  { method: "GET", path: "/api/{version}/nodes/{identifier}" },
  { method: "PATCH", path: "/api/{version}/nodes/{identifier}" },
  { method: "DELETE", path: "/api/{version}/nodes/{identifier}" },
  { method: "GET", path: "/api/{version}/nodes/{identifier}/obm" },
  { method: "POST", path: "/api/{version}/nodes/{identifier}/obm" },
  { method: "GET", path: "/api/{version}/obms/library" },
  { method: "GET", path: "/api/{version}/obms/library/{service}" },
  { method: "GET", path: "/api/{version}/workflows/library" },
  { method: "GET", path: "/api/{version}/workflows/library/{name}" },
  { method: "GET", path: "/api/{version}/workflows" },
  { method: "GET", path: "/api/{version}/workflows/{id}" },
  { method: "GET", path: "/api/{version}/nodes/{identifier}/workflows" },
  { method: "POST", path: "/api/{version}/nodes/{identifier}/workflows" },
  { method: "GET", path: "/api/{version}/nodes/{identifier}/workflows/active" },
  { method: "DELETE", path: "/api/{version}/nodes/{identifier}/workflows/active" },
  { method: "GET", path: "/api/{version}/profiles" },
  { method: "GET", path: "/api/{version}/templates/{name}" },
  { method: "POST", path: "/api/{version}/notification" },
];

export const ALL_ROUTES: readonly RouteSpec[] = [...TASK_ROUTES, ...PROVISIONING_ROUTES];

const compiled = new Map<string, RegExp>();

function pattern(template: string): RegExp {
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

/** The methods served at this path (empty when the path is unknown). */
export function methodsAt(path: string, routes: readonly RouteSpec[] = ALL_ROUTES): string[] {
  const methods = new Set<string>();
  for (const route of routes) if (pattern(route.path).test(path)) methods.add(route.method);
  return [...methods];
}
