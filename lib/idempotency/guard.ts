import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The idempotency key a request is being carried out under, for the store that writes its change:
 * a shared store writes `written` on the key in the same transaction as the change, on the
 * condition that the request still owns the key (see idempotencyStore.ts). Kept in async context
 * so that neither the domain nor the store ports need to know about idempotency keys.
 */
export interface Guard {
  key: string;
  owner: string;
  /** Set once the change (with the guard) was written: later writes of the request go without it. */
  spent: boolean;
}

// One per process, not per bundle: the store that reads it may have been built by another
// handler's bundle (the shared store lives on globalThis, see lib/store/processSingleton.ts).
const SLOT = Symbol.for("lambda-tasks-provisioning.idempotency.guard");
const slot = globalThis as unknown as Record<symbol, AsyncLocalStorage<Guard> | undefined>;
slot[SLOT] ??= new AsyncLocalStorage<Guard>();
const current = slot[SLOT];

export const runGuarded = <T>(guard: Guard, run: () => Promise<T>): Promise<T> => current.run(guard, run);

/** The request's guard, when it has one not yet spent. */
export function pendingGuard(): Guard | undefined {
  const guard = current.getStore();
  return guard && !guard.spent ? guard : undefined;
}
