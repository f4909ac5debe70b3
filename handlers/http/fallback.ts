import type { Context } from "aws-lambda";
import { MethodNotAllowedError, NotFoundError } from "../../lib/errors";
import type { HttpEvent, HttpHandler } from "../../lib/http/event";
import { preflight } from "../../lib/http/preflight";
import { CATCH_ALL } from "../../lib/http/routes";
import { methodsAt } from "../../lib/http/routeTable";
import { httpRoute } from "../../lib/http/stack";

/**
 * The catch-all route (`$default`): CORS preflight for every path, 405 with `Allow` for a known
 * path asked with another method, JSON 404 for anything else. Error bodies follow the service the
 * path belongs to.
 */
const answer: HttpHandler = async (event) => {
  const { method } = event.requestContext.http;
  if (method === "OPTIONS") return preflight();
  const allowed = methodsAt(event.rawPath);
  if (allowed.length > 0) throw new MethodNotAllowedError(`Method ${method} is not allowed here`, [...allowed, "OPTIONS"]);
  throw new NotFoundError(isTaskPath(event.rawPath) ? "Not found" : `Cannot ${method} ${event.rawPath}`);
};

const isTaskPath = (path: string | undefined): boolean => (path ?? "").toLowerCase().includes("/todo/");

const tasksStyle = httpRoute({ function: CATCH_ALL.function, access: CATCH_ALL.data, style: "tasks" }, answer);
const rackhdStyle = httpRoute({ function: CATCH_ALL.function, access: CATCH_ALL.data, style: "rackhd" }, answer);

export const handler = (event: HttpEvent, context: Context) => (isTaskPath(event.rawPath) ? tasksStyle : rackhdStyle)(event, context);
