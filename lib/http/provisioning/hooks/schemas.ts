import { name as id, isoTime } from "../fields";

/**
 * Web hooks (RackHD 2.0's `/hooks`: `{url, name?, filters?}`), with the event names a hook wants,
 * its signing secret (answered once) and its recent deliveries: schemas. The domain checks the
 * same bounds again (hooks/hook.ts), with the filters' patterns compiled.
 */

/** RackHD's hooks are under /api/2.0; the service's other versions name them too. */
const hooksVersion = { enum: ["2.0", "1.1", "current", "common"] } as const;

export const HooksParams = { type: "object", properties: { version: hooksVersion }, required: ["version"] } as const;
export const HookParams = { type: "object", properties: { version: hooksVersion, id }, required: ["version", "id"] } as const;

const url = { type: "string", minLength: 1, maxLength: 2048, "x-error": "url must be an http or https URL" } as const;
const hookName = { type: "string", maxLength: 200, "x-error": "name must be a string of at most 200 characters" } as const;
const filters = {
  type: "array",
  maxItems: 20,
  "x-error": "filters must be an array of at most 20 objects of regular expressions",
  items: { type: "object", maxProperties: 10, additionalProperties: { type: "string", maxLength: 200 } },
} as const;
const events = {
  type: "array",
  maxItems: 50,
  "x-error": "events must be an array of at most 50 event names (graph.finished, node.*, *)",
  items: { type: "string", maxLength: 100 },
} as const;

/** POST /hooks (RackHD's HookPost, and `events`). */
export const HookBody = {
  type: "object",
  "x-error": "Body must be a JSON object with a url",
  properties: { url, name: hookName, filters, events },
  required: ["url"],
  additionalProperties: false,
  examples: [{ url: "https://receiver.example/rackhd", name: "installs", events: ["graph.finished", "node.discovered"] }],
} as const;

/** PATCH /hooks/{id}: any of the fields, and `enabled: true` to take a disabled hook back. */
export const HookPatchBody = {
  type: "object",
  "x-error": "Body must be a JSON object of url, name, filters, events or enabled",
  properties: { url, name: hookName, filters, events, enabled: { const: true, "x-error": "enabled may only be true" } },
  additionalProperties: false,
  examples: [{ events: ["graph.*"] }, { enabled: true }],
} as const;

const hook = {
  type: "object",
  properties: {
    id,
    url: { type: "string" },
    name: { type: "string" },
    filters: { type: "array", items: { type: "object", additionalProperties: { type: "string" } } },
    events: { type: "array", items: { type: "string" } },
    secretRotating: {
      type: "boolean",
      description: "Deliveries carry a second signature, by the previous secret, until a day after the rotation",
    },
    failingSince: { ...isoTime, description: "Every delivery failed since then (cleared by one that succeeds)" },
    disabledAt: {
      ...isoTime,
      description: "The service disabled the hook: its deliveries failed for a day (PATCH enabled: true takes it back)",
    },
    disabledReason: { type: "string" },
    createdAt: isoTime,
    updatedAt: isoTime,
  },
  required: ["id", "url", "filters", "events", "secretRotating", "createdAt", "updatedAt"],
} as const;

export const Hook = hook;
export const HookList = { type: "array", items: hook } as const;
/** A hook with its signing secret: the answer of its creation and of each rotation, and no other. */
export const HookWithSecret = {
  ...hook,
  properties: {
    ...hook.properties,
    secret: {
      type: "string",
      pattern: "^whsec_",
      description: "Standard Webhooks' secret: verify each delivery's webhook-signature with it",
    },
  },
  required: [...hook.required, "secret"],
} as const;

const delivery = {
  type: "object",
  properties: {
    hookId: id,
    eventId: { type: "string" },
    event: { type: "string", description: "The event's type.action (hook.test for a test delivery)" },
    attempt: { type: "integer", minimum: 1 },
    at: isoTime,
    ok: { type: "boolean" },
    status: { type: "integer", description: "The receiver's HTTP status" },
    error: { type: "string", description: "Why no answer came (timed out, ECONNREFUSED…)" },
    durationMs: { type: "number" },
    retryAt: { ...isoTime, description: "When the next attempt is due" },
  },
  required: ["hookId", "eventId", "event", "attempt", "at", "ok", "durationMs"],
} as const;

export const Delivery = delivery;
export const DeliveryList = { type: "array", items: delivery } as const;
