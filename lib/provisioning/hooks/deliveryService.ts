import { randomUUID } from "node:crypto";
import { envelope, eventName, type ServiceEvent } from "../events/event";
import type { ProvisioningStores } from "../ports";
import type { Delivery } from "./deliveryLog";
import { type Hook, signingSecrets, wants } from "./hook";
import { delivered, retryDelaySeconds, shouldDisable } from "./retrySchedule";
import { signedHeaders } from "./signature";

/**
 * Delivering events to hooks, at least once: each (event, hook) pair is a message on a queue;
 * an attempt POSTs the event signed (Standard Webhooks), records the attempt, and on failure puts
 * the message back with the schedule's wait. The same code runs deployed (an SQS queue fed by
 * the table's stream) and locally (an in-process queue fed by the stores): only the queue differs.
 */

/** One event to one hook, one attempt. */
export interface DeliveryMessage {
  hookId: string;
  event: ServiceEvent;
  /** 1 for the first attempt. */
  attempt: number;
}

export interface DeliveryQueue {
  /** Puts the messages on the queue, each due `delaySeconds` from now. */
  send(messages: readonly DeliveryMessage[], delaySeconds: number): Promise<void>;
}

export type PostOutcome = { status: number } | { error: string };

export interface WebhookPoster {
  post(url: string, headers: Record<string, string>, body: string): Promise<PostOutcome>;
}

export interface DeliveryDeps {
  stores: Pick<ProvisioningStores, "hooks" | "deliveries">;
  queue: DeliveryQueue;
  poster: WebhookPoster;
  /** The service's key the hooks' secrets derive from (never stored with them). */
  signingKey: string;
  retrySeconds: readonly number[];
  now: () => Date;
}

/** Queues each new event for every hook that wants it (one read of the hooks for the batch). */
export async function fanOut(deps: Pick<DeliveryDeps, "stores" | "queue">, events: readonly ServiceEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const hooks = await deps.stores.hooks.list();
  const messages = events.flatMap((event) =>
    hooks.filter((hook) => wants(hook, event)).map((hook) => ({ hookId: hook.id, event, attempt: 1 })),
  );
  if (messages.length > 0) await deps.queue.send(messages, 0);
  return messages.length;
}

/** POSTs the event to the hook, signed, and says how it went; nothing is recorded. */
async function attempt(deps: DeliveryDeps, hook: Hook, event: ServiceEvent): Promise<Omit<Delivery, "attempt" | "retryAt">> {
  const started = deps.now();
  const body = JSON.stringify(envelope(event));
  const headers = {
    "content-type": "application/json",
    "user-agent": "lambda-tasks-provisioning-hooks/1.0",
    ...signedHeaders(event.id, started, body, signingSecrets(deps.signingKey, hook, started)),
  };
  const outcome = await deps.poster.post(hook.url, headers, body);
  const durationMs = deps.now().getTime() - started.getTime();
  const ok = "status" in outcome && delivered(outcome.status);
  return { hookId: hook.id, eventId: event.id, event: eventName(event), at: started.toISOString(), ok, durationMs, ...outcome };
}

/**
 * One attempt of a queued message. A hook deleted or disabled meanwhile drops it. A failure is
 * tried again after the schedule's wait, until the schedule ends; a hook whose deliveries have all
 * failed for a day is disabled (its `hook.disabled` event says so).
 */
export async function deliver(deps: DeliveryDeps, message: DeliveryMessage): Promise<Delivery | undefined> {
  const hook = await deps.stores.hooks.get(message.hookId);
  if (!hook || hook.disabledAt) return undefined;
  const result = await attempt(deps, hook, message.event);
  const now = deps.now();
  const wait = result.ok ? undefined : retryDelaySeconds(deps.retrySeconds, message.attempt);
  const disable = !result.ok && shouldDisable(hook.failingSince, now);
  const retryAt = wait !== undefined && !disable ? new Date(now.getTime() + wait * 1000).toISOString() : undefined;
  const delivery: Delivery = { ...result, attempt: message.attempt, ...(retryAt && { retryAt }) };
  await deps.stores.deliveries.record(delivery);
  await settleHook(deps, hook, result.ok, disable, now);
  if (retryAt) await deps.queue.send([{ ...message, attempt: message.attempt + 1 }], wait!);
  return delivery;
}

/** The hook's state after an attempt: written only when it changes (failing, failing no more, disabled). */
async function settleHook(deps: DeliveryDeps, hook: Hook, ok: boolean, disable: boolean, now: Date): Promise<void> {
  if (ok ? hook.failingSince === undefined : hook.failingSince !== undefined && !disable) return;
  const stamp = now.toISOString();
  await deps.stores.hooks.update(hook.id, (current) => {
    if (ok) {
      if (current.failingSince === undefined) return current;
      const { failingSince: _cleared, ...rest } = current;
      return { ...rest, updatedAt: stamp };
    }
    if (disable && !current.disabledAt) {
      return { ...current, disabledAt: stamp, disabledReason: `every delivery failed since ${current.failingSince}`, updatedAt: stamp };
    }
    return current.failingSince === undefined ? { ...current, failingSince: stamp, updatedAt: stamp } : current;
  });
}

/** A test delivery (`hook.test`), sent now, once, and recorded with the hook's deliveries. */
export async function testDelivery(deps: DeliveryDeps, hook: Hook): Promise<Delivery> {
  const now = deps.now();
  const event: ServiceEvent = {
    id: randomUUID(),
    type: "hook",
    action: "test",
    severity: "information",
    typeId: hook.id,
    nodeId: null,
    data: { hookId: hook.id, message: "A test delivery: this hook is reachable and its signature verifies" },
    version: "1.0",
    createdAt: now.toISOString(),
    subject: `hook:${hook.id}`,
    sequence: 0,
  };
  const delivery: Delivery = { ...(await attempt(deps, hook, event)), attempt: 1 };
  await deps.stores.deliveries.record(delivery);
  return delivery;
}
