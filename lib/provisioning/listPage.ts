/**
 * Lists read a page at a time (issue 28): a page is the records after a position in the list's
 * order, so that what one page costs a store does not grow with the number of records it holds.
 *
 * The order is creation order, ties by id: the position of a record is `<createdAt>#<id>`, which
 * every store can seek to (DynamoDB: a sort key condition `> :after`; memory: a comparison). A
 * position is all a cursor needs, so a page may end anywhere, also inside a store's read.
 */
export interface PageRequest {
  /** At most this many records. */
  limit: number;
  /** The position of the last record of the previous page; none: from the start. */
  after?: string;
}

export interface Page<T> {
  items: T[];
  /** The position to ask the next page after; none when the list has no more. */
  next?: string;
}

/** A record's position in its list (creation order, ties by id). */
export const positionOf = (createdAt: string, id: string): string => `${createdAt}#${id}`;

/** The position of a record known by its `id` (nodes, lookups, catalogs, relay jobs). */
export const recordPosition = (record: { createdAt: string; id: string }): string => positionOf(record.createdAt, record.id);

/** A position as a client may send it back: an ISO time, `#`, an id (letters, digits, `-`, `_`). */
const POSITION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z#[\w-]{1,64}$/;

/** A subnet's addresses list in address order: their position is the address's sort key (subnets/address.ts). */
const ADDRESS_POSITION = /^([0-9a-f]{8}|[0-9a-f]{32})$/;

export const isPosition = (value: string): boolean => POSITION.test(value) || ADDRESS_POSITION.test(value);

/**
 * At most this many records are read for one page of a filtered list: a filter that matches few
 * answers a short page (with its next position) instead of reading the whole list.
 */
export const FILTER_READ_CAP = 1000;

/**
 * A page of the records `keep` accepts, read from `read` (pages of the unfiltered list, in order).
 * It reads on until the page is full, the list ends, or `cap` records have been read; then the
 * next position is where the reading stopped, so no record is skipped and none answered twice.
 */
export async function filteredPage<T>(
  read: (request: PageRequest) => Promise<Page<T>>,
  keep: (record: T) => boolean,
  position: (record: T) => string,
  request: PageRequest,
  cap = FILTER_READ_CAP,
): Promise<Page<T>> {
  const items: T[] = [];
  let after = request.after;
  let examined = 0;
  while (true) {
    const page = await read({ limit: Math.max(1, Math.min(request.limit, cap - examined)), after });
    for (const record of page.items) {
      examined += 1;
      after = position(record);
      if (!keep(record)) continue;
      items.push(record);
      if (items.length === request.limit) {
        // Full: the next page starts after this record (the rest of this read is read again then).
        const more = page.next !== undefined || record !== page.items[page.items.length - 1];
        return more ? { items, next: after } : { items };
      }
    }
    if (page.next === undefined) return { items };
    // A store page may end short of its limit with more to come: go on from where it said.
    after = page.next;
    if (examined >= cap) return { items, next: after };
  }
}

/** The records in list order (a new array). */
export const byPosition = <T>(records: readonly T[], position: (record: T) => string): T[] =>
  [...records].sort((a, b) => (position(a) < position(b) ? -1 : position(a) > position(b) ? 1 : 0));

/** A page of `records`, in any order: what the memory stores answer. */
export function pageOf<T>(records: readonly T[], position: (record: T) => string, request: PageRequest): Page<T> {
  const sorted = byPosition(records, position);
  const start = request.after === undefined ? 0 : sorted.findIndex((record) => position(record) > request.after!);
  const from = start === -1 ? sorted.length : start;
  const items = sorted.slice(from, from + request.limit);
  return from + request.limit < sorted.length ? { items, next: position(items[items.length - 1]) } : { items };
}
