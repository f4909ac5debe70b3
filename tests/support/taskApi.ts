import { handler as listTasks } from "../../handlers/tasks/list";
import { handler as getTask } from "../../handlers/tasks/get";
import { handler as createTask } from "../../handlers/tasks/create";
import { handler as updateTask } from "../../handlers/tasks/update";
import { handler as deleteTask } from "../../handlers/tasks/remove";
import { handler as fallback } from "../../handlers/http/fallback";
import { resetProcessSingleton } from "../../lib/store/processSingleton";
import { makeRouter } from "./router";

/** The task service's exported handlers behind an API Gateway-like router. */
export const taskApi = makeRouter(
  [
    { method: "GET", path: "/todo/api/v1.0/tasks", handler: listTasks },
    { method: "POST", path: "/todo/api/v1.0/tasks", handler: createTask },
    { method: "GET", path: "/todo/api/v1.0/tasks/{id}", handler: getTask },
    { method: "PUT", path: "/todo/api/v1.0/tasks/{id}", handler: updateTask },
    { method: "DELETE", path: "/todo/api/v1.0/tasks/{id}", handler: deleteTask },
  ],
  fallback,
);

export const TASKS = "/todo/api/v1.0/tasks";
export const JSON_HEADERS = { "content-type": "application/json" };

/** Empties this process's task store (a fresh container). */
export const freshTaskStore = (): void => resetProcessSingleton("taskStore.memory");
