import type { HttpEvent } from "./event";

/** The request's body as text, whatever its content type (RackHD's library PUTs take raw text). */
export function textBody(event: HttpEvent): string {
  if (typeof event.body !== "string") return "";
  return event.isBase64Encoded ? Buffer.from(event.body, "base64").toString("utf8") : event.body;
}
