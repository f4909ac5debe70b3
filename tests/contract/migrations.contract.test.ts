import { GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { apiContextFor } from "../../lib/provisioning/apiContext";
import { graphDefinition } from "../../lib/provisioning/graphs/graphLibrary";
import { buildNode, parseNewNode } from "../../lib/provisioning/nodes/node";
import { buildWorkflow } from "../../lib/provisioning/workflows/buildWorkflow";
import { addListKeys } from "../../lib/store/dynamodb/migrations";
import { dynamoProvisioningStores } from "../../lib/store/dynamodb/provisioningStores";
import { freshTable, testDocumentClient, testFileBlobs } from "../support/dynamoTables";

/** A table as an older version wrote it: these records lack the list index's keys. */
async function withoutListKeys(table: string, pk: string, sk: string): Promise<void> {
  await testDocumentClient().send(new UpdateCommand({ TableName: table, Key: { pk, sk }, UpdateExpression: "REMOVE gsi2pk, gsi2sk" }));
}

describe("npm run migrate: a table from before the list index (issue 28)", () => {
  it("gives the older nodes and workflows their list keys, once, and the paged lists then find them", async () => {
    const fileBlobs = await testFileBlobs();
    const table = await freshTable("migrate");
    const stores = dynamoProvisioningStores(testDocumentClient(), table, () => fileBlobs);
    const created = new Date("2026-11-25T09:00:00.000Z");
    const nodes = [];
    for (let n = 0; n < 30; n += 1)
      nodes.push(await stores.nodes.create(buildNode(parseNewNode({ name: `old-${n}` }), n.toString(16).padStart(24, "0"), created)));
    const flow = await stores.workflows.create(
      buildWorkflow(graphDefinition("Graph.Reboot.Node")!, {}, nodes[0].id, apiContextFor("http://x"), created),
    );
    for (const node of nodes.slice(0, 20)) await withoutListKeys(table, "NODE", node.id);
    await withoutListKeys(table, "WF", flow.instanceId);
    expect((await stores.nodes.page({ limit: 100 })).items).toHaveLength(10);
    expect((await stores.workflows.page({ limit: 100 })).items).toEqual([]);

    expect(await addListKeys(testDocumentClient(), table)).toEqual({ added: { NODE: 20, WF: 1 }, kept: { NODE: 10, WF: 0 } });
    expect((await stores.nodes.page({ limit: 100 })).items.map((node) => node.id)).toEqual(
      (await stores.nodes.list()).map((node) => node.id),
    );
    expect((await stores.workflows.page({ limit: 100 })).items.map((w) => w.instanceId)).toEqual([flow.instanceId]);
    // Again: nothing to do.
    expect(await addListKeys(testDocumentClient(), table)).toEqual({ added: { NODE: 0, WF: 0 }, kept: { NODE: 30, WF: 1 } });
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
      (await testDocumentClient().send(new GetCommand({ TableName: table, Key: { pk: "NODE", sk: id } }))).Item!;
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
