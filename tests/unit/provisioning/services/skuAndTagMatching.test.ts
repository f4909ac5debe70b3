import type { Sku } from "../../../../lib/provisioning/skus/sku";
import { assignSku, chooseSku, latestCatalogs } from "../../../../lib/provisioning/skus/skuMatching";
import type { Tag } from "../../../../lib/provisioning/tags/tag";
import { addTags, applyTags } from "../../../../lib/provisioning/tags/tagMatching";
import { aCatalog, aNode, later, memoryStores, T0 } from "./setUp";

/** RackHD's generate-sku and generate-tag (§4.3) on a node's latest catalogs. */
const sku = (id: string, rules: Sku["rules"], createdAt = T0.toISOString()): Sku => ({
  id,
  name: id,
  rules,
  createdAt,
  updatedAt: createdAt,
});
const tag = (name: string, rules: Tag["rules"]): Tag => ({
  id: name,
  name,
  rules,
  createdAt: T0.toISOString(),
  updatedAt: T0.toISOString(),
});
const catalogs = { dmi: { system: { vendor: "QEMU", product: "Standard PC" } }, ohai: { cpu: { total: 2 } } };

describe("choosing a node's SKU", () => {
  it("takes the SKU with the deepest matching rule path; one without rules matches any node; none when none matches", () => {
    const any = sku("any", []);
    const shallow = sku("shallow", [{ path: "ohai.cpu", contains: "2" }]);
    const deep = sku("deep", [{ path: "dmi.system.vendor", equals: "QEMU" }]);
    const wrong = sku("wrong", [{ path: "dmi.system.vendor.name.x", equals: "Dell" }]);
    expect(chooseSku([deep, shallow, any, wrong], catalogs)?.id).toBe("deep");
    expect(chooseSku([shallow, any], catalogs)?.id).toBe("shallow");
    expect(chooseSku([any], {})?.id).toBe("any");
    expect(chooseSku([wrong], catalogs)).toBeNull();
    expect(chooseSku([], catalogs)).toBeNull();
  });

  it("breaks a tie of depth for the newest SKU, and of creation time for the greater id", () => {
    const rules = [{ path: "dmi.system.vendor", equals: "QEMU" }];
    const older = sku("b", rules, T0.toISOString());
    const newer = sku("a", rules, later(1).toISOString());
    expect(chooseSku([newer, older], catalogs)?.id).toBe("a");
    expect(chooseSku([older, newer], catalogs)?.id).toBe("a");
    expect(chooseSku([sku("x", rules), sku("y", rules)], catalogs)?.id).toBe("y");
    expect(chooseSku([sku("y", rules), sku("x", rules)], catalogs)?.id).toBe("y");
  });

  it("reads the latest catalog of each source the rules name, and sets the SKU once (no write when it is the same)", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    await stores.catalogs.add([
      aCatalog(node.id, "dmi", { system: { vendor: "Dell" } }, "c1"),
      aCatalog(node.id, "dmi", catalogs.dmi, "c2", later(5)),
      aCatalog(node.id, "lshw", {}, "c3"),
    ]);
    expect(await latestCatalogs(stores, node.id, ["dmi", "ohai"])).toEqual({ dmi: catalogs.dmi });
    const qemu = sku("qemu", [{ path: "dmi.system.vendor", equals: "QEMU" }]);
    const assigned = await assignSku(stores, node, [qemu], later(10));
    expect(assigned).toMatchObject({ sku: "qemu", updatedAt: later(10).toISOString() });
    expect(await assignSku(stores, assigned, [qemu], later(20))).toBe(assigned);
    expect((await stores.nodes.get(node.id))?.updatedAt).toBe(later(10).toISOString());
    expect((await assignSku(stores, assigned, [], later(30))).sku).toBeNull();
  });

  it("leaves a node that another request already put in the SKU as it is, from an older copy of it", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    await stores.catalogs.add([aCatalog(node.id, "dmi", catalogs.dmi, "c1")]);
    const qemu = sku("qemu", [{ path: "dmi.system.vendor", equals: "QEMU" }]);
    const first = await assignSku(stores, node, [qemu], later(10));
    const again = await assignSku(stores, node, [qemu], later(20));
    expect(again).toEqual(first);
    expect((await stores.nodes.get(node.id))?.updatedAt).toBe(later(10).toISOString());
  });
});

describe("tagging a node from its catalogs", () => {
  it("adds every tag whose rules all pass, once, never removes one, and skips tags without rules", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    await stores.catalogs.add([aCatalog(node.id, "dmi", catalogs.dmi, "c1")]);
    await stores.nodes.update(node.id, (current) => ({ ...current, tags: ["by-hand"] }));
    const tags = [
      tag("qemu", [{ path: "dmi.system.vendor", equals: "QEMU" }]),
      tag("dell", [{ path: "dmi.system.vendor", equals: "Dell" }]),
      tag("both", [
        { path: "dmi.system.vendor", equals: "QEMU" },
        { path: "dmi.system.product", contains: "Nothing" },
      ]),
      tag("everyone", []),
    ];
    const tagged = await applyTags(stores, (await stores.nodes.get(node.id))!, tags, later(1));
    expect(tagged.tags).toEqual(["by-hand", "qemu"]);
    expect(await applyTags(stores, tagged, tags, later(2))).toBe(tagged);
    expect(await applyTags(stores, tagged, [tag("everyone", [])], later(3))).toBe(tagged);
  });

  it("adds names as a set: no repeats, no write when the node has them all", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    const added = await addTags(stores, node, ["a", "b", "a"], later(1));
    expect(added).toMatchObject({ tags: ["a", "b"], updatedAt: later(1).toISOString() });
    expect(await addTags(stores, added, ["b", "a"], later(2))).toBe(added);
    expect((await addTags(stores, added, ["c"], later(3))).tags).toEqual(["a", "b", "c"]);
  });
});
