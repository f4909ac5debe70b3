import type middy from "@middy/core";
import type { Context } from "aws-lambda";
import { settings } from "../../config/settings";
import { UnavailableError } from "../../errors";
import { logLine } from "../../logger";
import { isExpected } from "../errorMapping";
import type { HttpEvent, HttpResult } from "../event";

type Request = middy.Request<HttpEvent, HttpResult, Error, Context, { startedAt?: number }>;

/**
 * One structured line per request: method, route, path, status, duration, request ids. Never the
 * query string, headers or body, where credentials and passwords travel.
 */
export function requestLogger(): middy.MiddlewareObj<HttpEvent, HttpResult, Error, Context, { startedAt?: number }> {
  const before = (request: Request): void => {
    request.internal.startedAt = performance.now();
  };
  const after = (request: Request): void => {
    const unexpected = request.error && !isExpected(request.error) ? request.error : undefined;
    // A store outage is logged even with request logs off, at warn level, with what the store said.
    const unavailable = UnavailableError.is(request.error) ? request.error : undefined;
    let enabled = true;
    try {
      enabled = settings().logRequests;
    } catch {
      // A broken configuration is itself worth a log line.
    }
    if (!enabled && !unexpected && !unavailable) return;
    const { event, context } = request;
    const http = event.requestContext?.http;
    logLine({
      level: unexpected ? "error" : unavailable ? "warn" : "info",
      msg: "request",
      method: http?.method,
      route: event.routeKey,
      path: event.rawPath,
      status: request.response?.statusCode,
      durationMs: Math.round((performance.now() - (request.internal.startedAt ?? performance.now())) * 100) / 100,
      requestId: event.requestContext?.requestId,
      awsRequestId: context?.awsRequestId,
      ...(unexpected && { error: { name: unexpected.name, message: unexpected.message, stack: unexpected.stack } }),
      ...(unavailable && { unavailable: unavailable.cause }),
    });
  };
  return { before, after, onError: after };
}
