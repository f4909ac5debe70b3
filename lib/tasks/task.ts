/** A stored task (the seed's internal form). */
export interface Task {
  id: number;
  title: string;
  description: string;
  done: boolean;
}

/** What a create stores: the HTTP adapter checks the body against its schema before it gets here. */
export interface NewTask {
  title: string;
  description: string;
}

/** The fields a PUT may change; absent keys keep their values. */
export interface TaskPatch {
  title?: string;
  description?: string;
  done?: boolean;
}

const PATCHABLE = ["title", "description", "done"] as const;

/** The fields of a PUT body that change a task; any other key in the body is ignored. */
export function onlyPatchable(body: TaskPatch): TaskPatch {
  const patch: Record<string, unknown> = {};
  for (const key of PATCHABLE) if (body[key] !== undefined) patch[key] = body[key];
  return patch as TaskPatch;
}

/** Rough bytes a task holds in memory; used by the memory store's byte budget. */
export const taskFootprint = (task: { title: string; description: string }): number =>
  96 + 2 * (task.title.length + task.description.length);
