import { type DynamoDBDocumentClient, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { auditEvent } from "../../audit/auditEvent";
import { type AuditRecord, type AuditTrail, dayOf } from "../../audit/auditTrail";
import { eventsCommitted } from "../eventFeed";

/**
 * The audit trail in DynamoDB (issue 55): a partition per day, `AUDIT#<YYYY-MM-DD> / <record id>`
 * (ids sort by time), written once and never updated: the functions may only put them (their
 * policy names no update of these keys beyond PutItem's), and `expiresAt` (the table's TTL) lets
 * each go after the retention. Read a day at a time, newest first.
 */
export class DynamoAuditTrail implements AuditTrail {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly retentionDays: number,
  ) {}

  async add(record: AuditRecord): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          pk: `AUDIT#${dayOf(record.id)}`,
          sk: record.id,
          record,
          expiresAt: Math.ceil(Date.parse(record.at) / 1000) + this.retentionDays * 86_400,
        },
        // Append-only: a record is never written over.
        ConditionExpression: "attribute_not_exists(pk)",
      }),
    );
    // Deployed, the table's stream sends it as an event; under serverless offline, the local delivery does.
    eventsCommitted([auditEvent(record)]);
  }

  async day(day: string, { before, limit }: { before?: string; limit: number }): Promise<AuditRecord[]> {
    const { Items } = await this.client.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: before === undefined ? "pk = :pk" : "pk = :pk AND sk < :before",
        ExpressionAttributeValues: { ":pk": `AUDIT#${day}`, ...(before !== undefined && { ":before": before }) },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (Items ?? []).map((item) => item.record as AuditRecord);
  }
}
