/**
 * RackHD's `find(req.query)`: query-string equality filters on a record's top-level fields
 * (`?type=compute`, `?source=dmi`). An array field matches when one of its items does; an object
 * field when its JSON does. `normalize` puts a value in the field's stored form (MACs).
 */
export function matchesFilters(
  record: Readonly<Record<string, unknown>>,
  filters: Readonly<Record<string, readonly string[]>>,
  normalize: (key: string, value: string) => string = (_key, value) => value,
): boolean {
  for (const [key, values] of Object.entries(filters)) {
    if (key === "_") continue; // browsers' cache-buster
    const field = Object.hasOwn(record, key) ? record[key] : undefined;
    for (const raw of values) {
      const value = normalize(key, raw);
      const ok = Array.isArray(field)
        ? field.some((item) => String(item) === value)
        : field !== undefined && (typeof field === "object" && field !== null ? JSON.stringify(field) === value : String(field) === value);
      if (!ok) return false;
    }
  }
  return true;
}

/** The records that match every filter. */
export const filtered = <T extends object>(records: T[], filters: Readonly<Record<string, readonly string[]>>): T[] =>
  Object.keys(filters).length === 0 ? records : records.filter((record) => matchesFilters(record as Record<string, unknown>, filters));
