import { RANGE_KINDS } from "../../../provisioning/subnets/rangeKinds";
import { name as id, isoTime, version } from "../fields";

/**
 * Subnets and the addresses given from their pools (issue 54): this service's own routes (RackHD
 * had none; MAAS's model): schemas. The shapes and bounds are checked here; what the addresses mean
 * (inside the CIDR, ranges apart, …) is the domain's (lib/provisioning/subnets/subnet.ts).
 */

/** An IPv4 or IPv6 address as text (the domain checks it strictly). */
const address = { type: "string", minLength: 2, maxLength: 45 } as const;
const RANGES_MAX = 32;
const LIST_MAX = 8;

export const SubnetParams = { type: "object", properties: { version, id }, required: ["version", "id"] } as const;

const subnetName = {
  type: "string",
  pattern: "^[\\w .:/-]{1,64}$",
  "x-error": "name must be 1 to 64 letters, digits, spaces, '.', ':', '/', '_' or '-'",
} as const;

const range = {
  type: "object",
  properties: {
    kind: { enum: RANGE_KINDS },
    start: address,
    end: address,
    comment: { type: "string", maxLength: 200 },
  },
  required: ["kind", "start", "end"],
  additionalProperties: false,
} as const;

const fields = {
  name: subnetName,
  site: { type: ["string", "null"], minLength: 1, maxLength: 64, "x-error": "site must be a site's id or null" },
  cidr: { type: "string", minLength: 3, maxLength: 49, "x-error": "cidr must be a network address with its prefix length (10.20.0.0/24)" },
  gateway: { oneOf: [address, { type: "null" }], "x-error": "gateway must be an address of the subnet or null" },
  nameservers: { type: "array", maxItems: LIST_MAX, items: address, "x-error": `nameservers must be at most ${LIST_MAX} addresses` },
  searchDomains: {
    type: "array",
    maxItems: LIST_MAX,
    items: { type: "string", pattern: "^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$" },
    "x-error": `searchDomains must be at most ${LIST_MAX} domain names`,
  },
  vlan: { type: ["integer", "null"], minimum: 1, maximum: 4094, "x-error": "vlan must be a VLAN id from 1 to 4094, or null" },
  mtu: { type: ["integer", "null"], minimum: 576, maximum: 9216, "x-error": "mtu must be from 576 to 9216, or null" },
  ranges: {
    type: "array",
    maxItems: RANGES_MAX,
    items: range,
    "x-error": `ranges must be at most ${RANGES_MAX} objects {kind: boot, pool or reserved, start, end, comment?}`,
  },
} as const;

/** POST /subnets. */
export const SubnetBody = {
  type: "object",
  "x-error": "Body must be a JSON object with a name and a cidr",
  properties: fields,
  required: ["name", "cidr"],
  additionalProperties: false,
  examples: [
    {
      name: "prod-vlan20",
      cidr: "10.20.0.0/24",
      gateway: "10.20.0.1",
      nameservers: ["10.20.0.1"],
      vlan: 20,
      ranges: [
        { kind: "boot", start: "10.20.0.100", end: "10.20.0.199" },
        { kind: "pool", start: "10.20.0.10", end: "10.20.0.99" },
        { kind: "reserved", start: "10.20.0.2", end: "10.20.0.9", comment: "switches" },
      ],
    },
  ],
} as const;

/** PATCH /subnets/{id}: any of the fields (null removes an optional one); the whole is checked again. */
export const SubnetPatchBody = {
  type: "object",
  "x-error": "Body must be a JSON object of subnet fields",
  properties: fields,
  additionalProperties: false,
  examples: [{ nameservers: ["10.20.0.1", "10.20.0.2"] }],
} as const;

const subnet = {
  type: "object",
  properties: {
    id: { type: "string" },
    name: { type: "string" },
    site: { type: "string" },
    cidr: { type: "string" },
    gateway: { type: "string" },
    nameservers: { type: "array", items: { type: "string" } },
    searchDomains: { type: "array", items: { type: "string" } },
    vlan: { type: "integer" },
    mtu: { type: "integer" },
    ranges: { type: "array", items: range },
    poolSize: {
      type: "string",
      description: "How many addresses the pools hold (a string: an IPv6 pool can hold more than a JSON number can say)",
    },
    createdAt: isoTime,
    updatedAt: isoTime,
  },
  required: ["id", "name", "cidr", "nameservers", "searchDomains", "ranges", "poolSize", "createdAt", "updatedAt"],
  additionalProperties: false,
} as const;
export const Subnet = subnet;
export const SubnetList = { type: "array", items: subnet } as const;

const allocation = {
  type: "object",
  properties: {
    id: { type: "string" },
    subnet: { type: "string" },
    key: { type: "string" },
    address: { type: "string" },
    node: { type: "string" },
    interface: { type: "string" },
    createdAt: isoTime,
  },
  required: ["id", "subnet", "key", "address", "node", "interface", "createdAt"],
  additionalProperties: false,
} as const;
export const AddressAllocationList = { type: "array", items: allocation } as const;
