import type middy from "@middy/core";
import { readSettings, settings } from "../../config/settings";
import type { HttpEvent, HttpResult } from "../event";
import { errorResponse, type ErrorStyle } from "../errorMapping";

/** Turns any error into the service's JSON error answer (never HTML, never a stack trace). */
export function errorResponder(style: ErrorStyle): middy.MiddlewareObj<HttpEvent, HttpResult> {
  return {
    onError: (request) => {
      let config;
      try {
        config = settings();
      } catch {
        config = readSettings({});
      }
      request.response = errorResponse(request.error, style, config);
    },
  };
}
