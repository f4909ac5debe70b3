import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { ConflictError } from "../../errors";
import { queryAll, retry, RETRY, rethrowItemTooLarge, transactionReasons } from "../../store/dynamodb/conditions";
import { OBJECT_ID } from "../ids";
import type { Node } from "./node";
import type { NodeStore } from "./nodeStore";

/**
 * Nodes in DynamoDB, shared by every container.
 *
 * Items: `NODE / <id>` holds the node (as JSON, with a version number), and `NODEID / <identifier>`
 * claims an identifier for a node. Creating a node writes both in one transaction, each on the
 * condition that it does not exist yet, so a MAC belongs to one node only even when two requests
 * race. Updates are optimistic: the change is applied to the version read and written on the
 * condition that the version is still the same; on a race it is applied again to the newer node,
 * so a concurrent update of another field is never lost.
 */
const NODE = "NODE";
const CLAIM = "NODEID";
const ATTEMPTS = 12;

interface NodeItem {
  pk: string;
  sk: string;
  doc: string;
  version: number;
  createdAt: string;
}

export class DynamoNodeStore implements NodeStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async list(): Promise<Node[]> {
    const items = await queryAll<NodeItem>(this.client, {
      TableName: this.table,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": NODE },
      ConsistentRead: true,
    });
    return items
      .sort((a, b) => (a.createdAt === b.createdAt ? (a.sk < b.sk ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1))
      .map((item) => JSON.parse(item.doc) as Node);
  }

  async get(id: string): Promise<Node | undefined> {
    return (await this.read(id))?.node;
  }

  async find(identifier: string): Promise<Node | undefined> {
    // Node ids are 24 hex digits; anything else (a MAC) can only be a claimed identifier: one round trip saved.
    const direct = OBJECT_ID.test(identifier) ? await this.read(identifier) : undefined;
    if (direct) return direct.node;
    const { Item } = await this.client.send(new GetCommand({ TableName: this.table, Key: { pk: CLAIM, sk: identifier }, ConsistentRead: true }));
    return Item ? this.get(Item.node as string) : undefined;
  }

  async create(node: Node): Promise<Node> {
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: this.table, Item: this.item(node, 1), ConditionExpression: "attribute_not_exists(pk)" } },
            ...node.identifiers.map((identifier) => ({
              Put: { TableName: this.table, Item: { pk: CLAIM, sk: identifier, node: node.id }, ConditionExpression: "attribute_not_exists(pk)" },
            })),
          ],
        }),
      );
      return node;
    } catch (error) {
      const reasons = transactionReasons(error);
      if (!reasons) return rethrowItemTooLarge(error);
      if (reasons[0] === "ConditionalCheckFailed") throw new ConflictError(`A node with id ${node.id} already exists`);
      const taken = node.identifiers.find((_, i) => reasons[i + 1] === "ConditionalCheckFailed");
      if (taken !== undefined) throw new ConflictError(`Identifier ${taken} already belongs to node ${await this.ownerOf(taken)}`);
      throw error;
    }
  }

  async update(id: string, change: (current: Node) => Node): Promise<Node | undefined> {
    return retry(ATTEMPTS, async () => {
      const current = await this.read(id);
      if (!current) return undefined;
      const next: Node = { ...change(current.node), id };
      const added = next.identifiers.filter((identifier) => !current.node.identifiers.includes(identifier));
      const removed = current.node.identifiers.filter((identifier) => !next.identifiers.includes(identifier));
      try {
        await this.client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: this.table,
                  Item: this.item(next, current.version + 1),
                  ConditionExpression: "version = :version",
                  ExpressionAttributeValues: { ":version": current.version },
                },
              },
              ...added.map((identifier) => ({
                Put: { TableName: this.table, Item: { pk: CLAIM, sk: identifier, node: id }, ConditionExpression: "attribute_not_exists(pk)" },
              })),
              ...removed.map((identifier) => ({
                Delete: { TableName: this.table, Key: { pk: CLAIM, sk: identifier }, ConditionExpression: "attribute_not_exists(pk) OR node = :id", ExpressionAttributeValues: { ":id": id } },
              })),
            ],
          }),
        );
        return next;
      } catch (error) {
        const reasons = transactionReasons(error);
        if (!reasons) return rethrowItemTooLarge(error);
        const taken = added.find((_, i) => reasons[i + 1] === "ConditionalCheckFailed");
        if (taken !== undefined) throw new ConflictError(`Identifier ${taken} already belongs to node ${await this.ownerOf(taken)}`);
        return RETRY; // someone else changed the node: apply the change to the newer version
      }
    });
  }

  async delete(id: string): Promise<Node | undefined> {
    return retry(ATTEMPTS, async () => {
      const current = await this.read(id);
      if (!current) return undefined;
      try {
        await this.client.send(
          new TransactWriteCommand({
            TransactItems: [
              { Delete: { TableName: this.table, Key: { pk: NODE, sk: id }, ConditionExpression: "version = :version", ExpressionAttributeValues: { ":version": current.version } } },
              ...current.node.identifiers.map((identifier) => ({ Delete: { TableName: this.table, Key: { pk: CLAIM, sk: identifier } } })),
            ],
          }),
        );
        return current.node;
      } catch (error) {
        if (!transactionReasons(error)) throw error;
        return RETRY;
      }
    });
  }

  private async read(id: string): Promise<{ node: Node; version: number } | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.table, Key: { pk: NODE, sk: id }, ConsistentRead: true }));
    return Item && { node: JSON.parse(Item.doc as string) as Node, version: Item.version as number };
  }

  private item(node: Node, version: number): NodeItem {
    return { pk: NODE, sk: node.id, doc: JSON.stringify(node), version, createdAt: node.createdAt };
  }

  private async ownerOf(identifier: string): Promise<string> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.table, Key: { pk: CLAIM, sk: identifier }, ConsistentRead: true }));
    return (Item?.node as string | undefined) ?? "another node";
  }
}

