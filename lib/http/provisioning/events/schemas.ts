import { queryValues } from "../../schemas/common";
import { isoTime } from "../fields";

/** The service's events (RackHD's envelope, with an id and a per-node sequence): schemas. */

/** `?after=` (a sequence: the events after it) and `?limit=` on a node's or a workflow's events. */
export const EventsQuery = {
  type: "object",
  maxProperties: 64,
  properties: {
    after: {
      type: "array",
      maxItems: 1,
      items: { type: "string", pattern: "^\\d{1,12}$" },
      "x-error": "after must be one sequence number (0 or more)",
    },
    limit: {
      type: "array",
      maxItems: 1,
      items: { type: "string", pattern: "^([1-9]\\d?|[1-4]\\d\\d|500)$" },
      "x-error": "limit must be one number, 1 to 500",
    },
  },
  additionalProperties: queryValues,
} as const;

const event = {
  type: "object",
  properties: {
    id: { type: "string", description: "The same in every delivery of the event (Standard Webhooks' webhook-id)" },
    type: { type: "string", description: "node, graph, install, power, hook" },
    action: {
      type: "string",
      description:
        "added, removed, discovered, sku.assigned, started, finished, progress.updated, progress, firstboot.finished, succeeded, failed, disabled…",
    },
    severity: { enum: ["information", "warning", "critical"] },
    typeId: { type: "string" },
    nodeId: { type: ["string", "null"] },
    data: { type: "object" },
    version: { const: "1.0" },
    createdAt: isoTime,
    sequence: { type: "integer", minimum: 0, description: "1, 2, 3… for the node's events in the order they were written" },
  },
  required: ["id", "type", "action", "severity", "typeId", "nodeId", "data", "version", "createdAt", "sequence"],
} as const;

export const Event = event;
export const EventList = { type: "array", items: event } as const;
