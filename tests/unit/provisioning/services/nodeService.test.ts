import { recordAddress } from "../../../../lib/provisioning/lookups/lookupService";
import { findNode } from "../../../../lib/provisioning/nodes/findNode";
import { createNode, listNodes, listNodesPage, patchNode } from "../../../../lib/provisioning/nodes/nodeService";
import { nodeSshSettings, setNodeSshSettings } from "../../../../lib/provisioning/nodes/sshService";
import { RECORD_MAX_BYTES } from "../../../../lib/provisioning/recordSize";
import { later, memoryStores, replacing, T0 } from "./setUp";

const ipmi = { service: "ipmi-obm-service", config: { host: "10.0.0.9", user: "admin", password: "secret" } };

describe("nodeService and sshService", () => {
  it("creates a node with a client's id, lower-cased, and finds it by id, by MAC in any spelling, and by the address it booted from", async () => {
    const stores = memoryStores();
    const node = await createNode(stores, { name: "n", id: "ABCDEFABCDEFABCDEFABCDEF", identifiers: ["52-54-00-AA-BB-CC"] } as never, T0);
    expect(node.id).toBe("abcdefabcdefabcdefabcdef");
    expect((await findNode(stores, "52:54:00:aa:bb:cc")).id).toBe(node.id);
    await recordAddress(stores, "52:54:00:aa:bb:cc", node.id, "10.1.1.1", T0);
    expect((await findNode(stores, "10.1.1.1")).id).toBe(node.id);
    await expect(findNode(stores, "10.1.1.2")).rejects.toMatchObject({ message: "Could not find node with identifier 10.1.1.2" });
    await expect(findNode(stores, "x".repeat(2_000))).rejects.toMatchObject({ kind: "not-found" });
  });

  it("refuses an OBM service the node's type does not take, storing nothing", async () => {
    const stores = memoryStores();
    await expect(createNode(stores, { name: "sw", type: "switch", obmSettings: [ipmi] }, T0)).rejects.toThrow(
      "Service ipmi-obm-service is not supported in current node",
    );
    expect(await listNodes(stores, {})).toEqual([]);
  });

  it("filters the list by equality, identifiers in any spelling", async () => {
    const stores = memoryStores();
    const a = await createNode(stores, { name: "a", type: "compute", identifiers: ["52:54:00:00:00:01"] }, T0);
    await createNode(stores, { name: "b", type: "switch" }, later(1));
    expect((await listNodes(stores, { type: ["compute"] })).map((n) => n.id)).toEqual([a.id]);
    expect((await listNodes(stores, { identifiers: ["52-54-00-00-00-01"] })).map((n) => n.id)).toEqual([a.id]);
    expect(await listNodes(stores, {})).toHaveLength(2);
  });

  it("patches: 404 before reading the body, a REDACTED secret echoed back keeps the stored one, OBM settings upserted per service", async () => {
    const stores = memoryStores();
    const node = await createNode(stores, { name: "n", type: "compute", obmSettings: [ipmi] }, T0);
    const neverRead = jest.fn();
    await expect(patchNode(stores, "nope", neverRead, T0)).rejects.toMatchObject({ kind: "not-found" });
    expect(neverRead).not.toHaveBeenCalled();
    const echoed = { name: "renamed", obmSettings: [{ ...ipmi, config: { ...ipmi.config, password: "REDACTED", host: "10.0.0.10" } }] };
    const patched = await patchNode(stores, node.id, async () => echoed, later(1));
    expect(patched).toMatchObject({ name: "renamed", updatedAt: later(1).toISOString(), createdAt: T0.toISOString() });
    expect(patched.obmSettings).toEqual([
      { service: "ipmi-obm-service", config: { host: "10.0.0.10", user: "admin", password: "secret" } },
    ]);
  });

  it("keeps SSH settings: RackHD's 400 for a body without host, user and a secret; none until set", async () => {
    const stores = memoryStores();
    const node = await createNode(stores, { name: "n" }, T0);
    expect(await nodeSshSettings(stores, node.id)).toBeUndefined();
    await expect(setNodeSshSettings(stores, node.id, { host: "h", user: "u" }, T0)).rejects.toThrow("Invalid SSH body");
    await expect(setNodeSshSettings(stores, node.id, { host: "h", user: "u", password: 7 }, T0)).rejects.toThrow("Invalid SSH body");
    await expect(setNodeSshSettings(stores, "nope", {}, T0)).rejects.toMatchObject({ kind: "not-found" });
    const updated = await setNodeSshSettings(stores, node.id, { host: "h", user: "u", privateKey: "k", extra: 1 }, later(1));
    expect(updated.updatedAt).toBe(later(1).toISOString());
    expect(await nodeSshSettings(stores, node.id)).toEqual({ host: "h", user: "u", privateKey: "k" });
  });

  it("pages the list: every node unfiltered, the matches of a filter (identifiers in any spelling), page by page", async () => {
    const stores = memoryStores();
    const a = await createNode(stores, { name: "a", type: "compute", identifiers: ["52:54:00:00:00:01"] }, T0);
    const b = await createNode(stores, { name: "b", type: "switch" }, later(1));
    const first = await listNodesPage(stores, {}, { limit: 1 });
    expect(first.items.map((n) => n.id)).toEqual([a.id]);
    expect((await listNodesPage(stores, {}, { limit: 1, after: first.next })).items.map((n) => n.id)).toEqual([b.id]);
    expect((await listNodesPage(stores, { identifiers: ["52-54-00-00-00-01"] }, { limit: 5 })).items.map((n) => n.id)).toEqual([a.id]);
    expect((await listNodesPage(stores, { type: ["switch"] }, { limit: 5 })).items.map((n) => n.id)).toEqual([b.id]);
    // A filter on another key keeps its value as given: "52-54-..." is not a name.
    expect((await listNodes(stores, { name: ["A"] })).map((n) => n.id)).toEqual([]);
  });

  it("refuses a node too large to store, on create and on patch, naming a node", async () => {
    const stores = memoryStores();
    const large = "x".repeat(RECORD_MAX_BYTES);
    await expect(createNode(stores, { name: large }, T0)).rejects.toMatchObject({
      kind: "payload-too-large",
      message: expect.stringMatching(/^The node would take/),
    });
    const node = await createNode(stores, { name: "n" }, T0);
    await expect(patchNode(stores, node.id, async () => ({ name: large }), later(1))).rejects.toMatchObject({
      kind: "payload-too-large",
      message: expect.stringMatching(/^The node would take/),
    });
  });

  it("leaves the OBM settings as they are when a patch has none, and answers 404 for a node deleted meanwhile", async () => {
    const stores = memoryStores();
    const node = await createNode(stores, { name: "n", type: "compute", obmSettings: [ipmi] }, T0);
    const renamed = await patchNode(stores, node.id, async () => ({ name: "m" }), later(1));
    expect(renamed.obmSettings).toEqual(node.obmSettings);
    const gone = replacing(stores, "nodes", { update: async () => undefined });
    await expect(patchNode(gone, node.id, async () => ({ name: "o" }), later(2))).rejects.toMatchObject({
      kind: "not-found",
      message: `Could not find node with identifier ${node.id}`,
    });
  });
});
