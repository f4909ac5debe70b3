import { ConflictError } from "../../lib/errors";
import { apiContextFor } from "../../lib/provisioning/apiContext";
import { newCatalogs } from "../../lib/provisioning/catalogs/catalog";
import { graphDefinition } from "../../lib/provisioning/graphs/graphLibrary";
import { LookupTakenError } from "../../lib/provisioning/lookups/lookupStore";
import { buildNode, type Node, parseNewNode } from "../../lib/provisioning/nodes/node";
import { buildWorkflow } from "../../lib/provisioning/workflowEngine/buildWorkflow";
import { cancelWorkflow } from "../../lib/provisioning/workflowEngine/progress";
import { provisioningAdapters as adapters, type Stores } from "../support/provisioningAdapters";

const hex = (n: number) => n.toString(16).padStart(24, "0");
let clock = Date.parse("2026-11-22T00:00:00.000Z");
const tick = (): Date => {
  clock += 1000;
  return new Date(clock);
};
const node = (n: number, identifiers: string[] = [], extra: Record<string, unknown> = {}): Node =>
  buildNode(parseNewNode({ name: `node-${n}`, identifiers, ...extra }), hex(n), tick());
const api = apiContextFor("http://x");
const nest = (depth: number): unknown => (depth === 0 ? 1 : { x: nest(depth - 1) });
const workflow = (nodeId: string, graph = "Graph.Reboot.Node") => buildWorkflow(graphDefinition(graph)!, {}, nodeId, api, tick());

describe.each(adapters)("provisioning stores contract: %s", (_name, makeStores) => {
  let stores: Stores;
  beforeEach(async () => {
    stores = await makeStores();
  });

  describe("NodeStore", () => {
    it("creates, lists in creation order, gets, finds by identifier", async () => {
      await stores.nodes.create(node(2, ["08:00:27:00:00:02"]));
      await stores.nodes.create(node(1, ["08:00:27:00:00:01", "serial-1"], { profile: "x" }));
      expect((await stores.nodes.list()).map((n) => n.id)).toEqual([hex(2), hex(1)]);
      expect((await stores.nodes.get(hex(1)))?.profile).toBe("x");
      expect((await stores.nodes.find("serial-1"))?.id).toBe(hex(1));
      expect((await stores.nodes.find(hex(2)))?.id).toBe(hex(2));
      expect(await stores.nodes.find("08:00:27:00:00:09")).toBeUndefined();
      expect(await stores.nodes.get(hex(9))).toBeUndefined();
    });

    it("refuses a taken id or identifier", async () => {
      await stores.nodes.create(node(1, ["08:00:27:00:00:01"]));
      await expect(stores.nodes.create(node(1, []))).rejects.toThrow(ConflictError);
      await expect(stores.nodes.create(node(2, ["08:00:27:00:00:03", "08:00:27:00:00:01"]))).rejects.toThrow(
        `Identifier 08:00:27:00:00:01 already belongs to node ${hex(1)}`,
      );
      expect(await stores.nodes.find("08:00:27:00:00:03")).toBeUndefined();
      expect(await stores.nodes.list()).toHaveLength(1);
    });

    it("updates atomically, moving identifiers, refusing taken ones, storing nothing when the change throws", async () => {
      await stores.nodes.create(node(1, ["08:00:27:00:00:01"]));
      await stores.nodes.create(node(2, ["08:00:27:00:00:02"]));
      const moved = await stores.nodes.update(hex(1), (n) => ({ ...n, identifiers: ["08:00:27:00:00:11"], name: "renamed" }));
      expect(moved).toMatchObject({ id: hex(1), name: "renamed", identifiers: ["08:00:27:00:00:11"] });
      expect(await stores.nodes.find("08:00:27:00:00:01")).toBeUndefined();
      expect((await stores.nodes.find("08:00:27:00:00:11"))?.id).toBe(hex(1));
      await expect(stores.nodes.update(hex(1), (n) => ({ ...n, identifiers: ["08:00:27:00:00:02"] }))).rejects.toThrow(ConflictError);
      await expect(
        stores.nodes.update(hex(1), () => {
          throw new Error("refused");
        }),
      ).rejects.toThrow("refused");
      expect((await stores.nodes.get(hex(1)))?.name).toBe("renamed");
      expect(await stores.nodes.update(hex(9), (n) => n)).toBeUndefined();
    });

    it("deletes a node and frees its identifiers", async () => {
      await stores.nodes.create(node(1, ["08:00:27:00:00:01"]));
      expect((await stores.nodes.delete(hex(1)))?.id).toBe(hex(1));
      expect(await stores.nodes.delete(hex(1))).toBeUndefined();
      expect(await stores.nodes.find("08:00:27:00:00:01")).toBeUndefined();
      await expect(stores.nodes.create(node(2, ["08:00:27:00:00:01"]))).resolves.toBeDefined();
    });

    it("gives a MAC to one node only when creates race", async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => stores.nodes.create(node(100 + i, ["08:00:27:aa:aa:aa"]))),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(ConflictError);
      expect(await stores.nodes.list()).toHaveLength(1);
    });

    it("loses no concurrent update to another field", async () => {
      await stores.nodes.create(node(1));
      await Promise.all(Array.from({ length: 10 }, (_, i) => stores.nodes.update(hex(1), (n) => ({ ...n, [`field${i}`]: i }))));
      const stored = (await stores.nodes.get(hex(1)))!;
      for (let i = 0; i < 10; i += 1) expect(stored[`field${i}`]).toBe(i);
    });
  });

  describe("lists a page at a time (issue 28)", () => {
    /** Every page from the first, following `next`. */
    async function walk<T>(read: (request: { limit: number; after?: string }) => Promise<{ items: T[]; next?: string }>, limit: number) {
      const pages: T[][] = [];
      let after: string | undefined;
      do {
        const page = await read({ limit, ...(after !== undefined && { after }) });
        expect(page.items.length).toBeLessThanOrEqual(limit);
        pages.push(page.items);
        after = page.next;
      } while (after !== undefined);
      return pages;
    }

    it("pages the nodes over the list's shards: the pages add up to the list, in order, at any page length", async () => {
      const at = tick();
      // Some created in the same millisecond: they go by id, in the pages as in the list.
      for (let n = 1; n <= 12; n += 1)
        await stores.nodes.create(n % 3 === 0 ? buildNode(parseNewNode({ name: `same-${n}` }), hex(1000 - n), at) : node(n));
      const all = (await stores.nodes.list()).map((each) => each.id);
      expect(all).toHaveLength(12);
      for (const limit of [1, 5, 12, 50]) {
        const pages = await walk((request) => stores.nodes.page(request), limit);
        expect(pages.flat().map((each) => each.id)).toEqual(all);
      }
      expect(await stores.nodes.page({ limit: 5, after: "2099-01-01T00:00:00.000Z#f" })).toEqual({ items: [] });
    });

    it("pages every lookup, in creation order", async () => {
      const made = [];
      for (let n = 0; n < 5; n += 1) {
        const stamp = tick().toISOString();
        const lookup = { id: hex(500 + n), node: hex(n), macAddress: `02:00:00:00:01:0${n}`, createdAt: stamp, updatedAt: stamp };
        await stores.lookups.create(lookup);
        made.push(lookup.id);
      }
      for (const limit of [1, 2, 10])
        expect((await walk((request) => stores.lookups.page(request), limit)).flat().map((l) => l.id)).toEqual(made);
    });

    it("pages every catalog, in creation order", async () => {
      const made = [];
      for (let n = 0; n < 5; n += 1) {
        const catalogs = newCatalogs(
          `node-${n % 2}`,
          [
            { source: "dmi", data: { n } },
            { source: "lshw", data: { n } },
          ],
          tick(),
        );
        await stores.catalogs.add(catalogs);
        made.push(...catalogs.map((catalog) => catalog.id));
      }
      for (const limit of [1, 3, 20])
        expect((await walk((request) => stores.catalogs.page(request), limit)).flat().map((c) => c.id)).toEqual(made);
    });

    it("pages all workflows and a node's, in creation order", async () => {
      const made = [];
      for (let n = 0; n < 7; n += 1) {
        const each = await stores.workflows.create(workflow(n % 2 === 0 ? "n1" : "n2"));
        made.push(each.instanceId);
        await stores.workflows.update(each.instanceId, (w) => cancelWorkflow(w, new Date()));
      }
      for (const limit of [1, 3, 10]) {
        expect((await walk((request) => stores.workflows.page(request), limit)).flat().map((w) => w.instanceId)).toEqual(made);
        expect((await walk((request) => stores.workflows.pageForNode("n1", request), limit)).flat().map((w) => w.instanceId)).toEqual(
          made.filter((_, n) => n % 2 === 0),
        );
      }
      expect((await walk((request) => stores.workflows.pageForNode("n9", request), 3)).flat()).toEqual([]);
    });
  });

  describe("WorkflowStore", () => {
    it("creates, gets by instanceId or id, lists overall and per node in order", async () => {
      const a = await stores.workflows.create(workflow("n1"));
      await stores.workflows.update(a.instanceId, (w) => cancelWorkflow(w, new Date()));
      const b = await stores.workflows.create(workflow("n2"));
      const c = await stores.workflows.create(workflow("n1"));
      expect((await stores.workflows.get(a.instanceId))?._status).toBe("cancelled");
      expect((await stores.workflows.get(b.id))?.instanceId).toBe(b.instanceId);
      expect(await stores.workflows.get("nope")).toBeUndefined();
      expect((await stores.workflows.list()).map((w) => w.instanceId)).toEqual([a.instanceId, b.instanceId, c.instanceId]);
      expect((await stores.workflows.listForNode("n1")).map((w) => w.instanceId)).toEqual([a.instanceId, c.instanceId]);
      expect(await stores.workflows.listForNode("n9")).toEqual([]);
    });

    it("keeps at most one active workflow per node, even when starts race", async () => {
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => stores.workflows.create(workflow("n1"))));
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const active = await stores.workflows.activeForNode("n1");
      expect(active).toBeDefined();
      await stores.workflows.update(active!.instanceId, (w) => cancelWorkflow(w, new Date()));
      expect(await stores.workflows.activeForNode("n1")).toBeUndefined();
      await expect(stores.workflows.create(workflow("n1"))).resolves.toBeDefined();
    });

    it("answers the stored record unchanged when the change changes nothing", async () => {
      const created = await stores.workflows.create(workflow("n1"));
      expect(await stores.workflows.update(created.instanceId, (w) => w)).toEqual(created);
      expect(await stores.workflows.update("nope", (w) => w)).toBeUndefined();
    });

    it("loses no concurrent change", async () => {
      const created = await stores.workflows.create(workflow("n1"));
      await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          stores.workflows.update(created.instanceId, (w) => ({
            ...w,
            definition: { ...w.definition, options: { ...w.definition.options, [`k${i}`]: i } },
          })),
        ),
      );
      const options = (await stores.workflows.get(created.instanceId))!.definition.options;
      for (let i = 0; i < 6; i += 1) expect(options[`k${i}`]).toBe(i);
    });
  });

  describe("DefinitionStore", () => {
    const task = (name: string, greeting = "hi") => ({
      friendlyName: name,
      injectableName: name,
      implementsTask: "Task.Base.noop",
      // Deeper than DynamoDB's 32 levels of maps.
      options: { greeting, deep: nest(40) },
      properties: {},
    });
    const graph = (name: string) => ({
      friendlyName: name,
      injectableName: name,
      options: {},
      tasks: [{ label: "a", taskName: "Task.B" }],
    });

    it("keeps tasks and graphs by name, lists each kind in name order, replaces keeping createdAt", async () => {
      const first = await stores.definitions.putTask(task("Task.B"), tick());
      await stores.definitions.putTask(task("Task.A"), tick());
      const replaced = await stores.definitions.putTask(task("Task.B", "bye"), tick());
      expect(replaced.createdAt).toBe(first.createdAt);
      expect(replaced.updatedAt > first.updatedAt).toBe(true);
      expect((await stores.definitions.task("Task.B"))?.options.greeting).toBe("bye");
      expect((await stores.definitions.tasks()).map((t) => t.injectableName)).toEqual(["Task.A", "Task.B"]);
      await stores.definitions.putGraph(graph("Graph.Z"), tick());
      await stores.definitions.putGraph(graph("Graph.Y"), tick());
      expect((await stores.definitions.graphs()).map((g) => g.injectableName)).toEqual(["Graph.Y", "Graph.Z"]);
      expect(await stores.definitions.graph("Graph.Z")).toEqual(graph("Graph.Z"));
      expect(await stores.definitions.graph("Graph.None")).toBeUndefined();
      expect(await stores.definitions.task("Graph.Z")).toBeUndefined();
    });
  });

  describe("CatalogStore", () => {
    const catalogsOf = (nodeId: string, sources: string[], at: Date) =>
      newCatalogs(
        nodeId,
        sources.map((source, i) => ({ source, data: { i, nested: { "dotted.key": [1, { deep: nest(40) }] } } })),
        at,
      );

    it("keeps catalogs in creation order, by node, the latest of a source, and removes a node's", async () => {
      const first = catalogsOf(hex(1), ["dmi", "ohai", "dm"], tick());
      await stores.catalogs.add(first);
      await stores.catalogs.add(catalogsOf(hex(2), ["dmi"], tick()));
      const again = catalogsOf(hex(1), ["dmi"], tick());
      await stores.catalogs.add(again);
      expect((await stores.catalogs.forNode(hex(1))).map((c) => c.source)).toEqual(["dmi", "ohai", "dm", "dmi"]);
      expect((await stores.catalogs.list()).map((c) => [c.node, c.source])).toEqual([
        [hex(1), "dmi"],
        [hex(1), "ohai"],
        [hex(1), "dm"],
        [hex(2), "dmi"],
        [hex(1), "dmi"],
      ]);
      expect((await stores.catalogs.latest(hex(1), "dmi"))?.id).toBe(again[0].id);
      expect((await stores.catalogs.latest(hex(1), "dm"))?.id).toBe(first[2].id);
      expect(await stores.catalogs.latest(hex(1), "d")).toBeUndefined();
      expect(await stores.catalogs.get(first[1].id)).toEqual({
        ...first[1],
        data: { i: 1, nested: { dotted_key: [1, { deep: nest(40) }] } },
      });
      await stores.catalogs.removeNode(hex(1));
      expect((await stores.catalogs.list()).map((c) => c.node)).toEqual([hex(2)]);
      expect(await stores.catalogs.forNode(hex(1))).toEqual([]);
    });
  });

  describe("RecordStore (SKUs)", () => {
    const sku = (n: number, at: Date) => ({
      id: hex(n),
      name: `sku-${n}`,
      rules: [],
      createdAt: at.toISOString(),
      updatedAt: at.toISOString(),
    });

    it("creates (409 on a taken id), lists oldest first, updates and deletes", async () => {
      await stores.skus.create(sku(2, tick()));
      await stores.skus.create(sku(1, tick()));
      await expect(stores.skus.create(sku(1, tick()))).rejects.toThrow(ConflictError);
      expect((await stores.skus.list()).map((s) => s.name)).toEqual(["sku-2", "sku-1"]);
      expect((await stores.skus.update(hex(1), (s) => ({ ...s, name: "renamed" })))?.name).toBe("renamed");
      expect(await stores.skus.update(hex(9), (s) => s)).toBeUndefined();
      expect((await stores.skus.delete(hex(2)))?.name).toBe("sku-2");
      expect(await stores.skus.delete(hex(2))).toBeUndefined();
      expect((await stores.skus.list()).map((s) => s.name)).toEqual(["renamed"]);
    });
  });

  describe("NodeStore by SKU and by tag", () => {
    it("finds the nodes of a SKU and of a tag, following updates and deletes", async () => {
      await stores.nodes.create(node(1, [], { tags: ["a", "b"] }));
      await stores.nodes.create(node(2));
      await stores.nodes.update(hex(2), (n) => ({ ...n, sku: "s1", tags: ["b"] }));
      await stores.nodes.update(hex(1), (n) => ({ ...n, sku: "s1" }));
      expect((await stores.nodes.withSku("s1")).map((n) => n.id)).toEqual([hex(1), hex(2)]);
      const first = await stores.nodes.pageWithSku("s1", { limit: 1 });
      expect(first.items.map((n) => n.id)).toEqual([hex(1)]);
      expect((await stores.nodes.pageWithSku("s1", { limit: 1, after: first.next })).items.map((n) => n.id)).toEqual([hex(2)]);
      expect((await stores.nodes.withTag("b")).map((n) => n.id)).toEqual([hex(1), hex(2)]);
      await stores.nodes.update(hex(1), (n) => ({ ...n, sku: null, tags: ["a"] }));
      expect((await stores.nodes.withSku("s1")).map((n) => n.id)).toEqual([hex(2)]);
      expect((await stores.nodes.withTag("b")).map((n) => n.id)).toEqual([hex(2)]);
      await stores.nodes.delete(hex(2));
      expect(await stores.nodes.withSku("s1")).toEqual([]);
      expect(await stores.nodes.withTag("b")).toEqual([]);
      expect((await stores.nodes.withTag("a")).map((n) => n.id)).toEqual([hex(1)]);
    });
  });

  describe("LookupStore", () => {
    const lookup = (n: number, mac: string, ip?: string, node = "") => {
      const at = tick().toISOString();
      return { id: hex(n), node, macAddress: mac, ...(ip && { ipAddress: ip }), createdAt: at, updatedAt: at };
    };

    it("keeps lookups by id, MAC, IP and node, oldest first", async () => {
      await stores.lookups.create(lookup(1, "08:00:27:00:00:01", "10.0.0.1", hex(7)));
      await stores.lookups.create(lookup(2, "08:00:27:00:00:02", undefined, hex(7)));
      await stores.lookups.create(lookup(3, "08:00:27:00:00:03"));
      expect((await stores.lookups.list()).map((l) => l.id)).toEqual([hex(1), hex(2), hex(3)]);
      expect((await stores.lookups.byMac("08:00:27:00:00:02"))?.id).toBe(hex(2));
      expect((await stores.lookups.byIp("10.0.0.1"))?.id).toBe(hex(1));
      expect(await stores.lookups.byIp("10.0.0.9")).toBeUndefined();
      expect((await stores.lookups.forNode(hex(7))).map((l) => l.id)).toEqual([hex(1), hex(2)]);
      expect(await stores.lookups.get(hex(3))).toMatchObject({ id: hex(3), node: "", macAddress: "08:00:27:00:00:03" });
    });

    it("keeps each MAC and IP in one lookup, through creates and updates, and frees them on delete", async () => {
      await stores.lookups.create(lookup(1, "08:00:27:00:00:01", "10.0.0.1"));
      await stores.lookups.create(lookup(2, "08:00:27:00:00:02"));
      await expect(stores.lookups.create(lookup(3, "08:00:27:00:00:01"))).rejects.toThrow(LookupTakenError);
      await expect(stores.lookups.create(lookup(3, "08:00:27:00:00:03", "10.0.0.1"))).rejects.toThrow("ipAddress 10.0.0.1");
      await expect(stores.lookups.update(hex(2), (l) => ({ ...l, ipAddress: "10.0.0.1" }))).rejects.toThrow(LookupTakenError);
      const moved = await stores.lookups.update(hex(1), (l) => ({
        ...l,
        macAddress: "08:00:27:00:00:09",
        ipAddress: "10.0.0.2",
        node: hex(5),
      }));
      expect(moved).toMatchObject({ macAddress: "08:00:27:00:00:09", ipAddress: "10.0.0.2" });
      expect(await stores.lookups.byMac("08:00:27:00:00:01")).toBeUndefined();
      expect(await stores.lookups.byIp("10.0.0.1")).toBeUndefined();
      expect((await stores.lookups.forNode(hex(5))).map((l) => l.id)).toEqual([hex(1)]);
      await stores.lookups.create(lookup(3, "08:00:27:00:00:01", "10.0.0.1"));
      expect((await stores.lookups.delete(hex(1)))?.id).toBe(hex(1));
      expect(await stores.lookups.byIp("10.0.0.2")).toBeUndefined();
      await stores.lookups.create(lookup(4, "08:00:27:00:00:09", "10.0.0.2"));
      expect((await stores.lookups.list()).map((l) => l.id)).toEqual([hex(2), hex(3), hex(4)]);
    });
  });
});
