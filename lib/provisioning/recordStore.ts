import { isDomainError } from "../errors";

/**
 * A port for small records kept by id and listed whole (SKUs by id, tag records by name): the
 * same five operations for each kind, so one adapter per store serves them all.
 */
export interface RecordStore<T extends { id: string }> {
  /** Stores a new record; ConflictError when its id is taken. */
  create(record: T): Promise<T>;
  get(id: string): Promise<T | undefined>;
  /** Every record, oldest first (ties by id). */
  list(): Promise<T[]>;
  /** Applies `change` to the current record atomically; undefined when there is none. */
  update(id: string, change: (current: T) => T): Promise<T | undefined>;
  /** Removes it and answers it; undefined when there was none. */
  delete(id: string): Promise<T | undefined>;
}

/**
 * Applies `change` to the record `id`, or stores `change(initial())` when there is none. A create
 * that loses to another writer's is no error: `change` is applied to the record that won.
 */
export async function updateOrCreate<T extends { id: string }>(
  store: RecordStore<T>,
  id: string,
  change: (current: T) => T,
  initial: () => T,
): Promise<T> {
  const updated = await store.update(id, change);
  if (updated) return updated;
  try {
    return await store.create(change(initial()));
  } catch (error) {
    if (!(isDomainError(error) && error.kind === "conflict")) throw error;
    const again = await store.update(id, change);
    if (!again) throw error;
    return again;
  }
}
