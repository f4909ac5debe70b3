import middy from "@middy/core";
import type { Context } from "aws-lambda";
import type { Settings } from "../config/settings";
import type { ErrorStyle } from "./errorMapping";
import type { HttpEvent, HttpHandler, HttpResult } from "./event";
import { basicAuth } from "./middleware/basicAuth";
import { bodyLimit } from "./middleware/bodyLimit";
import { cors } from "./middleware/cors";
import { errorResponder } from "./middleware/errorResponder";
import { requestLogger } from "./middleware/requestLogger";

export interface RouteOptions {
  /** Error body style. */
  style: ErrorStyle;
  /** Whether this route needs Basic auth under the current settings. */
  isProtected?: (config: Settings) => boolean;
  /** false: the handler checks the body's size itself (a file's bytes), BODY_LIMIT_BYTES does not. */
  bodyLimit?: boolean;
}

/**
 * The middleware stack every HTTP handler runs in. `before` runs top to bottom: log start, auth,
 * size limit; the handler reads the JSON body when the contract's order of checks says so.
 * `after`/`onError` run bottom to top: errors become JSON answers, then CORS headers are added,
 * then the request is logged with its final status.
 */
export function httpRoute(options: RouteOptions, handler: HttpHandler): middy.MiddyfiedHandler<HttpEvent, HttpResult, Error, Context> {
  const stack = middy<HttpEvent, HttpResult, Error, Context>().use(requestLogger()).use(cors()).use(errorResponder(options.style));
  if (options.isProtected) stack.use(basicAuth(options.isProtected));
  if (options.bodyLimit !== false) stack.use(bodyLimit());
  return stack.handler(handler);
}
