import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { LookupStore } from "../../provisioning/boot/lookupStore";
import { conditionally, queryAll } from "./conditions";
import { GSI1 } from "./table";

/**
 * Lookups in DynamoDB: `LOOKUP / <ip>` → node id, also in GSI1 under `NODELOOKUP#<node> / <ip>`
 * so that forgetting a node reads its own addresses only.
 */
const LOOKUP = "LOOKUP";
const byNode = (nodeId: string) => `NODELOOKUP#${nodeId}`;

export class DynamoLookupStore implements LookupStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async remember(ip: string, nodeId: string): Promise<void> {
    await this.client.send(
      new PutCommand({ TableName: this.table, Item: { pk: LOOKUP, sk: ip, node: nodeId, gsi1pk: byNode(nodeId), gsi1sk: ip } }),
    );
  }

  async nodeAt(ip: string): Promise<string | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.table, Key: { pk: LOOKUP, sk: ip }, ConsistentRead: true }));
    return Item?.node as string | undefined;
  }

  async forgetNode(nodeId: string): Promise<void> {
    const items = await queryAll<{ sk: string }>(this.client, {
      TableName: this.table,
      IndexName: GSI1,
      KeyConditionExpression: "gsi1pk = :key",
      ExpressionAttributeValues: { ":key": byNode(nodeId) },
    });
    // An address another node booted from since keeps its lookup (the condition fails).
    await Promise.all(
      items.map((item) =>
        conditionally(
          this.client.send(
            new DeleteCommand({
              TableName: this.table,
              Key: { pk: LOOKUP, sk: item.sk },
              ConditionExpression: "node = :node",
              ExpressionAttributeValues: { ":node": nodeId },
            }),
          ),
        ),
      ),
    );
  }
}
