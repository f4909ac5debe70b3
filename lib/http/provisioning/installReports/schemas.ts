import { credential, isoTime, objectId, version } from "../fields";
import { WorkflowFailure } from "../workflows/schemas";

/** Install reports, logs and the timeline: schemas. */

const logName = {
  type: "string",
  pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$",
  "x-error": "A log's name is 1 to 64 letters, digits, '.', '_' or '-'",
} as const;

/** The machine's credential, as its seed URL and its kernel line carry it. */
export const ReportParams = {
  type: "object",
  properties: { version, credential },
  required: ["version", "credential"],
} as const;

/** One event in cloud-init's webhook format (checked in full by the domain, which names each wrong field). */
export const ReportEvent = {
  type: "object",
  "x-error": "A report is a JSON object in cloud-init's webhook format",
  properties: {
    event_type: { enum: ["start", "progress", "finish"] },
    name: { type: "string" },
    description: { type: "string" },
    origin: { type: "string" },
    timestamp: { type: "number" },
    result: { enum: ["SUCCESS", "WARN", "FAIL", ""] },
    files: { type: "array", items: { type: "object" } },
    /** This service's own: the installed system's NICs and their addresses (its vendor-data's script sends them on its first boot). */
    addresses: { type: "array", items: { type: "object" } },
  },
  examples: [
    {
      event_type: "finish",
      name: "modules-final",
      description: "running modules for final",
      origin: "cloudinit",
      timestamp: 1764000000.5,
      result: "SUCCESS",
    },
  ],
} as const;

export const ReportReceipt = {
  type: "object",
  properties: {
    accepted: { const: true },
    events: { type: "integer", minimum: 1 },
    workflow: { type: "object", properties: { id: { type: "string" }, status: { type: "string" } }, required: ["id", "status"] },
  },
  required: ["accepted", "events"],
  additionalProperties: false,
} as const;

export const LogChunkParams = {
  type: "object",
  properties: { version, credential, name: logName },
  required: ["version", "credential", "name"],
} as const;

const count = (max: string) => ({ type: "array", maxItems: 1, items: { type: "string", pattern: max } }) as const;

/** `seq`: the chunk's number, from 1; `size`: with no body, the size of a chunk to upload by a presigned URL. */
export const LogChunkQuery = {
  type: "object",
  maxProperties: 64,
  "x-error": "A log chunk needs ?seq= (1 to 100000), and ?size= (bytes) only with no body",
  properties: { seq: count("^([1-9][0-9]{0,4}|100000)$"), size: count("^(0|[1-9][0-9]{0,9})$") },
  required: ["seq"],
} as const;

export const LogChunkReceipt = {
  type: "object",
  properties: {
    name: { type: "string" },
    seq: { type: "integer", minimum: 1 },
    bytes: { type: "integer", minimum: 0 },
    duplicate: { type: "boolean" },
  },
  required: ["name", "seq", "bytes", "duplicate"],
  additionalProperties: false,
} as const;

export const LogRedirect = {
  type: "object",
  properties: { uploadUrl: { type: "string" }, expiresIn: { type: "integer" } },
} as const;

export const InstallLogParams = {
  type: "object",
  properties: { version, identifier: { type: "string", minLength: 1, maxLength: 255 }, name: logName },
  required: ["version", "identifier", "name"],
} as const;

export const InstallLogQuery = {
  type: "object",
  maxProperties: 64,
  "x-error": "?seq= is a part's number (1 to 100000)",
  properties: { seq: count("^([1-9][0-9]{0,4}|100000)$") },
} as const;

/** A log's text (as the machine sent it). */
export const InstallLogText = { type: "string" } as const;

/** What the node's machine did and when (installReports/timeline.ts). */
export const Timeline = {
  type: "object",
  properties: {
    node: objectId,
    instanceId: { type: "string" },
    workflow: {
      type: "object",
      properties: {
        id: { type: "string" },
        name: { type: "string" },
        injectableName: { type: "string" },
        status: { type: "string" },
        failure: WorkflowFailure,
      },
      required: ["id", "name", "injectableName", "status"],
      additionalProperties: false,
    },
    entries: {
      type: "array",
      items: {
        type: "object",
        properties: {
          at: isoTime,
          source: { enum: ["service", "machine"] },
          what: { type: "string" },
          task: { type: "string" },
          event: { type: "object" },
        },
        required: ["at", "source", "what"],
        additionalProperties: false,
      },
    },
    eventsDropped: { type: "integer", minimum: 0 },
    logs: {
      type: "array",
      items: {
        type: "object",
        properties: { name: { type: "string" }, parts: { type: "integer" }, bytes: { type: "integer" }, path: { type: "string" } },
        required: ["name", "parts", "bytes", "path"],
        additionalProperties: false,
      },
    },
  },
  required: ["node", "entries", "eventsDropped", "logs"],
  additionalProperties: false,
} as const;
