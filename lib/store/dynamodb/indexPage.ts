import { type DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { PageRequest } from "../../provisioning/listPage";
import { GSI2, LIST_SHARDS } from "./table";

/** An index entry: the record's key, and the index's own keys (the indexes hold keys only). */
export interface IndexKeys {
  pk: string;
  sk: string;
  [indexKey: string]: string;
}

/**
 * At most `request.limit` entries of one index partition after the position (one query), those
 * `owns` accepts, and whether the partition holds more.
 */
export async function keysAfter(
  client: DynamoDBDocumentClient,
  table: string,
  index: { name: string; partitionKey: string; sortKey: string; value: string },
  request: PageRequest,
  owns: (pk: string) => boolean,
): Promise<{ keys: IndexKeys[]; more: boolean }> {
  const after = request.after === undefined ? "" : ` AND ${index.sortKey} > :after`;
  const answer = await client.send(
    new QueryCommand({
      TableName: table,
      IndexName: index.name,
      KeyConditionExpression: `${index.partitionKey} = :key${after}`,
      ExpressionAttributeValues: { ":key": index.value, ...(request.after !== undefined && { ":after": request.after }) },
      Limit: request.limit,
    }),
  );
  return { keys: ((answer.Items ?? []) as IndexKeys[]).filter((key) => owns(key.pk)), more: answer.LastEvaluatedKey !== undefined };
}

/**
 * One page of a kind's list (issue 28): a query of each of GSI2's shards of the kind (`listKey`)
 * for at most the page's length of keys after the position, merged in position order. What it
 * reads is bounded by the page, whatever the kind holds; the caller reads the page's records.
 */
export async function listPageKeys(
  client: DynamoDBDocumentClient,
  table: string,
  listKey: (shard: number) => string,
  request: PageRequest,
  owns: (pk: string) => boolean,
): Promise<{ keys: IndexKeys[]; next?: string }> {
  const reads = await Promise.all(
    Array.from({ length: LIST_SHARDS }, (_, shard) =>
      keysAfter(client, table, { name: GSI2, partitionKey: "gsi2pk", sortKey: "gsi2sk", value: listKey(shard) }, request, owns),
    ),
  );
  const merged = reads.flatMap((read) => read.keys).sort((a, b) => (a.gsi2sk < b.gsi2sk ? -1 : 1));
  const keys = merged.slice(0, request.limit);
  const more = merged.length > request.limit || reads.some((read) => read.more);
  return more && keys.length > 0 ? { keys, next: keys[keys.length - 1].gsi2sk } : { keys };
}
