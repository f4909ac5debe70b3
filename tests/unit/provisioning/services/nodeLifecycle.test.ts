import { apiContextFor } from "../../../../lib/provisioning/apiContext";
import { deleteNode } from "../../../../lib/provisioning/lifecycle/deleteNode";
import { findLookups, recordAddress } from "../../../../lib/provisioning/lookups/lookupService";
import { createNode } from "../../../../lib/provisioning/nodes/nodeService";
import { createPoller, nodePollers } from "../../../../lib/provisioning/pollers/pollerService";
import { requestNodeAction, setNodeSite } from "../../../../lib/provisioning/relays/nodeSite";
import { createSite } from "../../../../lib/provisioning/relays/siteService";
import { cancelNodeWorkflow, startWorkflow } from "../../../../lib/provisioning/workflows/workflowService";
import { aCatalog, aNode, later, memoryStores, T0 } from "./setUp";

const api = apiContextFor("http://localhost:9", "http://localhost:9");
const ipmi = { service: "ipmi-obm-service", config: { host: "10.0.0.9", user: "admin", password: "secret" } };

describe("deleting a node, and a node's site", () => {
  it("refuses (409) while a workflow runs on the node, then deletes it with its catalogs and pollers, its lookups losing it", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    await stores.catalogs.add([aCatalog(node.id, "dmi", {}, "c1")]);
    await createPoller(stores, { type: "snmp", pollInterval: 1_000, node: node.id }, T0);
    await recordAddress(stores, "52:54:00:00:00:01", node.id, "10.0.0.5", T0);
    await startWorkflow(stores, node.id, { name: "Graph.Discovery", options: {} }, api, T0);
    await expect(deleteNode(stores, node.id, later(1))).rejects.toMatchObject({
      kind: "conflict",
      message: `Could not remove node ${node.id}, active workflow is running`,
    });
    await cancelNodeWorkflow(stores, node.id, later(2));
    expect((await deleteNode(stores, "52:54:00:00:00:01", later(3))).id).toBe(node.id);
    expect(await stores.nodes.get(node.id)).toBeUndefined();
    expect(await stores.catalogs.forNode(node.id)).toEqual([]);
    expect((await stores.pollers.list()).length).toBe(0);
    expect((await findLookups(stores, "10.0.0.5"))[0].node).toBe("");
    await expect(deleteNode(stores, node.id, later(4))).rejects.toMatchObject({ kind: "not-found" });
    await expect(nodePollers(stores, node.id)).rejects.toMatchObject({ kind: "not-found" });
  });

  it("puts a node in a site of its relays and takes it out; a site that is not there is a 404", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    const site = await createSite(stores, { name: "lab" }, T0);
    expect((await setNodeSite(stores, node.id, site.id, later(1))).site).toBe(site.id);
    expect(await setNodeSite(stores, node.id, null, later(2))).not.toHaveProperty("site");
    await expect(setNodeSite(stores, node.id, "nope", later(3))).rejects.toMatchObject({ kind: "not-found" });
  });

  it("turns an operator's request into a relay job of the node's site, each refusal saying why", async () => {
    const stores = memoryStores();
    const site = await createSite(stores, { name: "lab" }, T0);
    const node = await createNode(stores, { name: "n", type: "compute", obmSettings: [ipmi] }, T0);
    const plain = await aNode(stores, "plain", "52:54:00:00:00:02");
    await expect(requestNodeAction(stores, node.id, { action: "on" }, "ops", T0)).rejects.toThrow(/belongs to no site/);
    await setNodeSite(stores, node.id, site.id, T0);
    await setNodeSite(stores, plain.id, site.id, T0);
    await expect(requestNodeAction(stores, plain.id, { action: "on" }, "ops", T0)).rejects.toThrow(
      `Node ${plain.id} has no IPMI or Redfish OBM setting: a relay drives only those`,
    );
    const on = await requestNodeAction(stores, node.id, { action: "on" }, "ops", T0);
    expect(on).toMatchObject({
      node: node.id,
      site: site.id,
      action: { kind: "power", action: "on" },
      requestedBy: "ops",
      obm: { service: "ipmi-obm-service" },
    });
    expect(JSON.stringify(on)).not.toContain("secret");
    expect((await requestNodeAction(stores, node.id, { device: "http", uri: "http://x/boot.efi" }, "ops", T0)).action).toEqual({
      kind: "bootDevice",
      device: "http",
      uefi: true,
      persistent: false,
      uri: "http://x/boot.efi",
    });
    expect((await requestNodeAction(stores, node.id, { identify: true }, "ops", T0)).action).toEqual({ kind: "identify", on: true });
    await expect(requestNodeAction(stores, node.id, { device: "floppy" }, "ops", T0)).rejects.toThrow(
      "device must be one of pxe, disk, http",
    );
    await expect(requestNodeAction(stores, node.id, { device: "pxe", uri: "http://x" }, "ops", T0)).rejects.toThrow(
      "uri is for device http (UEFI HTTP boot) only",
    );
    await expect(requestNodeAction(stores, node.id, { action: "explode" }, "ops", T0)).rejects.toThrow(
      /^action must be one of on, off, cycle/,
    );
  });
});
