import { type EventBridgeClient, PutEventsCommand } from "@aws-sdk/client-eventbridge";
import { envelope, eventName, type ServiceEvent } from "../../provisioning/events/event";

/** The source of every event the service puts on its bus (an EventBridge rule matches on it). */
export const EVENT_SOURCE = "lambda-tasks-provisioning";

/** Puts events on the stage's EventBridge bus, ten a call: detail-type `type.action`, detail RackHD's envelope. */
export async function putOnBus(client: Pick<EventBridgeClient, "send">, bus: string, events: readonly ServiceEvent[]): Promise<void> {
  for (let at = 0; at < events.length; at += 10) {
    const batch = events.slice(at, at + 10);
    const { FailedEntryCount = 0, Entries = [] } = await client.send(
      new PutEventsCommand({
        Entries: batch.map((event) => ({
          EventBusName: bus,
          Source: EVENT_SOURCE,
          DetailType: eventName(event),
          Detail: JSON.stringify(envelope(event)),
          Time: new Date(event.createdAt),
          Resources: [],
        })),
      }),
    );
    if (FailedEntryCount > 0) {
      const failed = Entries.find((entry) => entry.ErrorCode);
      throw new Error(
        `EventBridge refused ${FailedEntryCount} of ${batch.length} events: ${failed?.ErrorCode} ${failed?.ErrorMessage ?? ""}`,
      );
    }
  }
}
