import type { ServiceEvent } from "../../lib/provisioning/events/event";
import type { Hook } from "../../lib/provisioning/hooks/hook";
import { newObjectId } from "../../lib/provisioning/ids";
import { buildNode } from "../../lib/provisioning/nodes/node";
import { onEventsCommitted } from "../../lib/store/eventFeed";
import { provisioningAdapters } from "../support/provisioningAdapters";

// Twenty racing changes on DynamoDB Local retry their transactions: 3 s alone, and past jest's
// default 5 s once on two cores shared with the boot tier's machines. Not a test of speed.
jest.setTimeout(60_000);

/**
 * Issue 27, per store: a change's events are written with it (DynamoDB: in its transaction),
 * numbered 1, 2, 3… per node even when changes of one node race, never for a change that did not
 * happen, and handed to the process's feed (the local stand-in for the table's stream) once each.
 */
describe.each(provisioningAdapters)("the events of changes (%s)", (_name, make) => {
  it("numbers a node's events in the order they were written, under concurrent changes, each once", async () => {
    const stores = await make();
    const fed: ServiceEvent[] = [];
    const stop = onEventsCommitted((events) => fed.push(...events));
    try {
      const node = await stores.nodes.create(buildNode({ fields: { name: "n" } }, newObjectId(), new Date()));
      // Twenty changes of the same node at once: each one tag more.
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => stores.nodes.update(node.id, (current) => ({ ...current, tags: [...current.tags, `t${i}`] }))),
      );
      const events = await stores.events.list(node.id);
      expect(events.map((event) => event.sequence)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
      expect(events.map((event) => `${event.type}.${event.action}`)).toEqual([
        "node.added",
        "node.tags.assigned",
        ...Array(19).fill("node.tags.updated"),
      ]);
      expect(new Set(events.map((event) => event.id)).size).toBe(21);
      expect(
        fed
          .filter((event) => event.subject === node.id)
          .map((event) => event.sequence)
          .sort((a, b) => a - b),
      ).toEqual(events.map((event) => event.sequence));
      // Pages after a sequence.
      expect((await stores.events.list(node.id, { after: 19 })).map((event) => event.sequence)).toEqual([20, 21]);
      expect((await stores.events.list(node.id, { after: 2, limit: 3 })).map((event) => event.sequence)).toEqual([3, 4, 5]);
    } finally {
      stop();
    }
  });

  it("records nothing for a change that was not written, or that changed nothing", async () => {
    const stores = await make();
    const node = await stores.nodes.create(buildNode({ fields: { name: "n" } }, newObjectId(), new Date()));
    await expect(stores.nodes.create({ ...node })).rejects.toMatchObject({ kind: "conflict" });
    await stores.nodes.update(node.id, (current) => current);
    await stores.nodes.update(node.id, (current) => ({ ...current, name: "renamed" }));
    expect((await stores.events.list(node.id)).map((event) => event.action)).toEqual(["added"]);
    await stores.nodes.delete(node.id);
    expect((await stores.events.list(node.id)).map((event) => event.action)).toEqual(["added", "removed"]);
  });

  it("keeps a hook's own events under the hook, and the hook's deliveries newest first", async () => {
    const stores = await make();
    const stamp = "2026-11-24T00:00:00.000Z";
    const hook: Hook = {
      id: "65f0c0ffee0123456789abcd",
      url: "https://x.example/",
      filters: [],
      events: [],
      secretGeneration: 1,
      createdAt: stamp,
      updatedAt: stamp,
    };
    await stores.hooks.create(hook);
    await stores.hooks.update(hook.id, (current) => ({ ...current, disabledAt: stamp, disabledReason: "failing" }));
    expect((await stores.events.list(`hook:${hook.id}`)).map((event) => `${event.type}.${event.action}`)).toEqual(["hook.disabled"]);
    for (const attempt of [1, 2, 3])
      await stores.deliveries.record({
        hookId: hook.id,
        eventId: "e",
        event: "node.added",
        attempt,
        at: `2026-11-24T00:00:0${attempt}.000Z`,
        ok: attempt === 3,
        durationMs: 1,
      });
    expect((await stores.deliveries.recent(hook.id, 2)).map((delivery) => delivery.attempt)).toEqual([3, 2]);
  });
});
