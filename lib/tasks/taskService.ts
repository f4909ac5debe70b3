import { NotFoundError } from "../errors";
import { onlyPatchable, type Task, type TaskPatch } from "./task";
import type { TaskStore } from "./taskStore";

/** The task list's use cases. They take checked, typed input and a store; no HTTP here. */

export const listTasks = (store: TaskStore): Promise<Task[]> => store.list();

export async function getTask(store: TaskStore, id: number): Promise<Task> {
  const task = await store.get(id);
  if (!task) throw new NotFoundError("Not found");
  return task;
}

/** A new task: unknown fields are ignored, `description` defaults to "", `done` starts false. */
export const createTask = (store: TaskStore, fields: { title: string; description?: string }): Promise<Task> =>
  store.create({ title: fields.title, description: fields.description ?? "" });

/**
 * 404 is decided before the body is even read (the seed's order: a malformed body sent to a missing
 * task is still "not found"), and a rejected body changes nothing.
 */
export async function updateTask(store: TaskStore, id: number, readPatch: () => Promise<TaskPatch>): Promise<Task> {
  await getTask(store, id);
  const updated = await store.update(id, onlyPatchable(await readPatch()));
  if (!updated) throw new NotFoundError("Not found");
  return updated;
}

export async function deleteTask(store: TaskStore, id: number): Promise<void> {
  if (!(await store.delete(id))) throw new NotFoundError("Not found");
}
