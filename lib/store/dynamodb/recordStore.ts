import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { ConflictError } from "../../errors";
import type { RecordStore } from "../../provisioning/recordStore";
import { rethrowItemTooLarge, transactionReasons } from "./conditions";
import { type DocumentOptions, VersionedDocuments } from "./versionedDocuments";

/** Records of one kind as versioned documents under their own partition (`SKU / <id>`, `TAG / <name>`). */
export class DynamoRecordStore<T extends { id: string; createdAt: string }> implements RecordStore<T> {
  protected readonly documents: VersionedDocuments<T>;

  /** `options`: the journal of the kinds whose changes make events, `spreadKey` for the kinds a fleet writes (see SPREAD_SHARDS). */
  constructor(client: DynamoDBDocumentClient, table: string, partition: string, options: DocumentOptions<T> = {}) {
    this.documents = new VersionedDocuments<T>(client, table, partition, options);
  }

  async create(record: T): Promise<T> {
    try {
      await this.documents.transactNew(record, [this.documents.putNew(record.id, record)]);
      return record;
    } catch (error) {
      if ((error as Error).name === "ConditionalCheckFailedException" || transactionReasons(error)?.[0] === "ConditionalCheckFailed") {
        throw new ConflictError(`${record.id} already exists`);
      }
      return rethrowItemTooLarge(error);
    }
  }

  async get(id: string): Promise<T | undefined> {
    return (await this.documents.read(id))?.doc;
  }

  list(): Promise<T[]> {
    return this.documents.list();
  }

  update(id: string, change: (current: T) => T): Promise<T | undefined> {
    return this.documents.update(
      id,
      (current) => ({ ...change(current), id }),
      () => [],
    );
  }

  delete(id: string): Promise<T | undefined> {
    return this.documents.delete(id, () => []);
  }
}
