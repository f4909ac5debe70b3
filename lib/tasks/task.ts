import { NotFoundError, ValidationError } from "../errors";
import { isPlainObject } from "../json";

/** A stored task (the seed's internal form). */
export interface Task {
  id: number;
  title: string;
  description: string;
  done: boolean;
}

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

const has = (body: Record<string, unknown>, key: string): boolean => Object.hasOwn(body, key);

/** POST body: an object with a string `title` and, if present, a string `description`. */
export function parseNewTask(body: unknown): NewTask {
  if (!isPlainObject(body)) throw new ValidationError("Body must be a JSON object");
  if (typeof body.title !== "string") throw new ValidationError("title is required and must be a string");
  if (has(body, "description") && typeof body.description !== "string") {
    throw new ValidationError("description must be a string");
  }
  return { title: body.title, description: (body.description as string | undefined) ?? "" };
}

/** PUT body: an object; `title`/`description` strings and `done` a real boolean when present. */
export function parseTaskPatch(body: unknown): TaskPatch {
  if (!isPlainObject(body)) throw new ValidationError("Body must be a JSON object");
  const patch: TaskPatch = {};
  for (const key of ["title", "description"] as const) {
    if (!has(body, key)) continue;
    const value = body[key];
    if (typeof value !== "string") throw new ValidationError(`${key} must be a string`);
    patch[key] = value;
  }
  if (has(body, "done")) {
    if (typeof body.done !== "boolean") throw new ValidationError("done must be a boolean");
    patch.done = body.done;
  }
  return patch;
}

/**
 * `{id}` path segment: decimal digits only (leading zeros allowed, as in the reference); any
 * other text, or a number beyond the safe integers, names no task and is "not found".
 */
export function parseTaskId(raw: string | undefined): number {
  if (raw === undefined || !/^\d{1,16}$/.test(raw)) throw new NotFoundError("Not found");
  const id = Number(raw);
  if (!Number.isSafeInteger(id)) throw new NotFoundError("Not found");
  return id;
}

/** Rough bytes a task holds in memory; used by the memory store's byte budget. */
export const taskFootprint = (task: { title: string; description: string }): number =>
  96 + 2 * (task.title.length + task.description.length);
