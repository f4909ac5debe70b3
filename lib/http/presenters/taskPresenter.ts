import { settings } from "../../config/settings";
import type { Task } from "../../tasks/task";
import { requestBaseUrl } from "../baseUrl";
import type { HttpEvent } from "../event";

export const TASKS_ROOT = "/todo/api/v1.0";

/** Which answer a task appears in: the list, or a single-task answer (GET one, POST, PUT). */
export type TaskAnswer = "list" | "single";

export type PresentedTask = Omit<Task, "id"> & ({ id: number } | { uri: string });

/**
 * How tasks are shown in this answer. The public form puts `uri` (absolute URL of
 * GET /tasks/{id}) in place of `id`: in the list (`list`) or everywhere (`all`).
 */
export function presentTasks(event: HttpEvent, answer: TaskAnswer): (task: Task) => PresentedTask {
  const config = settings();
  const form = config.tasksPublicForm;
  if (form === "off" || (form === "list" && answer !== "list")) {
    return (task) => ({ id: task.id, title: task.title, description: task.description, done: task.done });
  }
  const base = `${requestBaseUrl(event, TASKS_ROOT, config.publicBaseUrl)}${TASKS_ROOT}/tasks/`;
  return (task) => ({ uri: base + task.id, title: task.title, description: task.description, done: task.done });
}
