import { presentWorkflow } from "../../../../lib/http/presenters/provisioningPresenters";
import { apiContextFor } from "../../../../lib/provisioning/apiContext";
import { findGraph } from "../../../../lib/provisioning/graphs/libraryService";
import { buildWorkflow } from "../../../../lib/provisioning/workflowEngine/buildWorkflow";
import {
  cancelNodeWorkflow,
  getWorkflow,
  listWorkflows,
  listWorkflowsPage,
  nodeActiveWorkflow,
  nodeWorkflows,
  nodeWorkflowsPage,
  runGraph,
  startWorkflow,
} from "../../../../lib/provisioning/workflows/workflowService";
import { aCatalog, aNode, later, memoryStores, replacing, T0 } from "./setUp";

const api = apiContextFor("http://localhost:9", "http://localhost:9");
const discovery = { name: "Graph.Discovery", options: {} };

describe("workflowService", () => {
  it("checks a start in RackHD's order: name, node, graph, the node's active workflow, options", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    await expect(startWorkflow(stores, "nope", { name: "", options: {} }, api, T0)).rejects.toThrow(
      "Graph name is missing or in wrong format",
    );
    await expect(startWorkflow(stores, "nope", { name: 7, options: {} }, api, T0)).rejects.toThrow("Graph name is missing");
    await expect(startWorkflow(stores, "nope", discovery, api, T0)).rejects.toMatchObject({ kind: "not-found" });
    await expect(startWorkflow(stores, node.id, { name: "Graph.None", options: [] }, api, T0)).rejects.toThrow(
      "Graph definition not found for Graph.None",
    );
    await expect(startWorkflow(stores, node.id, { name: "Graph.Discovery", options: [] }, api, T0)).rejects.toThrow(
      "options must be a JSON object",
    );
    await startWorkflow(stores, node.id, discovery, api, T0);
    await expect(startWorkflow(stores, node.id, { name: "Graph.Discovery", options: [] }, api, T0)).rejects.toThrow(
      "Unable to run multiple task graphs against a single target.",
    );
    expect(await nodeWorkflows(stores, node.id, T0)).toHaveLength(1);
  });

  it("answers the node's active workflow until it is cancelled, then none, and a second cancel is RackHD's 404", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    const started = await startWorkflow(stores, node.id, discovery, api, T0);
    expect(started._status).toBe("running");
    expect((await nodeActiveWorkflow(stores, node.id, T0))?.instanceId).toBe(started.instanceId);
    const cancelled = await cancelNodeWorkflow(stores, node.id, later(1));
    expect(cancelled).toMatchObject({ instanceId: started.instanceId, _status: "cancelled" });
    expect(await nodeActiveWorkflow(stores, node.id, later(2))).toBeUndefined();
    await expect(cancelNodeWorkflow(stores, node.id, later(3))).rejects.toThrow(`No active workflow graph found for node ${node.id}`);
    expect(await listWorkflows(stores, { active: true }, later(4))).toEqual([]);
    expect(await listWorkflows(stores, { active: false }, later(4))).toHaveLength(1);
    expect(await listWorkflows(stores, {}, later(4))).toHaveLength(1);
  });

  it("runs a graph with no node only when none of its tasks needs one, and it ends as it starts", async () => {
    const stores = memoryStores();
    const noop = await runGraph(stores, { name: "Graph.noop-example", options: undefined }, api, T0);
    expect(noop._status).toBe("succeeded");
    expect((await getWorkflow(stores, noop.instanceId, T0))._status).toBe("succeeded");
    await expect(runGraph(stores, discovery, api, T0)).rejects.toThrow(/^Graph Graph.Discovery needs a node: its task /);
    await expect(runGraph(stores, { name: "", options: {} }, api, T0)).rejects.toThrow("Graph name is missing");
    await expect(runGraph(stores, { name: "Graph.None", options: {} }, api, T0)).rejects.toMatchObject({ kind: "not-found" });
    await expect(runGraph(stores, { name: "Graph.noop-example", options: 1 }, api, T0)).rejects.toThrow("options must be a JSON object");
    expect(await listWorkflows(stores, {}, T0)).toHaveLength(1);
  });

  describe("a BMC password create-obm-settings writes into the OBM setting", () => {
    const bmcGraph = { name: "Graph.Obm.Ipmi.CreateSettings", options: { defaults: { user: "admin", password: "Bmc-Pa55" } } };

    it("reaches the node's OBM setting as given, and leaves no copy in the workflow once its task has ended", async () => {
      const stores = memoryStores();
      const node = await aNode(stores);
      await stores.catalogs.add([aCatalog(node.id, "bmc", { "IP Address": "127.0.0.40" }, "c1")]);
      const workflow = await startWorkflow(stores, node.id, bmcGraph, api, T0);
      expect(workflow._status).toBe("succeeded");
      expect((await stores.nodes.get(node.id))?.obmSettings).toEqual([
        { service: "ipmi-obm-service", config: { host: "127.0.0.40", user: "admin", password: "Bmc-Pa55" } },
      ]);
      const stored = await getWorkflow(stores, workflow.instanceId, T0);
      expect(stored).not.toHaveProperty("taskSecrets");
      expect(JSON.stringify(stored)).not.toContain("Bmc-Pa55");
    });

    it("is held apart from the task's options until then, and never answered", async () => {
      const graph = (await findGraph(memoryStores(), bmcGraph.name))!;
      const built = buildWorkflow(graph, bmcGraph.options, "n1", api, T0);
      const [task] = Object.values(built.tasks);
      expect(task.options).toMatchObject({ user: "admin", password: "REDACTED" });
      expect(built.taskSecrets).toEqual({ [task.instanceId]: { password: "Bmc-Pa55" } });
      expect(JSON.stringify(presentWorkflow(built))).not.toContain("Bmc-Pa55");
      // Other tasks keep nothing: an install's passwords become crypt hashes, the rest are redacted.
      const discovery = buildWorkflow((await findGraph(memoryStores(), "Graph.Discovery"))!, {}, "n1", api, T0);
      expect(discovery).not.toHaveProperty("taskSecrets");
    });
  });

  it("answers RackHD's 404 text for a workflow id no one has", async () => {
    const stores = memoryStores();
    await expect(getWorkflow(stores, "nope", T0)).rejects.toMatchObject({ message: "Could not find workflow with identifier nope" });
    await expect(getWorkflow(stores, "x".repeat(2_000), T0)).rejects.toMatchObject({ kind: "not-found" });
  });

  describe("lists and pages of workflows", () => {
    /** Two nodes: one with a finished workflow and a running one, another with a running one. */
    const history = async () => {
      const stores = memoryStores();
      const a = await aNode(stores, "a", "52:54:00:00:00:0a");
      const b = await aNode(stores, "b", "52:54:00:00:00:0b");
      const first = await startWorkflow(stores, a.id, discovery, api, T0);
      await cancelNodeWorkflow(stores, a.id, later(1));
      const second = await startWorkflow(stores, a.id, discovery, api, later(2));
      const other = await startWorkflow(stores, b.id, discovery, api, later(3));
      return { stores, a, b, first, second, other };
    };
    const ids = (workflows: { instanceId: string }[]) => workflows.map((workflow) => workflow.instanceId).sort();

    it("filters by what each workflow is now, in a whole list and page by page", async () => {
      const { stores, first, second, other } = await history();
      expect(ids(await listWorkflows(stores, { active: true }, later(4)))).toEqual(ids([second, other]));
      expect(ids(await listWorkflows(stores, { active: false }, later(4)))).toEqual([first.instanceId]);
      const pages: string[] = [];
      let after: string | undefined;
      for (let i = 0; i < 5; i++) {
        const page = await listWorkflowsPage(stores, { active: true }, { limit: 1, ...(after && { after }) }, later(4));
        pages.push(...page.items.map((workflow) => workflow.instanceId));
        if (!page.next) break;
        after = page.next;
      }
      expect(pages.sort()).toEqual(ids([second, other]));
      expect((await listWorkflowsPage(stores, { active: false }, { limit: 10 }, later(4))).items.map((w) => w.instanceId)).toEqual([
        first.instanceId,
      ]);
      expect((await listWorkflowsPage(stores, {}, { limit: 10 }, later(4))).items).toHaveLength(3);
    });

    it("lists a node's workflows by its id or its MAC, whole or by page, and its active one", async () => {
      const { stores, a, b, first, second, other } = await history();
      expect(ids(await nodeWorkflows(stores, "52:54:00:00:00:0a", later(4)))).toEqual(ids([first, second]));
      expect(ids((await nodeWorkflowsPage(stores, a.id, { limit: 10 }, later(4))).items)).toEqual(ids([first, second]));
      expect((await nodeWorkflowsPage(stores, b.id, { limit: 1 }, later(4))).items.map((w) => w.instanceId)).toEqual([other.instanceId]);
      expect((await nodeActiveWorkflow(stores, "52:54:00:00:00:0b", later(4)))?.instanceId).toBe(other.instanceId);
      await expect(nodeWorkflowsPage(stores, "nope", { limit: 1 }, T0)).rejects.toMatchObject({ kind: "not-found" });
    });
  });

  it("answers RackHD's one-graph refusal to a start that lost a race for the node", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    const { ConflictError } = await import("../../../../lib/errors");
    const racing = replacing(stores, "workflows", { create: () => Promise.reject(new ConflictError("taken")) });
    await expect(startWorkflow(racing, node.id, discovery, api, T0)).rejects.toMatchObject({
      kind: "bad-request",
      message: "Unable to run multiple task graphs against a single target.",
    });
    const broken = replacing(stores, "workflows", { create: () => Promise.reject(new Error("disk")) });
    await expect(startWorkflow(broken, node.id, discovery, api, T0)).rejects.toThrow("disk");
  });
});
