import type { Access, CatchAll, Endpoint } from "./endpoint";
import { CATCH_ALL, ROUTES } from "./index";
import { SCHEDULED, type ScheduledFunction } from "./scheduled";

type HttpApiEvent = { httpApi: { method: string; path: string } | "*" } | { schedule: string };

export interface ServerlessFunction {
  handler: string;
  role: string;
  events: HttpApiEvent[];
}

/** The role of an access class under the deployed store (serverless.yml custom.roles resolves it). */
const role = (access: Access): string => `\${self:custom.roles.\${param:store}.${access}}`;

/**
 * The `functions:` block of serverless.yml, derived from the route registry: one function per
 * endpoint (its own bundle, its own role), plus the `$default` catch-all and the scheduled functions.
 */
export function serverlessFunctions(
  routes: readonly Endpoint[] = ROUTES,
  catchAll: CatchAll = CATCH_ALL,
  scheduled: readonly ScheduledFunction[] = SCHEDULED,
): Record<string, ServerlessFunction> {
  const functions: Record<string, ServerlessFunction> = {};
  for (const route of routes) {
    functions[route.function] = {
      handler: `${route.handler}.handler`,
      role: role(route.access),
      events: [{ httpApi: { method: route.method, path: route.path } }],
    };
  }
  functions[catchAll.function] = { handler: `${catchAll.handler}.handler`, role: role(catchAll.access), events: [{ httpApi: "*" }] };
  for (const entry of scheduled) {
    functions[entry.function] = { handler: `${entry.handler}.handler`, role: role(entry.access), events: [{ schedule: entry.rate }] };
  }
  return functions;
}
