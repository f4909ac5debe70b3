import { performEffect } from "../../../../lib/provisioning/discovery/effects";
import type { WorkflowTask } from "../../../../lib/provisioning/workflowEngine/workflow";
import { aCatalog, aNode, later, memoryStores, T0 } from "./setUp";

/** An effect task of a running workflow, as progress hands it to performEffect. */
const effect = (runJob: string, options: Record<string, unknown> = {}) => ({ runJob, options, label: "effect" }) as unknown as WorkflowTask;

describe("performEffect: the effect tasks done on the service's own records", () => {
  it("fails a job it does not run, naming it", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    expect(await performEffect(stores, node, effect("Job.Flash.Quanta"), T0)).toEqual({
      state: "failed",
      error: "No job Job.Flash.Quanta runs here",
    });
  });

  it("creates a node's IPMI OBM setting from its bmc catalog with the task's credentials", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    await stores.catalogs.add([aCatalog(node.id, "bmc", { "IP Address": "10.1.2.3" }, "c1")]);
    expect(await performEffect(stores, node, effect("Job.Obm.Ipmi.CreateSettings", { user: "ops", password: "pw" }), T0)).toEqual({
      state: "succeeded",
    });
    expect((await stores.nodes.get(node.id))?.obmSettings).toEqual([
      { service: "ipmi-obm-service", config: { host: "10.1.2.3", user: "ops", password: "pw" } },
    ]);
  });

  it("creates the default IPMI pollers of a node with a bmc catalog, and none for one without", async () => {
    const stores = memoryStores();
    const bare = await aNode(stores, "bare", "52:54:00:00:00:02");
    expect(await performEffect(stores, bare, effect("Job.Pollers.CreateDefault"), T0)).toEqual({ state: "succeeded" });
    expect(await stores.pollers.list()).toEqual([]);
    const node = await aNode(stores);
    await stores.catalogs.add([aCatalog(node.id, "bmc", { "IP Address": "10.1.2.3" }, "c1")]);
    await performEffect(stores, node, effect("Job.Pollers.CreateDefault"), T0);
    expect((await stores.pollers.list()).map((poller) => poller.config.command).sort()).toEqual([
      "chassis",
      "driveHealth",
      "sdr",
      "sel",
      "selInformation",
    ]);
  });

  describe("run-sku-graph", () => {
    const setUp = async (sku?: Record<string, unknown>) => {
      const stores = memoryStores();
      const node = await aNode(stores);
      if (sku) {
        await stores.skus.create({ id: "sku-1", name: "s", rules: [], createdAt: T0.toISOString(), updatedAt: T0.toISOString(), ...sku });
        await stores.nodes.update(node.id, (current) => ({ ...current, sku: "sku-1" }));
      }
      return { stores, node };
    };
    const run = async (sku?: Record<string, unknown>) => {
      const { stores, node } = await setUp(sku);
      return performEffect(stores, node, effect("Job.Graph.RunSku"), later(1));
    };

    it("does nothing for a node with no SKU, or a SKU with no discovery graph", async () => {
      expect(await run()).toEqual({ state: "succeeded" });
      expect(await run({})).toEqual({ state: "succeeded" });
      expect(await run({ discoveryGraphName: "" })).toEqual({ state: "succeeded" });
      expect(await run({ discoveryGraphName: 7 })).toEqual({ state: "succeeded" });
    });

    it("names the SKU's graph and its options to start once this workflow ends, {} without options", async () => {
      expect(
        await run({ discoveryGraphName: "Graph.Obm.Ipmi.CreateSettings", discoveryGraphOptions: { defaults: { user: "ops" } } }),
      ).toEqual({
        state: "succeeded",
        thenStart: { name: "Graph.Obm.Ipmi.CreateSettings", options: { defaults: { user: "ops" } } },
      });
      expect(await run({ discoveryGraphName: "Graph.Reboot.Node" })).toEqual({
        state: "succeeded",
        thenStart: { name: "Graph.Reboot.Node", options: {} },
      });
    });

    it("fails when the SKU names a graph that does not exist", async () => {
      expect(await run({ discoveryGraphName: "Graph.Nope" })).toEqual({
        state: "failed",
        error: "Graph definition not found for Graph.Nope",
      });
    });
  });
});
