import { allows, type ByteStore, type Level, type StoreName } from "../dataAccess";
import { currentInvocation } from "../invocation";
import { logLine } from "../logger";

/**
 * Least privilege, locally as when deployed: a store call the running function's declaration
 * (lib/dataAccess.ts) does not allow is refused, as IAM refuses it on AWS (AccessDenied, a 500).
 * So an entry that forgets a store fails its tests under `npm test` and `npm start`, not after a
 * deploy. Work outside any function (a test calling a service, the demo nodes' seeding) is not
 * guarded.
 */

/** The store methods that write; every other method reads. */
const WRITES = new Set(["create", "update", "delete", "add", "removeNode", "putGraph", "putTask", "claim", "complete", "release"]);

/** The files' bytes: what each method needs (reading the bytes, a digest or a download URL: read). */
const BYTE_LEVELS: Readonly<Record<string, Level>> = { put: "write", uploadUrl: "write", delete: "delete" };

const levelOf = (store: StoreName | ByteStore, method: string): Level =>
  store === "fileBytes" || store === "logBytes" ? (BYTE_LEVELS[method] ?? "read") : WRITES.has(method) ? "write" : "read";

function check(store: StoreName | ByteStore, method: string): void {
  const invocation = currentInvocation();
  if (!invocation) return;
  const level = levelOf(store, method);
  if (allows(invocation.access, store, level)) return;
  const message = `${invocation.function} may not ${level} ${store} (${store}.${method}): its registry entry does not declare it`;
  logLine({ level: "error", msg: "access denied", function: invocation.function, store, method });
  // Not a domain error: like IAM's AccessDenied, a 500 whose body says nothing (the log says why).
  throw Object.assign(new Error(message), { name: "AccessDeniedError" });
}

/** `store` with each method call checked against the running function's declaration. */
export function guarded<T extends object>(name: StoreName | ByteStore, store: T): T {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || typeof property !== "string") return value;
      return (...args: unknown[]) => {
        check(name, property);
        return value.apply(target, args);
      };
    },
  });
}
