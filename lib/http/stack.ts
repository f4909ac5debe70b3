import middy from "@middy/core";
import type { Context } from "aws-lambda";
import type { Settings } from "../config/settings";
import type { DataAccess } from "../dataAccess";
import { invocationOf, runAs } from "../invocation";
import type { ErrorStyle } from "./errorMapping";
import { type HttpEvent, type HttpHandler, type HttpResult, header } from "./event";
import { auditing } from "./middleware/audit";
import { basicAuth } from "./middleware/basicAuth";
import { bodyLimit } from "./middleware/bodyLimit";
import { browserGuard } from "./middleware/browserGuard";
import { cors } from "./middleware/cors";
import { errorResponder } from "./middleware/errorResponder";
import { requestLogger } from "./middleware/requestLogger";
import type { SiteScope } from "./routes/endpoint";

export interface RouteOptions {
  /** The function's name (its registry entry's), on every log line and metric of it. */
  function: string;
  /** What it may do with the data (lib/dataAccess.ts): checked on every store call. */
  access: DataAccess;
  /** Error body style. */
  style: ErrorStyle;
  /** Whether this route needs Basic auth under the current settings. */
  isProtected?: (config: Settings) => boolean;
  /** Which site its action is on, for the policy (lib/auth/authorize.ts); the action is its function. */
  scope?: SiteScope;
  /** An operator's route: its changes and refusals go to the audit trail (lib/audit); `every`: each of its answers (a sign-in). */
  audited?: boolean | "every";
  /** false: the handler checks the body's size itself (a file's bytes), BODY_LIMIT_BYTES does not. */
  bodyLimit?: boolean;
  /** A route an operator's browser reaches: its changes are refused from another origin's page (lib/http/middleware/browserGuard.ts). */
  browser?: boolean;
}

/**
 * The middleware stack every HTTP handler runs in. `before` runs top to bottom: log start, auth,
 * size limit; the handler reads the JSON body when the contract's order of checks says so.
 * `after`/`onError` run bottom to top: errors become JSON answers, then CORS headers are added,
 * then the request is logged with its final status.
 */
export function httpRoute(options: RouteOptions, handler: HttpHandler): HttpHandler {
  const stack = middy<HttpEvent, HttpResult, Error, Context>().use(requestLogger());
  // Before the error responder: its answer (an error's status) is what the trail records.
  if (options.audited) stack.use(auditing(options.function, options.scope, options.audited === "every"));
  stack.use(cors()).use(errorResponder(options.style));
  if (options.browser) stack.use(browserGuard());
  if (options.isProtected) stack.use(basicAuth(options.isProtected, { function: options.function, scope: options.scope ?? "all" }));
  if (options.bodyLimit !== false) stack.use(bodyLimit());
  const run = stack.handler(handler);
  return (event, context) =>
    runAs(invocationOf(options.function, options.access, requestFields(event, context)), () => run(event, context));
}

const CORRELATION_ID = /^[\w.:-]{1,128}$/;

/**
 * The ids a request's log lines carry: API Gateway's request id (`requestId`), Lambda's
 * (`awsRequestId`), and a correlation id: the caller's `X-Correlation-Id` when it is a plain token
 * (a client tying its own calls together), else API Gateway's request id. The answer says it back.
 */
export function requestFields(event: HttpEvent, context: Context | undefined): Record<string, string> {
  const requestId = event.requestContext?.requestId;
  const given = header(event, "x-correlation-id");
  const correlationId = given && CORRELATION_ID.test(given) ? given : requestId;
  return {
    ...(requestId && { requestId }),
    ...(context?.awsRequestId && { awsRequestId: context.awsRequestId }),
    ...(correlationId && { correlationId }),
  };
}
