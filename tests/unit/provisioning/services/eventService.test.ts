import { apiContextFor } from "../../../../lib/provisioning/apiContext";
import { nodeEvents, workflowEvents } from "../../../../lib/provisioning/events/eventService";
import { startWorkflow } from "../../../../lib/provisioning/workflows/workflowService";
import { ENVELOPE_KEYS } from "../../../support/envelope";
import { aNode, memoryStores, T0 } from "./setUp";

/** A node's and a workflow's events, through the memory stores (which record them as they write). */
describe("eventService", () => {
  it("answers a node's events in order by id, MAC, after a sequence and up to a limit, in RackHD's envelope", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    await stores.nodes.update(node.id, (current) => ({ ...current, tags: ["a"] }));
    await stores.nodes.update(node.id, (current) => ({ ...current, tags: ["a", "b"] }));
    const all = await nodeEvents(stores, node.id, {});
    expect(all.map((event) => [event.sequence, `${event.type}.${event.action}`])).toEqual([
      [1, "node.added"],
      [2, "node.tags.assigned"],
      [3, "node.tags.updated"],
    ]);
    expect(Object.keys(all[0]).sort()).toEqual(ENVELOPE_KEYS);
    expect((await nodeEvents(stores, "52:54:00:00:00:01", {})).map((event) => event.sequence)).toEqual([1, 2, 3]);
    expect((await nodeEvents(stores, node.id, { after: 1 })).map((event) => event.sequence)).toEqual([2, 3]);
    expect((await nodeEvents(stores, node.id, { after: 1, limit: 1 })).map((event) => event.sequence)).toEqual([2]);
    expect(await nodeEvents(stores, node.id, { after: 3 })).toEqual([]);
    // Limits above a page's are a page's.
    expect(await nodeEvents(stores, node.id, { limit: 100_000 })).toHaveLength(3);
  });

  it("answers a removed node's events by its id, and 404 for a node that never was", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    await stores.nodes.delete(node.id);
    expect((await nodeEvents(stores, node.id, {})).map((event) => event.action)).toEqual(["added", "removed"]);
    await expect(nodeEvents(stores, "65f0c0ffee0123456789abcd", {})).rejects.toMatchObject({ kind: "not-found" });
    await expect(nodeEvents(stores, "52:54:00:00:00:99", {})).rejects.toMatchObject({ kind: "not-found" });
  });

  it("answers a workflow's own events among its node's, and 404 for an unknown one", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    const first = await startWorkflow(
      stores,
      node.id,
      { name: "Graph.noop-example", options: {} },
      apiContextFor("http://localhost:9", "http://localhost:9"),
      T0,
    );
    await stores.nodes.update(node.id, (current) => ({ ...current, tags: ["x"] }));
    const events = await workflowEvents(stores, first.instanceId, {});
    expect(events.length).toBeGreaterThan(0);
    expect(
      events.every((event) => event.typeId === first.instanceId || (event.data as { graphId?: string }).graphId === first.instanceId),
    ).toBe(true);
    expect(events[0]).toMatchObject({ type: "graph", action: "started" });
    expect(await workflowEvents(stores, first.instanceId, { limit: 1 })).toHaveLength(1);
    expect((await workflowEvents(stores, first.id, {})).length).toBe(events.length);
    await expect(workflowEvents(stores, "nope", {})).rejects.toMatchObject({ kind: "not-found" });
    await expect(workflowEvents(stores, "x".repeat(2000), {})).rejects.toMatchObject({ kind: "not-found" });
  });
});
