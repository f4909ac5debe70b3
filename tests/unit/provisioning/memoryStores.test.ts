import { CapacityError, ConflictError } from "../../../lib/errors";
import { apiContextFor } from "../../../lib/provisioning/apiContext";
import { graphDefinition } from "../../../lib/provisioning/graphs/graphLibrary";
import { buildNode, parseNewNode } from "../../../lib/provisioning/nodes/node";
import { buildWorkflow } from "../../../lib/provisioning/workflowEngine/buildWorkflow";
import { cancelWorkflow } from "../../../lib/provisioning/workflowEngine/progress";
import { MemoryLookupStore } from "../../../lib/store/memory/lookupStore";
import { MemoryNodeStore } from "../../../lib/store/memory/nodeStore";
import { MemoryWorkflowStore } from "../../../lib/store/memory/workflowStore";

const limits = { capacity: 100, maxBytes: 1 << 20 };
const node = (id: string, identifiers: string[]) => buildNode(parseNewNode({ name: id, identifiers }), id, new Date());

describe("MemoryNodeStore", () => {
  it("finds nodes by id and by identifier, and keeps creation order", async () => {
    const store = new MemoryNodeStore(limits);
    await store.create(node("a".repeat(24), ["08:00:27:00:00:01"]));
    await store.create(node("b".repeat(24), ["08:00:27:00:00:02"]));
    expect((await store.find("08:00:27:00:00:02"))?.id).toBe("b".repeat(24));
    expect((await store.find("a".repeat(24)))?.id).toBe("a".repeat(24));
    expect((await store.list()).map((n) => n.id)).toEqual(["a".repeat(24), "b".repeat(24)]);
  });

  it("gives each identifier to one node only, on create and on update", async () => {
    const store = new MemoryNodeStore(limits);
    await store.create(node("a".repeat(24), ["08:00:27:00:00:01"]));
    await expect(store.create(node("b".repeat(24), ["08:00:27:00:00:01"]))).rejects.toThrow(ConflictError);
    await expect(store.create(node("a".repeat(24), []))).rejects.toThrow(ConflictError);
    await store.create(node("b".repeat(24), ["08:00:27:00:00:02"]));
    await expect(store.update("b".repeat(24), (n) => ({ ...n, identifiers: ["08:00:27:00:00:01"] }))).rejects.toThrow(ConflictError);
    expect((await store.find("08:00:27:00:00:01"))?.id).toBe("a".repeat(24));
  });

  it("moves the identifier index with an update and frees it on delete", async () => {
    const store = new MemoryNodeStore(limits);
    await store.create(node("a".repeat(24), ["08:00:27:00:00:01"]));
    await store.update("a".repeat(24), (n) => ({ ...n, identifiers: ["08:00:27:00:00:09"] }));
    expect(await store.find("08:00:27:00:00:01")).toBeUndefined();
    expect(await store.delete("a".repeat(24))).toBeDefined();
    expect(await store.find("08:00:27:00:00:09")).toBeUndefined();
    expect(await store.delete("a".repeat(24))).toBeUndefined();
  });

  it("hands out frozen records and stores nothing when a change throws", async () => {
    const store = new MemoryNodeStore(limits);
    const stored = await store.create(node("a".repeat(24), []));
    expect(Object.isFrozen(stored.identifiers)).toBe(true);
    await expect(
      store.update("a".repeat(24), () => {
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    expect((await store.get("a".repeat(24)))?.name).toBe("a".repeat(24));
  });

  it("refuses creates past its capacity", async () => {
    const store = new MemoryNodeStore({ capacity: 1, maxBytes: 1 << 20 });
    await store.create(node("a".repeat(24), []));
    await expect(store.create(node("b".repeat(24), []))).rejects.toThrow(CapacityError);
  });
});

describe("MemoryWorkflowStore", () => {
  const api = apiContextFor("http://x");
  const wf = (nodeId: string) => buildWorkflow(graphDefinition("Graph.Reboot.Node")!, {}, nodeId, api, new Date());

  it("allows one active workflow per node", async () => {
    const store = new MemoryWorkflowStore(limits);
    const first = await store.create(wf("n1"));
    await expect(store.create(wf("n1"))).rejects.toThrow("Unable to run multiple task graphs against a single target.");
    await store.create(wf("n2"));
    expect((await store.activeForNode("n1"))?.instanceId).toBe(first.instanceId);
    await store.update(first.instanceId, (current) => cancelWorkflow(current, new Date()));
    expect(await store.activeForNode("n1")).toBeUndefined();
    await expect(store.create(wf("n1"))).resolves.toBeDefined();
    expect(await store.listForNode("n1")).toHaveLength(2);
  });

  it("finds a workflow by instanceId or record id", async () => {
    const store = new MemoryWorkflowStore(limits);
    const created = await store.create(wf("n1"));
    expect((await store.get(created.id))?.instanceId).toBe(created.instanceId);
    expect((await store.get(created.instanceId))?.id).toBe(created.id);
  });
});

describe("MemoryLookupStore", () => {
  it("is bounded: a create past its capacity is refused (507) and stores nothing", async () => {
    const store = new MemoryLookupStore({ capacity: 1, maxBytes: 1 << 20 });
    const at = new Date().toISOString();
    await store.create({ id: "a", node: "", macAddress: "08:00:27:00:00:01", createdAt: at, updatedAt: at });
    await expect(store.create({ id: "b", node: "", macAddress: "08:00:27:00:00:02", createdAt: at, updatedAt: at })).rejects.toThrow(
      "The lookup store is full",
    );
    expect(await store.byMac("08:00:27:00:00:02")).toBeUndefined();
  });
});
