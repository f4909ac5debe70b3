/**
 * Freezes a record and everything in it. Memory stores keep frozen records and hand them out
 * as they are: reads cost no copy, and a caller that tried to change one in place would fail
 * loudly instead of silently changing the store.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
