import { type DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { ConflictError, ValidationError } from "../../errors";
import { OBJECT_ID } from "../../provisioning/ids";
import { byPosition, type Page, type PageRequest, recordPosition } from "../../provisioning/listPage";
import type { Node } from "../../provisioning/nodes/node";
import type { NodeStore } from "../../provisioning/nodes/nodeStore";
import { queryAll, rethrowItemTooLarge, transactionReasons } from "./conditions";
import type { Journal } from "./versionedDocuments";
import { type TransactItem, VersionedDocuments } from "./versionedDocuments";

/**
 * Nodes in DynamoDB, shared by every container.
 *
 * Items: `NODE / <id>` holds the node (a versioned JSON document), and `NODEID / <identifier>`
 * claims an identifier for a node. Creating a node writes both in one transaction, each on the
 * condition that it does not exist yet, so a MAC belongs to one node only even when two requests
 * race. Updates are optimistic (see VersionedDocuments), so a concurrent update of another field
 * is never lost; claims for added and removed identifiers go in the same transaction.
 *
 * A node with a SKU is in GSI1 under `NODESKU#<sku> / <createdAt>#<id>` (the SKU's nodes: one
 * query). Each of its tags is an item `TAGNODE#<tag> / <id>`, written and removed in the same
 * transaction as the node (a tag's nodes: one query, then the nodes by BatchGetItem).
 */
const CLAIM = "NODEID";
const SIDE_ITEMS_MAX = 98;
const skuIndex = (sku: string) => `NODESKU#${sku}`;
const tagPartition = (tag: string) => `TAGNODE#${tag}`;
/** A node's partition key by its shard (see SPREAD_SHARDS). */
export const nodeKey = (shard: number) => `NODE#${shard}`;
/** The node list's shard keys in GSI2 (see LIST_SHARDS). */
export const nodeListKey = (shard: number) => `LISTNODE#${shard}`;

export class DynamoNodeStore implements NodeStore {
  private readonly documents: VersionedDocuments<Node>;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
    journal?: Journal<Node>,
  ) {
    this.documents = new VersionedDocuments<Node>(client, table, "NODE", {
      indexKey: (node) => (node.sku ? { gsi1pk: skuIndex(node.sku), gsi1sk: recordPosition(node) } : undefined),
      journal,
      listKey: nodeListKey,
      spreadKey: nodeKey,
    });
  }

  list(): Promise<Node[]> {
    return this.documents.list();
  }

  page(request: PageRequest): Promise<Page<Node>> {
    return this.documents.page(request);
  }

  async get(id: string): Promise<Node | undefined> {
    return (await this.documents.read(id))?.doc;
  }

  async find(identifier: string): Promise<Node | undefined> {
    // Node ids are 24 hex digits; anything else (a MAC) can only be a claimed identifier: one round trip saved.
    const direct = OBJECT_ID.test(identifier) ? await this.get(identifier) : undefined;
    if (direct) return direct;
    const owner = await this.claimOwner(identifier);
    return owner === undefined ? undefined : this.get(owner);
  }

  async create(node: Node): Promise<Node> {
    try {
      await this.documents.transactNew(node, [
        this.documents.putNew(node.id, node),
        ...node.identifiers.map((identifier) => this.claim(identifier, node.id)),
        ...node.tags.map((tag) => this.tagItem(tag, node.id)),
      ]);
      return node;
    } catch (error) {
      const reasons = transactionReasons(error);
      if (!reasons) return rethrowItemTooLarge(error);
      if (reasons[0] === "ConditionalCheckFailed") throw new ConflictError(`A node with id ${node.id} already exists`);
      await this.throwIfClaimed(node.identifiers, reasons);
      throw error;
    }
  }

  update(id: string, change: (current: Node) => Node, known?: Node): Promise<Node | undefined> {
    const added = (current: Node, next: Node) => next.identifiers.filter((identifier) => !current.identifiers.includes(identifier));
    return this.documents.update(
      id,
      (current) => ({ ...change(current), id }),
      (current, next) =>
        this.bounded([
          ...added(current, next).map((identifier) => this.claim(identifier, id)),
          ...next.tags.filter((tag) => !current.tags.includes(tag)).map((tag) => this.tagItem(tag, id)),
          ...current.tags
            .filter((tag) => !next.tags.includes(tag))
            .map((tag): TransactItem => ({ Delete: { TableName: this.table, Key: { pk: tagPartition(tag), sk: id } } })),
          ...current.identifiers
            .filter((identifier) => !next.identifiers.includes(identifier))
            .map(
              (identifier): TransactItem => ({
                Delete: {
                  TableName: this.table,
                  Key: { pk: CLAIM, sk: identifier },
                  ConditionExpression: "attribute_not_exists(pk) OR node = :id",
                  ExpressionAttributeValues: { ":id": id },
                },
              }),
            ),
        ]),
      (reasons, current, next) => this.throwIfClaimed(added(current, next), reasons),
      known,
    );
  }

  delete(id: string, known?: Node): Promise<Node | undefined> {
    return this.documents.delete(
      id,
      (current) => [
        ...current.identifiers.map(
          (identifier): TransactItem => ({ Delete: { TableName: this.table, Key: { pk: CLAIM, sk: identifier } } }),
        ),
        ...current.tags.map((tag): TransactItem => ({ Delete: { TableName: this.table, Key: { pk: tagPartition(tag), sk: id } } })),
      ],
      known,
    );
  }

  pageWithSku(skuId: string, request: PageRequest): Promise<Page<Node>> {
    return this.documents.pageByIndex(skuIndex(skuId), request);
  }

  withSku(skuId: string): Promise<Node[]> {
    return this.documents.listByIndex(skuIndex(skuId));
  }

  async withTag(tag: string): Promise<Node[]> {
    const members = await queryAll<{ sk: string }>(this.client, {
      TableName: this.table,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": tagPartition(tag) },
      ConsistentRead: true,
    });
    return byPosition(await this.documents.readMany(members.map((member) => member.sk)), recordPosition);
  }

  /** One transaction holds 100 items: the record, the idempotency guard and at most 98 claims and tags. */
  private bounded(sideItems: TransactItem[]): TransactItem[] {
    if (sideItems.length > SIDE_ITEMS_MAX) {
      throw new ValidationError(`A node update may add or remove at most ${SIDE_ITEMS_MAX} identifiers and tags at once`);
    }
    return sideItems;
  }

  private tagItem(tag: string, nodeId: string): TransactItem {
    return { Put: { TableName: this.table, Item: { pk: tagPartition(tag), sk: nodeId } } };
  }

  private claim(identifier: string, nodeId: string): TransactItem {
    return {
      Put: { TableName: this.table, Item: { pk: CLAIM, sk: identifier, node: nodeId }, ConditionExpression: "attribute_not_exists(pk)" },
    };
  }

  /** The claims follow the record in the transaction: reasons[i + 1] is identifiers[i]'s. */
  private async throwIfClaimed(identifiers: string[], reasons: string[]): Promise<void> {
    const taken = identifiers.find((_, i) => reasons[i + 1] === "ConditionalCheckFailed");
    if (taken !== undefined)
      throw new ConflictError(`Identifier ${taken} already belongs to node ${(await this.claimOwner(taken)) ?? "another node"}`);
  }

  private async claimOwner(identifier: string): Promise<string | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.table, Key: { pk: CLAIM, sk: identifier }, ConsistentRead: true }),
    );
    return Item?.node as string | undefined;
  }
}
