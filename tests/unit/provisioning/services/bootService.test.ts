import { apiContextFor } from "../../../../lib/provisioning/apiContext";
import { bootProfile, NO_ACTIVE_WORKFLOW, nodeTemplate, notify, parseMacs } from "../../../../lib/provisioning/boot/bootService";
import { findLookups } from "../../../../lib/provisioning/lookups/lookupService";
import { createNode } from "../../../../lib/provisioning/nodes/nodeService";
import { getWorkflow, startWorkflow } from "../../../../lib/provisioning/workflows/workflowService";
import { later, memoryStores, T0 } from "./setUp";

const api = apiContextFor("http://10.0.0.1:9080");
const MAC = "52:54:00:12:34:56";
const install = {
  name: "Graph.InstallCentOS",
  options: {
    defaults: { obmServiceName: "noop-obm-service" },
    "install-os": { version: "7.0", repo: "http://mirror/centos/7", rootPassword: "root" },
  },
};
const tokens = { requireToken: true };

describe("bootService", () => {
  const installing = async () => {
    const stores = memoryStores();
    const node = await createNode(
      stores,
      { name: "n", type: "compute", identifiers: [MAC], obmSettings: [{ service: "noop-obm-service", config: {} }] },
      T0,
    );
    const workflow = await startWorkflow(stores, node.id, install, api, T0);
    return { stores, node, workflow };
  };

  it("reads MACs in any spelling, comma-separated or repeated, once each, and names one that is not", () => {
    expect(parseMacs(["52-54-00-12-34-56,52:54:00:12:34:56", "", "52:54:00:AB:CD:EF"])).toEqual([MAC, "52:54:00:ab:cd:ef"]);
    expect(() => parseMacs(["52:54:00:12:34:56", "nope"])).toThrow("Invalid MAC address: nope");
  });

  it("records a machine it has not seen, and its address, when there is no discovery graph", async () => {
    const stores = memoryStores();
    const script = await bootProfile(stores, [MAC], "10.0.0.50", api, T0);
    expect(script.startsWith("#!ipxe")).toBe(true);
    const [node] = await stores.nodes.list();
    expect(node).toMatchObject({ name: MAC, identifiers: [MAC], type: "compute" });
    expect(script).toContain(node.id);
    expect((await findLookups(stores, "10.0.0.50"))[0]).toMatchObject({ node: node.id, macAddress: MAC });
    expect(await bootProfile(stores, [], undefined, api, T0)).toMatch(/^#!ipxe/);
  });

  it("starts the discovery graph on a new machine and answers its microkernel profile, marking the task booted once", async () => {
    const stores = memoryStores();
    const script = await bootProfile(stores, [MAC], "10.0.0.50", api, T0, { graph: "Graph.SKU.Discovery" });
    expect(script).toMatch(/^#!ipxe/);
    expect(script).toMatch(/kernel /);
    const [workflow] = await stores.workflows.list();
    expect(workflow.injectableName).toBe("Graph.SKU.Discovery");
    const booted = Object.values(workflow.tasks).filter((task) => task.bootedAt);
    expect(booted.map((task) => task.bootedAt)).toEqual([T0.toISOString()]);
    await bootProfile(stores, [MAC], "10.0.0.50", api, later(1), { graph: "Graph.SKU.Discovery" });
    const again = await getWorkflow(stores, workflow.instanceId, later(2));
    expect(
      Object.values(again.tasks)
        .filter((task) => task.bootedAt)
        .map((task) => task.bootedAt),
    ).toEqual([T0.toISOString()]);
  });

  it("tells a known machine with nothing to do so, in a script", async () => {
    const stores = memoryStores();
    await createNode(stores, { name: "n", identifiers: [MAC] }, T0);
    expect(await bootProfile(stores, [MAC], undefined, api, T0)).toContain(NO_ACTIVE_WORKFLOW);
  });

  it("answers the install script only to the node whose workflow holds the token, and completes the install at its completion URI", async () => {
    const { stores, node, workflow } = await installing();
    await bootProfile(stores, [MAC], "10.0.0.50", api, T0);
    await expect(nodeTemplate(stores, "nope-ks", { macs: [] }, "/", api, T0, tokens)).rejects.toThrow("Could not find template nope-ks");
    await expect(nodeTemplate(stores, "centos-ks", { macs: [MAC] }, "/", api, T0, tokens)).rejects.toMatchObject({ kind: "forbidden" });
    await expect(nodeTemplate(stores, "centos-ks", { nodeId: node.id, token: "wrong", macs: [] }, "/", api, T0, tokens)).rejects.toThrow(
      `The boot token does not match the active workflow of node ${node.id}`,
    );
    const who = { nodeId: node.id, token: workflow.bootToken, macs: [] };
    const kickstart = await nodeTemplate(stores, "centos-ks", who, "/api/current/templates/centos-ks", api, later(1), tokens);
    expect(kickstart).toContain("http://mirror/centos/7");
    expect(kickstart).not.toContain("rootpw --plaintext root");
    const completion = String(Object.values(workflow.tasks).find((task) => task.options.completionUri)?.options.completionUri);
    await nodeTemplate(stores, completion, who, `/api/current/templates/${completion}`, api, later(2), tokens);
    expect((await getWorkflow(stores, workflow.instanceId, later(3)))._status).toBe("succeeded");
  });

  it("completes a node's install on a notification carrying its token, and echoes the message with secrets redacted", async () => {
    const { stores, node, workflow } = await installing();
    await bootProfile(stores, [MAC], "10.0.0.50", api, T0);
    await expect(notify(stores, { nodeId: 7 }, T0, tokens)).rejects.toThrow("Invalid node ID in query or body");
    await expect(notify(stores, { nodeId: node.id, token: "wrong" }, T0, tokens)).rejects.toMatchObject({ kind: "forbidden" });
    const echoed = await notify(stores, { nodeId: node.id, token: workflow.bootToken, password: "p" }, later(1), tokens);
    expect(echoed).toMatchObject({ nodeId: node.id, password: "REDACTED" });
    expect((await getWorkflow(stores, workflow.instanceId, later(2)))._status).toBe("succeeded");
    expect(await notify(stores, { event: "hello" }, later(3), tokens)).toEqual({ event: "hello" });
  });
});
