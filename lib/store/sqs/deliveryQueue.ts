import { SendMessageBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { DeliveryMessage, DeliveryQueue } from "../../provisioning/hooks/deliveryService";

/** SQS delays a message at most 15 minutes: a longer wait is that, then the rest again (the message says when it is due). */
export const SQS_MAX_DELAY_SECONDS = 900;

/** A queued delivery as SQS carries it: the message, and when it is due if that is past one delay. */
export interface QueuedDelivery extends DeliveryMessage {
  dueAt?: string;
}

/** The delivery queue on SQS (deployed): ten messages a call. */
export class SqsDeliveryQueue implements DeliveryQueue {
  constructor(
    private readonly client: Pick<SQSClient, "send">,
    private readonly url: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async send(messages: readonly QueuedDelivery[], delaySeconds: number): Promise<void> {
    const delay = Math.ceil(Math.max(0, delaySeconds));
    const dueAt = delay > SQS_MAX_DELAY_SECONDS ? new Date(this.now().getTime() + delay * 1000).toISOString() : undefined;
    for (let at = 0; at < messages.length; at += 10) {
      const batch = messages.slice(at, at + 10);
      const { Failed = [] } = await this.client.send(
        new SendMessageBatchCommand({
          QueueUrl: this.url,
          Entries: batch.map((message, i) => ({
            Id: String(i),
            MessageBody: JSON.stringify({ ...message, ...(dueAt ? { dueAt } : { dueAt: undefined }) }),
            DelaySeconds: Math.min(delay, SQS_MAX_DELAY_SECONDS),
          })),
        }),
      );
      if (Failed.length > 0)
        throw new Error(`SQS refused ${Failed.length} of ${batch.length} deliveries: ${Failed[0].Message ?? Failed[0].Code}`);
    }
  }
}

/** A queued delivery's message (without its due time), and the seconds left before it is due (0: now). */
export function queuedDelivery(body: string, now: Date): { message: DeliveryMessage; wait: number } {
  const { dueAt, ...message } = JSON.parse(body) as QueuedDelivery;
  return { message, wait: dueAt ? Math.max(0, Math.ceil((Date.parse(dueAt) - now.getTime()) / 1000)) : 0 };
}
