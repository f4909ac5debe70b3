import { createHmac } from "node:crypto";
import { ValidationError } from "../../errors";
import { EVENT_NAMES, type EventDraft, eventName, namesAnEvent } from "../events/event";
import { linearRegex } from "../rules/linearRegex";
import { checkHookTarget, type HookTargetPolicy } from "./hookTarget";

/**
 * A web hook (RackHD 2.0's `/hooks`: `{url, name?, filters?}`), with what a receiver today
 * expects on top: the events it wants by name, a signing secret per Standard Webhooks, and its
 * state (a hook that fails for a day is disabled and says why).
 */
export interface Hook {
  id: string;
  url: string;
  name?: string;
  /** RackHD's filters: OR across the objects, AND within one, each value a regular expression on a top-level key of the envelope. */
  filters: Record<string, string>[];
  /** Event names (`graph.finished`, `node.*`, `*`) it wants; none given = every event, as RackHD's hooks had. */
  events: string[];
  /** The signing secret is derived from the service's key and this generation (never stored, see secretOf). */
  secretGeneration: number;
  /** Until when the previous generation's signature is sent too (after a rotation: a day). */
  previousSecretUntil?: string;
  /** Since when every delivery to it failed (cleared by one that succeeds). */
  failingSince?: string;
  disabledAt?: string;
  disabledReason?: string;
  createdAt: string;
  updatedAt: string;
}

/** What the API answers for a hook: everything but the secret's generation. */
export type HookView = Omit<Hook, "secretGeneration" | "previousSecretUntil"> & { secretRotating: boolean };

export const HOOK_LIMITS = { filters: 20, filterKeys: 10, patternChars: 200, events: 50, nameChars: 200, urlChars: 2048 } as const;

/** How long a rotated-out secret still signs (both signatures are sent). */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

export function viewHook(hook: Hook, now: Date): HookView {
  const { secretGeneration: _generation, previousSecretUntil, ...view } = hook;
  return { ...view, secretRotating: previousSecretUntil !== undefined && previousSecretUntil > now.toISOString() };
}

/**
 * A URL a hook may post to: http or https, absolute, no credentials in it (they would be
 * answered), and a target the stage allows (hookTarget.ts).
 */
export function checkHookUrl(url: unknown, policy: HookTargetPolicy): string {
  if (typeof url !== "string" || url.length > HOOK_LIMITS.urlChars) throw new ValidationError("url must be an http or https URL");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ValidationError("url must be an http or https URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new ValidationError("url must be an http or https URL");
  if (parsed.username || parsed.password)
    throw new ValidationError("url must not carry credentials: the hook's secret signs its deliveries");
  checkHookTarget(parsed, policy);
  return url;
}

/** RackHD's filters, each value compiled once here so that a bad pattern is a 400, not a failed delivery. */
export function checkFilters(filters: unknown): Record<string, string>[] {
  if (filters === undefined) return [];
  if (!Array.isArray(filters) || filters.length > HOOK_LIMITS.filters) {
    throw new ValidationError(`filters must be an array of at most ${HOOK_LIMITS.filters} objects`);
  }
  return filters.map((filter) => {
    if (!filter || typeof filter !== "object" || Array.isArray(filter) || Object.keys(filter).length > HOOK_LIMITS.filterKeys) {
      throw new ValidationError(`each filter must be an object of at most ${HOOK_LIMITS.filterKeys} keys`);
    }
    for (const [key, pattern] of Object.entries(filter)) {
      if (typeof pattern !== "string" || pattern.length > HOOK_LIMITS.patternChars) {
        throw new ValidationError(`filter ${key} must be a regular expression of at most ${HOOK_LIMITS.patternChars} characters`);
      }
      if (!linearRegex(pattern)) {
        throw new ValidationError(
          `filter ${key} is not a regular expression without back-references or look-around (RE2 syntax): ${pattern}`,
        );
      }
    }
    return filter as Record<string, string>;
  });
}

export function checkEventNames(events: unknown): string[] {
  if (events === undefined) return [];
  if (!Array.isArray(events) || events.length > HOOK_LIMITS.events || !events.every((name) => typeof name === "string")) {
    throw new ValidationError(`events must be an array of at most ${HOOK_LIMITS.events} event names (graph.finished, node.*, *)`);
  }
  const unknown = events.find((name) => !namesAnEvent(name));
  if (unknown !== undefined)
    throw new ValidationError(
      `events: ${JSON.stringify(unknown.slice(0, 64))} names no event; one of ${EVENT_NAMES.join(", ")}, a prefix of one with .* (node.*), or *`,
    );
  return events;
}

/** RackHD's filter rule (on-core hook.js): a key the event lacks fails; a value is tested as a string. */
const passes = (event: Record<string, unknown>, filter: Record<string, string>): boolean =>
  Object.entries(filter).every(([key, pattern]) => key in event && (linearRegex(pattern)?.(String(event[key])) ?? false));

const named = (name: string, wanted: string): boolean =>
  wanted === "*" || wanted === name || (wanted.endsWith(".*") && name.startsWith(wanted.slice(0, -1)));

/** Whether the hook wants the event: enabled, one of its names (or none given), and its filters. */
export function wants(hook: Hook, event: EventDraft): boolean {
  if (hook.disabledAt) return false;
  const name = eventName(event);
  if (hook.events.length > 0 && !hook.events.some((wanted) => named(name, wanted))) return false;
  // The audit trail's events go only where they are named (`audit.*`, `audit.recorded`): every
  // change makes one, and a receiver that answers events with changes must not be fed its own.
  if (event.type === "audit" && !hook.events.some((wanted) => wanted !== "*" && named(name, wanted))) return false;
  return hook.filters.length === 0 || hook.filters.some((filter) => passes(event as unknown as Record<string, unknown>, filter));
}

/**
 * The hook's signing secret of a generation, `whsec_` and 32 bytes in base64 (Standard Webhooks):
 * an HMAC of the hook's id and generation under the service's key, so that no secret is stored
 * and a rotation is a new generation. Whoever holds the service's key can sign for every hook:
 * it is kept out of the table, the logs and every answer.
 */
export function secretOf(serviceKey: string, hookId: string, generation: number): string {
  return `whsec_${createHmac("sha256", serviceKey).update(`hook:${hookId}:${generation}`).digest("base64")}`;
}

/** The secrets a delivery is signed with now: the current one, and the previous during a rotation. */
export function signingSecrets(serviceKey: string, hook: Hook, now: Date): string[] {
  const current = secretOf(serviceKey, hook.id, hook.secretGeneration);
  const rotating = hook.previousSecretUntil !== undefined && hook.previousSecretUntil > now.toISOString();
  return rotating ? [current, secretOf(serviceKey, hook.id, hook.secretGeneration - 1)] : [current];
}
