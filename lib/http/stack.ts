import middy from "@middy/core";
import type { Context } from "aws-lambda";
import type { Settings } from "../config/settings";
import type { HttpEvent, HttpHandler, HttpResult } from "./event";
import type { ErrorStyle } from "./errorMapping";
import { requestLogger } from "./middleware/requestLogger";
import { cors } from "./middleware/cors";
import { errorResponder } from "./middleware/errorResponder";
import { basicAuth } from "./middleware/basicAuth";
import { bodyLimit } from "./middleware/bodyLimit";
import { jsonBody, type BodyPresence } from "./middleware/jsonBody";

export interface RouteOptions {
  /** Error body style. */
  style: ErrorStyle;
  /** Whether this route needs Basic auth under the current settings. */
  isProtected?: (config: Settings) => boolean;
  /** Parse a JSON body: required (POST/PUT of tasks) or optional; omit for routes without one. */
  body?: BodyPresence;
}

/**
 * The middleware stack every HTTP handler runs in. `before` runs top to bottom: log start, auth,
 * size limit, JSON parsing. `after`/`onError` run bottom to top: errors become JSON answers, then
 * CORS headers are added, then the request is logged with its final status.
 */
export function httpRoute(options: RouteOptions, handler: HttpHandler): middy.MiddyfiedHandler<HttpEvent, HttpResult, Error, Context> {
  const stack = middy<HttpEvent, HttpResult, Error, Context>()
    .use(requestLogger())
    .use(cors())
    .use(errorResponder(options.style));
  if (options.isProtected) stack.use(basicAuth(options.isProtected));
  stack.use(bodyLimit());
  if (options.body) stack.use(jsonBody(options.body));
  return stack.handler(handler);
}
