import { isoTime, NAME_MAX, objectId } from "../fields";

/** The pollers (RackHD 1.1 §7): schemas. */

const pollerFields = {
  type: { enum: ["ipmi", "snmp", "redfish"], "x-error": "type must be one of ipmi, snmp, redfish" },
  name: { type: "string", maxLength: NAME_MAX, "x-error": "name must be a poller name such as Pollers.IPMI" },
  pollInterval: { type: "integer", minimum: 1, "x-error": "pollInterval (integer, milliseconds) is required" },
  node: { type: ["string", "null"], maxLength: NAME_MAX, "x-error": "node must be a node id or null" },
  config: { type: "object", maxProperties: 64, "x-error": "config must be an object" },
  paused: { type: "boolean", "x-error": "paused must be true or false" },
} as const;

/** POST /pollers (RackHD's deserializer keeps only these). */
export const PollerBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  "x-errors": { required: "pollInterval (integer, milliseconds) is required" },
  properties: pollerFields,
  required: ["pollInterval"],
  examples: [{ type: "ipmi", node: "6d981c9449891790862c36b1", pollInterval: 60000, config: { command: "sdr" } }],
} as const;

/** PATCH /pollers/{id}. */
export const PollerPatchBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  properties: pollerFields,
  examples: [{ paused: true }],
} as const;

const pollerCommon = {
  id: objectId,
  node: { type: ["string", "null"] },
  config: { type: "object" },
  pollInterval: { type: "integer", minimum: 1 },
  nextScheduled: { type: ["string", "null"] },
  lastStarted: { type: ["string", "null"] },
  lastFinished: { type: ["string", "null"] },
  leaseToken: { type: "null" },
  leaseExpires: { type: "null" },
  failureCount: { type: "integer", minimum: 0 },
  paused: { type: "boolean" },
  lastError: { type: "string" },
  createdAt: isoTime,
  updatedAt: isoTime,
} as const;

const poller = {
  type: "object",
  properties: { ...pollerCommon, type: { enum: ["ipmi", "snmp", "redfish"] } },
  required: ["id", "type", "node", "config", "pollInterval", "failureCount", "paused", "createdAt", "updatedAt"],
  additionalProperties: false,
} as const;

/** A poller as the API shows it (`type`). */
export const Poller = poller;

export const PollerList = { type: "array", items: poller } as const;

/** A poller as stored (GET /nodes/{id}/pollers: RackHD's raw work item, `name`). */
export const PollerRecordList = {
  type: "array",
  items: {
    type: "object",
    properties: { ...pollerCommon, name: { enum: ["Pollers.IPMI", "Pollers.SNMP", "Pollers.REDFISH"] } },
    required: ["id", "name", "node", "config", "pollInterval", "failureCount", "paused", "createdAt", "updatedAt"],
    additionalProperties: false,
  },
} as const;

/** A poller's samples: RackHD's result keys plus `timestamp`. */
export const PollerSampleList = {
  type: "array",
  items: { type: "object", properties: { timestamp: { type: "string" } }, required: ["timestamp"] },
} as const;

const pollerType = {
  type: "object",
  properties: { name: { type: "string" }, node: { type: "boolean" }, config: { type: "array", items: { type: "object" } } },
  required: ["name", "config"],
} as const;

export const PollerType = pollerType;

export const PollerLibrary = { type: "array", items: pollerType } as const;
