/**
 * The provisioning schemas' building blocks: bounds, field shapes and helpers the resources' schemas
 * share. Not schemas of their own (nothing here is exported by ./schemas.ts, so none is named in the
 * API document).
 */

/** Longest node identifier, graph, template or service name accepted anywhere. */
export const NAME_MAX = 255;

export const IDENTIFIERS_MAX = 64;

export const version = { enum: ["1.1", "current", "common"] } as const;

export const name = { type: "string", minLength: 1, maxLength: NAME_MAX } as const;

/** A machine's credential in a path (`<node id>.<secret>`, provisioning/credentialToken.ts); anything else names nothing (404). */
export const credential = { type: "string", pattern: "^[0-9a-f]{24}\\.[\\w-]{43}$" } as const;

export const obmSetting = {
  type: "object",
  "x-error": "OBM setting must be an object with service and config",
  properties: {
    service: { type: "string", minLength: 1, maxLength: NAME_MAX, "x-error": "OBM setting needs a service name" },
    config: { type: "object", maxProperties: 64, "x-error": "OBM config must be an object with at most 64 keys" },
  },
  required: ["service"],
} as const;

const rule = {
  type: "object",
  properties: { path: { type: "string", maxLength: 1024 } },
  // The rule keys (equals, contains, …): the domain checks them against anchor's list.
  additionalProperties: true,
  maxProperties: 32,
} as const;

export const rules = {
  type: "array",
  maxItems: 64,
  items: rule,
  "x-error": "rules ([object]) is required: an array of at most 64 rules",
} as const;

export const isoTime = { type: "string", pattern: "^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$" } as const;

export const objectId = { type: "string", pattern: "^[0-9a-f]{24}$" } as const;

const presentedObmSetting = {
  type: "object",
  properties: { service: { type: "string" }, config: { type: "object" } },
  required: ["service", "config"],
} as const;

export const obmSettingList = { type: "array", items: presentedObmSetting } as const;

/** A route's own 404 text `{"error": text}`, or the stack's `{"message"}` for a name longer than any name. */
export const notFoundAs = <Text extends string>(text: Text) =>
  ({
    anyOf: [
      { type: "object", properties: { error: { const: text } }, required: ["error"], additionalProperties: false },
      { type: "object", properties: { message: { type: "string" } }, required: ["message"], additionalProperties: false },
    ],
  }) as const;
