import type { Settings } from "../config/settings";
import type { HttpHandler } from "./event";
import { httpRoute } from "./stack";
import type { BodyPresence } from "./middleware/jsonBody";

/**
 * A task-list route: Flask-style error bodies, and Basic auth when TASKS_AUTH covers it
 * (`list` protects only the list route; `all` every task route).
 */
export function taskRoute(options: { listRoute?: boolean; body?: BodyPresence }, handler: HttpHandler) {
  const isProtected = options.listRoute
    ? (config: Settings) => config.tasksAuth !== "off"
    : (config: Settings) => config.tasksAuth === "all";
  return httpRoute({ style: "tasks", isProtected, body: options.body }, handler);
}
