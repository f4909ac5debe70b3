import { ValidationError } from "../errors";
import { isPosition, type Page, type PageRequest } from "../provisioning/listPage";
import type { HttpEvent, HttpResult } from "./event";
import { json } from "./responses";

/**
 * Lists in pages. `?limit=N` (1–1000) asks for a page, and the answer's `Link: <…>; rel="next"`
 * names the next one by an opaque `next` token. RackHD 2.0's `$top`/`$skip` are accepted too.
 * A request with no paging parameters gets the whole list, as before, while it fits in one
 * answer. Past that (Lambda answers at most 6 MB) it gets a 400 that says how to page, never a
 * truncated list and never a gateway error.
 *
 * The fleet-sized lists (listAnswer) read only the page they answer: their `next` token carries
 * the position of the page's last record, so a page costs the same at any size. `$skip` (and a
 * token from an older answer, which carries an offset) still works, by reading up to the offset.
 */
export const PAGING_PARAMETERS = ["limit", "next", "$top", "$skip"] as const;
export const MAX_LIMIT = 1000;
/** Lambda's response limit is 6 MB; leave room for the headers and API Gateway's envelope. */
export const MAX_ANSWER_BYTES = 5_500_000;
const NOT_A_TOKEN = 'next is not a page token of this list: follow the Link header\'s rel="next"';

interface PagingQuery {
  offset: number;
  limit: number | undefined;
  /** A position token's: the page starts after this record (listAnswer's lists). */
  after?: string;
}

const token = (place: { o: number } | { a: string }): string => Buffer.from(JSON.stringify(place)).toString("base64url");

function placeOf(next: string): { offset: number } | { after: string } {
  try {
    const { o, a } = JSON.parse(Buffer.from(next, "base64url").toString("utf8")) as { o?: unknown; a?: unknown };
    if (typeof o === "number" && Number.isSafeInteger(o) && o >= 0) return { offset: o };
    if (typeof a === "string" && isPosition(a)) return { after: a };
  } catch {
    // not a token of ours
  }
  throw new ValidationError(NOT_A_TOKEN);
}

const count = (name: string, raw: string | undefined, min: number, max: number): number | undefined => {
  if (raw === undefined) return undefined;
  if (!/^\d{1,7}$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new ValidationError(`${name} must be a whole number from ${min} to ${max}`);
  return Number(raw);
};

/** The page a query asks for; `limit` undefined is the whole list. */
export function pageRequest(query: Record<string, string[]>): PagingQuery {
  const limit = count("limit", query.limit?.[0], 1, MAX_LIMIT) ?? count("$top", query.$top?.[0], 1, MAX_LIMIT);
  const next = query.next?.[0];
  if (next !== undefined) return { offset: 0, limit, ...placeOf(next) };
  return { offset: count("$skip", query.$skip?.[0], 0, Number.MAX_SAFE_INTEGER) ?? 0, limit };
}

/** A link to the same list (its filters kept) at `place`, `limit` to a page. */
function nextLink(event: HttpEvent, limit: number, place: { o: number } | { a: string }): string {
  const params = new URLSearchParams(event.rawQueryString ?? "");
  for (const name of PAGING_PARAMETERS) params.delete(name);
  params.set("limit", String(limit));
  params.set("next", token(place));
  return `<${event.rawPath}?${params.toString()}>; rel="next"`;
}

/** A Link header to the same list (its filters kept) at a position of the list's own (`next` as given). */
export function nextPageLink(event: HttpEvent, next: string): string {
  const params = new URLSearchParams(event.rawQueryString ?? "");
  params.set("next", next);
  return `<${event.rawPath}?${params.toString()}>; rel="next"`;
}

/** A list that can be read a page at a time, or whole. */
export interface PagedList<T> {
  page(request: PageRequest): Promise<Page<T>>;
  all(): Promise<readonly T[]>;
}

/**
 * A 200 list answer that reads only its page when the query asks for one by `limit` (or `$top`)
 * and a position token; the whole list (as pagedAnswer) when it asks for none, or for an offset.
 */
export async function listAnswer<T>(
  event: HttpEvent,
  query: Record<string, string[]>,
  list: PagedList<T>,
  wrap: (items: readonly T[]) => unknown,
): Promise<HttpResult> {
  const request = pageRequest(query);
  if (request.offset > 0 || (request.limit === undefined && request.after === undefined))
    return pagedAnswer(event, query, await list.all(), wrap);
  const limit = request.limit ?? MAX_LIMIT;
  const page = await list.page({ limit, ...(request.after !== undefined && { after: request.after }) });
  const answer = json(200, wrap(page.items));
  if (page.next !== undefined) answer.headers.link = nextLink(event, limit, { a: page.next });
  return answer;
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
  const { offset, limit, after } = pageRequest(query);
  if (after !== undefined) throw new ValidationError(NOT_A_TOKEN);
  const paged = limit !== undefined || offset > 0;
  const end = limit === undefined ? all.length : Math.min(all.length, offset + limit);
  const answer = json(200, wrap(all.slice(offset, end)));
  if (!paged && Buffer.byteLength(String(answer.body)) > MAX_ANSWER_BYTES) {
    throw new ValidationError(
      `The list (${all.length} items) is larger than one answer can carry: ask for it in pages with ?limit=100, then follow each answer's Link header (rel="next")`,
    );
  }
  if (end < all.length) answer.headers.link = nextLink(event, limit ?? all.length, { o: end });
  return answer;
}
