import type middy from "@middy/core";
import { type Settings, settings } from "../../config/settings";
import { type HttpEvent, type HttpResult, header } from "../event";

export const CORS_ALLOW_METHODS = "GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS";
/** Named one by one: a `*` would not cover Authorization. */
export const CORS_ALLOW_HEADERS = "Authorization, Content-Type";

/** The CORS headers for an answer to this request (none when the origin is not allowed). */
export function corsHeaders(event: HttpEvent, origins: Settings["corsOrigins"]): Record<string, string> {
  if (origins === "*") return { "access-control-allow-origin": "*" };
  const origin = header(event, "origin");
  if (origin !== undefined && origins.includes(origin)) return { "access-control-allow-origin": origin, vary: "Origin" };
  return { vary: "Origin" };
}

/** Adds Access-Control-Allow-Origin to every answer, errors included. */
export function cors(): middy.MiddlewareObj<HttpEvent, HttpResult> {
  const after = (request: middy.Request<HttpEvent, HttpResult>): void => {
    if (!request.response) return;
    let origins: Settings["corsOrigins"] = "*";
    try {
      origins = settings().corsOrigins;
    } catch {
      // Misconfigured: the 500 still goes out, with the permissive default.
    }
    request.response.headers = { ...request.response.headers, ...corsHeaders(request.event, origins) };
  };
  return { after, onError: after };
}
