import { isoTime, name, obmSetting, obmSettingList, version } from "../fields";

/** OBM settings, the OBM library and the identify light (RackHD 1.1): schemas. */

export const ObmServiceParams = {
  type: "object",
  properties: { version, service: name },
  required: ["version", "service"],
} as const;

/** POST /nodes/{id}/obm: one `{service, config}` or an array of them. */
export const ObmSettingsBody = {
  type: ["object", "array"],
  "x-error": "OBM setting must be an object with service and config",
  if: { type: "array" },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else keyword, not a thenable.
  then: {
    type: "array",
    minItems: 1,
    maxItems: 16,
    items: obmSetting,
    "x-errors": { minItems: "At least one OBM setting is required", maxItems: "At most 16 OBM settings at a time" },
  },
  else: obmSetting,
  examples: [{ service: "noop-obm-service", config: {} }],
} as const;

/** POST /nodes/{id}/obm/identify: `{"value": …}`, any truthy value turns the light on. */
export const IdentifyBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  properties: { value: {} },
  examples: [{ value: true }],
} as const;

export const ObmSettingList = obmSettingList;

const obmService = {
  type: "object",
  properties: {
    service: { type: "string" },
    /** Each setting the service takes: its type and default. */
    config: { type: "object", additionalProperties: { type: "object", properties: { default: {}, type: { type: "string" } } } },
  },
  required: ["service", "config"],
  additionalProperties: false,
} as const;

export const ObmService = obmService;

export const ObmServiceList = { type: "array", items: obmService } as const;

/** The chassis identify light as last set. */
export const IdentifyState = {
  type: "object",
  properties: { value: { type: "boolean" }, service: { type: "string" }, requestedAt: isoTime },
  required: ["value"],
  additionalProperties: false,
} as const;
