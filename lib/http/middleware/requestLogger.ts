import type middy from "@middy/core";
import type { Context } from "aws-lambda";
import { settings } from "../../config/settings";
import { UnavailableError } from "../../errors";
import { count, currentInvocation } from "../../invocation";
import { logLine } from "../../logger";
import { writeMetrics } from "../../metrics";
import { redactTokens } from "../../provisioning/credentialToken";
import { isExpected } from "../errorMapping";
import type { HttpEvent, HttpResult } from "../event";

type Request = middy.Request<HttpEvent, HttpResult, Error, Context, { startedAt?: number }>;

/** Whether request lines are wanted (LOG_REQUESTS); a broken configuration is itself worth a line. */
const requestLinesOn = (): boolean => {
  try {
    return settings().logRequests;
  } catch {
    return true;
  }
};

/**
 * One structured line per request (method, route, path, status, duration; the invocation's ids
 * come with every line: lib/logger.ts), never the query string, headers or body, where
 * credentials and passwords travel; then the request's metrics (lib/metrics.ts): Requests,
 * ClientErrors, ServerErrors, Latency, StoreUnavailable and StoreThrottled, and what the work
 * counted (boots, workflows). The answer carries the correlation id back.
 */
export function requestLogger(): middy.MiddlewareObj<HttpEvent, HttpResult, Error, Context, { startedAt?: number }> {
  const before = (request: Request): void => {
    request.internal.startedAt = performance.now();
  };
  const after = (request: Request): void => {
    const unexpected = request.error && !isExpected(request.error) ? request.error : undefined;
    // A store outage is logged even with request logs off, at warn level, with what the store said.
    const unavailable = UnavailableError.is(request.error) ? request.error : undefined;
    const { event } = request;
    const status = request.response?.statusCode;
    const durationMs = Math.round((performance.now() - (request.internal.startedAt ?? performance.now())) * 100) / 100;
    if (requestLinesOn() || unexpected || unavailable) {
      const http = event.requestContext?.http;
      const counts = currentInvocation()?.counts;
      const calls = counts?.get("DynamoCalls");
      logLine({
        level: unexpected ? "error" : unavailable ? "warn" : "info",
        msg: "request",
        method: http?.method,
        route: event.routeKey,
        // The seed's and the reports' paths carry the machine's credential: only its record id is logged.
        path: redactTokens(event.rawPath ?? ""),
        status,
        durationMs,
        // What the request cost the table (STORE=dynamodb): calls, and the read and write units they consumed.
        ...(calls !== undefined && {
          dynamodb: { calls, readUnits: counts?.get("DynamoReadUnits") ?? 0, writeUnits: counts?.get("DynamoWriteUnits") ?? 0 },
        }),
        ...(unexpected && {
          error: { name: unexpected.name, message: redactTokens(unexpected.message), stack: redactTokens(unexpected.stack ?? "") },
        }),
        ...(unavailable && { unavailable: unavailable.cause }),
      });
    }
    const invocation = currentInvocation();
    if (!invocation) return;
    count("Requests");
    count("ClientErrors", status !== undefined && status >= 400 && status < 500 ? 1 : 0);
    count("ServerErrors", status === undefined || status >= 500 ? 1 : 0);
    count("Latency", durationMs);
    if (unavailable) count(/throttl/i.test(unavailable.cause ?? "") ? "StoreThrottled" : "StoreUnavailable");
    writeMetrics(invocation);
    if (request.response && invocation.fields.correlationId) {
      request.response.headers = { ...request.response.headers, "x-correlation-id": invocation.fields.correlationId };
    }
  };
  return { before, after, onError: after };
}
