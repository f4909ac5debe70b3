import { apiContextFor } from "../../../../lib/provisioning/apiContext";
import {
  cancelNodeWorkflow,
  getWorkflow,
  listWorkflows,
  nodeActiveWorkflow,
  nodeWorkflows,
  runGraph,
  startWorkflow,
} from "../../../../lib/provisioning/workflows/workflowService";
import { aNode, later, memoryStores, T0 } from "./setUp";

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

  it("answers RackHD's 404 text for a workflow id no one has", async () => {
    const stores = memoryStores();
    await expect(getWorkflow(stores, "nope", T0)).rejects.toMatchObject({ message: "Could not find workflow with identifier nope" });
    await expect(getWorkflow(stores, "x".repeat(2_000), T0)).rejects.toMatchObject({ kind: "not-found" });
  });
});
