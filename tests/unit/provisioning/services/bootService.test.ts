import { apiContextFor } from "../../../../lib/provisioning/apiContext";
import {
  bootProfile,
  identifyRequester,
  NO_ACTIVE_WORKFLOW,
  nodeTemplate,
  notify,
  parseMacs,
} from "../../../../lib/provisioning/boot/bootService";
import { putLibraryEntry } from "../../../../lib/provisioning/library/textLibrary";
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

describe("bootService: the paths a booting machine takes", () => {
  const withInstall = async (installOs: Record<string, unknown> = {}) => {
    const stores = memoryStores();
    const node = await createNode(
      stores,
      { name: "n", type: "compute", identifiers: [MAC, "52:54:00:00:00:02"], obmSettings: [{ service: "noop-obm-service", config: {} }] },
      T0,
    );
    const options = { ...install.options, "install-os": { ...install.options["install-os"], ...installOs } };
    const workflow = await startWorkflow(stores, node.id, { ...install, options }, api, T0);
    return { stores, node, workflow };
  };
  const open = { requireToken: false };

  it("answers a put profile, with the iPXE header added unless it has its own; an unknown one says so", async () => {
    const { stores } = await withInstall({ profile: "mine.ipxe" });
    expect(await bootProfile(stores, [MAC], undefined, api, T0)).toContain("Unknown boot profile mine.ipxe");
    await putLibraryEntry(stores, "profiles", "mine.ipxe", "echo node <%=nodeId%>", T0);
    const rendered = await bootProfile(stores, [MAC], undefined, api, T0);
    expect(rendered).toMatch(/^#!ipxe/);
    expect(rendered).toMatch(/echo node [0-9a-f]{24}/);
    await putLibraryEntry(stores, "profiles", "mine.ipxe", "#!ipxe\necho own header", T0);
    expect(await bootProfile(stores, [MAC], undefined, api, T0)).toBe("#!ipxe\necho own header");
  });

  it("records the address against the MAC the node booted with, not the first one asked", async () => {
    const { stores, node } = await withInstall();
    await bootProfile(stores, ["52:54:00:99:99:99", "52:54:00:00:00:02"], "10.0.0.77", api, T0);
    expect((await findLookups(stores, "10.0.0.77"))[0]).toMatchObject({ node: node.id, macAddress: "52:54:00:00:00:02" });
  });

  it("makes one node and one discovery of a new machine that boots twice at once", async () => {
    const stores = memoryStores();
    const discovery = { graph: "Graph.SKU.Discovery" };
    const [a, b] = await Promise.all([
      bootProfile(stores, [MAC], undefined, api, T0, discovery),
      bootProfile(stores, [MAC], undefined, api, T0, discovery),
    ]);
    expect(a).toMatch(/kernel /);
    expect(b).toMatch(/kernel /);
    expect(await stores.nodes.list()).toHaveLength(1);
    expect(await stores.workflows.list()).toHaveLength(1);
  });

  it("finds the requesting node by its id, then its MACs, then its address; refuses one it cannot identify", async () => {
    const { stores, node } = await withInstall();
    await bootProfile(stores, [MAC], "10.0.0.50", api, T0);
    expect((await identifyRequester(stores, { nodeId: node.id, macs: [] })).id).toBe(node.id);
    expect((await identifyRequester(stores, { nodeId: "", macs: [MAC] })).id).toBe(node.id);
    expect((await identifyRequester(stores, { macs: [], sourceIp: "10.0.0.50" })).id).toBe(node.id);
    await expect(identifyRequester(stores, { macs: [], sourceIp: "10.0.0.51" })).rejects.toMatchObject({
      kind: "not-found",
      message: expect.stringContaining("?nodeId="),
    });
    await expect(identifyRequester(stores, { macs: [] })).rejects.toMatchObject({ kind: "not-found" });
    await expect(identifyRequester(stores, { nodeId: "0123456789abcdef01234567", macs: [MAC] })).rejects.toMatchObject({
      kind: "not-found",
    });
  });

  it("marks the install script's first fetch once, and refuses a template to a node with no install waiting", async () => {
    const { stores, node, workflow } = await withInstall();
    await bootProfile(stores, [MAC], undefined, api, T0);
    const who = { macs: [MAC] };
    await nodeTemplate(stores, "centos-ks", who, "/api/current/templates/centos-ks", api, later(1), open);
    await nodeTemplate(stores, "centos-ks", who, "/api/current/templates/centos-ks", api, later(2), open);
    const fetched = Object.values((await stores.workflows.get(workflow.instanceId))!.tasks).map((task) => task.templateFetchedAt);
    expect(fetched.filter(Boolean)).toEqual([later(1).toISOString()]);
    const idle = await createNode(stores, { name: "idle", identifiers: ["52:54:00:00:00:03"] }, T0);
    await expect(nodeTemplate(stores, "centos-ks", { macs: ["52:54:00:00:00:03"] }, "/", api, T0, open)).rejects.toMatchObject({
      kind: "not-found",
      message: `${NO_ACTIVE_WORKFLOW} (node ${idle.id})`,
    });
    expect(node.id).not.toBe(idle.id);
  });

  it("renders a put template under its own name for the node's install", async () => {
    const { stores } = await withInstall();
    await putLibraryEntry(stores, "templates", "site-ks", "repo <%=repo%> for <%=nodeId%>", T0);
    const text = await nodeTemplate(stores, "site-ks", { macs: [MAC] }, "/", api, T0, open);
    expect(text).toMatch(/^repo http:\/\/mirror\/centos\/7 for [0-9a-f]{24}$/);
  });

  it("tells a node whose install is done to boot its disk, and one whose workflow has no boot task yet so", async () => {
    const { stores, workflow } = await withInstall();
    const task = Object.values(workflow.tasks).find((each) => each.kind === "install")!;
    await stores.workflows.update(workflow.instanceId, (current) => ({
      ...current,
      tasks: { ...current.tasks, [task.instanceId]: { ...current.tasks[task.instanceId], installedAt: later(5).toISOString() } },
    }));
    expect(await bootProfile(stores, [MAC], undefined, api, later(6))).toContain(
      `The system is installed (${later(5).toISOString()}): booting from the disk`,
    );
    await stores.workflows.update(workflow.instanceId, (current) => ({
      ...current,
      tasks: { ...current.tasks, [task.instanceId]: { ...current.tasks[task.instanceId], kind: "obm" } },
    }));
    expect(await bootProfile(stores, [MAC], undefined, api, later(7))).toContain(
      "The active workflow has no boot profile for this node yet.",
    );
  });

  it("echoes a notification for a node with no active workflow, and refuses an empty node id", async () => {
    const stores = memoryStores();
    const node = await createNode(stores, { name: "n", identifiers: [MAC] }, T0);
    expect(await notify(stores, { nodeId: node.id }, T0, tokens)).toEqual({ nodeId: node.id });
    await expect(notify(stores, { nodeId: "" }, T0, tokens)).rejects.toMatchObject({ kind: "bad-request" });
  });
});
