import type { HttpEvent } from "./event";

/** The request's body as the bytes the client sent (a file's). */
export function bytesBody(event: HttpEvent): Buffer {
  if (typeof event.body !== "string") return Buffer.alloc(0);
  return Buffer.from(event.body, event.isBase64Encoded ? "base64" : "utf8");
}

/** The request's body as text, whatever its content type (RackHD's library PUTs take raw text). */
export function textBody(event: HttpEvent): string {
  if (typeof event.body !== "string") return "";
  return event.isBase64Encoded ? Buffer.from(event.body, "base64").toString("utf8") : event.body;
}
