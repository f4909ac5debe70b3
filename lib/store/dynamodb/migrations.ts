import { type DynamoDBDocumentClient, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { positionOf } from "../../provisioning/listPage";
import { isConditionFailure, queryAll } from "./conditions";
import { nodeListKey } from "./nodeStore";
import { listShardOf } from "./table";
import { workflowListKey } from "./workflowStore";

/** The kinds listed by page, with their list keys (issue 28). */
const LISTED = [
  { partition: "NODE", listKey: nodeListKey },
  { partition: "WF", listKey: workflowListKey },
];

/** Items updated at a time: well under a table's per-partition write rate, fast enough for a fleet. */
const AT_ONCE = 25;

export interface ListKeysReport {
  /** Records that were given their list keys, by partition. */
  added: Record<string, number>;
  /** Records that had them already (written since, or by an earlier run). */
  kept: Record<string, number>;
}

/**
 * Gives the records written before the list index (GSI2) their place in it, so that the paged
 * lists find them: each node and workflow without `gsi2pk` gets it and `gsi2sk`, as the stores
 * write them now. Safe to run again and beside the running service: a record already keyed is
 * left alone, and one deleted meanwhile is not brought back (the write needs the record).
 */
export async function addListKeys(client: DynamoDBDocumentClient, table: string): Promise<ListKeysReport> {
  const report: ListKeysReport = { added: {}, kept: {} };
  for (const { partition, listKey } of LISTED) {
    const items = await queryAll<{ sk: string; createdAt: string; gsi2pk?: string }>(client, {
      TableName: table,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": partition },
      ProjectionExpression: "sk, createdAt, gsi2pk",
    });
    const missing = items.filter((item) => item.gsi2pk === undefined);
    report.kept[partition] = items.length - missing.length;
    report.added[partition] = 0;
    for (let at = 0; at < missing.length; at += AT_ONCE) {
      const added = await Promise.all(missing.slice(at, at + AT_ONCE).map((item) => keyed(client, table, partition, listKey, item)));
      report.added[partition] += added.filter(Boolean).length;
    }
  }
  return report;
}

async function keyed(
  client: DynamoDBDocumentClient,
  table: string,
  partition: string,
  listKey: (shard: number) => string,
  item: { sk: string; createdAt: string },
): Promise<boolean> {
  try {
    await client.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: partition, sk: item.sk },
        UpdateExpression: "SET gsi2pk = :pk, gsi2sk = :sk",
        ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(gsi2pk)",
        ExpressionAttributeValues: { ":pk": listKey(listShardOf(item.sk)), ":sk": positionOf(item.createdAt, item.sk) },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
