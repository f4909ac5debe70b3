import { apiContextFor } from "../../../lib/provisioning/apiContext";
import { graphDefinition } from "../../../lib/provisioning/graphs/graphLibrary";
import type { Page, PageRequest } from "../../../lib/provisioning/listPage";
import { buildNode, type Node, parseNewNode } from "../../../lib/provisioning/nodes/node";
import { buildWorkflow } from "../../../lib/provisioning/workflowEngine/buildWorkflow";
import { cancelWorkflow } from "../../../lib/provisioning/workflowEngine/progress";
import { touched } from "../../../lib/store/dynamodb/capacity";
import { catalogKey } from "../../../lib/store/dynamodb/catalogStore";
import { migrate } from "../../../lib/store/dynamodb/migrations";
import { nodeKey } from "../../../lib/store/dynamodb/nodeStore";
import { dynamoProvisioningStores } from "../../../lib/store/dynamodb/provisioningStores";
import { LIST_SHARDS, listShardOf, SPREAD_SHARDS, spreadShardOf } from "../../../lib/store/dynamodb/table";
import { type FakeTable, fakeTable } from "../../support/fakeDocumentClient";

/**
 * The DynamoDB adapters' keys (issue 28) in the unit tier, on the fake table: records spread over
 * their shard keys, the list index, records over 1 KB deflated, the older single keys read and
 * moved. The contract tier runs the same adapters against DynamoDB Local.
 */
const TABLE = "t";
const at = (second: number) => new Date(Date.UTC(2026, 10, 25, 9, 0, second));
const hex = (n: number) => n.toString(16).padStart(24, "0");
const nodeAt = (n: number, extra: Record<string, unknown> = {}): Node =>
  buildNode(
    parseNewNode({ name: `n${n}`, identifiers: [`02:00:00:00:00:${n.toString(16).padStart(2, "0")}`], ...extra }),
    hex(n),
    at(n % 7),
  );

async function walk<T>(read: (request: PageRequest) => Promise<Page<T>>, limit: number): Promise<T[]> {
  const all: T[] = [];
  let after: string | undefined;
  do {
    const page = await read({ limit, ...(after !== undefined && { after }) });
    expect(page.items.length).toBeLessThanOrEqual(limit);
    all.push(...page.items);
    after = page.next;
  } while (after !== undefined);
  return all;
}

describe("the DynamoDB keys (issue 28), on the fake table", () => {
  let table: FakeTable;
  let stores: ReturnType<typeof dynamoProvisioningStores>;
  beforeEach(() => {
    table = fakeTable();
    stores = dynamoProvisioningStores(table.client, TABLE, () => {
      throw new Error("no file bytes here");
    });
  });
  const itemOf = (pk: string, sk: string) => table.items.get(`${pk}\u0000${sk}`);

  it("derives each shard from the id alone, within range, spread over every shard", () => {
    const ids = Array.from({ length: 400 }, (_, n) => hex(n * 7919));
    expect(new Set(ids.map(spreadShardOf)).size).toBe(SPREAD_SHARDS);
    expect(new Set(ids.map(listShardOf)).size).toBe(LIST_SHARDS);
    for (const id of ids) expect(spreadShardOf(id)).toBe(spreadShardOf(id));
  });

  it("keeps each node under its shard key with its list keys, a large one deflated, and lists and pages them in creation order", async () => {
    const nodes = [];
    for (let n = 1; n <= 20; n += 1) nodes.push(await stores.nodes.create(nodeAt(n, n === 5 ? { description: "x".repeat(5000) } : {})));
    const stored = itemOf(nodeKey(spreadShardOf(hex(3))), hex(3))!;
    expect(stored).toMatchObject({ gsi2pk: `LISTNODE#${listShardOf(hex(3))}`, gsi2sk: `${nodes[2].createdAt}#${hex(3)}` });
    expect(typeof stored.doc).toBe("string");
    const large = itemOf(nodeKey(spreadShardOf(hex(5))), hex(5))!;
    expect(large.doc).toBeUndefined();
    expect((large.docz as Uint8Array).length).toBeLessThan(1000);
    expect(await stores.nodes.get(hex(5))).toEqual(nodes[4]);
    expect((await stores.nodes.find("02:00:00:00:00:05"))?.id).toBe(hex(5));

    const order = [...nodes].sort((a, b) => (`${a.createdAt}#${a.id}` < `${b.createdAt}#${b.id}` ? -1 : 1)).map((node) => node.id);
    expect((await stores.nodes.list()).map((node) => node.id)).toEqual(order);
    for (const limit of [1, 3, 20, 50])
      expect((await walk((request) => stores.nodes.page(request), limit)).map((node) => node.id)).toEqual(order);

    await stores.nodes.update(hex(7), (node) => ({ ...node, name: "renamed" }));
    expect((await stores.nodes.get(hex(7)))?.name).toBe("renamed");
    await stores.nodes.delete(hex(7));
    expect(await stores.nodes.get(hex(7))).toBeUndefined();
    expect((await stores.nodes.list()).length).toBe(19);
  });

  it("pages all workflows and a node's from their indexes", async () => {
    const api = apiContextFor("http://x");
    const made = [];
    for (let n = 0; n < 6; n += 1) {
      const workflow = await stores.workflows.create(
        buildWorkflow(graphDefinition("Graph.Reboot.Node")!, {}, n % 2 ? "a" : "b", api, at(n)),
      );
      await stores.workflows.update(workflow.instanceId, (current) => cancelWorkflow(current, at(n)));
      made.push(workflow.instanceId);
    }
    expect((await walk((request) => stores.workflows.page(request), 4)).map((w) => w.instanceId)).toEqual(made);
    expect((await walk((request) => stores.workflows.pageForNode("a", request), 2)).map((w) => w.instanceId)).toEqual(
      made.filter((_, n) => n % 2),
    );
    expect((await stores.workflows.list()).map((w) => w.instanceId)).toEqual(made);
  });

  it("answers a MAC's lookup from its claim in one read, and keeps the claim's copy current", async () => {
    const lookup = {
      id: hex(1),
      node: hex(9),
      macAddress: "02:00:00:00:00:01",
      createdAt: at(0).toISOString(),
      updatedAt: at(0).toISOString(),
    };
    await stores.lookups.create(lookup);
    table.calls.length = 0;
    expect(await stores.lookups.byMac("02:00:00:00:00:01")).toEqual(lookup);
    expect(table.calls.map((call) => call.command)).toEqual(["GetCommand"]);
    await stores.lookups.update(hex(1), (current) => ({ ...current, ipAddress: "10.0.0.9" }));
    expect((await stores.lookups.byMac("02:00:00:00:00:01"))?.ipAddress).toBe("10.0.0.9");
    expect((await stores.lookups.byIp("10.0.0.9"))?.id).toBe(hex(1));
    // A claim an older version wrote (the id only): the lookup is read by it.
    table.items.set(`LKPMAC\u000002:00:00:00:00:01`, { pk: "LKPMAC", sk: "02:00:00:00:00:01", id: hex(1) });
    expect((await stores.lookups.byMac("02:00:00:00:00:01"))?.ipAddress).toBe("10.0.0.9");
    expect((await stores.lookups.page({ limit: 5 })).items.map((l) => l.id)).toEqual([hex(1)]);
    await stores.lookups.delete(hex(1));
    expect(await stores.lookups.byMac("02:00:00:00:00:01")).toBeUndefined();
  });

  describe("a table an older version wrote (one partition key per kind, no list keys)", () => {
    /** Moves a record the store wrote back to its kind's single key, without its list keys. */
    const asOlder = (kind: string, shardKey: string, id: string) => {
      const { gsi2pk: _pk, gsi2sk: _sk, ...item } = itemOf(shardKey, id)!;
      table.items.delete(`${shardKey}\u0000${id}`);
      table.items.set(`${kind}\u0000${id}`, { ...item, pk: kind });
    };

    it("reads, lists and changes the older records meanwhile; a change moves one; the migration moves the rest, once", async () => {
      for (let n = 1; n <= 6; n += 1) await stores.nodes.create(nodeAt(n, n === 2 ? { sku: "s1" } : {}));
      for (const n of [1, 2, 3, 4]) asOlder("NODE", nodeKey(spreadShardOf(hex(n))), hex(n));

      expect((await stores.nodes.get(hex(1)))?.name).toBe("n1");
      expect((await stores.nodes.list()).map((node) => node.name).sort()).toEqual(["n1", "n2", "n3", "n4", "n5", "n6"]);
      expect((await stores.nodes.withSku("s1")).map((node) => node.id)).toEqual([hex(2)]);
      expect((await stores.nodes.pageWithSku("s1", { limit: 1 })).items.map((node) => node.id)).toEqual([hex(2)]);
      expect((await stores.nodes.page({ limit: 10 })).items).toHaveLength(2);

      await stores.nodes.update(hex(1), (node) => ({ ...node, name: "moved" }));
      expect(itemOf("NODE", hex(1))).toBeUndefined();
      expect(itemOf(nodeKey(spreadShardOf(hex(1))), hex(1))).toMatchObject({ version: 2 });
      await stores.nodes.delete(hex(4));
      expect(itemOf("NODE", hex(4))).toBeUndefined();

      const report = await migrate(table.client, TABLE);
      expect(report.moved).toEqual({ NODE: 2, WF: 0, LKP: 0, INSTANCE: 0, INSTALLREPORT: 0, CATALOG: 0 });
      expect(report.raced.NODE).toBe(0);
      expect(report.listed).toEqual({ NODE: 0, WF: 0, LKP: 0, CATALOG: 0 });
      expect(report.openJobs).toBe(0);
      const listed = (await stores.nodes.list()).map((node) => node.id);
      expect(listed).toHaveLength(5);
      expect((await walk((request) => stores.nodes.page(request), 2)).map((node) => node.id)).toEqual(listed);
      expect((await migrate(table.client, TABLE)).moved.NODE).toBe(0);
    });

    it("gives list keys to records under their shard that lack them, and counts a record that raced the move", async () => {
      await stores.nodes.create(nodeAt(1));
      await stores.nodes.create(nodeAt(2));
      const shardKey = nodeKey(spreadShardOf(hex(1)));
      const { gsi2pk: _pk, gsi2sk: _sk, ...unlisted } = itemOf(shardKey, hex(1))!;
      table.items.set(`${shardKey}\u0000${hex(1)}`, unlisted);
      asOlder("NODE", nodeKey(spreadShardOf(hex(2))), hex(2));
      // Someone else already put the record under its new key: the move's condition fails.
      table.items.set(`${nodeKey(spreadShardOf(hex(2)))}\u0000${hex(2)}`, {
        ...itemOf("NODE", hex(2))!,
        pk: nodeKey(spreadShardOf(hex(2))),
      });
      const report = await migrate(table.client, TABLE);
      expect(report).toMatchObject({ moved: { NODE: 0 }, raced: { NODE: 1 }, listed: { NODE: 2 } });
      expect((await stores.nodes.page({ limit: 10 })).items.map((node) => node.id).sort()).toEqual([hex(1), hex(2)]);
    });
  });

  it("spreads the catalogs over their shard keys, reads those an older version wrote, and moves them", async () => {
    const catalog = (n: number, node: string, source: string) => ({
      id: hex(n),
      node,
      source,
      data: { n },
      createdAt: at(n).toISOString(),
      updatedAt: at(n).toISOString(),
    });
    await stores.catalogs.add([catalog(1, "a", "dmi"), catalog(2, "a", "lshw"), catalog(3, "b", "dmi"), catalog(4, "a", "dmi")]);
    expect(itemOf(catalogKey(spreadShardOf(hex(2))), hex(2))).toBeDefined();
    // Catalog 1 as an older version wrote it.
    const { gsi2pk: _pk, gsi2sk: _sk, ...older } = itemOf(catalogKey(spreadShardOf(hex(1))), hex(1))!;
    table.items.delete(`${older.pk}\u0000${hex(1)}`);
    table.items.set(`CATALOG\u0000${hex(1)}`, { ...older, pk: "CATALOG" });

    expect((await stores.catalogs.list()).map((c) => c.id)).toEqual([hex(1), hex(2), hex(3), hex(4)]);
    // The paged list reads the list index, which the older catalog is not in until the migration.
    expect((await walk((request) => stores.catalogs.page(request), 1)).map((c) => c.id)).toEqual([hex(2), hex(3), hex(4)]);
    expect((await stores.catalogs.get(hex(1)))?.data).toEqual({ n: 1 });
    expect((await stores.catalogs.forNode("a")).map((c) => c.id)).toEqual([hex(1), hex(2), hex(4)]);
    expect((await stores.catalogs.latest("a", "dmi"))?.id).toBe(hex(4));
    expect(await stores.catalogs.get(hex(9))).toBeUndefined();

    expect((await migrate(table.client, TABLE)).moved.CATALOG).toBe(1);
    expect((await walk((request) => stores.catalogs.page(request), 3)).map((c) => c.id)).toEqual([hex(1), hex(2), hex(3), hex(4)]);
    expect(itemOf("CATALOG", hex(1))).toBeUndefined();
    await stores.catalogs.removeNode("a");
    expect((await stores.catalogs.list()).map((c) => c.id)).toEqual([hex(3)]);
  });

  it("reads a site's open relay jobs from its index: a job leaves it when it finishes; the migration indexes older open ones", async () => {
    const job = (n: number, site: string, state: "queued" | "succeeded") =>
      ({ id: hex(n), site, state, createdAt: at(n).toISOString(), updatedAt: at(n).toISOString() }) as never;
    await stores.relayJobs.create(job(1, "s1", "queued"));
    await stores.relayJobs.create(job(2, "s1", "queued"));
    await stores.relayJobs.create(job(3, "s2", "queued"));
    await stores.relayJobs.create(job(4, "s1", "succeeded"));
    expect((await stores.relayJobs.openForSite("s1")).map((j) => j.id)).toEqual([hex(1), hex(2)]);
    await stores.relayJobs.update(hex(1), (current) => ({ ...current, state: "succeeded" }));
    expect((await stores.relayJobs.openForSite("s1")).map((j) => j.id)).toEqual([hex(2)]);
    // An open job an older version wrote, without the index keys.
    const { gsi1pk: _pk, gsi1sk: _sk, ...older } = itemOf("RELAYJOB", hex(3))!;
    table.items.set(`RELAYJOB\u0000${hex(3)}`, older);
    expect(await stores.relayJobs.openForSite("s2")).toEqual([]);
    expect((await migrate(table.client, TABLE)).openJobs).toBe(1);
    expect((await stores.relayJobs.openForSite("s2")).map((j) => j.id)).toEqual([hex(3)]);
  });

  it("names the partition keys a call touches, for the debug line", () => {
    const keysOf = (input: Record<string, unknown>) => touched(input).map((entry) => entry.pk);
    expect(keysOf({ Key: { pk: "NODE#3", sk: "a" } })).toEqual(["NODE#3"]);
    expect(keysOf({ Item: { pk: "WF#1" } })).toEqual(["WF#1"]);
    expect(keysOf({ KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": "HOOK" } })).toEqual(["HOOK"]);
    expect(keysOf({ KeyConditionExpression: "gsi2pk = :key", ExpressionAttributeValues: { ":key": "LISTNODE#1" } })).toEqual([
      "LISTNODE#1",
    ]);
    expect(keysOf({ TransactItems: [{ Put: { Item: { pk: "A" } } }, { Delete: { Key: { pk: "B" } } }] })).toEqual(["A", "B"]);
    expect(keysOf({ RequestItems: { t: { Keys: [{ pk: "C" }, { pk: "D" }] } } })).toEqual(["C", "D"]);
    expect(
      keysOf({ RequestItems: { t: [{ PutRequest: { Item: { pk: "E", sk: "1" } } }, { DeleteRequest: { Key: { pk: "F" } } }] } }),
    ).toEqual(["E", "F"]);
    expect(keysOf({})).toEqual([]);
    // Sizes, by which a bench splits a transaction's units over its items.
    expect(touched({ Item: { pk: "A", doc: "x".repeat(100), n: 1, z: new Uint8Array(10), o: { a: 1 } } })).toEqual([
      { pk: "A", bytes: 2 + 1 + 3 + 100 + 1 + 8 + 1 + 10 + 1 + 7 },
    ]);
  });
});
