/** One attempt to deliver an event to a hook, as the hook's recent deliveries show it. */
export interface Delivery {
  hookId: string;
  eventId: string;
  /** `type.action` of the event (`hook.test` for a test delivery). */
  event: string;
  attempt: number;
  at: string;
  ok: boolean;
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  /** Why it failed without an answer (time-out, refused, DNS…). */
  error?: string;
  durationMs: number;
  /** When the next attempt is due, if one is; absent after a success or the last attempt. */
  retryAt?: string;
}

/** Each hook's recent delivery attempts (kept a week). */
export interface DeliveryLog {
  record(delivery: Delivery): Promise<void>;
  /** The hook's latest attempts, newest first. */
  recent(hookId: string, limit: number): Promise<Delivery[]>;
}

export const DELIVERY_RETENTION_DAYS = 7;
export const DELIVERIES_PAGE_LIMIT = 100;
