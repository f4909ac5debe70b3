import { deflateRawSync, inflateRawSync } from "node:zlib";
import { type DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import type { ChangeEvents } from "../../provisioning/events/eventLog";
import type { Page, PageRequest } from "../../provisioning/listPage";
import { byPosition, positionOf } from "../../provisioning/listPage";
import { eventsCommitted } from "../eventFeed";
import { BATCH_GET_LIMIT, batchGetAll, itemsUnder, queryAll, RETRY, rethrowItemTooLarge, retry, transactionReasons } from "./conditions";
import type { DynamoEventLog } from "./eventLog";
import { keysAfter, listPageKeys } from "./indexPage";
import { GSI1, listShardOf, spreadKeys, spreadShardOf } from "./table";
import { type TransactItem, writeTogether } from "./writeTogether";

export type { TransactItem };

interface DocumentItem {
  pk: string;
  sk: string;
  /** The record as JSON (a small one, or one written before compression)… */
  doc?: string;
  /** …or its JSON deflated (raw DEFLATE), for a record over COMPRESS_FROM bytes. */
  docz?: Uint8Array;
  version: number;
  createdAt: string;
  /** Where the record also sits in the table's index GSI1 (e.g. a node's workflows), if anywhere. */
  gsi1pk?: string;
  gsi1sk?: string;
  /** Where the record sits in its kind's list (GSI2), for the kinds listed by page. */
  gsi2pk?: string;
  gsi2sk?: string;
}

const ATTEMPTS = 12;

/**
 * Records whose JSON is longer than this are stored deflated (issue 28). DynamoDB bills a write
 * per KB and a read per 4 KB of the item, and a workflow, rewritten at every step of an install,
 * is several KB of JSON that deflates to a fifth of it; under 1 KB a write costs one unit anyway.
 */
const COMPRESS_FROM = 1024;

/** The item's attribute for a record's JSON: `doc` as text, or `docz` deflated. */
function stored(json: string): { doc: string } | { docz: Uint8Array } {
  return json.length > COMPRESS_FROM ? { docz: deflateRawSync(json) } : { doc: json };
}

const jsonOf = (item: DocumentItem): string => (item.docz ? inflateRawSync(item.docz).toString("utf8") : item.doc!);

/** The record an item of this class holds (text or deflated), for code that reads items itself (the migration). */
export const documentOf = <T>(item: { doc?: string; docz?: Uint8Array }): T => JSON.parse(jsonOf(item as DocumentItem)) as T;

/** How a kind of record's changes make events, and where they are written (in the change's transaction). */
export interface Journal<T> {
  changeEvents: ChangeEvents<T>;
  log: DynamoEventLog;
}

export interface DocumentOptions<T> {
  /** The record's place in GSI1, for records listed by a second key (none: not in the index). */
  indexKey?: (doc: T) => { gsi1pk: string; gsi1sk: string } | undefined;
  /** For records whose changes make events: the rule, and the log they are written to in the change's transaction. */
  journal?: Journal<T>;
  /** For the records listed by page: GSI2's partition key of a shard (see LIST_SHARDS). */
  listKey?: (shard: number) => string;
  /**
   * For the kinds a fleet writes (nodes, workflows, lookups, install reports, …): the partition key
   * of a shard (`NODE#<0–15>`, the shard from the id). None: every record under `partition`.
   */
  spreadKey?: (shard: number) => string;
}

/**
 * Records kept as JSON documents (`<partition> / <id>`, or spread over SPREAD_SHARDS partition
 * keys `<partition>#<shard> / <id>`), each with a version number for optimistic concurrency: a
 * change is written only if the version read is still the stored one, and otherwise it is applied
 * again to the newer record. Side items (claims, indexes) go in the same transaction. The node and
 * workflow stores are built on it.
 *
 * A spread kind still reads a record written under its one partition key by an older version
 * (until `npm run migrate` moves it): a miss under the new key looks there too, the whole list
 * includes it, and its next change moves it (the old item deleted in the same transaction).
 */
export class VersionedDocuments<T extends { createdAt: string }> {
  /**
   * The version each record object this class handed out was read at, so that an update of a
   * record the caller has just read needs no second read (it is still checked on write).
   */
  private readonly versions = new WeakMap<object, number>();
  /** The records handed out that were read under the kind's older, single partition key. */
  private readonly unmoved = new WeakSet<object>();
  private readonly indexKey?: (doc: T) => { gsi1pk: string; gsi1sk: string } | undefined;
  private readonly journal?: Journal<T>;
  private readonly listKey?: (shard: number) => string;
  private readonly spreadKey?: (shard: number) => string;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly partition: string,
    options: DocumentOptions<T> = {},
  ) {
    ({ indexKey: this.indexKey, journal: this.journal, listKey: this.listKey, spreadKey: this.spreadKey } = options);
  }

  /** The partition key of a record. */
  keyOf(id: string): string {
    return this.spreadKey ? this.spreadKey(spreadShardOf(id)) : this.partition;
  }

  /** Whether an index entry's `pk` is one of this kind's records. */
  private owns(pk: string): boolean {
    return pk === this.partition || (this.spreadKey !== undefined && pk.startsWith(`${this.partition}#`));
  }

  async read(id: string): Promise<{ doc: T; version: number } | undefined> {
    const get = async (pk: string) =>
      (await this.client.send(new GetCommand({ TableName: this.table, Key: { pk, sk: id }, ConsistentRead: true }))).Item as
        | DocumentItem
        | undefined;
    const item = await get(this.keyOf(id));
    if (item) return this.parse(item);
    const older = this.spreadKey ? await get(this.partition) : undefined;
    return older && this.parse(older, true);
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
    return this.readMany(keys.filter((key) => this.owns(key.pk)).map((key) => key.sk));
  }

  /**
   * One page of every record, in creation order (ties by id): a query of each of GSI2's shards
   * for at most the page's length of keys after the position, merged, then the page's records by
   * BatchGetItem. What it reads is bounded by the page, whatever the number of records.
   */
  async page(request: PageRequest): Promise<Page<T>> {
    const { keys, next } = await listPageKeys(this.client, this.table, this.listKey!, request, (pk) => this.owns(pk));
    const items = await this.readMany(keys.map((key) => key.sk));
    return next === undefined ? { items } : { items, next };
  }

  /** One page of the records under `gsi1pk` in GSI1, in its sort-key order (one query, then BatchGetItem). */
  async pageByIndex(gsi1pk: string, request: PageRequest): Promise<Page<T>> {
    const index = { name: GSI1, partitionKey: "gsi1pk", sortKey: "gsi1sk", value: gsi1pk };
    const { keys, more } = await keysAfter(this.client, this.table, index, request, (pk) => this.owns(pk));
    const items = await this.readMany(keys.map((key) => key.sk));
    return more && keys.length > 0 ? { items, next: keys[keys.length - 1].gsi1sk } : { items };
  }

  /** The records of these ids that exist, in the order given (BatchGetItem, 100 a call, strongly consistent). */
  async readMany(ids: string[]): Promise<T[]> {
    const found = new Map<string, T>();
    const fetch = async (wanted: string[], pkOf: (id: string) => string, older: boolean) => {
      for (let at = 0; at < wanted.length; at += BATCH_GET_LIMIT) {
        const keys = wanted.slice(at, at + BATCH_GET_LIMIT).map((sk) => ({ pk: pkOf(sk), sk }));
        for (const item of await batchGetAll<DocumentItem>(this.client, this.table, keys)) found.set(item.sk, this.parse(item, older).doc);
      }
    };
    await fetch(ids, (id) => this.keyOf(id), false);
    const missing = ids.filter((id) => !found.has(id));
    if (this.spreadKey && missing.length > 0) await fetch(missing, () => this.partition, true);
    return ids.flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
  }

  /** Every record, oldest first (ties by id): one query of each partition key of the kind. */
  async list(): Promise<T[]> {
    const keys = this.spreadKey ? spreadKeys(this.spreadKey, this.partition) : [this.partition];
    const parts = await Promise.all(keys.map((pk) => itemsUnder<DocumentItem>(this.client, this.table, pk)));
    const older = (at: number) => this.spreadKey !== undefined && at === keys.length - 1;
    const read = parts.flatMap((items, at) => items.map((item) => ({ item, doc: this.parse(item, older(at)).doc })));
    return byPosition(read, ({ item }) => positionOf(item.createdAt, item.sk)).map(({ doc }) => doc);
  }

  /** A transaction item that stores a new record, on the condition that its id is unused. */
  putNew(id: string, doc: T): TransactItem {
    return { Put: { TableName: this.table, Item: this.item(id, doc, 1), ConditionExpression: "attribute_not_exists(pk)" } };
  }

  /**
   * The transaction items that write version `version + 1` of `current`, on the condition that
   * `version` is still stored: one Put, or (a record still under the older key) a Put under its
   * own key and the older item's Delete.
   */
  private overwrite(id: string, current: T, doc: T, version: number): TransactItem[] {
    if (!this.unmoved.has(current as object)) return [this.putOver(id, doc, version)];
    return [
      { Put: { TableName: this.table, Item: this.item(id, doc, version + 1), ConditionExpression: "attribute_not_exists(pk)" } },
      this.deleteAt(this.partition, id, version),
    ];
  }

  private deleteAt(pk: string, id: string, version: number): TransactItem {
    return {
      Delete: {
        TableName: this.table,
        Key: { pk, sk: id },
        ConditionExpression: "version = :version",
        ExpressionAttributeValues: { ":version": version },
      },
    };
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
      const recorded = await this.eventsOf(current.doc, next);
      try {
        await this.transact([
          ...this.overwrite(id, current.doc, next, current.version),
          ...sideItems(current.doc, next),
          ...recorded.items,
        ]);
        this.versions.set(next, current.version + 1);
        eventsCommitted(recorded.events);
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
      const recorded = await this.eventsOf(current.doc, undefined);
      try {
        const pk = this.unmoved.has(current.doc as object) ? this.partition : this.keyOf(id);
        await this.transact([this.deleteAt(pk, id, current.version), ...sideItems(current.doc), ...recorded.items]);
        eventsCommitted(recorded.events);
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

  /**
   * Writes a new record (`items`, its putNew among them) with the events it makes. Only the
   * events' sequence can be taken meanwhile (another change of the same node): then they are
   * numbered again and the write tried again; any other cancellation is the caller's to read
   * (its items' reasons come first, in its order).
   */
  async transactNew(doc: T, items: TransactItem[]): Promise<void> {
    return retry(ATTEMPTS, async () => {
      const recorded = await this.eventsOf(undefined, doc);
      try {
        await this.transact([...items, ...recorded.items]);
      } catch (error) {
        const reasons = transactionReasons(error);
        const onlyEvents =
          reasons !== undefined &&
          recorded.items.length > 0 &&
          reasons.slice(0, items.length).every((reason) => reason === "None") &&
          reasons.slice(items.length, items.length + recorded.items.length).some((reason) => reason === "ConditionalCheckFailed");
        if (onlyEvents) return RETRY;
        throw error;
      }
      // The record as written is version 1: a change of it right after needs no read.
      this.versions.set(doc as object, 1);
      eventsCommitted(recorded.events);
    });
  }

  /** The items that record the change's events, and the events; none for records that make none. */
  private async eventsOf(before: T | undefined, after: T | undefined) {
    const drafts = this.journal?.changeEvents(before, after) ?? [];
    return drafts.length === 0 ? { items: [], events: [] } : this.journal!.log.itemsFor(drafts, new Date());
  }

  private item(id: string, doc: T, version: number): DocumentItem {
    return {
      pk: this.keyOf(id),
      sk: id,
      ...stored(JSON.stringify(doc)),
      version,
      createdAt: doc.createdAt,
      ...this.indexKey?.(doc),
      ...(this.listKey && { gsi2pk: this.listKey(listShardOf(id)), gsi2sk: positionOf(doc.createdAt, id) }),
    };
  }

  /** A record this class handed out, with the version it was read at; undefined for any other object. */
  private asRead(known: T | undefined): { doc: T; version: number } | undefined {
    const version = known && this.versions.get(known);
    return known && version !== undefined ? { doc: known, version } : undefined;
  }

  private parse(item: DocumentItem, older = false): { doc: T; version: number } {
    const doc = JSON.parse(jsonOf(item)) as T;
    this.versions.set(doc as object, item.version);
    if (older) this.unmoved.add(doc as object);
    return { doc, version: item.version };
  }
}
