import { ValidationError } from "../errors";
import type { HttpEvent, HttpResult } from "./event";
import { json } from "./responses";

/**
 * Lists in pages. `?limit=N` (1–1000) asks for a page, and the answer's `Link: <…>; rel="next"`
 * names the next one by an opaque `next` token. RackHD 2.0's `$top`/`$skip` are accepted too.
 * A request with no paging parameters gets the whole list, as before, while it fits in one
 * answer. Past that (Lambda answers at most 6 MB) it gets a 400 that says how to page, never a
 * truncated list and never a gateway error.
 */
export const PAGING_PARAMETERS = ["limit", "next", "$top", "$skip"] as const;
export const MAX_LIMIT = 1000;
/** Lambda's response limit is 6 MB; leave room for the headers and API Gateway's envelope. */
export const MAX_ANSWER_BYTES = 5_500_000;

interface PageRequest {
  offset: number;
  limit: number | undefined;
}

const token = (offset: number): string => Buffer.from(JSON.stringify({ o: offset })).toString("base64url");

function offsetOf(next: string): number {
  try {
    const offset = (JSON.parse(Buffer.from(next, "base64url").toString("utf8")) as { o?: unknown }).o;
    if (typeof offset === "number" && Number.isSafeInteger(offset) && offset >= 0) return offset;
  } catch {
    // not a token of ours
  }
  throw new ValidationError('next is not a page token of this list: follow the Link header\'s rel="next"');
}

const count = (name: string, raw: string | undefined, min: number, max: number): number | undefined => {
  if (raw === undefined) return undefined;
  if (!/^\d{1,7}$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new ValidationError(`${name} must be a whole number from ${min} to ${max}`);
  return Number(raw);
};

/** The page a query asks for; `limit` undefined is the whole list. */
export function pageRequest(query: Record<string, string[]>): PageRequest {
  const limit = count("limit", query.limit?.[0], 1, MAX_LIMIT) ?? count("$top", query.$top?.[0], 1, MAX_LIMIT);
  const next = query.next?.[0];
  const offset = next !== undefined ? offsetOf(next) : (count("$skip", query.$skip?.[0], 0, Number.MAX_SAFE_INTEGER) ?? 0);
  return { offset, limit };
}

/** The query without its paging parameters (what a list route filters by). */
export function withoutPaging(query: Record<string, string[]>): Record<string, string[]> {
  const rest: Record<string, string[]> = Object.create(null);
  for (const [key, values] of Object.entries(query)) if (!(PAGING_PARAMETERS as readonly string[]).includes(key)) rest[key] = values;
  return rest;
}

/**
 * A 200 list answer: the page the query asks for, wrapped as the route answers it, with a
 * `Link` to the next page when there is one.
 */
export function pagedAnswer<T>(
  event: HttpEvent,
  query: Record<string, string[]>,
  all: readonly T[],
  wrap: (items: readonly T[]) => unknown,
): HttpResult {
  const { offset, limit } = pageRequest(query);
  const paged = limit !== undefined || offset > 0;
  const end = limit === undefined ? all.length : Math.min(all.length, offset + limit);
  const answer = json(200, wrap(all.slice(offset, end)));
  if (!paged && Buffer.byteLength(String(answer.body)) > MAX_ANSWER_BYTES) {
    throw new ValidationError(
      `The list (${all.length} items) is larger than one answer can carry: ask for it in pages with ?limit=100, then follow each answer's Link header (rel="next")`,
    );
  }
  if (end < all.length) {
    const params = new URLSearchParams(event.rawQueryString ?? "");
    for (const name of PAGING_PARAMETERS) params.delete(name);
    params.set("limit", String(limit ?? all.length));
    params.set("next", token(end));
    answer.headers.link = `<${event.rawPath}?${params.toString()}>; rel="next"`;
  }
  return answer;
}
