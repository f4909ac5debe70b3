/**
 * npm run bench:lists — what one page of the node list costs DynamoDB at 1,000 and at 100,000
 * nodes (issue 28), beside what the whole list costs. Measured against DynamoDB Local with
 * ReturnConsumedCapacity (DynamoDB Local computes units as DynamoDB does), through the service's
 * own list code (listNodesPage, the store's page). Writes bench/list-results.json and its section
 * of BENCHMARKS.md.
 *
 *   npm run bench:lists [-- --sizes 1000,100000]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BatchWriteCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { newObjectId } from "../lib/provisioning/ids";
import { positionOf } from "../lib/provisioning/listPage";
import { buildNode, parseNewNode } from "../lib/provisioning/nodes/node";
import { listNodes, listNodesPage } from "../lib/provisioning/nodes/nodeService";
import { nodeKey, nodeListKey } from "../lib/store/dynamodb/nodeStore";
import { dynamoProvisioningStores } from "../lib/store/dynamodb/provisioningStores";
import { ensureTable, listShardOf, spreadShardOf } from "../lib/store/dynamodb/table";
import { startDynamoDbLocal } from "../scripts/dynamodbLocal";
import { freePort } from "../tests/support/offlineServer";
import { callCount, meteredClient } from "./meter";
import { runBench } from "./runBench";
import { saveSection } from "./sections";

export const LIST_HEADING = "## List pages at any size";
const RESULTS = "bench/list-results.json";

interface Measure {
  case: string;
  calls: number;
  readUnits: number;
  items: number;
}

interface ListResults {
  date: string;
  sizes: { nodes: number; measures: Measure[] }[];
}

/** `count` nodes as the store writes them (a tenth of them switches), 25 a call, 4 calls at a time. */
async function fill(client: DynamoDBDocumentClient, table: string, count: number): Promise<string[]> {
  const start = Date.parse("2026-01-01T00:00:00.000Z");
  const positions: string[] = [];
  const items = Array.from({ length: count }, (_, n) => {
    const created = new Date(start + n * 37);
    const node = buildNode(
      parseNewNode({ name: `rack-${n}`, type: n % 10 === 0 ? "switch" : "compute", identifiers: [macOf(n)] }),
      newObjectId(created),
      created,
    );
    positions.push(positionOf(node.createdAt, node.id));
    return {
      pk: nodeKey(spreadShardOf(node.id)),
      sk: node.id,
      doc: JSON.stringify(node),
      version: 1,
      createdAt: node.createdAt,
      gsi2pk: nodeListKey(listShardOf(node.id)),
      gsi2sk: positionOf(node.createdAt, node.id),
    };
  });
  const batches = [];
  for (let at = 0; at < items.length; at += 25) batches.push(items.slice(at, at + 25));
  for (let at = 0; at < batches.length; at += 4) {
    await Promise.all(
      batches.slice(at, at + 4).map(async (batch) => {
        let pending = batch.map((Item) => ({ PutRequest: { Item } }));
        while (pending.length > 0) {
          const answer = await client.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
          pending = (answer.UnprocessedItems?.[table] ?? []) as typeof pending;
        }
      }),
    );
  }
  return positions.sort();
}

/** A distinct MAC per node (02: a locally administered address). */
const macOf = (n: number) => `02:${[24, 16, 8, 0].map((shift) => ((n >> shift) & 0xff).toString(16).padStart(2, "0")).join(":")}:00`;

export async function measureLists(sizes: number[]): Promise<ListResults> {
  const db = await startDynamoDbLocal(await freePort());
  try {
    const results: ListResults = { date: new Date().toISOString(), sizes: [] };
    for (const size of sizes) {
      const table = `lists-${size}`;
      await ensureTable(db.client, table);
      const { client, meter, reset } = meteredClient(db.endpoint);
      const positions = await fill(client, table, size);
      const stores = dynamoProvisioningStores(client, table, () => {
        throw new Error("the list bench reads no file bytes");
      });
      const measures: Measure[] = [];
      const measure = async (name: string, run: () => Promise<number>) => {
        reset();
        const items = await run();
        measures.push({ case: name, calls: callCount(meter), readUnits: Math.round(meter.read * 10) / 10, items });
      };
      await measure("first page, ?limit=50", async () => (await listNodesPage(stores, {}, { limit: 50 })).items.length);
      await measure("a page from the middle, ?limit=50&next=…", async () => {
        return (await listNodesPage(stores, {}, { limit: 50, after: positions[Math.floor(size / 2)] })).items.length;
      });
      await measure("?limit=1000", async () => (await listNodesPage(stores, {}, { limit: 1000 })).items.length);
      await measure("a filtered page, ?type=switch&limit=50 (1 in 10 match)", async () => {
        return (await listNodesPage(stores, { type: ["switch"] }, { limit: 50 })).items.length;
      });
      await measure("the whole list, no paging parameters (RackHD's answer)", async () => (await listNodes(stores, {})).length);
      results.sizes.push({ nodes: size, measures });
      client.destroy();
    }
    return results;
  } finally {
    await db.stop();
  }
}

const unitsOf = (size: ListResults["sizes"][number], prefix: string) =>
  size.measures.find((each) => each.case.startsWith(prefix))!.readUnits;
const pageUnits = (size: ListResults["sizes"][number]) => unitsOf(size, "first page");
const wholeUnits = (size: ListResults["sizes"][number]) => unitsOf(size, "the whole list");

export function listSection(root: string): string[] {
  let results: ListResults;
  try {
    results = JSON.parse(readFileSync(join(root, RESULTS), "utf8")) as ListResults;
  } catch {
    return [];
  }
  const [small, large] = [results.sizes[0], results.sizes[results.sizes.length - 1]];
  const row = (name: string) => {
    const at = (size: typeof small) => size.measures.find((each) => each.case === name)!;
    return `| ${name} | ${at(small).calls} | ${at(small).readUnits} | ${at(large).calls} | ${at(large).readUnits} |`;
  };
  return [
    LIST_HEADING,
    "",
    `Measured by \`npm run bench:lists\` on ${results.date.slice(0, 10)}: the node list through the service's own code (listNodesPage, the DynamoDB store) against DynamoDB Local, which reports consumed capacity as DynamoDB does; ${small.nodes.toLocaleString("en-US")} and ${large.nodes.toLocaleString("en-US")} nodes written as the store writes them. A page is one query per shard of the list index (GSI2, keys only, 8 shards) and one BatchGetItem of its nodes, so **its read units do not grow with the table**; the whole list (what a client that sends no paging parameter gets, as from RackHD) grows with it.`,
    "",
    `| request | calls at ${small.nodes.toLocaleString("en-US")} | read units at ${small.nodes.toLocaleString("en-US")} | calls at ${large.nodes.toLocaleString("en-US")} | read units at ${large.nodes.toLocaleString("en-US")} |`,
    "|---|---:|---:|---:|---:|",
    ...small.measures.map((each) => row(each.case)),
    "",
    `A filtered page reads on until it is full or has read 1,000 nodes (FILTER_READ_CAP): a filter that matches few answers a short page with its \`next\`, never the whole fleet. \`?limit=1000\` reads at most 8 × 1,000 index keys (a shard's query stops at the page's length), so it too is bounded, once each shard holds a page's worth. At list prices ($0.125 per million read units), a page of 50 costs $${(pageUnits(large) * 0.125e-6).toFixed(6)} in reads at any fleet size; the whole list of ${large.nodes.toLocaleString("en-US")} costs $${(wholeUnits(large) * 0.125e-6).toFixed(4)} a request.`,
  ];
}

async function main(argv: string[]): Promise<void> {
  const at = argv.indexOf("--sizes");
  const sizes = at >= 0 ? argv[at + 1].split(",").map(Number) : [1000, 100_000];
  saveSection(join(__dirname, ".."), RESULTS, await measureLists(sizes), LIST_HEADING, listSection);
}

if (require.main === module) runBench("bench:lists", main);
