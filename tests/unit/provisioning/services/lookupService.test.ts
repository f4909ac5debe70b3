import {
  createLookup,
  deleteLookup,
  findLookups,
  findLookupsPage,
  forgetNode,
  getLookup,
  nodeAtAddress,
  patchLookup,
  recordAddress,
} from "../../../../lib/provisioning/lookups/lookupService";
import { createNode } from "../../../../lib/provisioning/nodes/nodeService";
import { later, memoryStores, replacing, T0 } from "./setUp";

const NODE_A = "aaaaaaaaaaaaaaaaaaaaaaaa";
const NODE_B = "bbbbbbbbbbbbbbbbbbbbbbbb";

describe("lookupService", () => {
  it("creates a lookup with the MAC as RackHD keeps it (lower case, colons), and finds it by MAC, IP or node", async () => {
    const stores = memoryStores();
    const lookup = await createLookup(stores, { macAddress: "52-54-00-AB-CD-EF", ipAddress: "10.0.0.5", node: NODE_A }, T0);
    expect(lookup).toMatchObject({ macAddress: "52:54:00:ab:cd:ef", ipAddress: "10.0.0.5", node: NODE_A });
    expect(await findLookups(stores, "52:54:00:AB:CD:EF")).toEqual([lookup]);
    expect(await findLookups(stores, "10.0.0.5")).toEqual([lookup]);
    expect(await findLookups(stores, NODE_A.toUpperCase())).toEqual([lookup]);
    expect(await findLookups(stores, "10.0.0.6")).toEqual([]);
    expect(await findLookups(stores, "x".repeat(2_000))).toEqual([]);
    expect(await findLookups(stores, undefined)).toEqual([lookup]);
    expect(await findLookups(stores, "")).toEqual([lookup]);
  });

  it("refuses a bad MAC or IP, a missing MAC, and a MAC or IP another lookup has (400), storing nothing", async () => {
    const stores = memoryStores();
    await createLookup(stores, { macAddress: "52:54:00:00:00:01", ipAddress: "10.0.0.1" }, T0);
    await expect(createLookup(stores, { macAddress: "not-a-mac" }, T0)).rejects.toThrow("macAddress must be a MAC address (got not-a-mac)");
    await expect(createLookup(stores, { macAddress: "52:54:00:00:00:02", ipAddress: "10.0.0.256" }, T0)).rejects.toThrow(
      "ipAddress must be an IPv4 address",
    );
    await expect(createLookup(stores, { ipAddress: "10.0.0.3" }, T0)).rejects.toThrow("macAddress is required");
    await expect(createLookup(stores, { macAddress: "52:54:00:00:00:01" }, T0)).rejects.toMatchObject({ kind: "bad-request" });
    await expect(createLookup(stores, { macAddress: "52:54:00:00:00:09", ipAddress: "10.0.0.1" }, T0)).rejects.toMatchObject({
      kind: "bad-request",
    });
    expect(await findLookups(stores, undefined)).toHaveLength(1);
  });

  it("patches the fields given, and answers RackHD's 404 text for an unknown id", async () => {
    const stores = memoryStores();
    const lookup = await createLookup(stores, { macAddress: "52:54:00:00:00:01" }, T0);
    const patched = await patchLookup(stores, lookup.id, { ipAddress: "10.0.0.7" }, later(1));
    expect(patched).toMatchObject({ macAddress: "52:54:00:00:00:01", ipAddress: "10.0.0.7", updatedAt: later(1).toISOString() });
    await expect(patchLookup(stores, lookup.id, { ipAddress: "ten" }, T0)).rejects.toMatchObject({ kind: "bad-request" });
    await expect(getLookup(stores, "nope")).rejects.toMatchObject({ message: 'Could not find lookup with criteria {"id":"nope"}.' });
    await expect(patchLookup(stores, "nope", {}, T0)).rejects.toMatchObject({ kind: "not-found" });
    expect(await deleteLookup(stores, lookup.id)).toEqual(patched);
    await expect(deleteLookup(stores, lookup.id)).rejects.toMatchObject({ kind: "not-found" });
    await expect(getLookup(stores, "x".repeat(2_000))).rejects.toMatchObject({ kind: "not-found" });
  });

  it("records a machine's address: an address moves to the machine that used it last", async () => {
    const stores = memoryStores();
    await recordAddress(stores, "52:54:00:00:00:01", NODE_A, "10.0.0.9", T0);
    expect(await nodeAtAddress(stores, "10.0.0.9")).toBe(NODE_A);
    await recordAddress(stores, "52:54:00:00:00:02", NODE_B, "10.0.0.9", later(1));
    expect(await nodeAtAddress(stores, "10.0.0.9")).toBe(NODE_B);
    const [first] = await findLookups(stores, "52:54:00:00:00:01");
    expect(first.ipAddress).toBeUndefined();
    expect(first.node).toBe(NODE_A);
  });

  it("writes nothing when the lookup already says what was seen", async () => {
    const stores = memoryStores();
    await recordAddress(stores, "52:54:00:00:00:01", NODE_A, "10.0.0.9", T0);
    await recordAddress(stores, "52:54:00:00:00:01", NODE_A, undefined, later(5));
    await recordAddress(stores, "52:54:00:00:00:01", NODE_A, "10.0.0.9", later(5));
    const [lookup] = await findLookups(stores, "10.0.0.9");
    expect(lookup.updatedAt).toBe(T0.toISOString());
  });

  it("never fails a boot when many machines behind one address take turns on it", async () => {
    const stores = memoryStores();
    const macs = Array.from({ length: 16 }, (_, i) => `52:54:00:00:01:${i.toString(16).padStart(2, "0")}`);
    await Promise.all(macs.map((mac, i) => recordAddress(stores, mac, `${i.toString(16).padStart(24, "0")}`, "10.0.0.1", T0)));
    const all = await findLookups(stores, undefined);
    expect(all).toHaveLength(16);
    expect(all.filter((lookup) => lookup.ipAddress === "10.0.0.1")).toHaveLength(1);
  });

  it("keeps a deleted node's lookups without the node, and names no node for an address whose lookup has none", async () => {
    const stores = memoryStores();
    await recordAddress(stores, "52:54:00:00:00:01", NODE_A, "10.0.0.9", T0);
    await forgetNode(stores, NODE_A, later(1));
    const [lookup] = await findLookups(stores, "10.0.0.9");
    expect(lookup).toMatchObject({ node: "", updatedAt: later(1).toISOString() });
    expect(await nodeAtAddress(stores, "10.0.0.9")).toBeUndefined();
    expect(await nodeAtAddress(stores, "10.0.0.10")).toBeUndefined();
  });

  it("pages every lookup with no term, and a search's answer by its term; a MAC in any case; a long term finds nothing", async () => {
    const stores = memoryStores();
    const a = await createLookup(stores, { macAddress: "52:54:00:00:00:01", node: NODE_A }, T0);
    const b = await createLookup(stores, { macAddress: "52:54:00:00:00:02" }, later(1));
    expect(b.node).toBe("");
    const first = await findLookupsPage(stores, undefined, { limit: 1 });
    expect(first.items).toEqual([a]);
    expect((await findLookupsPage(stores, "", { limit: 1, after: first.next })).items).toEqual([b]);
    expect((await findLookupsPage(stores, NODE_A, { limit: 5 })).items).toEqual([a]);
    // A term that is no MAC is looked for as written, lower-cased (RackHD kept MACs in lower case).
    await stores.lookups.create({ ...b, id: "c".repeat(24), macAddress: "odd-id", createdAt: later(2).toISOString() });
    expect((await findLookups(stores, "ODD-ID")).map((lookup) => lookup.macAddress)).toEqual(["odd-id"]);
    expect(await findLookupsPage(stores, "x".repeat(2_000), { limit: 5 })).toEqual({ items: [] });
  });

  it("keeps a lookup's node when a patch names none, and answers 404 for one deleted meanwhile", async () => {
    const stores = memoryStores();
    const lookup = await createLookup(stores, { macAddress: "52:54:00:00:00:01", node: NODE_A }, T0);
    expect((await patchLookup(stores, lookup.id, { ipAddress: "10.0.0.7" }, later(1))).node).toBe(NODE_A);
    const gone = replacing(stores, "lookups", { update: async () => undefined });
    await expect(patchLookup(gone, lookup.id, { ipAddress: "10.0.0.8" }, later(2))).rejects.toMatchObject({
      kind: "not-found",
      message: `Could not find lookup with criteria {"id":"${lookup.id}"}.`,
    });
  });

  describe("whose word a MAC is taken on", () => {
    const MAC = "52:54:00:00:00:01";
    const lookupOf = async (stores: ReturnType<typeof memoryStores>) => (await findLookups(stores, MAC))[0];

    it("moves a MAC to the node the service booted it as, and its new address with it", async () => {
      const stores = memoryStores();
      await recordAddress(stores, MAC, NODE_A, "10.0.0.9", T0);
      await recordAddress(stores, MAC, NODE_A, "10.0.0.10", later(1));
      expect(await lookupOf(stores)).toMatchObject({ node: NODE_A, ipAddress: "10.0.0.10", updatedAt: later(1).toISOString() });
      await recordAddress(stores, MAC, NODE_B, undefined, later(2));
      expect(await lookupOf(stores)).toMatchObject({ node: NODE_B, ipAddress: "10.0.0.10" });
    });

    it("never moves another node's MAC on a machine's own word, but takes one no node holds", async () => {
      const stores = memoryStores();
      await recordAddress(stores, MAC, NODE_A, "10.0.0.9", T0);
      await recordAddress(stores, MAC, NODE_B, "10.0.0.11", later(1), "unclaimed");
      expect(await lookupOf(stores)).toMatchObject({ node: NODE_A, ipAddress: "10.0.0.9", updatedAt: T0.toISOString() });
      await forgetNode(stores, NODE_A, later(2));
      await recordAddress(stores, MAC, NODE_B, undefined, later(3), "unclaimed");
      expect(await lookupOf(stores)).toMatchObject({ node: NODE_B, ipAddress: "10.0.0.9" });
    });

    it("records a new MAC on a machine's own word unless another node was made with it", async () => {
      const stores = memoryStores();
      await recordAddress(stores, "52:54:00:00:00:05", NODE_A, undefined, T0, "unclaimed");
      expect((await findLookups(stores, "52:54:00:00:00:05"))[0]).toMatchObject({ node: NODE_A });
      const other = await createNode(stores, { name: "made", identifiers: ["52:54:00:00:00:06"] }, T0);
      await recordAddress(stores, "52:54:00:00:00:06", NODE_A, undefined, T0, "unclaimed");
      expect(await findLookups(stores, "52:54:00:00:00:06")).toEqual([]);
      await recordAddress(stores, "52:54:00:00:00:06", other.id, undefined, T0, "unclaimed");
      expect((await findLookups(stores, "52:54:00:00:00:06"))[0]).toMatchObject({ node: other.id });
    });

    it("passes on a store's failure other than a taken address", async () => {
      const stores = replacing(memoryStores(), "lookups", {
        byMac: async () => {
          throw new Error("store down");
        },
      });
      await expect(recordAddress(stores, MAC, NODE_A, "10.0.0.9", T0)).rejects.toThrow("store down");
    });
  });
});
