import httpJsonBodyParser from "@middy/http-json-body-parser";
import { ValidationError } from "../../errors";
import type { HttpEvent } from "../event";

/** Deeper bodies are refused before any domain code walks them (recursion would overflow). */
export const MAX_JSON_DEPTH = 64;

export type BodyPresence = "required" | "optional";

const parser = httpJsonBodyParser();

const isEmpty = (body: unknown): boolean => body === undefined || body === null || body === "";

/** Depth of nested arrays/objects, measured without recursion. */
export function jsonDepth(value: unknown, stopAt = MAX_JSON_DEPTH + 1): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth > deepest) deepest = depth;
    if (deepest >= stopAt) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * Parses the event's JSON body with middy's parser (content-type check, base64, prototype-key
 * guard) and turns its 415/422 into a 400 with RackHD's texts. An `optional` body may be absent
 * (RackHD's POST /workflows?name=... needs none): the result is then `undefined`.
 */
export async function parseJsonBody(event: HttpEvent, presence: BodyPresence): Promise<unknown> {
  if (isEmpty(event.body)) {
    if (presence === "optional") return undefined;
    throw new ValidationError("Request body must be a JSON object");
  }
  const request = { event: { headers: event.headers, body: event.body, isBase64Encoded: event.isBase64Encoded } };
  try {
    await parser.before!(request as never);
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 415) throw new ValidationError("Content-Type must be application/json");
    const cause = (error as { cause?: { message?: string; data?: unknown } }).cause;
    if ((error as Error).message === "Forbidden key in JSON body") {
      throw new ValidationError(`Error parsing JSON: forbidden key ${String(cause?.data)}`);
    }
    throw new ValidationError(`Error parsing JSON: ${cause?.message ?? "malformed JSON"}`);
  }
  if (jsonDepth(request.event.body) > MAX_JSON_DEPTH) {
    throw new ValidationError(`Error parsing JSON: nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  return request.event.body;
}
