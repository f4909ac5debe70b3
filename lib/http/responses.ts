import type { HttpResult } from "./event";

export const JSON_TYPE = "application/json";

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return { statusCode, headers: { "content-type": JSON_TYPE, ...headers }, body: JSON.stringify(body) };
}

export const ok = (body: unknown): HttpResult => json(200, body);
export const created = (body: unknown): HttpResult => json(201, body);
export const noContent = (): HttpResult => ({ statusCode: 204, headers: {}, body: "" });

export function text(statusCode: number, body: string, contentType = "text/plain; charset=utf-8"): HttpResult {
  return { statusCode, headers: { "content-type": contentType }, body };
}

/** Bytes as they are: API Gateway decodes the base64 body before it answers. */
export function bytes(statusCode: number, body: Buffer, contentType = "application/octet-stream"): HttpResult {
  return { statusCode, headers: { "content-type": contentType }, body: body.toString("base64"), isBase64Encoded: true };
}

/** A redirect (302, 307) with `Location`, and the same URL in a JSON body for clients that do not follow it. */
export function redirect(statusCode: 302 | 307, location: string, body: Record<string, unknown> = {}): HttpResult {
  return json(statusCode, { location, ...body }, { location });
}
