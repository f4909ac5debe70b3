import { apiContextFor } from "../../../../lib/provisioning/apiContext";
import { createNode } from "../../../../lib/provisioning/nodes/nodeService";
import { reportJobResult } from "../../../../lib/provisioning/relayResults/reportJobResult";
import { leaseJobs } from "../../../../lib/provisioning/relays/jobService";
import { setNodeSite } from "../../../../lib/provisioning/relays/nodeSite";
import type { RelayCredential } from "../../../../lib/provisioning/relays/site";
import { createSite } from "../../../../lib/provisioning/relays/siteService";
import { getWorkflow, startWorkflow } from "../../../../lib/provisioning/workflows/workflowService";
import { later, memoryStores, type Stores, T0 } from "./setUp";

/**
 * A Redfish BMC's BIOS and firmware through the site's relay (issue 53): the read jobs' answers
 * become the node's catalogs as they arrive, a BIOS setting is a job of its attributes, and what
 * the relay sends back that cannot be a catalog fails its task saying why.
 */
const api = apiContextFor("http://10.0.0.1:9080");
const redfish = { service: "redfish-obm-service", config: { uri: "https://10.0.0.9", user: "root", password: "calvin" } };

async function redfishNode(stores: Stores) {
  const site = await createSite(stores, { name: "lab" }, T0);
  const node = await createNode(stores, { name: "r1", identifiers: ["52:54:00:53:0f:01"], obmSettings: [redfish] }, T0);
  await setNodeSite(stores, node.id, site.id, T0);
  const relay: RelayCredential = { id: "relay-a", site: site.id, name: "a", secretSha256: "0".repeat(64), createdAt: T0.toISOString() };
  return { node, relay };
}

/** The relay takes the next job and answers it. */
async function answer(stores: Stores, relay: RelayCredential, output: string, at: Date, ok = true) {
  const [job] = await leaseJobs(stores, relay, 1, at);
  await reportJobResult(stores, relay, job.id, { leaseId: job.lease!.id, ok, output }, at);
  return job;
}

describe("Redfish BIOS attributes and firmware inventory through the relay", () => {
  it("reads both into the node's catalogs (Graph.Redfish.Catalog)", async () => {
    const stores = memoryStores();
    const { node, relay } = await redfishNode(stores);
    const workflow = await startWorkflow(stores, node.id, { name: "Graph.Redfish.Catalog", options: {} }, api, T0);
    const bios = { attributes: { BootMode: "Uefi" }, pending: {}, bootOrder: ["NIC.Slot.1-1"] };
    const first = await answer(stores, relay, JSON.stringify(bios), later(1));
    expect(first.action).toEqual({ kind: "inventory", what: "bios" });
    const second = await answer(stores, relay, JSON.stringify({ items: [{ id: "BIOS", version: "1.45" }], listed: 1 }), later(2));
    expect(second.action).toEqual({ kind: "inventory", what: "firmware" });
    expect((await getWorkflow(stores, workflow.instanceId, later(3)))._status).toBe("succeeded");
    expect((await stores.catalogs.latest(node.id, "redfish-bios"))?.data).toEqual(bios);
    expect((await stores.catalogs.latest(node.id, "redfish-firmware"))?.data).toMatchObject({ listed: 1 });
  });

  it("fails the read's task when the relay's answer is not JSON, and keeps no catalog", async () => {
    const stores = memoryStores();
    const { node, relay } = await redfishNode(stores);
    const workflow = await startWorkflow(stores, node.id, { name: "Graph.Redfish.Catalog", options: {} }, api, T0);
    await answer(stores, relay, "<html>", later(1));
    const ended = await getWorkflow(stores, workflow.instanceId, later(2));
    expect(ended._status).toBe("failed");
    expect(Object.values(ended.tasks).find((task) => task.label === "catalog-redfish-bios")?.error).toBe(
      "The relay's answer to read the BIOS attributes and boot order is not JSON",
    );
    expect(await stores.catalogs.latest(node.id, "redfish-bios")).toBeUndefined();
    // An answer larger than a record may be: the task fails saying which catalog and why, nothing kept.
    const again = await startWorkflow(stores, node.id, { name: "Graph.Redfish.Catalog", options: {} }, api, later(3));
    await answer(stores, relay, JSON.stringify({ attributes: { Huge: "x".repeat(500_000) } }), later(4));
    const refused = await getWorkflow(stores, again.instanceId, later(5));
    expect(Object.values(refused.tasks).find((task) => task.label === "catalog-redfish-bios")?.error).toMatch(/^redfish-bios: .+/);
    expect(await stores.catalogs.latest(node.id, "redfish-bios")).toBeUndefined();
  });

  it("sets BIOS attributes as a job of them (Graph.Redfish.Bios.Set); attributes that are not a flat object of values fail the task", async () => {
    const stores = memoryStores();
    const { node, relay } = await redfishNode(stores);
    const set = await startWorkflow(
      stores,
      node.id,
      { name: "Graph.Redfish.Bios.Set", options: { "set-bios": { attributes: { ProcTurboMode: "Disabled", ProcCoreDisable: 2 } } } },
      api,
      T0,
    );
    const job = await answer(stores, relay, "BIOS attributes ProcTurboMode, ProcCoreDisable set for the next reset", later(1));
    expect(job.action).toEqual({ kind: "biosSettings", attributes: { ProcTurboMode: "Disabled", ProcCoreDisable: 2 } });
    expect((await getWorkflow(stores, set.instanceId, later(2)))._status).toBe("succeeded");
    for (const attributes of [{}, { Nested: { a: 1 } }, ["x"], "x", { Big: Number.POSITIVE_INFINITY }]) {
      const bad = await startWorkflow(
        stores,
        node.id,
        { name: "Graph.Redfish.Bios.Set", options: { "set-bios": { attributes } } },
        api,
        later(3),
      );
      const ended = await getWorkflow(stores, bad.instanceId, later(4));
      expect(ended._status).toBe("failed");
      expect(Object.values(ended.tasks)[0].error).toBe("No relay action for setBios");
    }
  });
});
