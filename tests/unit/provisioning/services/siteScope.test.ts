import { scopedStores } from "../../../../lib/provisioning/relays/siteScope";
import { aNode, memoryStores, T0 } from "./setUp";

/** Issue 35 §1: a site's view of the nodes holds its own and no other, for every call a boot route may make. */
describe("a site's view of the nodes", () => {
  const twoSites = async () => {
    const stores = memoryStores();
    const mine = await stores.nodes.update((await aNode(stores, "mine", "52:54:00:00:00:0a")).id, (n) => ({ ...n, site: "site-a" }));
    const theirs = await stores.nodes.update((await aNode(stores, "theirs", "52:54:00:00:00:0b")).id, (n) => ({ ...n, site: "site-b" }));
    const siteless = await aNode(stores, "none", "52:54:00:00:00:0c");
    return { stores, view: scopedStores(stores, { site: "site-a" }).nodes, mine: mine!, theirs: theirs!, siteless };
  };

  it("is the whole store when no relay forwarded the request", () => {
    const stores = memoryStores();
    expect(scopedStores(stores, {})).toBe(stores);
  });

  it("finds, lists and pages only the site's nodes", async () => {
    const { view, mine, theirs, siteless } = await twoSites();
    expect(await view.get(mine.id)).toEqual(mine);
    for (const hidden of [theirs, siteless]) {
      expect(await view.get(hidden.id)).toBeUndefined();
      expect(await view.find(hidden.identifiers[0])).toBeUndefined();
    }
    expect((await view.list()).map((node) => node.name)).toEqual(["mine"]);
    expect((await view.page({ limit: 10 })).items.map((node) => node.name)).toEqual(["mine"]);
    expect(await view.withTag("none")).toEqual([]);
    expect(await view.withSku("none")).toEqual([]);
    expect((await view.pageWithSku("none", { limit: 10 })).items).toEqual([]);
  });

  it("changes and removes nothing of another site's, answering as for a node that does not exist", async () => {
    const { stores, view, theirs } = await twoSites();
    expect(await view.update(theirs.id, (node) => ({ ...node, name: "taken" }))).toBeUndefined();
    expect(await view.update(theirs.id, (node) => ({ ...node, name: "taken" }), theirs)).toBeUndefined();
    expect(await view.delete(theirs.id)).toBeUndefined();
    expect(await stores.nodes.get(theirs.id)).toEqual(theirs);
  });

  it("changes and removes its own", async () => {
    const { stores, view, mine } = await twoSites();
    expect((await view.update(mine.id, (node) => ({ ...node, name: "renamed" })))?.name).toBe("renamed");
    expect((await view.delete(mine.id))?.id).toBe(mine.id);
    expect(await stores.nodes.get(mine.id)).toBeUndefined();
  });

  it("makes new nodes in its site, and answers a 404 that names nothing for another site's identifier", async () => {
    const { view, theirs, mine } = await twoSites();
    const made = await view.create({ ...mine, id: "0123456789abcdef0123456a", name: "new", identifiers: ["52:54:00:00:00:0d"] });
    expect(made.site).toBe("site-a");
    await expect(
      view.create({
        ...mine,
        id: "0123456789abcdef0123456b",
        identifiers: ["52:54:00:00:00:0e", theirs.identifiers[0]],
        createdAt: T0.toISOString(),
      }),
    ).rejects.toMatchObject({ kind: "not-found", message: "Not Found" });
    // A clash with its own node stays the conflict it is.
    await expect(view.create({ ...mine, id: "0123456789abcdef0123456c" })).rejects.toMatchObject({ kind: "conflict" });
  });
});
