/**
 * What a function may do with the data (issue 25, least privilege): the stores it reads, the
 * stores it writes, and what it does with the files' bytes. Each registry entry declares its own
 * (lib/http/routes); the same declaration becomes the function's IAM policy when deployed
 * (lib/store/dynamodb/iamPolicy.ts) and is enforced on every store call when run locally
 * (lib/store/accessGuard.ts), so a missing grant fails the tests, not a deployment.
 */

/** The record stores, by the name of their port (the provisioning ports, the task list, the idempotency keys). */
export const STORE_NAMES = [
  "nodes",
  "workflows",
  "lookups",
  "definitions",
  "catalogs",
  "skus",
  "tags",
  "config",
  "templates",
  "profiles",
  "pollers",
  "pollerSamples",
  "files",
  "fileIds",
  "sites",
  "relayCredentials",
  "relayJobs",
  "relayConnections",
  "subnets",
  "addresses",
  "instances",
  "installReports",
  "hooks",
  "deliveries",
  "events",
  "tasks",
  "idempotency",
  "authAttempts",
  "apiTokens",
  "audit",
] as const;

export type StoreName = (typeof STORE_NAMES)[number];

/** The files' bytes (S3): read them, write them too, or delete them too. */
export type FileBytesAccess = "read" | "write" | "delete";

export interface DataAccess {
  /** Stores read only. */
  readonly read?: readonly StoreName[];
  /**
   * Stores written (and read): create, update, delete. One level for all three because a store's
   * update removes the index items it replaces (a node's old tags, say), so it deletes anyway.
   */
  readonly write?: readonly StoreName[];
  readonly fileBytes?: FileBytesAccess;
  /** The install logs' bytes (S3, under their own prefix): read them, or write them too. */
  readonly logBytes?: "read" | "write";
}

/**
 * The stores whose writes record events in the same write (lib/provisioning/events/journal.ts):
 * whoever writes one of them writes the events store too.
 */
export const JOURNALED_STORES: readonly StoreName[] = ["nodes", "workflows", "relayJobs", "relayCredentials", "hooks"];

/**
 * `access` with what its writes imply: the events store written when it writes a journaled store;
 * the relays' push connections when it writes relay jobs (making a job tells the site's connected
 * relays, and forgets a connection found gone: lib/provisioning/relays/push.ts `pushingJobs`).
 */
export function withWriteEffects(access: DataAccess): DataAccess {
  const journaled = access.write?.some((store) => JOURNALED_STORES.includes(store)) ? combine(access, { write: ["events"] }) : access;
  return pushes(access) ? combine(journaled, { write: ["relayConnections"] }) : journaled;
}

/** Whether a function with `access` makes relay jobs, and so pushes to the relays' connections (its role may post to them). */
export const pushes = (access: DataAccess): boolean => access.write?.includes("relayJobs") === true;

/** An HTTP route that declares it writes the relays' connections ends them (a revoked credential's): it may close them at API Gateway. */
export const closesConnections = (access: DataAccess): boolean => access.write?.includes("relayConnections") === true;

/** The byte stores a declaration grants levels on. */
export type ByteStore = "fileBytes" | "logBytes";

/** Touches no data (static libraries, the console's pages, the catch-all). */
export const NO_DATA: DataAccess = {};

export type Level = "read" | "write" | "delete";

const BYTE_LEVELS: readonly Level[] = ["read", "write", "delete"];

/** Whether `access` allows `level` on a store (`write` covers the rest) or on the files' bytes (each level covers the ones before it). */
export function allows(access: DataAccess, store: StoreName | ByteStore, level: Level): boolean {
  if (store === "fileBytes" || store === "logBytes") {
    const granted = access[store];
    return granted !== undefined && BYTE_LEVELS.indexOf(level) <= BYTE_LEVELS.indexOf(granted);
  }
  if (access.write?.includes(store)) return true;
  return level === "read" && access.read?.includes(store) === true;
}

/** Both declarations in one (the stores written are not listed as read as well). */
export function combine(a: DataAccess, b: DataAccess): DataAccess {
  const write = [...new Set([...(a.write ?? []), ...(b.write ?? [])])].sort();
  const read = [...new Set([...(a.read ?? []), ...(b.read ?? [])])].filter((store) => !write.includes(store)).sort();
  const fileBytes = highest(a.fileBytes, b.fileBytes);
  const logBytes = highest(a.logBytes, b.logBytes);
  return {
    ...(read.length > 0 && { read }),
    ...(write.length > 0 && { write }),
    ...(fileBytes && { fileBytes }),
    ...(logBytes && { logBytes }),
  };
}

/** The higher of two byte levels, if either is given. */
function highest<L extends Level>(a: L | undefined, b: L | undefined): L | undefined {
  const levels = [a, b].filter((level) => level !== undefined);
  return levels.sort((x, y) => BYTE_LEVELS.indexOf(y) - BYTE_LEVELS.indexOf(x))[0];
}

/** Whether `access` touches any data at all. */
export const touchesData = (access: DataAccess): boolean =>
  (access.read?.length ?? 0) + (access.write?.length ?? 0) > 0 || access.fileBytes !== undefined || access.logBytes !== undefined;
