import { type DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import type { Page, PageRequest } from "../../provisioning/listPage";
import { type Lookup, type LookupField, type LookupStore, LookupTakenError } from "../../provisioning/lookups/lookupStore";
import { rethrowItemTooLarge, transactionReasons } from "./conditions";
import { type TransactItem, VersionedDocuments } from "./versionedDocuments";

/**
 * Lookups in DynamoDB: `LKP / <id>` (a versioned document; in GSI1 under `NODELKP#<node> /
 * <createdAt>#<id>` while it has a node: a node's lookups are one query), and the claims
 * `LKPMAC / <mac>` and `LKPIP / <ip>` (→ id), written in the same transaction on the condition
 * that they are free: a MAC or an IP is in one lookup only, even when two writers race.
 *
 * The MAC's claim also carries the lookup itself (rewritten with it, in its transaction): a
 * machine's boot asks what its MAC's lookup says on every boot, and one read answers it.
 */
const RECORD = "LKP";
/** A lookup's partition key by its shard (see SPREAD_SHARDS). */
export const lookupKey = (shard: number) => `LKP#${shard}`;
/** The lookup list's shard keys in GSI2 (see LIST_SHARDS). */
export const lookupListKey = (shard: number) => `LISTLKP#${shard}`;
const CLAIMS: Record<LookupField, string> = { macAddress: "LKPMAC", ipAddress: "LKPIP" };

/** A side item of a write, and the field whose claim it is (to name it when its condition fails). */
type Claim = { item: TransactItem; field: LookupField; value: string };

export class DynamoLookupStore implements LookupStore {
  private readonly documents: VersionedDocuments<Lookup>;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {
    this.documents = new VersionedDocuments<Lookup>(client, table, RECORD, {
      indexKey: (lookup) => (lookup.node ? { gsi1pk: `NODELKP#${lookup.node}`, gsi1sk: `${lookup.createdAt}#${lookup.id}` } : undefined),
      spreadKey: lookupKey,
      listKey: lookupListKey,
    });
  }

  async create(lookup: Lookup): Promise<Lookup> {
    const claims = this.changedClaims(undefined, lookup);
    try {
      await this.documents.transact([this.documents.putNew(lookup.id, lookup), ...claims.map((claim) => claim.item)]);
      return lookup;
    } catch (error) {
      const reasons = transactionReasons(error);
      if (!reasons) return rethrowItemTooLarge(error);
      this.throwIfTaken(claims, reasons);
      throw error;
    }
  }

  async get(id: string): Promise<Lookup | undefined> {
    return (await this.documents.read(id))?.doc;
  }

  byMac(mac: string): Promise<Lookup | undefined> {
    return this.byClaim("macAddress", mac);
  }

  byIp(ip: string): Promise<Lookup | undefined> {
    return this.byClaim("ipAddress", ip);
  }

  forNode(nodeId: string): Promise<Lookup[]> {
    return this.documents.listByIndex(`NODELKP#${nodeId}`);
  }

  list(): Promise<Lookup[]> {
    return this.documents.list();
  }

  page(request: PageRequest): Promise<Page<Lookup>> {
    return this.documents.page(request);
  }

  update(id: string, change: (current: Lookup) => Lookup): Promise<Lookup | undefined> {
    return this.documents.update(
      id,
      (current) => {
        const changed = change(current);
        return changed === current ? current : { ...changed, id };
      },
      (current, next) => this.changedClaims(current, next).map((claim) => claim.item),
      async (reasons, current, next) => this.throwIfTaken(this.changedClaims(current, next), reasons),
    );
  }

  delete(id: string): Promise<Lookup | undefined> {
    return this.documents.delete(id, (current) => this.changedClaims(current, undefined).map((claim) => claim.item));
  }

  /** The claims to take and to give up when a lookup goes from `before` to `after` (either absent). */
  private changedClaims(before: Lookup | undefined, after: Lookup | undefined): Claim[] {
    const claims: Claim[] = [];
    for (const field of ["macAddress", "ipAddress"] as const) {
      const was = before?.[field];
      const is = after?.[field];
      const carries = field === "macAddress" && after !== before;
      if (is !== undefined && (was !== is || carries)) {
        claims.push({
          field,
          value: is,
          item: {
            Put: {
              TableName: this.table,
              Item: { pk: CLAIMS[field], sk: is, id: after!.id, ...(field === "macAddress" && { lookup: JSON.stringify(after) }) },
              ConditionExpression: "attribute_not_exists(pk) OR id = :id",
              ExpressionAttributeValues: { ":id": after!.id },
            },
          },
        });
      }
      if (was !== undefined && was !== is) {
        claims.push({
          field,
          value: was,
          item: {
            Delete: {
              TableName: this.table,
              Key: { pk: CLAIMS[field], sk: was },
              ConditionExpression: "attribute_not_exists(pk) OR id = :id",
              ExpressionAttributeValues: { ":id": before!.id },
            },
          },
        });
      }
    }
    return claims;
  }

  /** The claims follow the record in the transaction: reasons[i + 1] is claims[i]'s. */
  private throwIfTaken(claims: Claim[], reasons: string[]): void {
    const taken = claims.find((claim, i) => "Put" in claim.item && reasons[i + 1] === "ConditionalCheckFailed");
    if (taken) throw new LookupTakenError(taken.field, taken.value);
  }

  private async byClaim(field: LookupField, value: string): Promise<Lookup | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.table, Key: { pk: CLAIMS[field], sk: value }, ConsistentRead: true }),
    );
    if (!Item) return undefined;
    // A MAC's claim written by an older version carries only the id.
    return typeof Item.lookup === "string" ? (JSON.parse(Item.lookup) as Lookup) : this.get(Item.id as string);
  }
}
