import { AsyncResource } from "node:async_hooks";
import type { Settings } from "../config/settings";
import { logLine } from "../logger";
import { type DeliveryMessage, type DeliveryQueue, deliver, fanOut } from "../provisioning/hooks/deliveryService";
import type { ProvisioningStores } from "../provisioning/ports";
import { onEventsCommitted } from "./eventFeed";
import { processSingleton } from "./processSingleton";
import { deliveryDepsOf } from "./webhookPoster";

/**
 * The local stand-ins for what delivers events deployed (`npm start`, `npm run start:dynamodb`):
 * the stores' own feed of committed events stands in for the table's stream, and a queue in this
 * process, with the same contract as the SQS one (a message comes back after its delay; one that
 * fails to be handled is tried again), stands in for SQS. What runs on each message is the same
 * domain code as deployed (lib/provisioning/hooks/deliveryService.ts). Not durable: a stopped
 * process drops what it had queued, as a stopped memory store drops its data.
 */

/** Deliveries in flight at once. */
const CONCURRENCY = 16;
/** A message whose handling failed (a store error, not a receiver's) comes back after this. */
const REDELIVER_MS = 1000;

export class InProcessQueue implements DeliveryQueue {
  private readonly ready: DeliveryMessage[] = [];
  private running = 0;
  /** Made outside any request, so that the work it runs belongs to none (no request's idempotency key or function's grants). */
  private readonly scope = new AsyncResource("LocalDelivery");

  constructor(private readonly handle: (message: DeliveryMessage) => Promise<unknown>) {}

  async send(messages: readonly DeliveryMessage[], delaySeconds: number): Promise<void> {
    this.scope.runInAsyncScope(() => {
      if (delaySeconds <= 0) this.enqueue(messages);
      else setTimeout(() => this.enqueue(messages), delaySeconds * 1000).unref();
    });
  }

  /** Messages queued or in flight. */
  get pending(): number {
    return this.ready.length + this.running;
  }

  private enqueue(messages: readonly DeliveryMessage[]): void {
    this.ready.push(...messages);
    this.pump();
  }

  private pump(): void {
    while (this.running < CONCURRENCY && this.ready.length > 0) {
      const message = this.ready.shift()!;
      this.running++;
      this.handle(message)
        .catch((error) => {
          logLine({ level: "warn", msg: "delivery not handled; tried again", hookId: message.hookId, error: (error as Error).message });
          setTimeout(() => this.enqueue([message]), REDELIVER_MS).unref();
        })
        .finally(() => {
          this.running--;
          this.pump();
        });
    }
  }
}

/** Starts this process's local delivery (once), for `stores` (the unguarded ones: it is no function's work). */
export function startLocalDelivery(stores: ProvisioningStores, config: Settings): InProcessQueue | undefined {
  const signingKey = config.hookSigningKey;
  if (!signingKey) return undefined;
  return processSingleton("localDelivery", () => {
    // The queue hands each message to deliver, whose retries go back to the same queue.
    const queue: InProcessQueue = new InProcessQueue((message) => deliver(deps, message));
    const deps = deliveryDepsOf(stores, signingKey, config.hookRetrySeconds, queue, config.hookTargets);
    const scope = new AsyncResource("LocalEventFeed");
    const queueForHooks = (events: Parameters<typeof fanOut>[1], tries: number): void => {
      fanOut(deps, events).catch((error) => {
        logLine({ level: "warn", msg: "events not queued for their hooks yet", tries, error: (error as Error).message });
        if (tries < 10) setTimeout(() => queueForHooks(events, tries + 1), REDELIVER_MS * tries).unref();
      });
    };
    onEventsCommitted((events) => scope.runInAsyncScope(() => queueForHooks(events, 1)));
    return queue;
  });
}
