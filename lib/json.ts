/** A JSON object: not null, not an array. */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** Keys that would reach an object's prototype if copied. */
export const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * lodash `merge` semantics, which RackHD used for graph options: the source wins, objects merge
 * recursively, arrays merge index by index, undefined in the source changes nothing.
 */
export function deepMerge(target: unknown, source: unknown): unknown {
  if (source === undefined) return target;
  const bothArrays = Array.isArray(target) && Array.isArray(source);
  const bothObjects = isPlainObject(target) && isPlainObject(source);
  if (!bothArrays && !bothObjects) return source;
  const out: Record<string, unknown> | unknown[] = bothArrays ? [...(target as unknown[])] : { ...(target as object) };
  for (const [key, value] of Object.entries(source as object)) {
    if (UNSAFE_KEYS.has(key)) continue;
    (out as Record<string, unknown>)[key] = deepMerge((out as Record<string, unknown>)[key], value);
  }
  return out;
}
