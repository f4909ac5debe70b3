import {
  defineGraph,
  defineTask,
  findGraph,
  graphLibrary,
  graphLibraryEntry,
  taskFinder,
  taskLibrary,
} from "../../../../lib/provisioning/graphs/libraryService";
import { later, memoryStores, T0 } from "./setUp";

const task = {
  friendlyName: "Say hi",
  injectableName: "Task.Say.Hi",
  implementsTask: "Task.Base.noop",
  options: {},
  properties: {},
};
const graph = { friendlyName: "Hi", injectableName: "Graph.Hi", tasks: [{ label: "hi", taskName: "Task.Say.Hi" }] };

describe("libraryService", () => {
  it("stores a task's five fields only, and finds it among the built-in ones", async () => {
    const stores = memoryStores();
    const stored = await defineTask(stores, { ...task, extra: "dropped" }, T0);
    expect(stored).toMatchObject({ definition: task, createdAt: T0.toISOString() });
    expect(stored.definition).not.toHaveProperty("extra");
    const find = await taskFinder(stores);
    expect(find("Task.Say.Hi")).toMatchObject({ friendlyName: "Say hi" });
    expect(find("Task.Linux.Commands")).toMatchObject({ implementsTask: "Task.Base.Linux.Commands" });
    expect(find("Task.None")).toBeUndefined();
    expect((await taskLibrary(stores)).some((t) => t.injectableName === "Task.Say.Hi")).toBe(true);
  });

  it("has RackHD's immediate refresh: a Redfish BMC's BIOS and firmware read, PXE once, reboot, the discovery tasks, then the node's SKU, pollers and tags", async () => {
    const graph = (await findGraph(memoryStores(), "Graph.Refresh.Immediate.Discovery"))!;
    const waits = Object.fromEntries(graph.tasks.map((entry) => [entry.label, entry.waitOn ?? {}]));
    expect(graph.tasks.map((entry) => entry.label).slice(0, 5)).toEqual([
      "catalog-redfish-bios",
      "catalog-redfish-firmware",
      "set-boot-pxe",
      "reboot",
      "bootstrap-ubuntu",
    ]);
    // An IPMI BMC has no BIOS resource: the reads may fail, and the refresh goes on.
    expect(graph.tasks.slice(0, 2).map((entry) => entry.ignoreFailure)).toEqual([true, true]);
    expect(waits).toMatchObject({
      "set-boot-pxe": { "catalog-redfish-firmware": "finished" },
      reboot: { "set-boot-pxe": "finished" },
      "bootstrap-ubuntu": { reboot: "succeeded" },
    });
    for (const label of ["generate-sku", "create-default-pollers", "generate-tag"])
      expect(waits[label]).toEqual({ "shell-reboot": "succeeded" });
    expect(graph.tasks.map((entry) => entry.label)).not.toContain("run-sku-graph");
  });

  it("refuses a task without its five fields (RackHD B/C)", async () => {
    const stores = memoryStores();
    await expect(defineTask(stores, { injectableName: "Task.X" }, T0)).rejects.toMatchObject({ kind: "bad-request" });
    expect((await taskLibrary(stores)).some((t) => t.injectableName === "Task.X")).toBe(false);
  });

  it("defines a graph of known tasks, answers its name, and a user's graph of a built-in name wins", async () => {
    const stores = memoryStores();
    await defineTask(stores, task, T0);
    expect(await defineGraph(stores, graph, T0)).toBe("Graph.Hi");
    expect(await graphLibraryEntry(stores, "Graph.Hi")).toMatchObject({ friendlyName: "Hi" });
    const builtIns = (await graphLibrary(memoryStores())).length;
    await defineGraph(stores, { ...graph, injectableName: "Graph.noop-example", friendlyName: "Mine" }, later(1));
    const library = await graphLibrary(stores);
    expect(library).toHaveLength(builtIns + 1);
    expect(library.filter((g) => g.injectableName === "Graph.noop-example")).toEqual([expect.objectContaining({ friendlyName: "Mine" })]);
  });

  it("refuses a graph whose task needs a property no earlier task supplies (RackHD's text)", async () => {
    const stores = memoryStores();
    await defineTask(stores, { ...task, implementsTask: "Task.Base.Linux.Commands", options: { commands: ["true"] } }, T0);
    await expect(defineGraph(stores, graph, T0)).rejects.toThrow(
      "expected property os.linux.type to be supplied for task Task.Say.Hi in graph Graph.Hi",
    );
  });

  it("refuses a graph using a task no library holds, and answers 404 for a graph no one defined", async () => {
    const stores = memoryStores();
    await expect(defineGraph(stores, graph, T0)).rejects.toMatchObject({ kind: "bad-request" });
    await expect(graphLibraryEntry(stores, "Graph.Hi")).rejects.toMatchObject({
      kind: "not-found",
      message: "Could not find graph definition for Graph.Hi",
    });
    expect(await findGraph(stores, "x".repeat(2_000))).toBeUndefined();
  });
});
