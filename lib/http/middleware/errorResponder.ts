import type middy from "@middy/core";
import { readSettings, type Settings, settings } from "../../config/settings";
import { type ErrorStyle, errorResponse } from "../errorMapping";
import type { HttpEvent, HttpResult } from "../event";

/** Turns any error into the service's JSON error answer (never HTML, never a stack trace). */
export function errorResponder(style: ErrorStyle): middy.MiddlewareObj<HttpEvent, HttpResult> {
  return {
    onError: (request) => {
      let config: Settings;
      try {
        config = settings();
      } catch {
        config = readSettings({});
      }
      request.response = errorResponse(request.error, style, config);
    },
  };
}
