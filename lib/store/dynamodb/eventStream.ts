import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import type { DynamoDBRecord } from "aws-lambda";
import type { ServiceEvent } from "../../provisioning/events/event";
import { eventOfItem } from "./eventLog";

/**
 * The events new in a batch of the table's stream: the new images of event items (the stream's
 * filter already keeps only those; anything else in a batch is skipped, not an error).
 */
export function eventsOfStream(records: readonly DynamoDBRecord[]): ServiceEvent[] {
  return records.flatMap((record) => {
    const image = record.eventName === "INSERT" ? record.dynamodb?.NewImage : undefined;
    if (!image) return [];
    const item = unmarshall(image as Record<string, AttributeValue>);
    return typeof item.pk === "string" && item.pk.startsWith("EVENT#") && typeof item.event === "string"
      ? [eventOfItem(item as { event: string })]
      : [];
  });
}
