import type { ServiceEvent } from "../provisioning/events/event";

/**
 * The events a store has just committed, for whoever in this process delivers them. Deployed,
 * nobody listens: the table's stream feeds the publishing function (handlers/provisioning/events/
 * publish). Under `npm start` (serverless offline) the local dispatcher listens, standing in for
 * the stream (lib/store/localDelivery.ts). One per process, not per bundle (the stores live on
 * globalThis, see processSingleton.ts).
 */
type Listener = (events: readonly ServiceEvent[]) => void;

const SLOT = Symbol.for("lambda-tasks-provisioning.eventFeed");
const slot = globalThis as unknown as Record<symbol, Set<Listener> | undefined>;
slot[SLOT] ??= new Set<Listener>();
const listeners = slot[SLOT];

export function onEventsCommitted(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function eventsCommitted(events: readonly ServiceEvent[]): void {
  if (events.length === 0) return;
  for (const listener of listeners) listener(events);
}
