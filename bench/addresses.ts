/**
 * npm run bench:addresses — what giving an address costs DynamoDB (issue 54): the calls, read and
 * write units of an allocation from an empty pool, from a pool whose first 10,000 addresses are
 * taken, and into a freed gap near its start; a fixed address's claim; and a page of a subnet's
 * addresses at 10,000 given, beside the whole list. Against DynamoDB Local with
 * ReturnConsumedCapacity (it computes units as DynamoDB does), through the service's own code
 * (allocation.ts, the DynamoDB address store). Writes bench/address-results.json and its section
 * of BENCHMARKS.md.
 *
 *   npm run bench:addresses [-- --given 10000]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BatchWriteCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { sortKey, toNumber, toText } from "../lib/provisioning/subnets/address";
import { type AddressAllocation, allocationId } from "../lib/provisioning/subnets/addressStore";
import { allocateNext, claimAddress, freeAddress, TAKEN_PAGE } from "../lib/provisioning/subnets/allocation";
import type { Subnet } from "../lib/provisioning/subnets/subnet";
import { subnetAddresses } from "../lib/provisioning/subnets/subnetService";
import { dynamoProvisioningStores } from "../lib/store/dynamodb/provisioningStores";
import { ensureTable } from "../lib/store/dynamodb/table";
import { startDynamoDbLocal } from "../scripts/dynamodbLocal";
import { freePort } from "../tests/support/offlineServer";
import { meteredClient } from "./meter";
import { PRICES } from "./prices";
import { runBench } from "./runBench";
import { saveSection } from "./sections";

export const ADDRESS_HEADING = "## Addresses: what an allocation costs, and a subnet's list at 10,000";
const RESULTS = "bench/address-results.json";
const NOW = new Date("2026-11-28T12:00:00.000Z");

interface Measure {
  case: string;
  calls: Record<string, number>;
  readUnits: number;
  writeUnits: number;
  /** What the case answered: the address given, or how many addresses a list answered. */
  answer: string;
}

interface AddressResults {
  date: string;
  given: number;
  measures: Measure[];
}

/** A /16 whose pool is its first 16,000 hosts. */
const subnet: Subnet = {
  id: "bench-subnet",
  name: "bench",
  cidr: "10.60.0.0/16",
  nameservers: [],
  searchDomains: [],
  ranges: [{ kind: "pool", start: "10.60.0.1", end: "10.60.62.128" }],
  createdAt: NOW.toISOString(),
  updatedAt: NOW.toISOString(),
};
const FIRST = toNumber("10.60.0.1")!.value;

/** `count` allocations from the pool's start, written as the store writes them, 25 a call. */
async function fill(client: DynamoDBDocumentClient, table: string, count: number): Promise<void> {
  const items = Array.from({ length: count }, (_, n) => {
    const key = sortKey(4, FIRST + BigInt(n));
    const allocation: AddressAllocation = {
      id: allocationId(subnet.id, key),
      subnet: subnet.id,
      key,
      address: toText(4, FIRST + BigInt(n)),
      node: `node-${n}`,
      interface: "eno1",
      createdAt: NOW.toISOString(),
    };
    return {
      pk: "ADDRESS",
      sk: allocation.id,
      doc: JSON.stringify(allocation),
      version: 1,
      createdAt: allocation.createdAt,
      gsi1pk: `SUBNETADDR#${subnet.id}`,
      gsi1sk: key,
    };
  });
  for (let at = 0; at < items.length; at += 100) {
    await Promise.all(
      [0, 25, 50, 75].map(async (offset) => {
        let pending = items.slice(at + offset, at + offset + 25).map((Item) => ({ PutRequest: { Item } }));
        while (pending.length > 0) {
          const answer = await client.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
          pending = (answer.UnprocessedItems?.[table] ?? []) as typeof pending;
        }
      }),
    );
  }
}

export async function measureAddresses(given: number): Promise<AddressResults> {
  const db = await startDynamoDbLocal(await freePort());
  try {
    const table = "addresses";
    await ensureTable(db.client, table);
    const { client, meter, reset } = meteredClient(db.endpoint);
    const stores = dynamoProvisioningStores(client, table, () => {
      throw new Error("the address bench reads no file bytes");
    });
    const measures: Measure[] = [];
    const measure = async (name: string, run: () => Promise<string>) => {
      reset();
      const answer = await run();
      measures.push({
        case: name,
        calls: { ...meter.calls },
        readUnits: Math.round(meter.read * 10) / 10,
        writeUnits: meter.write,
        answer,
      });
    };
    await stores.subnets.create(subnet);
    const holder = { node: "bench-node", interface: "eno1" };
    await measure("auto, an empty pool", async () => (await allocateNext(stores, subnet, holder, NOW)).address);
    await stores.addresses.delete(allocationId(subnet.id, sortKey(4, FIRST)));
    await fill(client, table, given);
    await measure(
      `auto, the pool's first ${given.toLocaleString("en-US")} taken`,
      async () => (await allocateNext(stores, subnet, holder, NOW)).address,
    );
    await freeAddress(stores, allocationId(subnet.id, sortKey(4, FIRST + 99n)), "node-99");
    await measure("auto, a freed gap at the pool's 100th address", async () => (await allocateNext(stores, subnet, holder, NOW)).address);
    await measure("a fixed address", async () => (await claimAddress(stores, subnet, "10.60.200.7", holder, NOW)).address);
    await measure("free an address", async () => {
      await freeAddress(stores, allocationId(subnet.id, sortKey(4, toNumber("10.60.200.7")!.value)), holder.node);
      return "freed";
    });
    const list = await subnetAddresses(stores, subnet.id);
    await measure("GET /subnets/{id}/addresses?limit=100, the first page", async () =>
      String((await list.page({ limit: 100 })).items.length),
    );
    await measure("…?limit=100, a page from the middle", async () =>
      String((await list.page({ limit: 100, after: sortKey(4, FIRST + BigInt(Math.floor(given / 2))) })).items.length),
    );
    await measure("…?limit=1000", async () => String((await list.page({ limit: 1000 })).items.length));
    await measure("the whole list, no paging parameters", async () => String((await list.all()).length));
    client.destroy();
    return { date: new Date().toISOString(), given, measures };
  } finally {
    await db.stop();
  }
}

const calls = (measure: Measure) =>
  Object.entries(measure.calls)
    .map(([name, count]) => `${count} ${name}`)
    .join(", ");

export function addressSection(root: string): string[] {
  let results: AddressResults;
  try {
    results = JSON.parse(readFileSync(join(root, RESULTS), "utf8")) as AddressResults;
  } catch {
    return [];
  }
  const cost = (measure: Measure) => measure.readUnits * PRICES.readUnit + measure.writeUnits * PRICES.writeUnit;
  const worst = results.measures[1];
  return [
    ADDRESS_HEADING,
    "",
    `Measured by \`npm run bench:addresses\` on ${results.date.slice(0, 10)}: the service's own allocation and list code (lib/provisioning/subnets/) on the DynamoDB store against DynamoDB Local, which reports consumed capacity as DynamoDB does; ${results.given.toLocaleString("en-US")} addresses of one subnet given, written as the store writes them. An allocation reads the pool's taken keys from its start, ${TAKEN_PAGE} a query, from the subnet's index (GSI1, keys only: about 100 bytes an address), until a gap, then claims the gap with one conditional PutItem (its index entry is the second write unit); a fixed address is one read and one write; a page of the list is one query of the index and one BatchGetItem (strongly consistent: a read unit an address, however small), **whatever the subnet holds**. DynamoDB Local reports 0 units for a query that finds nothing; DynamoDB bills it half a unit.`,
    "",
    "| request | DynamoDB calls | read units | write units | answer | $ per million |",
    "|---|---|---:|---:|---|---:|",
    ...results.measures.map(
      (each) =>
        `| ${each.case} | ${calls(each)} | ${each.readUnits} | ${each.writeUnits} | ${each.answer} | ${(cost(each) * 1e6).toFixed(2)} |`,
    ),
    "",
    `The lowest free address is what MAAS gives too, and what makes a plan's addresses predictable; its price is the read of the taken keys before the gap: ${worst.readUnits} read units ($${(cost(worst) * 1e6).toFixed(2)} per million allocations at list prices) when the first ${results.given.toLocaleString("en-US")} are taken, against ${results.measures[0].readUnits} for an empty pool. An allocation happens once per interface and machine life (a redeploy keeps its address), so at 10,000 machines it is cents, not a running cost. A pool that must stay cheap at 100,000 would keep a free list instead (not built: no site here holds a /15 of static addresses).`,
  ];
}

async function main(argv: string[]): Promise<void> {
  const at = argv.indexOf("--given");
  const given = at >= 0 ? Number(argv[at + 1]) : 10_000;
  saveSection(join(__dirname, ".."), RESULTS, await measureAddresses(given), ADDRESS_HEADING, addressSection);
}

if (require.main === module) runBench("bench:addresses", main);
