import { randomBytes } from "node:crypto";
import { ValidationError } from "../errors";

/**
 * The audit trail (issue 55): every state-changing request to the operators' APIs, and every one
 * refused for its credentials or its role, recorded once it is answered: who (the user, and the
 * token if one was used; for a failed sign-in the name it claimed), what (the registry entry's
 * action, its method and path, the node and site it was about), when, from where, and the status.
 * Never a body, a query string, a header or a secret. Append-only: nothing changes or removes a
 * record; the store lets each go after AUDIT_RETENTION_DAYS.
 */
export interface AuditRecord {
  /** `<at>#<8 random characters>`: its place in the trail, newest last. */
  id: string;
  at: string;
  /** The verified user (a token's owner), `anonymous` where no credentials are asked for, or the name a failed sign-in claimed. */
  actor: string;
  /** Whether the actor's credentials were checked (a failed sign-in's name is only what was claimed). */
  verified: boolean;
  token?: string;
  /** The registry entry's function: the action the policy knows it by. */
  action: string;
  method: string;
  path: string;
  node?: string;
  site?: string;
  sourceIp?: string;
  status: number;
}

export interface AuditTrail {
  add(record: AuditRecord): Promise<void>;
  /** One day's records (`YYYY-MM-DD`, UTC), newest first, older than `before` (a record id) when given, at most `limit`. */
  day(day: string, options: { before?: string; limit: number }): Promise<AuditRecord[]>;
}

export const DEFAULT_AUDIT_RETENTION_DAYS = 365;
/** How many days one page walks at most: a sparse filter answers in bounded time, and its `next` goes on. */
export const DAYS_PER_PAGE = 31;
export const DEFAULT_AUDIT_PAGE = 100;

export const newAuditId = (at: Date): string => `${at.toISOString()}#${randomBytes(6).toString("base64url")}`;
export const dayOf = (id: string): string => id.slice(0, 10);

let trailOf: (() => AuditTrail) | undefined;

/** The composition root names the deployment's trail (lib/store/compositionRoot.ts). */
export function useAuditTrail(factory: () => AuditTrail): void {
  trailOf = factory;
}

/** The trail: a function that never loaded the composition root fails here, by name. */
export function auditTrail(): AuditTrail {
  if (!trailOf) throw new Error("No audit trail: lib/store/compositionRoot.ts gives it (useAuditTrail) to every handler that loads it");
  return trailOf();
}

export interface AuditQuery {
  actor?: string;
  node?: string;
  site?: string;
  /** The oldest instant asked for (ISO); default a week before now. */
  since?: string;
  limit?: number;
  /** Where the last page stopped: a record id, or a day with nothing read of it yet (`YYYY-MM-DD`). */
  after?: string;
}

const ID = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z#[\w-]{8}$/;
const DAY = /^\d{4}-\d\d-\d\d$/;
const previousDay = (day: string): string => new Date(Date.parse(`${day}T00:00:00.000Z`) - 86_400_000).toISOString().slice(0, 10);

/**
 * A page of the trail, newest first, of the records that match every filter given, from `since`
 * on; `next` says where the following page starts (undefined: the trail is read to `since`).
 */
export async function readTrail(trail: AuditTrail, query: AuditQuery, now: Date): Promise<{ records: AuditRecord[]; next?: string }> {
  const since = query.since ?? new Date(now.getTime() - 7 * 86_400_000).toISOString();
  if (Number.isNaN(Date.parse(since)) || !/^\d{4}-\d\d-\d\dT/.test(since)) throw new ValidationError("since must be an ISO 8601 time");
  if (query.after !== undefined && !ID.test(query.after) && !DAY.test(query.after))
    throw new ValidationError('next is not a page token of this list: follow the Link header\'s rel="next"');
  const limit = query.limit ?? DEFAULT_AUDIT_PAGE;
  const matches = (record: AuditRecord) =>
    record.at >= since &&
    (query.actor === undefined || record.actor === query.actor) &&
    (query.node === undefined || record.node === query.node) &&
    (query.site === undefined || record.site === query.site);
  const records: AuditRecord[] = [];
  let day = query.after ? query.after.slice(0, 10) : now.toISOString().slice(0, 10);
  let before = query.after && ID.test(query.after) ? query.after : undefined;
  let walked = 0;
  while (day >= since.slice(0, 10)) {
    const batch = await trail.day(day, { before, limit });
    for (const record of batch) {
      if (record.at < since) return { records };
      if (!matches(record)) continue;
      records.push(record);
      if (records.length === limit) return { records, next: record.id };
    }
    if (batch.length === limit) {
      before = batch[batch.length - 1].id;
      continue;
    }
    day = previousDay(day);
    before = undefined;
    walked += 1;
    if (walked === DAYS_PER_PAGE && day >= since.slice(0, 10)) return { records, next: day };
  }
  return { records };
}
