import type { Settings } from "../config/settings";
import { type DomainError, type ErrorKind, isDomainError, MethodNotAllowedError } from "../errors";
import type { HttpResult } from "./event";
import { json } from "./responses";

/** Which error body a service speaks: the Flask tutorial's or RackHD's. */
export type ErrorStyle = "tasks" | "rackhd";

const STATUS: Record<Exclude<ErrorKind, "unauthorized">, number> = {
  "bad-request": 400,
  forbidden: 403,
  "not-found": 404,
  "method-not-allowed": 405,
  conflict: 409,
  unprocessable: 422,
  "payload-too-large": 413,
  "insufficient-storage": 507,
  unavailable: 503,
  "too-many-requests": 429,
};

const TITLE: Record<number, string> = {
  400: "Bad request",
  401: "Unauthorized access",
  403: "Unauthorized access",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict",
  413: "Payload too large",
  422: "Unprocessable entity",
  429: "Too many requests",
  500: "Internal server error",
  503: "Service unavailable",
  507: "Insufficient storage",
};

export const isExpected = (error: unknown): error is DomainError => isDomainError(error);

export function statusOf(error: unknown, config: Pick<Settings, "authFailureStatus">): number {
  if (!isDomainError(error)) return 500;
  return error.kind === "unauthorized" ? config.authFailureStatus : STATUS[error.kind];
}

const quoted = (text: string): string => text.replace(/["\\]/g, (c) => `\\${c}`);

/**
 * The one place where errors become HTTP answers. Unexpected errors (bugs, bad configuration)
 * become a bare 500 whose body says nothing of the cause; the caller logs the cause.
 */
export function errorResponse(error: unknown, style: ErrorStyle, config: Pick<Settings, "authFailureStatus" | "authRealm">): HttpResult {
  const status = statusOf(error, config);
  const title = TITLE[status];
  const headers: Record<string, string> = {};
  const credentials = isDomainError(error) && error.kind === "unauthorized";
  if (credentials) headers["www-authenticate"] = `Basic realm="${quoted(config.authRealm)}"`;
  if (MethodNotAllowedError.is(error)) headers.allow = error.allow.join(", ");
  // UnavailableError and InProgressError say when to try again.
  const retryAfter = isDomainError(error) ? (error as { retryAfterSeconds?: unknown }).retryAfterSeconds : undefined;
  if (typeof retryAfter === "number") headers["retry-after"] = String(retryAfter);
  const detail = isDomainError(error) && !credentials ? error.message : title;
  if (style === "rackhd") return json(status, { message: detail }, { ...headers, "content-type": "application/json; charset=utf-8" });
  return json(status, detail === title ? { error: title } : { error: title, message: detail }, headers);
}
