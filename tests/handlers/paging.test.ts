import { reloadSettings } from "../../lib/config/settings";
import { newCatalogs } from "../../lib/provisioning/catalogs/catalog";
import { provisioningStores } from "../../lib/store/compositionRoot";
import { api, freshContainer } from "../support/api";

const JSON_TYPE = { "content-type": "application/json" };
const TASKS = "/todo/api/v1.0/tasks";

/** Follows `Link: <…>; rel="next"` from a first path, collecting every page's items. */
async function allPages(first: string, items: (body: any) => unknown[]): Promise<{ pages: number; items: unknown[] }> {
  const out: unknown[] = [];
  let path: string | undefined = first;
  let pages = 0;
  while (path) {
    const answer = await api({ method: "GET", path });
    expect(answer.status).toBe(200);
    out.push(...items(answer.body));
    pages += 1;
    path = /^<([^>]+)>; rel="next"$/.exec(answer.headers.link ?? "")?.[1];
  }
  return { pages, items: out };
}

describe("paged lists", () => {
  beforeEach(() => {
    freshContainer();
    process.env.DEMO_NODES = "on";
    reloadSettings();
  });
  afterEach(() => {
    delete process.env.DEMO_NODES;
    reloadSettings();
  });

  const createTasks = async (count: number, description = "") => {
    for (let i = 1; i <= count; i += 1) {
      const answer = await api({
        method: "POST",
        path: TASKS,
        headers: JSON_TYPE,
        body: JSON.stringify({ title: `task ${i}`, description }),
      });
      expect(answer.status).toBe(201);
    }
  };

  it("pages tasks with ?limit and the Link header, and the pages add up to the whole list", async () => {
    await createTasks(5);
    const whole = (await api({ method: "GET", path: TASKS })).body.tasks;
    expect(whole).toHaveLength(5);
    const first = await api({ method: "GET", path: `${TASKS}?limit=2&_=123` });
    expect(first.body.tasks).toEqual(whole.slice(0, 2));
    expect(first.headers.link).toMatch(/^<\/todo\/api\/v1\.0\/tasks\?_=123&limit=2&next=[\w-]+>; rel="next"$/);
    expect(await allPages(`${TASKS}?limit=2`, (body) => body.tasks)).toEqual({ pages: 3, items: whole });
  });

  it("gives clients that send no paging parameters today's answer, with no Link", async () => {
    await createTasks(3);
    const answer = await api({ method: "GET", path: TASKS });
    expect(answer.body.tasks).toHaveLength(3);
    expect(answer.headers.link).toBeUndefined();
  });

  it("accepts RackHD 2.0's $top and $skip, and keeps the node filters", async () => {
    const all = (await api({ method: "GET", path: "/api/1.1/nodes" })).body;
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect((await api({ method: "GET", path: "/api/1.1/nodes?$top=1&$skip=1" })).body).toEqual([all[1]]);
    const filtered = await api({ method: "GET", path: "/api/1.1/nodes?type=compute&limit=1" });
    expect(filtered.body).toEqual([all[0]]);
    expect(filtered.headers.link).toContain("type=compute");
    expect((await allPages("/api/1.1/nodes?limit=1", (body) => body)).items).toEqual(all);
  });

  it.each([
    ["limit=0", "limit must be a whole number from 1 to 1000"],
    ["limit=1001", "limit must be a whole number from 1 to 1000"],
    ["limit=abc", "limit must be a whole number from 1 to 1000"],
    ["$top=-1", "$top must be a whole number from 1 to 1000"],
    ["next=not-a-token", 'next is not a page token of this list: follow the Link header\'s rel="next"'],
  ])("refuses ?%s with a 400 that says why", async (query, message) => {
    expect(await api({ method: "GET", path: `${TASKS}?${query}` })).toMatchObject({ status: 400, body: { message } });
    expect(await api({ method: "GET", path: `/api/1.1/workflows?${query}` })).toMatchObject({ status: 400, body: { message } });
  });

  it("answers a list too large for one answer with a 400 that says how to page, and serves it in pages", async () => {
    await createTasks(600, "d".repeat(10_000)); // about 6 MB of JSON: over Lambda's answer limit
    const whole = await api({ method: "GET", path: TASKS });
    expect(whole).toMatchObject({
      status: 400,
      body: { error: "Bad request", message: expect.stringMatching(/in pages with \?limit=100.*rel="next"/) },
    });
    const paged = await allPages(`${TASKS}?limit=100`, (body) => body.tasks);
    expect(paged.pages).toBe(6);
    expect(paged.items).toHaveLength(600);
  });

  describe("the fleet-sized lists read only their page (issue 28)", () => {
    const token = (place: object) => Buffer.from(JSON.stringify(place)).toString("base64url");
    const createNodes = async (count: number) => {
      for (let i = 0; i < count; i += 1) {
        const type = i % 3 === 0 ? "switch" : "compute";
        const answer = await api({
          method: "POST",
          path: "/api/1.1/nodes",
          headers: JSON_TYPE,
          body: JSON.stringify({ name: `n${i}`, type }),
        });
        expect(answer.status).toBe(201);
      }
    };

    it("pages nodes by position: the pages add up to the whole list, filters kept, each page no longer than asked", async () => {
      await createNodes(7);
      const all = (await api({ method: "GET", path: "/api/1.1/nodes" })).body;
      const first = await api({ method: "GET", path: "/api/1.1/nodes?limit=3" });
      expect(first.body).toEqual(all.slice(0, 3));
      const next = new URLSearchParams(/\?([^>]+)>/.exec(first.headers.link)![1]).get("next")!;
      // The token says where the page ended (the last node's creation time and id), not how far.
      expect(JSON.parse(Buffer.from(next, "base64url").toString())).toEqual({ a: `${all[2].createdAt}#${all[2].id}` });
      expect((await allPages("/api/1.1/nodes?limit=3", (body) => body)).items).toEqual(all);
      const switches = all.filter((node: { type: string }) => node.type === "switch");
      const paged = await allPages("/api/1.1/nodes?type=switch&limit=2", (body) => body);
      expect(paged.items).toEqual(switches);
    });

    it("pages all workflows and a node's workflows, and keeps RackHD's $skip and an older answer's offset token", async () => {
      await createNodes(1);
      const node = (await api({ method: "GET", path: "/api/1.1/nodes?type=switch" })).body[0].id;
      for (let i = 0; i < 3; i += 1) {
        const started = await api({
          method: "POST",
          path: `/api/1.1/nodes/${node}/workflows?name=Graph.noop-example`,
          headers: JSON_TYPE,
          body: "{}",
        });
        expect(started.status).toBe(201);
        // The example graph may still be running: cancel it, so that the next one may start.
        expect([200, 404]).toContain((await api({ method: "DELETE", path: `/api/1.1/nodes/${node}/workflows/active` })).status);
      }
      const all = (await api({ method: "GET", path: "/api/1.1/workflows" })).body;
      expect((await allPages("/api/1.1/workflows?limit=2", (body) => body)).items).toEqual(all);
      const mine = (await api({ method: "GET", path: `/api/1.1/nodes/${node}/workflows` })).body;
      expect(mine).toHaveLength(3);
      expect((await allPages(`/api/1.1/nodes/${node}/workflows?limit=2`, (body) => body)).items).toEqual(mine);
      expect((await api({ method: "GET", path: "/api/1.1/workflows?$top=1&$skip=1" })).body).toEqual([all[1]]);
      expect((await api({ method: "GET", path: `/api/1.1/workflows?limit=1&next=${token({ o: 2 })}` })).body).toEqual([all[2]]);
    });

    it("pages lookups, and a search's answer", async () => {
      await createNodes(1);
      const node = (await api({ method: "GET", path: "/api/1.1/nodes?type=switch" })).body[0].id;
      const stores = await provisioningStores();
      for (let n = 0; n < 5; n += 1) {
        const stamp = new Date(Date.UTC(2026, 10, 25, 0, 0, n)).toISOString();
        await stores.lookups.create({
          id: `${n}`.padStart(24, "a"),
          node,
          macAddress: `02:00:00:00:02:0${n}`,
          createdAt: stamp,
          updatedAt: stamp,
        });
      }
      const all = (await api({ method: "GET", path: "/api/1.1/lookups" })).body;
      expect(all.length).toBeGreaterThanOrEqual(5);
      expect((await allPages("/api/1.1/lookups?limit=2", (body) => body)).items).toEqual(all);
      expect((await allPages(`/api/1.1/lookups?q=${node}&limit=2`, (body) => body)).items.length).toBeGreaterThanOrEqual(5);
    });

    it("pages catalogs, with their filters", async () => {
      const node = (await api({ method: "POST", path: "/api/1.1/nodes", headers: JSON_TYPE, body: JSON.stringify({ name: "cat" }) })).body
        .id;
      const stores = await provisioningStores();
      for (const [at, source] of ["dmi", "lshw", "dmi", "ohai", "dmi"].entries())
        await stores.catalogs.add(newCatalogs(node, [{ source, data: { source } }], new Date(Date.UTC(2026, 10, 25, 0, 0, at))));
      const all = (await api({ method: "GET", path: "/api/1.1/catalogs" })).body;
      expect((await allPages("/api/1.1/catalogs?limit=2", (body) => body)).items).toEqual(all);
      const dmi = all.filter((catalog: { source: string }) => catalog.source === "dmi");
      expect((await allPages("/api/1.1/catalogs?source=dmi&limit=2", (body) => body)).items).toEqual(dmi);
      expect((await allPages(`/api/1.1/catalogs?node=${node}&limit=4`, (body) => body)).items).toEqual(
        all.filter((c: { node: string }) => c.node === node),
      );
    });

    it.each([
      ["a position that is not one", { a: "DROP TABLE" }],
      ["a position of another shape", { a: 12 }],
      ["no place at all", {}],
    ])("refuses a next token with %s: 400, nothing read", async (_case, place) => {
      const answer = await api({ method: "GET", path: `/api/1.1/nodes?limit=2&next=${token(place)}` });
      expect(answer).toMatchObject({
        status: 400,
        body: { message: 'next is not a page token of this list: follow the Link header\'s rel="next"' },
      });
    });

    it("refuses a position token on a list that pages by offset", async () => {
      const position = token({ a: "2026-11-25T00:00:00.000Z#abc" });
      expect((await api({ method: "GET", path: `${TASKS}?limit=1&next=${position}` })).status).toBe(400);
    });
  });
});
