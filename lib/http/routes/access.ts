import { combine, type DataAccess, withWriteEffects } from "../../dataAccess";
import type { Endpoint } from "./endpoint";

/**
 * What a function may do with the data: what its entry declares, and what its entry's other
 * fields imply (an `Idempotency-Key` is kept in the idempotency store; a relay's credential, which
 * a relay route or a boot route a relay forwarded checks, records when the relay was last seen; a
 * route that may ask for Basic credentials counts failed sign-ins; a
 * node named by `{identifier}` is found by its id, a MAC, or the address it booted from, a lookup;
 * a write of a node, a workflow, a relay job or a hook records its events).
 */
export function accessOf(entry: Pick<Endpoint, "data" | "idempotent" | "auth" | "path" | "signIn">): DataAccess {
  const implied: DataAccess = {
    write: [
      ...(entry.idempotent ? (["idempotency"] as const) : []),
      ...(entry.auth === "relay" || entry.auth === "boot" ? (["relayCredentials"] as const) : []),
      // A route that may ask for Basic credentials counts the failed ones (lib/auth/attemptLimiter.ts).
      // … reads the API tokens presented, writing their last use (lib/auth/apiTokens.ts), and adds to the audit trail (lib/audit).
      ...(entry.auth === "northbound" || entry.auth === "tasks" || entry.auth === "tasksList"
        ? (["authAttempts", "apiTokens", "audit"] as const)
        : []),
      // Where a sign-in ends records it.
      ...(entry.signIn ? (["audit"] as const) : []),
    ],
  };
  const named: DataAccess = entry.path.includes("{identifier}") ? { read: ["lookups", "nodes"] } : {};
  return withWriteEffects(combine(combine(entry.data, implied), named));
}
