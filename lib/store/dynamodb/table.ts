import {
  type AttributeDefinition,
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  UpdateTableCommand,
  waitUntilTableExists,
} from "@aws-sdk/client-dynamodb";

const ATTRIBUTES: AttributeDefinition[] = ["pk", "sk", "gsi1pk", "gsi1sk", "gsi2pk", "gsi2sk"].map((name) => ({
  AttributeName: name,
  AttributeType: "S",
}));

/** A global secondary index on `<prefix>pk` and `<prefix>sk`. */
const keysOnlyIndex = (name: string, prefix: string) => ({
  IndexName: name,
  KeySchema: [
    { AttributeName: `${prefix}pk`, KeyType: "HASH" as const },
    { AttributeName: `${prefix}sk`, KeyType: "RANGE" as const },
  ],
  // Keys only: an update that leaves the index keys alone writes nothing to the index.
  Projection: { ProjectionType: "KEYS_ONLY" as const },
});

/** The table's first global secondary index: records read by a second key (`gsi1pk`, `gsi1sk`). */
export const GSI1 = "GSI1";
const GSI1_DEFINITION = keysOnlyIndex(GSI1, "gsi1");

/**
 * The fleet-sized lists' index (issue 28): every node and every workflow is under one of
 * LIST_SHARDS keys (`LISTNODE#<shard>`, `LISTWF#<shard>`; the shard from its id), sorted by `<createdAt>#<id>`.
 * A page of a list is one query per shard (each at most the page's length, keys only) merged in
 * order, then the page's records by BatchGetItem: its cost does not grow with the list. The
 * shards spread a boot storm's new records over 8 index partitions instead of one hot key.
 */
export const GSI2 = "GSI2";
export const LIST_SHARDS = 8;

/** FNV-1a of an id: a shard derived from the id never changes. */
function fnv1a(id: string): number {
  let hash = 0x811c9dc5;
  for (let at = 0; at < id.length; at += 1) hash = Math.imul(hash ^ id.charCodeAt(at), 0x01000193) >>> 0;
  return hash;
}

/** The list index's shard of a record. */
export const listShardOf = (id: string): number => fnv1a(id) % LIST_SHARDS;

/**
 * Keys that spread (issue 28): the records a fleet writes (nodes, workflows, lookups, install
 * reports, machine credentials, relay jobs) are not under one partition key per kind but under
 * SPREAD_SHARDS of them, `<kind>#<shard>` with the shard from the record's id. DynamoDB serves at
 * most 1,000 write units and 3,000 read units a second per partition; one key per kind would
 * bound the whole fleet's workflow writes by that, 16 keys by sixteen times it. A record is still
 * read by one GetItem (its key follows from its id); the kind's whole list is 16 queries.
 */
export const SPREAD_SHARDS = 16;

export const spreadShardOf = (id: string): number => fnv1a(`spread:${id}`) % SPREAD_SHARDS;

/** Every partition key of a spread kind, and last its older single key (read until `npm run migrate` empties it). */
export const spreadKeys = (key: (shard: number) => string, older: string): string[] => [
  ...Array.from({ length: SPREAD_SHARDS }, (_, shard) => key(shard)),
  older,
];

const GSI2_DEFINITION = keysOnlyIndex(GSI2, "gsi2");

/**
 * One table for both services (single-table design): string partition key `pk` and sort key
 * `sk`, on-demand billing, a global secondary index GSI1 (`gsi1pk`, `gsi1sk`, keys only) for
 * records read by a second key, and GSI2 for the fleet-sized lists. deploy/resources.dynamodb.yml declares
 * the same table for deployment.
 */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    // A table kept from before an index (DYNAMODB_LOCAL_PATH): add it; the engine fills it from
    // the items that carry its keys (`npm run migrate` gives the older items GSI2's keys).
    for (const definition of [GSI1_DEFINITION, GSI2_DEFINITION]) {
      if (Table?.GlobalSecondaryIndexes?.some((index) => index.IndexName === definition.IndexName)) continue;
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: ATTRIBUTES,
          GlobalSecondaryIndexUpdates: [{ Create: definition }],
        }),
      );
    }
    return;
  } catch (error) {
    if ((error as Error).name !== "ResourceNotFoundException") throw error;
  }
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: ATTRIBUTES,
      KeySchema: [
        { AttributeName: "pk", KeyType: "HASH" },
        { AttributeName: "sk", KeyType: "RANGE" },
      ],
      GlobalSecondaryIndexes: [GSI1_DEFINITION, GSI2_DEFINITION],
    }),
  );
  await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: tableName });
}
