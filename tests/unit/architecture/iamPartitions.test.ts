import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { STORE_NAMES, type StoreName } from "../../../lib/dataAccess";
import { LEADING_KEYS } from "../../../lib/store/dynamodb/iamPolicy";

const ROOT = join(__dirname, "../../..");
const STORE = join(ROOT, "lib/store/dynamodb");

/** Upper-case string literals of the DynamoDB adapters that are not partition keys. */
const NOT_PARTITIONS = new Set(["HASH", "RANGE", "ALL_NEW", "UPDATED_NEW", "PAY_PER_REQUEST", "KEYS_ONLY", "LAST", "TOTAL", "INSERT"]);

/** Every partition key, and every GSI1 key prefix (`NODEWF#` as `NODEWF#*`), in a source text. */
function partitionsIn(source: string): Set<string> {
  const found = new Set<string>();
  for (const [, word] of source.matchAll(/"([A-Z][A-Z]+)"/g)) if (!NOT_PARTITIONS.has(word) && !word.startsWith("E")) found.add(word);
  for (const [, prefix] of source.matchAll(/`([A-Z]+)#\$\{/g)) found.add(`${prefix}#*`);
  return found;
}

const read = (file: string) => readFileSync(join(STORE, file), "utf8");

/** The adapter file of each store with a class of its own. */
const ADAPTERS: Partial<Record<StoreName, string>> = {
  nodes: "nodeStore.ts",
  workflows: "workflowStore.ts",
  lookups: "lookupStore.ts",
  definitions: "definitionStore.ts",
  catalogs: "catalogStore.ts",
  tasks: "taskStore.ts",
  idempotency: "idempotencyStore.ts",
  events: "eventLog.ts",
  deliveries: "deliveryLog.ts",
  relayJobs: "relayJobStore.ts",
  relayConnections: "relayConnectionStore.ts",
  addresses: "addressStore.ts",
  authAttempts: "attemptCounter.ts",
  apiTokens: "apiTokenStore.ts",
  audit: "auditTrail.ts",
};

/** The stores kept by the generic record store, with their partition (provisioningStores.ts). */
const recordStores = (): Map<string, string> =>
  new Map(
    [...read("provisioningStores.ts").matchAll(/(\w+): new DynamoRecordStore(?:<\w+>)?\(client, table, "([A-Z]+)"/g)].map((m) => [
      m[1],
      m[2],
    ]),
  );

describe("the table's keys by store, from which each function's IAM policy is made (least privilege)", () => {
  it("name each store's own partitions, as its adapter writes them", () => {
    for (const [store, file] of Object.entries(ADAPTERS)) {
      expect([...partitionsIn(read(file))].sort()).toEqual([...LEADING_KEYS[store as StoreName]].sort());
    }
    for (const [store, partition] of recordStores()) {
      // A kind spread over shard keys (`INSTANCE#${shard}`) also has its older single key (until migrated).
      const spread = read("provisioningStores.ts").includes(`\`${partition}#\${shard}\``);
      expect(LEADING_KEYS[store as StoreName]).toEqual(spread ? [partition, `${partition}#*`] : [partition]);
    }
    expect(Object.keys(ADAPTERS).length + recordStores().size).toBe(STORE_NAMES.length);
  });

  it("cover every partition the adapters use, each in one store only", () => {
    const inCode = new Set(readdirSync(STORE).flatMap((file) => (file.endsWith(".ts") ? [...partitionsIn(read(file))] : [])));
    const declared = Object.values(LEADING_KEYS).flat();
    expect(new Set(declared).size).toBe(declared.length);
    expect([...inCode].sort()).toEqual([...declared].sort());
  });
});
