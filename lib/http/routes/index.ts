import { NO_DATA } from "../../dataAccess";
import * as consoleRoutes from "../console/routes";
import * as provisioning from "../provisioning/routes";
import * as tasks from "../tasks/routes";
import type { CatchAll, Endpoint } from "./endpoint";

const METHOD_ORDER = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** Reading order: by service, then path, then method (the order of an Allow header). */
const byPathThenMethod = (a: Endpoint, b: Endpoint): number =>
  a.path.localeCompare(b.path) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method);

/** The route registry: every endpoint of both services. */
export const ROUTES: readonly Endpoint[] = [
  ...Object.values(tasks).sort(byPathThenMethod),
  ...Object.values(provisioning).sort(byPathThenMethod),
  ...Object.values(consoleRoutes),
];

type EntryOf<Module> = Module[keyof Module];
type Entries = EntryOf<typeof tasks> | EntryOf<typeof provisioning> | EntryOf<typeof consoleRoutes>;

/** The Lambda function name of every registry entry and of the catch-all, as a type (the bench is keyed by it). */
export type RouteFunction = Entries["function"] | typeof CATCH_ALL.function;

/** API Gateway's `$default` route: it touches no data. */
export const CATCH_ALL = {
  function: "fallback",
  handler: "handlers/http/fallback",
  data: NO_DATA,
  summary: "CORS preflight, 405 with Allow, and JSON 404",
} as const satisfies CatchAll;
