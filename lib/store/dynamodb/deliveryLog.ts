import { type DynamoDBDocumentClient, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { DELIVERY_RETENTION_DAYS, type Delivery, type DeliveryLog } from "../../provisioning/hooks/deliveryLog";

/** Items `HOOKDELIVERY#<hook id> / <time>#<event id>#<attempt>`, one per attempt, kept a week (TTL): a hook's latest are one query. */
export class DynamoDeliveryLog implements DeliveryLog {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async record(delivery: Delivery): Promise<void> {
    const expiresAt = Math.floor(Date.parse(delivery.at) / 1000) + DELIVERY_RETENTION_DAYS * 86_400;
    await this.client.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          pk: `HOOKDELIVERY#${delivery.hookId}`,
          sk: `${delivery.at}#${delivery.eventId}#${delivery.attempt}`,
          delivery: JSON.stringify(delivery),
          expiresAt,
        },
      }),
    );
  }

  async recent(hookId: string, limit: number): Promise<Delivery[]> {
    const { Items = [] } = await this.client.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": `HOOKDELIVERY#${hookId}` },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return Items.map((item) => JSON.parse(item.delivery as string) as Delivery);
  }
}
