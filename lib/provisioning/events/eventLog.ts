import type { EventDraft, ServiceEvent } from "./event";

/** The events a subject (a node, a hook) has had, numbered in the order they were written. */
export interface EventLog {
  /** The subject's events after sequence `after` (0: from the first), oldest first, at most `limit`. */
  list(subject: string, options?: { after?: number; limit?: number }): Promise<ServiceEvent[]>;
}

/** The stores whose changes make events, and how (changeEvents.ts). */
export type ChangeEvents<T> = (before: T | undefined, after: T | undefined) => EventDraft[];

/** The most one page of a subject's events holds. */
export const EVENT_PAGE_LIMIT = 500;
