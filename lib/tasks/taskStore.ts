import type { NewTask, Task, TaskPatch } from "./task";

/**
 * The port through which the domain keeps tasks. Every method is asynchronous so a shared
 * store (DynamoDB) can take the place of the per-container memory store.
 */
export interface TaskStore {
  /** Every task in creation order. */
  list(): Promise<Task[]>;
  get(id: number): Promise<Task | undefined>;
  /**
   * Stores a new task with `done: false` and id = id of the last stored task + 1 (1 when empty).
   * Throws CapacityError when the store is full.
   */
  create(fields: NewTask): Promise<Task>;
  /** Applies the patch; undefined when the task does not exist. */
  update(id: number, patch: TaskPatch): Promise<Task | undefined>;
  /** True when a task was removed. */
  delete(id: number): Promise<boolean>;
}
