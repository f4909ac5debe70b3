import { randomUUID } from "node:crypto";
import { type DynamoDBDocumentClient, GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { EVENT_RETENTION_DAYS, type EventDraft, type ServiceEvent, subjectOf } from "../../provisioning/events/event";
import type { EventLog } from "../../provisioning/events/eventLog";
import type { TransactItem } from "./writeTogether";

/**
 * Items `EVENT#<subject> / <sequence, 12 digits>`: each subject's events in order, one query a
 * page, and `EVENT#<subject> / head` holding the last sequence given (kept when the events expire,
 * so that numbers never start again). An event is written in the transaction of the change that
 * makes it (versionedDocuments.ts), with the head moved on the condition that it still holds the
 * number read: two changes of one node at once cannot take the same number (one transaction is
 * cancelled and tried again). Events are kept 30 days (TTL).
 * The table's stream carries each new item to the publishing function (deployed).
 */
const partitionOf = (subject: string): string => `EVENT#${subject}`;
const sortKey = (sequence: number): string => sequence.toString().padStart(12, "0");
const HEAD = "head";

interface EventItem {
  pk: string;
  sk: string;
  event: string;
  expiresAt: number;
}

export const eventOfItem = (item: { event: string }): ServiceEvent => JSON.parse(item.event) as ServiceEvent;

export class DynamoEventLog implements EventLog {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async list(subject: string, options: { after?: number; limit?: number } = {}): Promise<ServiceEvent[]> {
    const { Items = [] } = await this.client.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: "pk = :pk AND sk BETWEEN :first AND :last",
        ExpressionAttributeValues: {
          ":pk": partitionOf(subject),
          ":first": sortKey((options.after ?? 0) + 1),
          ":last": sortKey(999_999_999_999),
        },
        ...(options.limit !== undefined && { Limit: options.limit }),
        ConsistentRead: true,
      }),
    );
    return Items.map((item) => eventOfItem(item as EventItem));
  }

  /** The items that record the drafts at their subjects' next sequences (one query per subject), and the events. */
  async itemsFor(drafts: readonly EventDraft[], now: Date): Promise<{ items: TransactItem[]; events: ServiceEvent[] }> {
    const read = new Map<string, number>();
    const next = new Map<string, number>();
    const events: ServiceEvent[] = [];
    for (const draft of drafts) {
      const subject = subjectOf(draft);
      if (!read.has(subject)) read.set(subject, await this.lastSequence(subject));
      const sequence = (next.get(subject) ?? read.get(subject)!) + 1;
      next.set(subject, sequence);
      events.push({ ...draft, id: randomUUID(), version: "1.0", createdAt: now.toISOString(), subject, sequence });
    }
    const expiresAt = Math.floor(now.getTime() / 1000) + EVENT_RETENTION_DAYS * 86_400;
    const items = events.map(
      (event): TransactItem => ({
        Put: {
          TableName: this.table,
          Item: {
            pk: partitionOf(event.subject),
            sk: sortKey(event.sequence),
            event: JSON.stringify(event),
            expiresAt,
          } satisfies EventItem,
          ConditionExpression: "attribute_not_exists(pk)",
        },
      }),
    );
    const heads = [...next].map(
      ([subject, last]): TransactItem => ({
        Put: {
          TableName: this.table,
          Item: { pk: partitionOf(subject), sk: HEAD, sequence: last },
          ConditionExpression: "attribute_not_exists(pk) OR #sequence = :read",
          ExpressionAttributeNames: { "#sequence": "sequence" },
          ExpressionAttributeValues: { ":read": read.get(subject) },
        },
      }),
    );
    return { items: [...items, ...heads], events };
  }

  private async lastSequence(subject: string): Promise<number> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.table, Key: { pk: partitionOf(subject), sk: HEAD }, ConsistentRead: true }),
    );
    return (Item?.sequence as number | undefined) ?? 0;
  }
}
