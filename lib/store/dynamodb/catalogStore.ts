import { BatchWriteCommand, type DynamoDBDocumentClient, GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Catalog } from "../../provisioning/catalogs/catalog";
import type { CatalogStore } from "../../provisioning/catalogs/catalogStore";
import { type Page, type PageRequest, recordPosition } from "../../provisioning/listPage";
import { BATCH_GET_LIMIT, batchGetAll, itemsUnder, queryAll, rethrowItemTooLarge } from "./conditions";
import { listPageKeys } from "./indexPage";
import { GSI1, listShardOf, spreadKeys, spreadShardOf } from "./table";

/**
 * Catalogs in DynamoDB: `CATALOG / <id>` (ids sort in creation order, so the partition is the
 * list in order), the data as a JSON string (catalogs nest deeper than DynamoDB's 32 levels of
 * maps), also in GSI1 under `NODECAT#<node> / <source key><id>`: a node's catalogs are one query,
 * its latest of a source one query of that prefix, newest first, limit 1. The source key is the
 * source's length, `:`, the source and `#`, so that no source is a prefix of another's key.
 *
 * A discovery writes a machine's catalogs at once, the fleet's heaviest writes to one kind after
 * the workflows': they are spread over 16 partition keys (`CATALOG#<shard>`, the shard from the
 * id; see SPREAD_SHARDS). Catalogs an older version wrote under `CATALOG` are still read (the
 * index's entries carry their key; a read by id looks there on a miss) until `npm run migrate`.
 */
const CATALOG = "CATALOG";
/** A catalog's partition key by its shard. */
export const catalogKey = (shard: number) => `CATALOG#${shard}`;
/** The catalog list's shard keys in GSI2 (see LIST_SHARDS): a page of every catalog reads only its own. */
export const catalogListKey = (shard: number) => `LISTCAT#${shard}`;
const keyOf = (id: string) => ({ pk: catalogKey(spreadShardOf(id)), sk: id });
const byNode = (nodeId: string) => `NODECAT#${nodeId}`;
const sourceKey = (source: string) => `${source.length}:${source}#`;
/** DynamoDB's most writes per BatchWriteItem call. */
const BATCH_WRITE_LIMIT = 25;

interface Item {
  pk: string;
  sk: string;
  node: string;
  source: string;
  data: string;
  createdAt: string;
  updatedAt: string;
}

const toCatalog = (item: Item): Catalog => ({
  id: item.sk,
  node: item.node,
  source: item.source,
  data: JSON.parse(item.data),
  createdAt: item.createdAt,
  updatedAt: item.updatedAt,
});

export class DynamoCatalogStore implements CatalogStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async add(catalogs: readonly Catalog[]): Promise<void> {
    const puts = catalogs.map((catalog) => ({
      PutRequest: {
        Item: {
          ...keyOf(catalog.id),
          node: catalog.node,
          source: catalog.source,
          data: JSON.stringify(catalog.data),
          createdAt: catalog.createdAt,
          updatedAt: catalog.updatedAt,
          gsi1pk: byNode(catalog.node),
          gsi1sk: sourceKey(catalog.source) + catalog.id,
          gsi2pk: catalogListKey(listShardOf(catalog.id)),
          gsi2sk: recordPosition(catalog),
        },
      },
    }));
    try {
      for (let start = 0; start < puts.length; start += BATCH_WRITE_LIMIT) await this.write(puts.slice(start, start + BATCH_WRITE_LIMIT));
    } catch (error) {
      rethrowItemTooLarge(error);
    }
  }

  async get(id: string): Promise<Catalog | undefined> {
    const at = async (key: { pk: string; sk: string }) =>
      (await this.client.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true }))).Item as Item | undefined;
    const item = (await at(keyOf(id))) ?? (await at({ pk: CATALOG, sk: id }));
    return item ? toCatalog(item) : undefined;
  }

  /** Every catalog in creation order (their ids'): a query of each shard key, and of the older single key. */
  async list(): Promise<Catalog[]> {
    const parts = await Promise.all(spreadKeys(catalogKey, CATALOG).map((pk) => itemsUnder<Item>(this.client, this.table, pk)));
    return parts
      .flat()
      .sort((a, b) => (a.sk < b.sk ? -1 : 1))
      .map(toCatalog);
  }

  async page(request: PageRequest): Promise<Page<Catalog>> {
    const owns = (pk: string) => pk === CATALOG || pk.startsWith(`${CATALOG}#`);
    const { keys, next } = await listPageKeys(this.client, this.table, catalogListKey, request, owns);
    const found = new Map((await this.read(keys)).map((catalog) => [catalog.id, catalog]));
    const items = keys.flatMap((key) => (found.has(key.sk) ? [found.get(key.sk)!] : []));
    return next === undefined ? { items } : { items, next };
  }

  async forNode(nodeId: string): Promise<Catalog[]> {
    return (await this.read(await this.keysOfNode(nodeId))).sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  /** A node's catalogs' keys, from GSI1 (whose entries carry each one's partition key, older ones' too). */
  private keysOfNode(nodeId: string): Promise<{ pk: string; sk: string }[]> {
    return queryAll<{ pk: string; sk: string }>(this.client, {
      TableName: this.table,
      IndexName: GSI1,
      KeyConditionExpression: "gsi1pk = :key",
      ExpressionAttributeValues: { ":key": byNode(nodeId) },
    });
  }

  async latest(nodeId: string, source: string): Promise<Catalog | undefined> {
    const { Items = [] } = await this.client.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: GSI1,
        KeyConditionExpression: "gsi1pk = :key AND begins_with(gsi1sk, :source)",
        ExpressionAttributeValues: { ":key": byNode(nodeId), ":source": sourceKey(source) },
        ScanIndexForward: false,
        Limit: 1,
      }),
    );
    return Items[0] ? (await this.read([{ pk: Items[0].pk as string, sk: Items[0].sk as string }]))[0] : undefined;
  }

  async removeNode(nodeId: string): Promise<void> {
    const deletes = (await this.keysOfNode(nodeId)).map((key) => ({ DeleteRequest: { Key: { pk: key.pk, sk: key.sk } } }));
    for (let start = 0; start < deletes.length; start += BATCH_WRITE_LIMIT)
      await this.write(deletes.slice(start, start + BATCH_WRITE_LIMIT));
  }

  private async read(keys: { pk: string; sk: string }[]): Promise<Catalog[]> {
    const catalogs: Catalog[] = [];
    for (let start = 0; start < keys.length; start += BATCH_GET_LIMIT) {
      const batch = keys.slice(start, start + BATCH_GET_LIMIT).map(({ pk, sk }) => ({ pk, sk }));
      catalogs.push(...(await batchGetAll<Item>(this.client, this.table, batch)).map(toCatalog));
    }
    return catalogs;
  }

  /** One BatchWriteItem, asking again for anything left unprocessed. */
  private async write(requests: Record<string, unknown>[]): Promise<void> {
    let pending = requests;
    for (let round = 0; pending.length > 0; round += 1) {
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(200, 10 * 2 ** round)));
      const answer = await this.client.send(new BatchWriteCommand({ RequestItems: { [this.table]: pending as never } }));
      pending = (answer.UnprocessedItems?.[this.table] ?? []) as Record<string, unknown>[];
    }
  }
}
