import { type DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { queryAll, RETRY, rethrowItemTooLarge, retry, transactionReasons } from "./conditions";

/** One item of a TransactWriteItems call. */
export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]["TransactItems"]>[number];

interface DocumentItem {
  pk: string;
  sk: string;
  doc: string;
  version: number;
  createdAt: string;
}

const ATTEMPTS = 12;

/**
 * Records kept as JSON documents under one partition key (`<partition> / <id>`), each with a
 * version number for optimistic concurrency: a change is written only if the version read is
 * still the stored one, and otherwise it is applied again to the newer record. Side items (claims,
 * indexes) go in the same transaction. The node and workflow stores are built on it.
 */
export class VersionedDocuments<T extends { createdAt: string }> {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly partition: string,
  ) {}

  async read(id: string): Promise<{ doc: T; version: number } | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.table, Key: { pk: this.partition, sk: id }, ConsistentRead: true }),
    );
    return Item && { doc: JSON.parse(Item.doc as string) as T, version: Item.version as number };
  }

  /** Every record, oldest first (ties by id). */
  async list(): Promise<T[]> {
    const items = await queryAll<DocumentItem>(this.client, {
      TableName: this.table,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": this.partition },
      ConsistentRead: true,
    });
    return items
      .sort((a, b) => (a.createdAt === b.createdAt ? (a.sk < b.sk ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1))
      .map((item) => JSON.parse(item.doc) as T);
  }

  /** A transaction item that stores a new record, on the condition that its id is unused. */
  putNew(id: string, doc: T): TransactItem {
    return { Put: { TableName: this.table, Item: this.item(id, doc, 1), ConditionExpression: "attribute_not_exists(pk)" } };
  }

  /** A transaction item that writes version `version + 1`, on the condition that `version` is still stored. */
  putOver(id: string, doc: T, version: number): TransactItem {
    return {
      Put: {
        TableName: this.table,
        Item: this.item(id, doc, version + 1),
        ConditionExpression: "version = :version",
        ExpressionAttributeValues: { ":version": version },
      },
    };
  }

  /**
   * Applies `change` to the current record and writes the result with `sideItems(current, next)`
   * in one transaction; retried on a concurrent write. `change` answering its argument writes
   * nothing. `onCancel` may throw a domain error for a failed side item (reasons[0] is the record's).
   * Undefined when there is no record.
   */
  async update(
    id: string,
    change: (current: T) => T,
    sideItems: (current: T, next: T) => TransactItem[],
    onCancel: (reasons: string[], current: T, next: T) => Promise<void> = async () => undefined,
  ): Promise<T | undefined> {
    return retry(ATTEMPTS, async () => {
      const current = await this.read(id);
      if (!current) return undefined;
      const next = change(current.doc);
      if (next === current.doc) return current.doc;
      try {
        await this.transact([this.putOver(id, next, current.version), ...sideItems(current.doc, next)]);
        return next;
      } catch (error) {
        const reasons = transactionReasons(error);
        if (!reasons) return rethrowItemTooLarge(error);
        await onCancel(reasons, current.doc, next);
        return RETRY; // someone else changed the record: apply the change to the newer version
      }
    });
  }

  /** Deletes the record and `sideItems(current)` in one transaction; retried on a concurrent write. */
  async delete(id: string, sideItems: (current: T) => TransactItem[]): Promise<T | undefined> {
    return retry(ATTEMPTS, async () => {
      const current = await this.read(id);
      if (!current) return undefined;
      try {
        await this.transact([
          {
            Delete: {
              TableName: this.table,
              Key: { pk: this.partition, sk: id },
              ConditionExpression: "version = :version",
              ExpressionAttributeValues: { ":version": current.version },
            },
          },
          ...sideItems(current.doc),
        ]);
        return current.doc;
      } catch (error) {
        if (!transactionReasons(error)) throw error;
        return RETRY;
      }
    });
  }

  transact(items: TransactItem[]): Promise<unknown> {
    return this.client.send(new TransactWriteCommand({ TransactItems: items }));
  }

  private item(id: string, doc: T, version: number): DocumentItem {
    return { pk: this.partition, sk: id, doc: JSON.stringify(doc), version, createdAt: doc.createdAt };
  }
}
