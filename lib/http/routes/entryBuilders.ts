import { type DataAccess, NO_DATA } from "../../dataAccess";
import type { AuthRule, Endpoint, HttpMethod, Permission, Service, SiteScope } from "./endpoint";

/*
 * Per-service entry builders: an entry says only what is particular to it. Every call is marked
 * `/* @__PURE__ *\/` where it is made (esbuild honours no function-level annotation across
 * modules), so a bundle keeps only the entries, and validators, its handler uses.
 */

/** What an entry must say; the service's builder fills in the rest unless the entry says otherwise. */
type Particular = Omit<Endpoint, "service" | "auth" | "data" | "permission" | "scope"> &
  Partial<Pick<Endpoint, "auth" | "data" | "permission" | "scope">>;
type Built<E, S extends Service> = E & { service: S; auth: AuthRule; data: DataAccess; permission: Permission; scope: SiteScope };

/**
 * A provisioning action's defaults (an entry says otherwise where it differs): a read views; a
 * change to one machine (`{identifier}`) operates; any other change administers. A machine's routes
 * are on its site, a site's (`/sites/{id}`) on that site, the rest on every site.
 */
const permissionOf = ({ method, path }: Pick<Endpoint, "method" | "path">): Permission =>
  method === "GET" ? "view" : path.includes("{identifier}") ? "operate" : "administer";
const scopeOf = ({ path }: Pick<Endpoint, "path">): SiteScope =>
  path.includes("{identifier}") ? "node" : path.startsWith("/api/{version}/sites/{id}") ? "site" : "all";

/**
 * A provisioning route (RackHD 1.1): RackHD's error body, the operators' Basic auth under
 * PROVISIONING_AUTH (`northbound`). Its data access is its own to say (least privilege).
 */
export function provisioningRoute<const E extends Particular & Pick<Endpoint, "data">>(entry: E): Built<E, "provisioning"> {
  return { service: "provisioning", auth: "northbound", permission: permissionOf(entry), scope: scopeOf(entry), ...entry };
}

const taskAccess = (method: HttpMethod): DataAccess => (method === "GET" ? { read: ["tasks"] } : { write: ["tasks"] });

/** A task list route (the Flask tutorial's): Flask's error body, auth under TASKS_AUTH=all; a GET reads the task list, the rest write it. */
export function tasksRoute<const E extends Particular>(entry: E): Built<E, "tasks"> {
  // The task list is no site's: any grant of the role will do.
  return {
    service: "tasks",
    auth: "tasks",
    data: taskAccess(entry.method),
    permission: entry.method === "GET" ? "view" : "operate",
    scope: "any",
    ...entry,
  };
}

/** A page or file outside both API documents (the console, RackHD's /docs): open, no data unless it says. */
export function consoleRoute<const E extends Particular>(entry: E): Built<E, "console"> {
  return { service: "console", auth: "none", data: NO_DATA, permission: "view", scope: "any", ...entry };
}
