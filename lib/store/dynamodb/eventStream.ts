import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import type { DynamoDBRecord } from "aws-lambda";
import { auditEvent } from "../../audit/auditEvent";
import type { AuditRecord } from "../../audit/auditTrail";
import type { ServiceEvent } from "../../provisioning/events/event";
import { eventOfItem } from "./eventLog";

/**
 * The events new in a batch of the table's stream: the new images of event items and of the audit
 * trail's records (the stream's filter already keeps only those; anything else in a batch is
 * skipped, not an error).
 */
export function eventsOfStream(records: readonly DynamoDBRecord[]): ServiceEvent[] {
  return records.flatMap((record) => {
    const image = record.eventName === "INSERT" ? record.dynamodb?.NewImage : undefined;
    if (!image) return [];
    const item = unmarshall(image as Record<string, AttributeValue>);
    if (typeof item.pk !== "string") return [];
    if (item.pk.startsWith("EVENT#") && typeof item.event === "string") return [eventOfItem(item as { event: string })];
    // The audit trail's records, sent as events (lib/audit/auditEvent.ts).
    if (item.pk.startsWith("AUDIT#") && item.record && typeof item.record === "object") return [auditEvent(item.record as AuditRecord)];
    return [];
  });
}
