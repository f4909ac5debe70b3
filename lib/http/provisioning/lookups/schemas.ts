import { isoTime, NAME_MAX, objectId } from "../fields";

/** Lookups (RackHD §2.6, era C's search) and the DHCP whitelist: schemas. */

const macAddress = {
  type: "string",
  pattern: "^([0-9A-Fa-f]{2}[:-]){5}([0-9A-Fa-f]{2})$",
  "x-error": "macAddress must be a MAC address such as 08:00:27:27:eb:12",
} as const;

const ipAddress = {
  type: "string",
  pattern: "^((25[0-5]|2[0-4]\\d|1?\\d?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1?\\d?\\d)$",
  "x-error": "ipAddress must be an IPv4 address",
} as const;

/** POST /lookups (RackHD's V1.Lookup: macAddress required). */
export const LookupBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  "x-errors": { required: "macAddress is required" },
  properties: { macAddress, ipAddress, node: { type: "string", maxLength: NAME_MAX, "x-error": "node must be a node id" } },
  required: ["macAddress"],
  examples: [{ macAddress: "08:00:27:27:eb:12", ipAddress: "172.31.128.9", node: "6d981c9449891790862c36b1" }],
} as const;

/** PATCH /lookups/{id}: any of the fields. */
export const LookupPatchBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  properties: LookupBody.properties,
  examples: [{ ipAddress: "172.31.128.10" }],
} as const;

const lookup = {
  type: "object",
  properties: {
    id: objectId,
    node: { type: "string" },
    macAddress: { type: "string" },
    ipAddress: { type: "string" },
    createdAt: isoTime,
    updatedAt: isoTime,
  },
  required: ["id", "node", "macAddress", "createdAt", "updatedAt"],
  additionalProperties: false,
} as const;

export const Lookup = lookup;

export const LookupList = { type: "array", items: lookup } as const;

/** POST /nodes/{mac}/dhcp/whitelist answers the whole list, MACs with `-`. */
export const Whitelist = { type: "array", items: { type: "string" } } as const;
