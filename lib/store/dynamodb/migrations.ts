import { type DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { positionOf } from "../../provisioning/listPage";
import type { RelayJob } from "../../provisioning/relays/job";
import { catalogKey, catalogListKey } from "./catalogStore";
import { isConditionFailure, itemsUnder, transactionReasons } from "./conditions";
import { lookupKey, lookupListKey } from "./lookupStore";
import { nodeKey, nodeListKey } from "./nodeStore";
import { installReportKey, instanceKey } from "./provisioningStores";
import { openJobIndexKey } from "./relayJobStore";
import { listShardOf, SPREAD_SHARDS, spreadShardOf } from "./table";
import { documentOf } from "./versionedDocuments";
import { workflowKey, workflowListKey } from "./workflowStore";

/**
 * Bringing a table written by an older version up to this one's keys (issue 28), safe to run
 * again and beside the running service:
 * 1. the kinds a fleet writes (nodes, workflows, lookups, machine credentials, install reports,
 *    catalogs) move from their one partition key to their shards (`NODE` →
 *    `NODE#<shard>`): each record is put under its new key and deleted from the old in one
 *    transaction, on the condition that it did not change meanwhile (one the service changed
 *    meanwhile was moved by that change; one that raced the move is left for the next run);
 * 2. the nodes, workflows, lookups and catalogs get their place in the list index (GSI2) where they lack it;
 * 3. the relay jobs not finished yet get their place in their site's open jobs (GSI1).
 */
const SPREAD: { partition: string; key: (shard: number) => string; listKey?: (shard: number) => string }[] = [
  { partition: "NODE", key: nodeKey, listKey: nodeListKey },
  { partition: "WF", key: workflowKey, listKey: workflowListKey },
  { partition: "LKP", key: lookupKey, listKey: lookupListKey },
  { partition: "INSTANCE", key: instanceKey },
  { partition: "INSTALLREPORT", key: installReportKey },
  { partition: "CATALOG", key: catalogKey, listKey: catalogListKey },
];

/** Items written at a time: well under a partition's write rate, fast enough for a fleet. */
const AT_ONCE = 25;

export interface MigrationReport {
  /** Records moved to their shard, by kind. */
  moved: Record<string, number>;
  /** Records that raced the service (changed while being moved): run again to move them. */
  raced: Record<string, number>;
  /** Records given their list keys, by kind. */
  listed: Record<string, number>;
  /** Open relay jobs given their place in their site's open jobs. */
  openJobs: number;
}

/** `version`: the versioned documents' (a catalog, written once, has none). */
type Item = Record<string, unknown> & { pk: string; sk: string; createdAt: string; version?: number; gsi2pk?: string };

export async function migrate(client: DynamoDBDocumentClient, table: string): Promise<MigrationReport> {
  const report: MigrationReport = { moved: {}, raced: {}, listed: {}, openJobs: 0 };
  for (const kind of SPREAD) {
    const older = await itemsUnder<Item>(client, table, kind.partition);
    const moved = (await inBatches(older, (item) => move(client, table, item, kind))).filter(Boolean).length;
    report.moved[kind.partition] = moved;
    report.raced[kind.partition] = older.length - moved;
    if (!kind.listKey) continue;
    const shards = await Promise.all(
      Array.from({ length: SPREAD_SHARDS }, (_, shard) => itemsUnder<Item>(client, table, kind.key(shard), "pk, sk, createdAt, gsi2pk")),
    );
    const unlisted = shards.flat().filter((item) => item.gsi2pk === undefined);
    report.listed[kind.partition] = (await inBatches(unlisted, (item) => list(client, table, item, kind.listKey!))).filter(Boolean).length;
  }
  const jobs = (await itemsUnder<Item>(client, table, "RELAYJOB")).filter((item) => item.gsi1pk === undefined);
  const open = jobs.flatMap((item) => {
    const key = openJobIndexKey(documentOf<RelayJob>(item as { doc?: string; docz?: Uint8Array }));
    return key ? [{ item, key }] : [];
  });
  report.openJobs = (
    await inBatches(open, ({ item, key }) => setIndexKeys(client, table, item, { gsi1pk: key.gsi1pk, gsi1sk: key.gsi1sk }))
  ).filter(Boolean).length;
  return report;
}

async function inBatches<T>(items: T[], each: (item: T) => Promise<boolean>): Promise<boolean[]> {
  const outcomes: boolean[] = [];
  for (let at = 0; at < items.length; at += AT_ONCE) outcomes.push(...(await Promise.all(items.slice(at, at + AT_ONCE).map(each))));
  return outcomes;
}

async function move(client: DynamoDBDocumentClient, table: string, item: Item, kind: (typeof SPREAD)[number]): Promise<boolean> {
  const listed = kind.listKey && item.gsi2pk === undefined;
  const moved: Item = {
    ...item,
    pk: kind.key(spreadShardOf(item.sk)),
    ...(listed && { gsi2pk: kind.listKey!(listShardOf(item.sk)), gsi2sk: positionOf(item.createdAt, item.sk) }),
  };
  const unchanged =
    item.version === undefined
      ? { ConditionExpression: "attribute_exists(pk)" }
      : { ConditionExpression: "version = :version", ExpressionAttributeValues: { ":version": item.version } };
  try {
    await client.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: table, Item: moved, ConditionExpression: "attribute_not_exists(pk)" } },
          { Delete: { TableName: table, Key: { pk: item.pk, sk: item.sk }, ...unchanged } },
        ],
      }),
    );
    return true;
  } catch (error) {
    if (transactionReasons(error)) return false;
    throw error;
  }
}

const list = (client: DynamoDBDocumentClient, table: string, item: Item, listKey: (shard: number) => string) =>
  setIndexKeys(client, table, item, { gsi2pk: listKey(listShardOf(item.sk)), gsi2sk: positionOf(item.createdAt, item.sk) });

/** Sets an index's two keys on an item that exists and has none yet (false: it went, or has them). */
async function setIndexKeys(client: DynamoDBDocumentClient, table: string, item: Item, keys: Record<string, string>): Promise<boolean> {
  const [[pkName, pk], [skName, sk]] = Object.entries(keys);
  try {
    await client.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: `SET ${pkName} = :pk, ${skName} = :sk`,
        ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(${pkName})`,
        ExpressionAttributeValues: { ":pk": pk, ":sk": sk },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
