import { type DataAccess, NO_DATA } from "../../dataAccess";
import type { AuthRule, Endpoint, HttpMethod, Service } from "./endpoint";

/*
 * Per-service entry builders: an entry says only what is particular to it. Every call is marked
 * `/* @__PURE__ *\/` where it is made (esbuild honours no function-level annotation across
 * modules), so a bundle keeps only the entries, and validators, its handler uses.
 */

/** What an entry must say; the service's builder fills in the rest unless the entry says otherwise. */
type Particular = Omit<Endpoint, "service" | "auth" | "data"> & Partial<Pick<Endpoint, "auth" | "data">>;
type Built<E, S extends Service> = E & { service: S; auth: AuthRule; data: DataAccess };

/**
 * A provisioning route (RackHD 1.1): RackHD's error body, the operators' Basic auth under
 * PROVISIONING_AUTH (`northbound`). Its data access is its own to say (least privilege).
 */
export function provisioningRoute<const E extends Particular & Pick<Endpoint, "data">>(entry: E): Built<E, "provisioning"> {
  return { service: "provisioning", auth: "northbound", ...entry };
}

const taskAccess = (method: HttpMethod): DataAccess => (method === "GET" ? { read: ["tasks"] } : { write: ["tasks"] });

/** A task list route (the Flask tutorial's): Flask's error body, auth under TASKS_AUTH=all; a GET reads the task list, the rest write it. */
export function tasksRoute<const E extends Particular>(entry: E): Built<E, "tasks"> {
  return { service: "tasks", auth: "tasks", data: taskAccess(entry.method), ...entry };
}

/** A page or file outside both API documents (the console, RackHD's /docs): open, no data unless it says. */
export function consoleRoute<const E extends Particular>(entry: E): Built<E, "console"> {
  return { service: "console", auth: "none", data: NO_DATA, ...entry };
}
