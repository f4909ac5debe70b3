import type { Access, AuthRule, Endpoint, HttpMethod, Service } from "./endpoint";

/*
 * Per-service entry builders: an entry says only what is particular to it. Every call is marked
 * `/* @__PURE__ *\/` where it is made (esbuild honours no function-level annotation across
 * modules), so a bundle keeps only the entries, and validators, its handler uses.
 */

/** What an entry must say; the service's builder fills in the rest unless the entry says otherwise. */
type Particular = Omit<Endpoint, "service" | "auth" | "access"> & Partial<Pick<Endpoint, "auth" | "access">>;
type Built<E, S extends Service> = E & { service: S; auth: AuthRule; access: Access };

const readOrWrite = (method: HttpMethod, read: Access, write: Access): Access => (method === "GET" ? read : write);

/**
 * A provisioning route (RackHD 1.1): RackHD's error body, the operators' Basic auth under
 * PROVISIONING_AUTH (`northbound`), the read role for a GET and the write role otherwise.
 */
export function provisioningRoute<const E extends Particular>(entry: E): Built<E, "provisioning"> {
  return {
    service: "provisioning",
    auth: "northbound",
    access: readOrWrite(entry.method, "provisioningRead", "provisioningWrite"),
    ...entry,
  };
}

/** A task list route (the Flask tutorial's): Flask's error body, auth under TASKS_AUTH=all, the task roles. */
export function tasksRoute<const E extends Particular>(entry: E): Built<E, "tasks"> {
  return { service: "tasks", auth: "tasks", access: readOrWrite(entry.method, "taskRead", "taskWrite"), ...entry };
}

/** A page or file outside both API documents (the console, RackHD's /docs): open, no data. */
export function consoleRoute<const E extends Particular>(entry: E): Built<E, "console"> {
  return { service: "console", auth: "none", access: "noData", ...entry };
}
