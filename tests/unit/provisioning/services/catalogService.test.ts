import {
  getCatalog,
  listCatalogs,
  listCatalogsPage,
  nodeCatalogOfSource,
  nodeCatalogs,
} from "../../../../lib/provisioning/catalogs/catalogService";
import { aCatalog, aNode, later, memoryStores, replacing } from "./setUp";

describe("catalogService", () => {
  const setUp = async () => {
    const stores = memoryStores();
    const a = await aNode(stores, "a", "52:54:00:00:00:01");
    const b = await aNode(stores, "b", "52:54:00:00:00:02");
    await stores.catalogs.add([
      aCatalog(a.id, "dmi", { v: 1 }, "c1"),
      aCatalog(a.id, "dmi", { v: 2 }, "c2", later(1000)),
      aCatalog(a.id, "lshw", {}, "c3"),
      aCatalog(b.id, "dmi", { v: 9 }, "c4"),
    ]);
    return { stores, a, b };
  };

  it("lists every catalog, filtered by equality on top-level fields, reading one node's when the filter names one", async () => {
    const { stores, a } = await setUp();
    expect((await listCatalogs(stores, {})).map((c) => c.id).sort()).toEqual(["c1", "c2", "c3", "c4"]);
    expect((await listCatalogs(stores, { source: ["dmi"] })).map((c) => c.id).sort()).toEqual(["c1", "c2", "c4"]);
    expect((await listCatalogs(stores, { node: [a.id], source: ["dmi"] })).map((c) => c.id).sort()).toEqual(["c1", "c2"]);
    expect(await listCatalogs(stores, { node: ["x".repeat(2_000)] })).toEqual([]);
  });

  it("pages the same list: one node's catalogs from its own list, the fleet's filtered page by page", async () => {
    const { stores, a } = await setUp();
    const all = async (filters: Record<string, string[]>) => {
      const ids: string[] = [];
      let after: string | undefined;
      for (let i = 0; i < 10; i++) {
        const page = await listCatalogsPage(stores, filters, { limit: 1, ...(after && { after }) });
        ids.push(...page.items.map((catalog) => catalog.id));
        if (!page.next) return ids;
        after = page.next;
      }
      throw new Error("more pages than catalogs");
    };
    expect((await all({ source: ["dmi"] })).sort()).toEqual(["c1", "c2", "c4"]);
    expect((await all({ node: [a.id], source: ["dmi"] })).sort()).toEqual(["c1", "c2"]);
    expect((await all({})).sort()).toEqual(["c1", "c2", "c3", "c4"]);
    expect((await listCatalogsPage(stores, { node: [a.id] }, { limit: 2 })).items).toHaveLength(2);
  });

  it("answers a node's catalogs by id or MAC, and the newest of a source", async () => {
    const { stores, a } = await setUp();
    expect((await nodeCatalogs(stores, "52:54:00:00:00:01")).map((c) => c.id).sort()).toEqual(["c1", "c2", "c3"]);
    expect(await nodeCatalogOfSource(stores, a.id, "dmi")).toMatchObject({ id: "c2", data: { v: 2 } });
  });

  it("answers RackHD's 404 texts for a catalog, a node or a source that is not there", async () => {
    const { stores, a } = await setUp();
    expect(await getCatalog(stores, "c4")).toMatchObject({ source: "dmi" });
    await expect(getCatalog(stores, "c9")).rejects.toMatchObject({
      kind: "not-found",
      message: "Could not find catalog with identifier c9",
    });
    await expect(getCatalog(stores, "x".repeat(2_000))).rejects.toMatchObject({ kind: "not-found" });
    await expect(nodeCatalogs(stores, "nope")).rejects.toMatchObject({ kind: "not-found" });
    await expect(nodeCatalogOfSource(stores, a.id, "ipmi")).rejects.toMatchObject({ message: "No Catalogs Found for Source (ipmi)." });
    await expect(nodeCatalogOfSource(stores, a.id, "x".repeat(2_000))).rejects.toMatchObject({ kind: "not-found" });
  });

  it("reads only the named node's catalogs for a node filter, never the fleet's list or pages", async () => {
    const { stores, a } = await setUp();
    const fleetUnread = replacing(stores, "catalogs", {
      list: async () => {
        throw new Error("read the fleet's catalogs");
      },
      page: async () => {
        throw new Error("read a page of the fleet's catalogs");
      },
    });
    expect((await listCatalogs(fleetUnread, { node: [a.id] })).map((c) => c.id).sort()).toEqual(["c1", "c2", "c3"]);
    expect((await listCatalogsPage(fleetUnread, { node: [a.id] }, { limit: 5 })).items.map((c) => c.id).sort()).toEqual(["c1", "c2", "c3"]);
  });
});
