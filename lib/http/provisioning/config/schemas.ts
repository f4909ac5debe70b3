/** The service's config and versions (RackHD 1.1): schemas. */

/** PATCH /config: top-level keys to set. */
export const ConfigPatchBody = {
  type: "object",
  "x-error": "Body must be a JSON object of config keys",
  maxProperties: 64,
  examples: [{ logColorEnable: true }],
} as const;

/** GET /config: the service's config (secrets redacted). */
export const ServiceConfig = {
  type: "object",
  properties: {
    apiServerAddress: { type: "string" },
    apiServerPort: { type: "integer" },
    httpEndpoints: { type: "array" },
    PATH: { type: "string" },
    amqp: { type: "null" },
    mongo: { type: "null" },
    broadcastaddr: { type: "null" },
    subnetmask: { type: "null" },
  },
  // The keys FIT checks (amqp, mongo, broadcastaddr, subnetmask are null here: no such servers).
  required: ["apiServerAddress", "apiServerPort", "httpEndpoints", "PATH", "amqp", "mongo", "broadcastaddr", "subnetmask"],
  additionalProperties: true,
} as const;

/** GET /versions. */
export const VersionList = {
  type: "array",
  items: {
    type: "object",
    properties: { package: { type: "string" }, version: { type: "string" } },
    required: ["package", "version"],
    additionalProperties: false,
  },
} as const;
