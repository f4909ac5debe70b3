import {
  type AttributeDefinition,
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  UpdateTableCommand,
  waitUntilTableExists,
} from "@aws-sdk/client-dynamodb";

const ATTRIBUTES: AttributeDefinition[] = ["pk", "sk", "gsi1pk", "gsi1sk"].map((name) => ({ AttributeName: name, AttributeType: "S" }));

/** The table's one global secondary index: records read by a second key (`gsi1pk`, `gsi1sk`). */
export const GSI1 = "GSI1";

const GSI1_DEFINITION = {
  IndexName: GSI1,
  KeySchema: [
    { AttributeName: "gsi1pk", KeyType: "HASH" as const },
    { AttributeName: "gsi1sk", KeyType: "RANGE" as const },
  ],
  // Keys only: an update that leaves the index keys alone writes nothing to the index.
  Projection: { ProjectionType: "KEYS_ONLY" as const },
};

/**
 * One table for both services (single-table design): string partition key `pk` and sort key
 * `sk`, on-demand billing, and one global secondary index GSI1 (`gsi1pk`, `gsi1sk`, keys only)
 * for records read by a second key. deploy/resources.dynamodb.yml declares
 * the same table for deployment.
 */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    // A table kept from before GSI1 (DYNAMODB_LOCAL_PATH): add the index; the engine fills it.
    if (!Table?.GlobalSecondaryIndexes?.some((index) => index.IndexName === GSI1)) {
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: ATTRIBUTES,
          GlobalSecondaryIndexUpdates: [{ Create: GSI1_DEFINITION }],
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
      GlobalSecondaryIndexes: [GSI1_DEFINITION],
    }),
  );
  await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: tableName });
}
