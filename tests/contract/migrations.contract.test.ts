import { DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { apiContextFor } from "../../lib/provisioning/apiContext";
import { graphDefinition } from "../../lib/provisioning/graphs/graphLibrary";
import { buildNode, type Node, parseNewNode } from "../../lib/provisioning/nodes/node";
import { buildWorkflow } from "../../lib/provisioning/workflowEngine/buildWorkflow";
import { migrate } from "../../lib/store/dynamodb/migrations";
import { nodeKey } from "../../lib/store/dynamodb/nodeStore";
import { dynamoProvisioningStores } from "../../lib/store/dynamodb/provisioningStores";
import { spreadShardOf } from "../../lib/store/dynamodb/table";
import { workflowKey } from "../../lib/store/dynamodb/workflowStore";
import { freshTable, testDocumentClient, testFileBlobs } from "../support/dynamoTables";

/**
 * A record as an older version wrote it: under its kind's one partition key, without list keys.
 * (The store wrote it under its shard; it is moved back.)
 */
async function asOlderVersion(table: string, kind: string, id: string): Promise<void> {
  const client = testDocumentClient();
  const shard = kind === "NODE" ? nodeKey(spreadShardOf(id)) : workflowKey(spreadShardOf(id));
  const { Item } = await client.send(new GetCommand({ TableName: table, Key: { pk: shard, sk: id } }));
  const { gsi2pk: _pk, gsi2sk: _sk, ...older } = Item!;
  await client.send(new PutCommand({ TableName: table, Item: { ...older, pk: kind } }));
  await client.send(new DeleteCommand({ TableName: table, Key: { pk: shard, sk: id } }));
}

describe("npm run migrate: a table from before the keys that spread and the list index (issue 28)", () => {
  it("reads the older records meanwhile, moves each to its shard with its list keys, once; the paged lists then find them", async () => {
    const fileBlobs = await testFileBlobs();
    const table = await freshTable("migrate");
    const stores = dynamoProvisioningStores(testDocumentClient(), table, () => fileBlobs);
    const created = new Date("2026-11-25T09:00:00.000Z");
    const nodes: Node[] = [];
    for (let n = 0; n < 30; n += 1)
      nodes.push(await stores.nodes.create(buildNode(parseNewNode({ name: `old-${n}` }), n.toString(16).padStart(24, "0"), created)));
    const flow = await stores.workflows.create(
      buildWorkflow(graphDefinition("Graph.Reboot.Node")!, {}, nodes[0].id, apiContextFor("http://x"), created),
    );
    for (const node of nodes.slice(0, 20)) await asOlderVersion(table, "NODE", node.id);
    await asOlderVersion(table, "WF", flow.instanceId);

    // Before the migration: every record is read, listed whole and changed; the pages miss the older ones.
    expect(await stores.nodes.get(nodes[3].id)).toEqual(nodes[3]);
    expect((await stores.workflows.get(flow.instanceId))?.instanceId).toBe(flow.instanceId);
    expect((await stores.nodes.list()).map((node) => node.id)).toEqual(nodes.map((node) => node.id));
    expect((await stores.nodes.page({ limit: 100 })).items).toHaveLength(10);
    expect((await stores.workflows.page({ limit: 100 })).items).toEqual([]);
    // A change moves the record (its older item deleted in the same write).
    await stores.nodes.update(nodes[3].id, (node) => ({ ...node, name: "moved-by-a-change" }));
    expect((await stores.nodes.get(nodes[3].id))?.name).toBe("moved-by-a-change");
    expect((await stores.nodes.list()).filter((node) => node.id === nodes[3].id)).toHaveLength(1);

    const client = testDocumentClient();
    expect(await migrate(client, table)).toEqual({
      moved: { NODE: 19, WF: 1, LKP: 0, INSTANCE: 0, INSTALLREPORT: 0, CATALOG: 0 },
      raced: { NODE: 0, WF: 0, LKP: 0, INSTANCE: 0, INSTALLREPORT: 0, CATALOG: 0 },
      listed: { NODE: 0, WF: 0, LKP: 0, CATALOG: 0 },
      openJobs: 0,
    });
    const all = (await stores.nodes.list()).map((node) => node.id);
    expect(all).toHaveLength(30);
    expect((await stores.nodes.page({ limit: 100 })).items.map((node) => node.id)).toEqual(all);
    expect((await stores.workflows.page({ limit: 100 })).items.map((w) => w.instanceId)).toEqual([flow.instanceId]);
    // Again: nothing to do.
    expect((await migrate(client, table)).moved).toEqual({ NODE: 0, WF: 0, LKP: 0, INSTANCE: 0, INSTALLREPORT: 0, CATALOG: 0 });
  });
});

describe("records stored deflated (issue 28: a workflow rewritten at each step costs its size in write units)", () => {
  it("keeps a record over 1 KB as deflated JSON, a small one as text, and reads a record written as text before", async () => {
    const fileBlobs = await testFileBlobs();
    const table = await freshTable("deflate");
    const stores = dynamoProvisioningStores(testDocumentClient(), table, () => fileBlobs);
    const now = new Date("2026-11-25T09:00:00.000Z");
    const small = await stores.nodes.create(buildNode(parseNewNode({ name: "small" }), "a".repeat(24), now));
    const large = await stores.nodes.create(
      buildNode(parseNewNode({ name: "large", description: "rack 7 ".repeat(2000) }), "b".repeat(24), now),
    );
    const raw = async (id: string) =>
      (await testDocumentClient().send(new GetCommand({ TableName: table, Key: { pk: nodeKey(spreadShardOf(id)), sk: id } }))).Item!;
    expect(typeof (await raw(small.id)).doc).toBe("string");
    const deflated = await raw(large.id);
    expect(deflated.doc).toBeUndefined();
    expect(deflated.docz.length).toBeLessThan(JSON.stringify(large).length / 10);
    expect(await stores.nodes.get(large.id)).toEqual(large);

    // An item as an older version wrote it (the JSON as text, however long): read as before, and
    // written deflated at its next change.
    await testDocumentClient().send(
      new PutCommand({ TableName: table, Item: { ...deflated, docz: undefined, doc: JSON.stringify(large) } }),
    );
    expect(await stores.nodes.get(large.id)).toEqual(large);
    await stores.nodes.update(large.id, (node) => ({ ...node, name: "large-2" }));
    expect((await raw(large.id)).docz).toBeDefined();
    expect((await stores.nodes.get(large.id))?.name).toBe("large-2");
  });
});
