import { NotFoundError } from "../errors";
import { parseNewTask, parseTaskPatch, type Task } from "./task";
import type { TaskStore } from "./taskStore";

/** The task list's use cases. They take raw (parsed JSON) input and a store; no HTTP here. */

export const listTasks = (store: TaskStore): Promise<Task[]> => store.list();

export async function getTask(store: TaskStore, id: number): Promise<Task> {
  const task = await store.get(id);
  if (!task) throw new NotFoundError("Not found");
  return task;
}

export const createTask = (store: TaskStore, body: unknown): Promise<Task> => store.create(parseNewTask(body));

/**
 * 404 is decided before the body is even read (the seed's order: a malformed body sent to a missing
 * task is still "not found"), and a rejected body changes nothing.
 */
export async function updateTask(store: TaskStore, id: number, readBody: () => Promise<unknown>): Promise<Task> {
  await getTask(store, id);
  const patch = parseTaskPatch(await readBody());
  const updated = await store.update(id, patch);
  if (!updated) throw new NotFoundError("Not found");
  return updated;
}

export async function deleteTask(store: TaskStore, id: number): Promise<void> {
  if (!(await store.delete(id))) throw new NotFoundError("Not found");
}
