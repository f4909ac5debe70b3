import { IPV4_CIDR_PATTERN, IPV4_PATTERN, NAMESERVERS_MAX } from "../../../provisioning/boot/virtualMedia";
import { ACTIONS, PROVISION_STATES } from "../../../provisioning/nodes/provisionState";
import { IDENTIFIERS_MAX, isoTime, NAME_MAX, objectId, obmSetting, obmSettingList } from "../fields";
import { NODE_TAGS_MAX } from "../tags/schemas";
import { Workflow, WorkflowFailure } from "../workflows/schemas";

/** Nodes and their SSH settings (RackHD 1.1 §2.1): schemas. */

const nodeFields = {
  name: {
    type: "string",
    minLength: 1,
    maxLength: NAME_MAX,
    "x-error": "JSON Schema Violation: name must be a non-empty string of at most 255 characters",
  },
  type: {
    enum: ["compute", "switch", "dae", "pdu", "mgmt", "enclosure"],
    "x-error": "JSON Schema Violation: type must be one of compute, switch, dae, pdu, mgmt, enclosure",
  },
  identifiers: {
    type: "array",
    maxItems: IDENTIFIERS_MAX,
    items: { type: "string", minLength: 1, maxLength: NAME_MAX },
    "x-error": "JSON Schema Violation: identifiers must be an array of at most 64 strings of 1 to 255 characters",
  },
  autoDiscover: {
    // RackHD's clients (FIT) send the strings "true"/"false"; RackHD took them.
    anyOf: [{ type: "boolean" }, { enum: ["true", "false"] }],
    "x-error": "JSON Schema Violation: autoDiscover must be a boolean",
  },
  obmSettings: {
    type: "array",
    maxItems: 16,
    items: obmSetting,
    "x-error": "JSON Schema Violation: obmSettings must be an array of at most 16 settings",
  },
  tags: {
    type: "array",
    maxItems: NODE_TAGS_MAX,
    items: { type: "string", minLength: 1, maxLength: NAME_MAX },
    "x-error": `JSON Schema Violation: tags must be an array of at most ${NODE_TAGS_MAX} names of 1 to 255 characters`,
  },
  relations: { type: "array", maxItems: 256, "x-error": "JSON Schema Violation: relations must be an array of at most 256 entries" },
  sku: { type: ["string", "null"], maxLength: NAME_MAX, "x-error": "JSON Schema Violation: sku must be a string or null" },
  /** The network loader its firmware is handed when it boots by UEFI through its site's relay (docs/boot.md, Secure Boot). */
  bootLoader: { enum: ["ipxe", "grub"], "x-error": "JSON Schema Violation: bootLoader must be ipxe or grub" },
  /** Boot through the Redfish BMC's virtual CD where a workflow boots PXE (docs/lifecycle.md); null: PXE. */
  virtualMedia: {
    type: ["object", "null"],
    properties: {
      address: { type: "string", pattern: IPV4_CIDR_PATTERN },
      gateway: { type: "string", pattern: IPV4_PATTERN },
      nameservers: { type: "array", maxItems: NAMESERVERS_MAX, items: { type: "string", pattern: IPV4_PATTERN } },
    },
    additionalProperties: false,
    "x-error":
      'JSON Schema Violation: virtualMedia must be null, or an object with an optional address ("10.77.0.20/24"), gateway and at most 3 nameservers (IPv4)',
  },
} as const;

/** PATCH /nodes/{id}: any subset; a whole node echoed back is accepted (id and times are ignored). */
export const NodePatchBody = {
  type: "object",
  "x-error": "JSON Schema Violation: body must be a JSON object",
  properties: nodeFields,
} as const;

/** POST /nodes: the fields of a PATCH with `name` required; a client may choose the id. */
export const NewNodeBody = {
  type: "object",
  "x-error": "JSON Schema Violation: body must be a JSON object",
  "x-errors": { required: "JSON Schema Violation: name is required" },
  allOf: [NodePatchBody],
  properties: {
    id: { type: "string", pattern: "^[0-9a-fA-F]{24}$", "x-error": "JSON Schema Violation: id must be 24 hexadecimal characters" },
  },
  required: ["name"],
} as const;

/** POST /nodes/{id}/ssh (RackHD's V1.Ssh); the domain checks what it needs, with RackHD's text. */
export const SshBody = {
  type: "object",
  "x-error": "Invalid SSH body",
  properties: {
    host: { type: "string", maxLength: NAME_MAX, "x-error": "Invalid SSH body" },
    user: { type: "string", maxLength: NAME_MAX, "x-error": "Invalid SSH body" },
    password: { type: "string", maxLength: 1024, "x-error": "Invalid SSH body" },
    privateKey: { type: "string", maxLength: 16384, "x-error": "Invalid SSH body" },
    publicKey: { type: "string", maxLength: 16384, "x-error": "Invalid SSH body" },
  },
  examples: [{ host: "172.31.128.9", user: "root", password: "RackHDRocks!" }],
} as const;

const provisioning = {
  type: "object",
  properties: {
    action: { enum: ACTIONS },
    operation: { type: "string" },
    workflowId: { type: "string" },
    updatedAt: isoTime,
    owner: { type: "string" },
    purpose: { type: "string" },
    deploy: { type: "object", properties: { graph: { type: "string" }, options: { type: "object" } }, required: ["graph", "options"] },
    lastError: {
      type: "object",
      properties: {
        action: { enum: ACTIONS },
        workflowId: { type: "string" },
        task: { type: "string" },
        reason: WorkflowFailure.properties.reason,
        message: { type: "string" },
        at: isoTime,
      },
      required: ["action", "workflowId", "task", "reason", "message", "at"],
    },
  },
  required: ["updatedAt"],
  additionalProperties: false,
} as const;

const node = {
  type: "object",
  properties: {
    /** Where the node is in its life (docs/lifecycle.md); moved only by its actions. */
    provisionState: { enum: PROVISION_STATES },
    provisioning,
    id: objectId,
    name: { type: "string" },
    identifiers: { type: "array", items: { type: "string" } },
    type: { enum: ["compute", "switch", "dae", "pdu", "mgmt", "enclosure"] },
    obmSettings: obmSettingList,
    autoDiscover: { type: "boolean" },
    sku: { type: ["string", "null"] },
    relations: { type: "array" },
    tags: { type: "array", items: { type: "string" } },
    workflows: { type: "array" },
    catalogs: { type: "array" },
    /** The site whose relays drive its BMC (PUT /nodes/{id}/site). */
    site: { type: "string" },
    /** The power state a relay last read, and when. */
    power: { type: "object", properties: { state: { enum: ["on", "off"] }, readAt: isoTime }, required: ["state", "readAt"] },
    bootLoader: { enum: ["ipxe", "grub"] },
    virtualMedia: nodeFields.virtualMedia,
    /** Whether its firmware booted the microkernel with Secure Boot on (its `secure-boot` catalog, mokutil --sb-state), and when. */
    secureBoot: {
      type: "object",
      properties: { state: { enum: ["enabled", "disabled", "unsupported"] }, reportedAt: isoTime },
      required: ["state", "reportedAt"],
    },
    /** The installed system's addresses per NIC, as its first boot reported them, and when (how to reach it). */
    addresses: {
      type: "object",
      properties: {
        nics: {
          type: "array",
          items: {
            type: "object",
            properties: { name: { type: "string" }, mac: { type: "string" }, addresses: { type: "array", items: { type: "string" } } },
            required: ["name", "mac", "addresses"],
          },
        },
        source: { const: "installed-system" },
        reportedAt: isoTime,
      },
      required: ["nics", "source", "reportedAt"],
    },
    /** A BMC discovery found already another node's: not given to this one (the operator decides). */
    obmConflict: {
      type: "object",
      properties: { host: { type: "string" }, mac: { type: "string" }, heldBy: { type: "string" }, at: isoTime },
      required: ["host", "heldBy", "at"],
    },
    createdAt: isoTime,
    updatedAt: isoTime,
  },
  required: [
    "id",
    "name",
    "identifiers",
    "type",
    "obmSettings",
    "autoDiscover",
    "sku",
    "relations",
    "tags",
    "provisionState",
    "createdAt",
    "updatedAt",
  ],
} as const;

export const Node = node;

/** POST /nodes/{identifier}/actions: an action and its options (each action checks its own). */
export const ProvisionActionBody = {
  type: "object",
  "x-error": `Body must be a JSON object with an action (${ACTIONS.join(", ")}) and its options`,
  properties: {
    action: { enum: ACTIONS, "x-error": `action must be one of ${ACTIONS.join(", ")}` },
    options: {
      type: "object",
      maxProperties: 8,
      "x-error": "options must be a JSON object of at most 8 keys",
    },
  },
  required: ["action"],
  additionalProperties: false,
  examples: [
    { action: "allocate", options: { owner: "team-a", purpose: "CI runners" } },
    { action: "release", options: { erase: "quick" } },
  ],
} as const;

/** The answer to an action: the node in its new state, and the workflow that carries the action out. */
export const ProvisionActionResult = {
  type: "object",
  properties: { node, workflow: Workflow },
  required: ["node", "workflow"],
  additionalProperties: false,
} as const;

/** GET /nodes/{identifier}/actions: the node's state and each action, whether it may run now. */
export const ProvisionActionList = {
  type: "object",
  properties: {
    node: objectId,
    provisionState: { enum: PROVISION_STATES },
    actions: {
      type: "array",
      items: {
        type: "object",
        properties: {
          action: { enum: ACTIONS },
          allowed: { type: "boolean" },
          from: { type: "array", items: { enum: PROVISION_STATES } },
          to: { enum: PROVISION_STATES },
          summary: { type: "string" },
          destructive: { type: "boolean" },
        },
        required: ["action", "allowed", "from", "to", "summary", "destructive"],
        additionalProperties: false,
      },
    },
  },
  required: ["node", "provisionState", "actions"],
  additionalProperties: false,
} as const;

export const NodeList = { type: "array", items: node } as const;

/** A node's SSH settings as answered: the password and private key redacted. */
export const SshSettings = {
  type: "object",
  properties: {
    host: { type: "string" },
    user: { type: "string" },
    password: { const: "REDACTED" },
    privateKey: { const: "REDACTED" },
    publicKey: { type: "string" },
  },
  required: ["host", "user"],
  additionalProperties: false,
} as const;
