import { type DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { ConflictError } from "../../errors";
import { OBJECT_ID } from "../../provisioning/ids";
import type { Node } from "../../provisioning/nodes/node";
import type { NodeStore } from "../../provisioning/nodes/nodeStore";
import { rethrowItemTooLarge, transactionReasons } from "./conditions";
import { type TransactItem, VersionedDocuments } from "./versionedDocuments";

/**
 * Nodes in DynamoDB, shared by every container.
 *
 * Items: `NODE / <id>` holds the node (a versioned JSON document), and `NODEID / <identifier>`
 * claims an identifier for a node. Creating a node writes both in one transaction, each on the
 * condition that it does not exist yet, so a MAC belongs to one node only even when two requests
 * race. Updates are optimistic (see VersionedDocuments), so a concurrent update of another field
 * is never lost; claims for added and removed identifiers go in the same transaction.
 */
const CLAIM = "NODEID";

export class DynamoNodeStore implements NodeStore {
  private readonly documents: VersionedDocuments<Node>;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {
    this.documents = new VersionedDocuments<Node>(client, table, "NODE");
  }

  list(): Promise<Node[]> {
    return this.documents.list();
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
      await this.documents.transact([
        this.documents.putNew(node.id, node),
        ...node.identifiers.map((identifier) => this.claim(identifier, node.id)),
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
      (current, next) => [
        ...added(current, next).map((identifier) => this.claim(identifier, id)),
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
      ],
      (reasons, current, next) => this.throwIfClaimed(added(current, next), reasons),
      known,
    );
  }

  delete(id: string, known?: Node): Promise<Node | undefined> {
    return this.documents.delete(
      id,
      (current) =>
        current.identifiers.map((identifier): TransactItem => ({ Delete: { TableName: this.table, Key: { pk: CLAIM, sk: identifier } } })),
      known,
    );
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
