import { isoTime, version } from "../fields";

/** The audit trail (issue 55; docs/team.md): schemas. */

export const AuditParams = { type: "object", properties: { version }, required: ["version"] } as const;

const filter = { type: "array", maxItems: 1, items: { type: "string", minLength: 1, maxLength: 200 } } as const;

/** GET /audit's query: every filter is optional; `next` is the Link header's. */
export const AuditQuery = {
  type: "object",
  "x-error": "The audit trail's query takes actor, node, site, since (ISO 8601), limit (1 to 1000) and next, once each",
  properties: {
    actor: filter,
    node: filter,
    site: filter,
    since: { type: "array", maxItems: 1, items: { type: "string", maxLength: 40 } },
    limit: { type: "array", maxItems: 1, items: { type: "string", pattern: "^(?:[1-9]\\d{0,2}|1000)$" } },
    next: { type: "array", maxItems: 1, items: { type: "string", maxLength: 64 } },
  },
  additionalProperties: false,
} as const;

const record = {
  type: "object",
  properties: {
    id: { type: "string" },
    at: isoTime,
    actor: { type: "string", description: "The verified user (a token's owner), anonymous, or the name a failed sign-in claimed" },
    verified: { type: "boolean", description: "Whether the actor's credentials were checked" },
    token: { type: "string", description: "The API token's id, when one was used" },
    action: { type: "string", description: "The registry entry's function" },
    method: { type: "string" },
    path: { type: "string" },
    node: { type: "string" },
    site: { type: "string" },
    sourceIp: { type: "string" },
    status: { type: "integer" },
  },
  required: ["id", "at", "actor", "verified", "action", "method", "path", "status"],
  additionalProperties: false,
} as const;

export const AuditList = { type: "array", items: record } as const;
