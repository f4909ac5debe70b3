import { resetProcessSingleton } from "../../lib/store/processSingleton";
import { api } from "./api";

/** The task service's exported handlers behind an API Gateway-like router. */
export const taskApi = api;

export const TASKS = "/todo/api/v1.0/tasks";
export const JSON_HEADERS = { "content-type": "application/json" };

/** Empties this process's task store (a fresh container). */
export const freshTaskStore = (): void => resetProcessSingleton("taskStore.memory");
