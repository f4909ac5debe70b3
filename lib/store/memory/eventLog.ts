import { randomUUID } from "node:crypto";
import { type EventDraft, type ServiceEvent, subjectOf } from "../../provisioning/events/event";
import type { ChangeEvents, EventLog } from "../../provisioning/events/eventLog";
import { eventsCommitted } from "../eventFeed";
import { overriding } from "../overriding";

/**
 * Each subject's events in this container's memory: the last `perSubject` of each are kept (the
 * memory store is for one machine's trials, not a fleet's history).
 */
export class MemoryEventLog implements EventLog {
  private readonly bySubject = new Map<string, { next: number; events: ServiceEvent[] }>();

  constructor(private readonly perSubject = 1000) {}

  async list(subject: string, options: { after?: number; limit?: number } = {}): Promise<ServiceEvent[]> {
    const after = options.after ?? 0;
    const events = (this.bySubject.get(subject)?.events ?? []).filter((event) => event.sequence > after);
    return events.slice(0, options.limit ?? events.length);
  }

  /** Numbers and keeps the drafts, in the same step as the change that made them (no await between). */
  append(drafts: readonly EventDraft[], now: Date): ServiceEvent[] {
    const events = drafts.map((draft) => {
      const subject = subjectOf(draft);
      const kept = this.bySubject.get(subject) ?? { next: 1, events: [] };
      this.bySubject.set(subject, kept);
      const event: ServiceEvent = {
        ...draft,
        id: randomUUID(),
        version: "1.0",
        createdAt: now.toISOString(),
        subject,
        sequence: kept.next++,
      };
      kept.events.push(event);
      if (kept.events.length > this.perSubject) kept.events.shift();
      return event;
    });
    eventsCommitted(events);
    return events;
  }
}

/** The write methods of a store whose changes make events. */
interface Writable<T> {
  create(record: T): Promise<T>;
  update(id: string, change: (current: T) => T, ...rest: never[]): Promise<T | undefined>;
  delete?(id: string, ...rest: never[]): Promise<T | undefined>;
}

/**
 * `store` recording the events its writes make. A memory store's write is one synchronous step
 * after its awaited call returns, and nothing of either outlives the process: the change and its
 * events are kept or lost together.
 */
export function journaledMemory<T, S extends Writable<T>>(store: S, changeEvents: ChangeEvents<T>, log: MemoryEventLog): S {
  const record = (before: T | undefined, after: T | undefined) => log.append(changeEvents(before, after), new Date());
  return overriding<Writable<T>>(store, {
    create: async (value: T) => {
      const created = await store.create(value);
      record(undefined, created);
      return created;
    },
    update: async (id: string, change: (current: T) => T, ...rest: never[]) => {
      let before: T | undefined;
      const after = await store.update(
        id,
        (current) => {
          before = current;
          return change(current);
        },
        ...rest,
      );
      if (after !== undefined && after !== before) record(before, after);
      return after;
    },
    delete: async (id: string, ...rest: never[]) => {
      const deleted = await store.delete?.(id, ...rest);
      if (deleted !== undefined) record(deleted, undefined);
      return deleted;
    },
  }) as S;
}
