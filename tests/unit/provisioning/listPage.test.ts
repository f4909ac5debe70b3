import fc from "fast-check";
import { byPosition, filteredPage, isPosition, type Page, type PageRequest, pageOf, positionOf } from "../../../lib/provisioning/listPage";

interface Row {
  createdAt: string;
  id: string;
  even: boolean;
}

const position = (row: Row) => positionOf(row.createdAt, row.id);

/** Rows with distinct ids, some sharing a creation time (ties go by id). */
const rows = fc
  .uniqueArray(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 10_000 })), { selector: ([, id]) => id, maxLength: 60 })
  .map((pairs) =>
    pairs.map(([second, id]) => ({
      createdAt: new Date(Date.UTC(2026, 10, 25, 0, 0, second)).toISOString(),
      id: id.toString(16).padStart(24, "0"),
      even: id % 2 === 0,
    })),
  );

const inOrder = (list: Row[]) => [...list].sort((a, b) => (position(a) < position(b) ? -1 : 1));

/** Every page from the first, following `next`, counting the store reads. */
async function walk(read: (request: PageRequest) => Promise<Page<Row>>, limit: number): Promise<Row[][]> {
  const pages: Row[][] = [];
  let after: string | undefined;
  do {
    const page = await read({ limit, ...(after !== undefined && { after }) });
    pages.push(page.items);
    after = page.next;
  } while (after !== undefined && pages.length < 1000);
  return pages;
}

describe("a list read a page at a time (issue 28)", () => {
  it("answers every record once, in creation order then id, whatever the page's length", async () => {
    await fc.assert(
      fc.asyncProperty(rows, fc.integer({ min: 1, max: 20 }), async (list, limit) => {
        const pages = await walk(async (request) => pageOf(list, position, request), limit);
        expect(pages.flat()).toEqual(inOrder(list));
        for (const page of pages) expect(page.length).toBeLessThanOrEqual(limit);
      }),
    );
  });

  it("filters across store pages: every match once, in order; no read past the cap", async () => {
    await fc.assert(
      fc.asyncProperty(rows, fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 15 }), async (list, limit, cap) => {
        let read = 0;
        const store = async (request: PageRequest) => {
          const page = pageOf(list, position, request);
          read += page.items.length;
          return page;
        };
        const pages: Row[][] = [];
        let after: string | undefined;
        do {
          read = 0;
          const page = await filteredPage(store, (row) => row.even, position, { limit, ...(after !== undefined && { after }) }, cap);
          expect(read).toBeLessThanOrEqual(cap);
          expect(page.items.length).toBeLessThanOrEqual(limit);
          pages.push(page.items);
          after = page.next;
        } while (after !== undefined);
        expect(pages.flat()).toEqual(inOrder(list).filter((row) => row.even));
      }),
    );
  });

  it("ends a full page at its last match, and the next page starts after it", async () => {
    const list = ["a", "b", "c", "d"].map((id, at) => ({ createdAt: `2026-11-25T00:00:0${at}.000Z`, id, even: id !== "b" }));
    const first = await filteredPage(
      async (request) => pageOf(list, position, request),
      (row) => row.even,
      position,
      { limit: 2 },
    );
    expect(first).toEqual({ items: [list[0], list[2]], next: position(list[2]) });
    const second = await filteredPage(
      async (request) => pageOf(list, position, request),
      (row) => row.even,
      position,
      {
        limit: 2,
        after: first.next,
      },
    );
    expect(second).toEqual({ items: [list[3]] });
  });

  it("accepts as a position only a time and an id, as the lists write them", () => {
    expect(isPosition("2026-11-25T10:00:00.123Z#0123456789abcdef01234567")).toBe(true);
    expect(isPosition("2026-11-25T10:00:00Z#3f2a-b1_c")).toBe(true);
    for (const bad of [
      "",
      "#abc",
      "2026-11-25T10:00:00.123Z",
      "2026-11-25T10:00:00.123Z#",
      "2026-11-25 10:00:00Z#a",
      "x#y",
      `2026-11-25T10:00:00Z#${"a".repeat(65)}`,
    ])
      expect(isPosition(bad)).toBe(false);
  });
});

describe("a page's edges", () => {
  const letters = ["a", "b", "c", "d"].map((id) => ({ id }));
  const byId = (row: { id: string }) => row.id;

  it("ends the last full page without a next position, and answers nothing after the end", () => {
    expect(pageOf(letters, byId, { limit: 2 })).toEqual({ items: letters.slice(0, 2), next: "b" });
    expect(pageOf(letters, byId, { limit: 2, after: "b" })).toEqual({ items: letters.slice(2) });
    expect(pageOf(letters, byId, { limit: 2, after: "z" })).toEqual({ items: [] });
  });

  it("orders by position, keeping the given order of equal positions", () => {
    const rows = [
      { id: "b", n: 1 },
      { id: "a", n: 2 },
      { id: "b", n: 3 },
    ];
    expect(byPosition(rows, byId).map((row) => row.n)).toEqual([2, 1, 3]);
  });

  it("reads a page's length at a time, never more than the cap allows", async () => {
    const limits: number[] = [];
    const read = async (request: PageRequest) => {
      limits.push(request.limit);
      return pageOf(letters, byId, request);
    };
    await filteredPage(read, () => false, byId, { limit: 2 }, 3);
    expect(limits).toEqual([2, 1]);
  });

  it("ends a full page that is the list's end without a next position", async () => {
    const read = async (request: PageRequest) => pageOf(letters.slice(0, 2), byId, request);
    expect(await filteredPage(read, () => true, byId, { limit: 2 })).toEqual({ items: letters.slice(0, 2) });
  });
});
