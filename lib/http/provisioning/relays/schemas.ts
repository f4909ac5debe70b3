import { JOB_KINDS } from "../../../wire/relay";
import { name as id, isoTime, version } from "../fields";

/**
 * Sites, relays and their work: this service's own routes (RackHD had none; they live beside its
 * routes under /api/1.1): schemas.
 */

const siteName = {
  type: "string",
  pattern: "^[\\w .:-]{1,64}$",
  "x-error": "name must be 1 to 64 letters, digits, spaces, '.', ':', '_' or '-'",
} as const;

export const SiteParams = { type: "object", properties: { version, id }, required: ["version", "id"] } as const;
export const SiteRelayParams = {
  type: "object",
  properties: { version, id, relayId: id },
  required: ["version", "id", "relayId"],
} as const;
export const JobParams = { type: "object", properties: { version, id }, required: ["version", "id"] } as const;

/** POST /sites. */
export const SiteBody = {
  type: "object",
  "x-error": "Body must be a JSON object with a name",
  properties: { name: siteName },
  required: ["name"],
  additionalProperties: false,
  examples: [{ name: "rack-room-1" }],
} as const;

/** POST /sites/{id}/relays: a name for the credential (which relay host holds it). */
export const RelayBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  properties: { name: siteName },
  additionalProperties: false,
  examples: [{ name: "relay-a" }],
} as const;

/** PUT /nodes/{id}/site: a site's id, or null to take the node out of its site. */
export const NodeSiteBody = {
  type: "object",
  "x-error": "Body must be a JSON object with site (a site's id, or null)",
  properties: { site: { oneOf: [id, { type: "null" }], "x-error": "site must be a site's id or null" } },
  required: ["site"],
  additionalProperties: false,
  examples: [{ site: "65f0c0ffee0123456789abcd" }],
} as const;

/** POST /nodes/{id}/power: one of a power action, a one-time boot device, or the identify light. */
export const NodeActionBody = {
  type: "object",
  "x-error": "Body must be a JSON object: {action}, {device, uefi?} or {identify}",
  properties: {
    action: {
      enum: ["on", "off", "cycle", "reset", "soft", "status", "reboot"],
      "x-error": "action must be on, off, cycle, reset, soft, status or reboot",
    },
    device: { enum: ["pxe", "disk", "http"], "x-error": "device must be pxe, disk or http" },
    uefi: { type: "boolean", "x-error": "uefi must be true or false" },
    uri: {
      type: "string",
      maxLength: 1024,
      pattern: "^https?://",
      "x-error": "uri must be an http(s) URL of at most 1024 characters (the UEFI HTTP boot file)",
    },
    identify: { type: "boolean", "x-error": "identify must be true or false" },
  },
  additionalProperties: false,
  examples: [
    { action: "reboot" },
    { device: "pxe", uefi: true },
    { device: "http", uri: "http://10.1.0.2:8080/snponly.efi" },
    { identify: true },
  ],
} as const;

/** POST /relay/jobs/lease: how many jobs the relay takes at most, and what it is. */
export const LeaseBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  properties: {
    max: { type: "integer", minimum: 1, maximum: 8, "x-error": "max must be an integer from 1 to 8" },
    version: { type: "string", maxLength: 64, "x-error": "version must be a string of at most 64 characters" },
  },
  additionalProperties: false,
  examples: [{ max: 4, version: "0.1.0" }],
} as const;

/** POST /relay/jobs/{id}/acting: the lease the relay holds. */
export const ActingBody = {
  type: "object",
  "x-error": "Body must be a JSON object with leaseId",
  properties: { leaseId: { type: "string", minLength: 1, maxLength: 64, "x-error": "leaseId (string) is required" } },
  required: ["leaseId"],
  additionalProperties: false,
  examples: [{ leaseId: "5c1f…" }],
} as const;

/** POST /relay/jobs/{id}/result. */
export const JobResultBody = {
  type: "object",
  "x-error": "Body must be a JSON object with leaseId, ok and output",
  properties: {
    leaseId: { type: "string", minLength: 1, maxLength: 64, "x-error": "leaseId (string) is required" },
    ok: { type: "boolean", "x-error": "ok (boolean) is required" },
    output: { type: "string", maxLength: 65_536, "x-error": "output must be a string of at most 65536 characters" },
    error: { type: "string", maxLength: 4_096, "x-error": "error must be a string of at most 4096 characters" },
  },
  required: ["leaseId", "ok", "output"],
  additionalProperties: false,
  examples: [{ leaseId: "5c1f…", ok: true, output: "Chassis Power is on" }],
} as const;

const site = {
  type: "object",
  properties: { id: { type: "string" }, name: { type: "string" }, createdAt: isoTime, updatedAt: isoTime },
  required: ["id", "name", "createdAt", "updatedAt"],
  additionalProperties: false,
} as const;
export const Site = site;
export const SiteList = { type: "array", items: site } as const;

const credentialProperties = {
  id: { type: "string" },
  site: { type: "string" },
  name: { type: "string" },
  createdAt: isoTime,
  lastSeenAt: isoTime,
  relayVersion: { type: "string" },
  /** While the relay holds its push connection (issue 56): when it connected or last pinged. */
  pushedAt: {
    ...isoTime,
    description: "While the relay holds its push connection: when it connected or last pinged (it then polls only now and then)",
  },
  online: { type: "boolean" },
} as const;
const credential = {
  type: "object",
  properties: credentialProperties,
  required: ["id", "site", "name", "createdAt", "online"],
  additionalProperties: false,
} as const;
export const RelayCredential = credential;
export const RelayCredentialList = { type: "array", items: credential } as const;
/** The token is in this answer only: the service keeps its hash. */
export const NewRelayCredential = {
  type: "object",
  properties: { ...credentialProperties, token: { type: "string" } },
  required: ["id", "site", "name", "createdAt", "online", "token"],
  additionalProperties: false,
} as const;

const jobAction = {
  type: "object",
  properties: { kind: { enum: JOB_KINDS } },
  required: ["kind"],
} as const;
/** What a relay reported (or, from `service`, why the service failed the job). */
const jobResult = {
  type: "object",
  properties: { ok: { type: "boolean" }, output: { type: "string" }, error: { type: "string" }, relay: { type: "string" }, at: isoTime },
  required: ["ok", "output", "relay", "at"],
} as const;
const jobProperties = {
  id: { type: "string" },
  site: { type: "string" },
  node: { type: "string" },
  action: jobAction,
  task: { type: "object", properties: { workflow: { type: "string" }, taskId: { type: "string" } }, required: ["workflow", "taskId"] },
  requestedBy: { type: "string" },
  state: { enum: ["queued", "leased", "succeeded", "failed"] },
  createdAt: isoTime,
  updatedAt: isoTime,
  deadline: isoTime,
  lease: {
    type: "object",
    properties: { id: { type: "string" }, relay: { type: "string" }, until: isoTime },
    required: ["id", "relay", "until"],
  },
  actingSince: isoTime,
  attempts: { type: "integer" },
  pastLeases: { type: "array", items: { type: "string" } },
  result: jobResult,
  lateResult: jobResult,
} as const;
const jobRequired = [
  "id",
  "site",
  "node",
  "action",
  "obm",
  "requestedBy",
  "state",
  "createdAt",
  "updatedAt",
  "deadline",
  "attempts",
] as const;
/** A job as an operator sees it: the OBM service, never its credentials. */
const job = {
  type: "object",
  properties: {
    ...jobProperties,
    obm: { type: "object", properties: { service: { type: "string" } }, required: ["service"], additionalProperties: false },
  },
  required: jobRequired,
  additionalProperties: false,
} as const;
export const RelayJob = job;
export const RelayJobList = { type: "array", items: job } as const;
/** Jobs as the site's relay gets them: with the OBM setting it drives the BMC with. */
export const LeasedJobList = {
  type: "array",
  items: {
    type: "object",
    properties: {
      ...jobProperties,
      obm: { type: "object", properties: { service: { type: "string" }, config: { type: "object" } }, required: ["service", "config"] },
    },
    required: [...jobRequired, "lease"],
    additionalProperties: false,
  },
} as const;
