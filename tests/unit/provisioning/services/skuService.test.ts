import { RECORD_MAX_BYTES } from "../../../../lib/provisioning/recordSize";
import { createSku, deleteSku, getSku, listSkus, patchSku, skuNodes, skuNodesPage } from "../../../../lib/provisioning/skus/skuService";
import { aCatalog, aNode, later, memoryStores, replacing, T0 } from "./setUp";

const dellRule = [{ path: "dmi.System Information.Manufacturer", equals: "Dell" }];

describe("skuService", () => {
  const setUp = async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    await stores.catalogs.add([aCatalog(node.id, "dmi", { "System Information": { Manufacturer: "Dell" } }, "c1")]);
    return { stores, node };
  };

  it("creates a SKU, keeps its extra keys, and puts every node its rules match in it before answering", async () => {
    const { stores, node } = await setUp();
    const sku = await createSku(stores, { name: "dell", rules: dellRule, owner: "ops", id: "ignored" }, T0);
    expect(sku).toMatchObject({ name: "dell", owner: "ops", createdAt: T0.toISOString() });
    expect(sku.id).not.toBe("ignored");
    expect((await stores.nodes.get(node.id))?.sku).toBe(sku.id);
    expect((await skuNodes(stores, sku.id)).map((n) => n.id)).toEqual([node.id]);
  });

  it("refuses a SKU without a name, with bad rules or bad graph fields, and stores nothing", async () => {
    const { stores } = await setUp();
    await expect(createSku(stores, { rules: dellRule }, T0)).rejects.toThrow("name (string) is required");
    await expect(createSku(stores, { name: "", rules: dellRule }, T0)).rejects.toThrow("name (string) is required");
    await expect(createSku(stores, { name: "x", rules: [{ path: "a", nope: 1 }] }, T0)).rejects.toMatchObject({ kind: "bad-request" });
    await expect(createSku(stores, { name: "x", rules: dellRule, discoveryGraphName: 7 }, T0)).rejects.toThrow(
      "discoveryGraphName must be a graph name",
    );
    await expect(createSku(stores, { name: "x", rules: dellRule, discoveryGraphOptions: [] }, T0)).rejects.toThrow(
      "discoveryGraphOptions must be an object",
    );
    expect(await listSkus(stores, {})).toEqual([]);
  });

  it("patches only what it is given, checks it, and matches the nodes again", async () => {
    const { stores, node } = await setUp();
    const sku = await createSku(stores, { name: "dell", rules: dellRule }, T0);
    const renamed = await patchSku(stores, sku.id, { name: "dell-r640", createdAt: "1999" }, later(1000));
    expect(renamed).toMatchObject({
      name: "dell-r640",
      rules: dellRule,
      createdAt: T0.toISOString(),
      updatedAt: later(1000).toISOString(),
    });
    await expect(patchSku(stores, sku.id, { name: "" }, T0)).rejects.toThrow("name (string) is required");
    await patchSku(stores, sku.id, { rules: [{ path: "dmi.System Information.Manufacturer", equals: "HP" }] }, later(2000));
    expect((await stores.nodes.get(node.id))?.sku).toBeNull();
  });

  it("answers RackHD's 404 text for an id no SKU has, also one longer than any key", async () => {
    const { stores } = await setUp();
    await expect(getSku(stores, "nope")).rejects.toMatchObject({ kind: "not-found", message: "Could not find sku with identifier nope" });
    await expect(getSku(stores, "x".repeat(2_000))).rejects.toMatchObject({ kind: "not-found" });
    await expect(patchSku(stores, "nope", { name: "a" }, T0)).rejects.toMatchObject({ kind: "not-found" });
    await expect(deleteSku(stores, "nope", T0)).rejects.toMatchObject({ kind: "not-found" });
    await expect(skuNodes(stores, "nope")).rejects.toMatchObject({ kind: "not-found" });
  });

  it("deletes a SKU and takes its nodes out of it", async () => {
    const { stores, node } = await setUp();
    const sku = await createSku(stores, { name: "dell", rules: dellRule }, T0);
    await deleteSku(stores, sku.id, later(1));
    expect((await stores.nodes.get(node.id))?.sku).toBeNull();
    await expect(getSku(stores, sku.id)).rejects.toMatchObject({ kind: "not-found" });
  });

  it("filters the list by equality on top-level fields", async () => {
    const { stores } = await setUp();
    await createSku(stores, { name: "a", rules: dellRule }, T0);
    await createSku(stores, { name: "b", rules: dellRule }, later(1));
    expect((await listSkus(stores, { name: ["b"] })).map((s) => s.name)).toEqual(["b"]);
    expect(await listSkus(stores, { name: ["c"] })).toEqual([]);
  });

  it("checks a patch's rules, takes a graph name, and refuses a SKU too large to store, naming it", async () => {
    const { stores } = await setUp();
    const sku = await createSku(stores, { name: "dell", rules: dellRule, discoveryGraphName: "Graph.Custom" }, T0);
    expect(sku.discoveryGraphName).toBe("Graph.Custom");
    await expect(patchSku(stores, sku.id, { rules: [{ path: "a.b", nope: 1 }] }, T0)).rejects.toMatchObject({
      kind: "bad-request",
      message: expect.stringMatching(/^SKU rule 0 /),
    });
    const large = "x".repeat(RECORD_MAX_BYTES);
    await expect(createSku(stores, { name: "big", rules: dellRule, note: large }, T0)).rejects.toMatchObject({
      kind: "payload-too-large",
      message: expect.stringMatching(/^The SKU would take/),
    });
    await expect(patchSku(stores, sku.id, { note: large }, T0)).rejects.toMatchObject({
      kind: "payload-too-large",
      message: expect.stringMatching(/^The SKU would take/),
    });
    expect((await getSku(stores, sku.id)).rules).toEqual(dellRule);
  });

  it("answers 404 for a SKU deleted while its patch was made", async () => {
    const { stores } = await setUp();
    const sku = await createSku(stores, { name: "dell", rules: dellRule }, T0);
    const racing = replacing(stores, "skus", { update: async () => undefined });
    await expect(patchSku(racing, sku.id, { name: "r640" }, later(1))).rejects.toMatchObject({
      kind: "not-found",
      message: `Could not find sku with identifier ${sku.id}`,
    });
  });

  it("answers a page of a SKU's nodes, and 404 for a SKU that does not exist", async () => {
    const { stores, node } = await setUp();
    const sku = await createSku(stores, { name: "dell", rules: dellRule }, T0);
    expect((await skuNodesPage(stores, sku.id, { limit: 10 })).items.map((each) => each.id)).toEqual([node.id]);
    await expect(skuNodesPage(stores, "nope", { limit: 10 })).rejects.toMatchObject({ kind: "not-found" });
  });

  it("keeps the stored BMC password when a SKU is echoed back with it redacted, and takes a new one", async () => {
    const stores = memoryStores();
    const options = { defaults: { user: "ops", password: "Bmc-Pa55" } };
    const sku = await createSku(
      stores,
      { name: "bmc", rules: [], discoveryGraphName: "Graph.Obm.Ipmi.CreateSettings", discoveryGraphOptions: options },
      T0,
    );
    await patchSku(stores, sku.id, { discoveryGraphOptions: { defaults: { user: "ops", password: "REDACTED" } } }, later(1));
    expect((await getSku(stores, sku.id)).discoveryGraphOptions).toEqual(options);
    await patchSku(stores, sku.id, { discoveryGraphOptions: { defaults: { user: "root", password: "New-Pa55" } } }, later(2));
    expect((await getSku(stores, sku.id)).discoveryGraphOptions).toEqual({ defaults: { user: "root", password: "New-Pa55" } });
    await patchSku(stores, sku.id, { name: "renamed" }, later(3));
    expect((await getSku(stores, sku.id)).discoveryGraphOptions).toEqual({ defaults: { user: "root", password: "New-Pa55" } });
  });
});
