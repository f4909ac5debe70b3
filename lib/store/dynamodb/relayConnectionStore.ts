import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { RelayConnection, RelayConnectionStore } from "../../provisioning/relays/relayConnection";
import { queryAll } from "./conditions";
import { GSI1 } from "./table";

/**
 * The relays' push connections in DynamoDB (issue 56): `RELAYCONN / <connection id>` (a close names
 * only the id), and in GSI1 under `RELAYCONNSITE#<site> / <connection id>` (a push names the site:
 * the index alone answers the ids, keys only). `expiresAt` is the table's TTL attribute (epoch
 * seconds): a connection whose close was never heard is gone after API Gateway's 2 hours anyway.
 */
export const siteConnectionsIndex = (site: string) => `RELAYCONNSITE#${site}`;
const PARTITION = "RELAYCONN";

interface ConnectionItem {
  site: string;
  relay: string;
  connectedAt: string;
  expiresAt: number;
}

export class DynamoRelayConnectionStore implements RelayConnectionStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async add(connection: RelayConnection): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          pk: PARTITION,
          sk: connection.id,
          gsi1pk: siteConnectionsIndex(connection.site),
          gsi1sk: connection.id,
          site: connection.site,
          relay: connection.relay,
          connectedAt: connection.connectedAt,
          expiresAt: Math.ceil(Date.parse(connection.expiresAt) / 1000),
        },
      }),
    );
  }

  async get(id: string): Promise<RelayConnection | undefined> {
    const answer = await this.client.send(new GetCommand({ TableName: this.table, Key: { pk: PARTITION, sk: id } }));
    const item = answer.Item as ConnectionItem | undefined;
    return (
      item && {
        id,
        site: item.site,
        relay: item.relay,
        connectedAt: item.connectedAt,
        expiresAt: new Date(item.expiresAt * 1000).toISOString(),
      }
    );
  }

  async delete(id: string): Promise<void> {
    await this.client.send(new DeleteCommand({ TableName: this.table, Key: { pk: PARTITION, sk: id } }));
  }

  /** From the index (keys only): one expired but not yet removed by the TTL may be among them; a push to it is answered "gone". */
  async idsOfSite(site: string): Promise<string[]> {
    const items = await queryAll<{ gsi1sk: string }>(this.client, {
      TableName: this.table,
      IndexName: GSI1,
      KeyConditionExpression: "gsi1pk = :key",
      ExpressionAttributeValues: { ":key": siteConnectionsIndex(site) },
      ProjectionExpression: "gsi1sk",
    });
    return items.map((item) => item.gsi1sk);
  }
}
