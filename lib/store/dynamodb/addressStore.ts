import { type DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Page, PageRequest } from "../../provisioning/listPage";
import type { AddressAllocation, AddressStore } from "../../provisioning/subnets/addressStore";
import { DynamoRecordStore } from "./recordStore";
import { GSI1 } from "./table";

/**
 * Allocated addresses in DynamoDB (issue 54): `ADDRESS / <subnet>/<key>` (versioned documents:
 * the create is conditional on the id, which is what makes an address one node's), and in GSI1
 * under `SUBNETADDR#<subnet> / <key>`: a subnet's addresses in address order, a page or a
 * pool's taken keys read from the index alone (keys only: about 100 bytes an address).
 */
export const subnetAddressesIndex = (subnet: string) => `SUBNETADDR#${subnet}`;

export class DynamoAddressStore extends DynamoRecordStore<AddressAllocation> implements AddressStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {
    super(client, table, "ADDRESS", {
      indexKey: (allocation) => ({ gsi1pk: subnetAddressesIndex(allocation.subnet), gsi1sk: allocation.key }),
    });
  }

  pageOfSubnet(subnet: string, request: PageRequest): Promise<Page<AddressAllocation>> {
    return this.documents.pageByIndex(subnetAddressesIndex(subnet), request);
  }

  async takenKeys(subnet: string, range: { from: string; to: string }, limit: number): Promise<string[]> {
    const answer = await this.client.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: GSI1,
        KeyConditionExpression: "gsi1pk = :key AND gsi1sk BETWEEN :from AND :to",
        ExpressionAttributeValues: { ":key": subnetAddressesIndex(subnet), ":from": range.from, ":to": range.to },
        ProjectionExpression: "gsi1sk",
        Limit: limit,
      }),
    );
    return (answer.Items ?? []).map((item) => item.gsi1sk as string);
  }
}
