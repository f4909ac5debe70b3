import { type DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { BATCH_GET_LIMIT, batchGetAll, queryAll, RETRY, rethrowItemTooLarge, retry, transactionReasons } from "./conditions";
import { GSI1 } from "./table";
import { type TransactItem, writeTogether } from "./writeTogether";

export type { TransactItem };

interface DocumentItem {
  pk: string;
  sk: string;
  doc: string;
  version: number;
  createdAt: string;
  /** Where the record also sits in the table's index GSI1 (e.g. a node's workflows), if anywhere. */
  gsi1pk?: string;
  gsi1sk?: string;
}

const ATTEMPTS = 12;

/**
 * Records kept as JSON documents under one partition key (`<partition> / <id>`), each with a
 * version number for optimistic concurrency: a change is written only if the version read is
 * still the stored one, and otherwise it is applied again to the newer record. Side items (claims,
 * indexes) go in the same transaction. The node and workflow stores are built on it.
 */
export class VersionedDocuments<T extends { createdAt: string }> {
  /**
   * The version each record object this class handed out was read at, so that an update of a
   * record the caller has just read needs no second read (it is still checked on write).
   */
  private readonly versions = new WeakMap<object, number>();

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly partition: string,
    /** The record's place in GSI1, for records listed by a second key (none: not in the index). */
    private readonly indexKey?: (doc: T) => { gsi1pk: string; gsi1sk: string } | undefined,
  ) {}

  async read(id: string): Promise<{ doc: T; version: number } | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.table, Key: { pk: this.partition, sk: id }, ConsistentRead: true }),
    );
    return Item && this.parse(Item as DocumentItem);
  }

  /**
   * The records under `gsi1pk` in GSI1, in its sort-key order: one query of the index for their
   * keys, then the records by BatchGetItem (100 a call, strongly consistent). The index holds keys
   * only, so that an update of a record, which leaves its index keys alone, writes nothing to it.
   */
  async listByIndex(gsi1pk: string): Promise<T[]> {
    const keys = await queryAll<{ pk: string; sk: string }>(this.client, {
      TableName: this.table,
      IndexName: GSI1,
      KeyConditionExpression: "gsi1pk = :key",
      ExpressionAttributeValues: { ":key": gsi1pk },
    });
    return this.readMany(keys.filter((key) => key.pk === this.partition).map((key) => key.sk));
  }

  /** The records of these ids that exist, in the order given (BatchGetItem, 100 a call, strongly consistent). */
  async readMany(ids: string[]): Promise<T[]> {
    const found = new Map<string, T>();
    for (let at = 0; at < ids.length; at += BATCH_GET_LIMIT) {
      for (const item of await batchGetAll<DocumentItem>(
        this.client,
        this.table,
        ids.slice(at, at + BATCH_GET_LIMIT).map((sk) => ({ pk: this.partition, sk })),
      )) {
        found.set(item.sk, this.parse(item).doc);
      }
    }
    return ids.flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
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
      .map((item) => this.parse(item).doc);
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
   * `known`, a record this class handed out, saves the first read (the write still checks its
   * version). Undefined when there is no record.
   */
  async update(
    id: string,
    change: (current: T) => T,
    sideItems: (current: T, next: T) => TransactItem[],
    onCancel: (reasons: string[], current: T, next: T) => Promise<void> = async () => undefined,
    known?: T,
  ): Promise<T | undefined> {
    return retry(ATTEMPTS, async (attempt) => {
      const current = (attempt === 0 && this.asRead(known)) || (await this.read(id));
      if (!current) return undefined;
      const next = change(current.doc);
      if (next === current.doc) return current.doc;
      try {
        await this.transact([this.putOver(id, next, current.version), ...sideItems(current.doc, next)]);
        this.versions.set(next, current.version + 1);
        return next;
      } catch (error) {
        const reasons = transactionReasons(error);
        if (!reasons) return rethrowItemTooLarge(error);
        await onCancel(reasons, current.doc, next);
        return RETRY; // someone else changed the record: apply the change to the newer version
      }
    });
  }

  /**
   * Deletes the record and `sideItems(current)` in one transaction; retried on a concurrent write.
   * `known`, as for update, saves the first read.
   */
  async delete(id: string, sideItems: (current: T) => TransactItem[], known?: T): Promise<T | undefined> {
    return retry(ATTEMPTS, async (attempt) => {
      const current = (attempt === 0 && this.asRead(known)) || (await this.read(id));
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

  /** Writes the items together (see writeTogether). */
  transact(items: TransactItem[]): Promise<void> {
    return writeTogether(this.client, this.table, items);
  }

  private item(id: string, doc: T, version: number): DocumentItem {
    return { pk: this.partition, sk: id, doc: JSON.stringify(doc), version, createdAt: doc.createdAt, ...this.indexKey?.(doc) };
  }

  /** A record this class handed out, with the version it was read at; undefined for any other object. */
  private asRead(known: T | undefined): { doc: T; version: number } | undefined {
    const version = known && this.versions.get(known);
    return known && version !== undefined ? { doc: known, version } : undefined;
  }

  private parse(item: DocumentItem): { doc: T; version: number } {
    const doc = JSON.parse(item.doc) as T;
    this.versions.set(doc as object, item.version);
    return { doc, version: item.version };
  }
}
