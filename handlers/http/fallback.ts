import { httpRoute } from "../../lib/http/stack";
import { methodsAt } from "../../lib/http/routeTable";
import { MethodNotAllowedError, NotFoundError } from "../../lib/errors";
import { preflight } from "../../lib/http/preflight";
import type { HttpEvent } from "../../lib/http/event";
import type { Context } from "aws-lambda";

/**
 * The catch-all route (`$default`): CORS preflight for every path, 405 with `Allow` for a known
 * path asked with another method, JSON 404 for anything else. Error bodies follow the service
 * the path belongs to.
 */
const tasksHandler = httpRoute({ style: "tasks" }, async (event) => answer(event.requestContext.http.method, event.rawPath));
const rackhdHandler = httpRoute({ style: "rackhd" }, async (event) => answer(event.requestContext.http.method, event.rawPath));

async function answer(method: string, path: string) {
  if (method === "OPTIONS") return preflight();
  const allowed = methodsAt(path);
  if (allowed.length > 0) throw new MethodNotAllowedError(`Method ${method} is not allowed here`, [...allowed, "OPTIONS"]);
  throw new NotFoundError(path.startsWith("/todo/") || path.includes("/todo/api/") ? "Not found" : `Cannot ${method} ${path}`);
}

export const handler = (event: HttpEvent, context: Context) =>
  (event.rawPath?.includes("/todo/") ? tasksHandler : rackhdHandler)(event, context);
