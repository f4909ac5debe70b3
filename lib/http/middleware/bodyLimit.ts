import type middy from "@middy/core";
import { settings } from "../../config/settings";
import { PayloadTooLargeError } from "../../errors";
import type { HttpEvent, HttpResult } from "../event";

/** Size in bytes of the body as the client sent it. */
export function bodyBytes(event: Pick<HttpEvent, "body" | "isBase64Encoded">): number {
  if (typeof event.body !== "string") return 0;
  if (!event.isBase64Encoded) return Buffer.byteLength(event.body, "utf8");
  const padding = event.body.endsWith("==") ? 2 : event.body.endsWith("=") ? 1 : 0;
  return Math.floor((event.body.length * 3) / 4) - padding;
}

/** Bodies over BODY_LIMIT_BYTES get 413 before anything parses them. */
export function bodyLimit(): middy.MiddlewareObj<HttpEvent, HttpResult> {
  return {
    before: (request) => {
      const limit = settings().bodyLimitBytes;
      if (bodyBytes(request.event) > limit) {
        throw new PayloadTooLargeError(`Request body is larger than ${limit} bytes`);
      }
    },
  };
}
