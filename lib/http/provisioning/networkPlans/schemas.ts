import { BOND_MODES, INTERFACE_TYPES } from "../../../provisioning/networkPlans/interfaceKinds";
import { isoTime } from "../fields";

/**
 * A node's network plan (issue 54): this service's own route (RackHD had none; MAAS's interfaces):
 * schemas. Shapes and bounds here; how the interfaces fit together and their subnets the domain's
 * (lib/provisioning/networkPlans/networkPlan.ts).
 */
const INTERFACES_MAX = 32;
const MEMBERS_MAX = 8;

const mac = { type: "string", minLength: 12, maxLength: 17 } as const;
/** A Linux interface name: at most 15 characters (IFNAMSIZ less its terminating zero). */
const interfaceName = { type: "string", pattern: "^[a-z][a-z0-9_.-]{0,14}$" } as const;

const plannedInterface = {
  type: "object",
  properties: {
    name: interfaceName,
    type: { enum: INTERFACE_TYPES },
    mac,
    members: { type: "array", minItems: 1, maxItems: MEMBERS_MAX, items: mac },
    mode: { enum: BOND_MODES },
    link: interfaceName,
    vlan: { type: "integer", minimum: 1, maximum: 4094 },
    mtu: { type: "integer", minimum: 576, maximum: 9216 },
    subnet: { type: "string", minLength: 1, maxLength: 64 },
    address: { type: "string", minLength: 2, maxLength: 45 },
  },
  required: ["name", "type"],
  additionalProperties: false,
} as const;

/** PUT /nodes/{identifier}/network: the whole plan. */
export const NetworkPlanBody = {
  type: "object",
  "x-error": `Body must be a JSON object with interfaces: at most ${INTERFACES_MAX} of {name (a Linux interface name, lowercase), type (ethernet, bond or vlan), mac | members and mode | link and vlan, mtu?, subnet?, address? (auto, dhcp or an address)}`,
  properties: { interfaces: { type: "array", maxItems: INTERFACES_MAX, items: plannedInterface } },
  required: ["interfaces"],
  additionalProperties: false,
  examples: [
    {
      interfaces: [
        { name: "bond0", type: "bond", mode: "active-backup", members: ["52:54:00:12:34:01", "52:54:00:12:34:02"] },
        { name: "bond0.20", type: "vlan", link: "bond0", vlan: 20, subnet: "65f0c0ffee0123456789abcd", address: "auto" },
      ],
    },
  ],
} as const;

const given = {
  type: "object",
  properties: { interface: { type: "string" }, subnet: { type: "string" }, address: { type: "string" }, allocation: { type: "string" } },
  required: ["interface", "subnet", "address", "allocation"],
  additionalProperties: false,
} as const;

const seenNic = {
  type: "object",
  properties: { name: { type: "string" }, mac: { type: "string" }, addresses: { type: "array", items: { type: "string" } } },
  required: ["name", "mac", "addresses"],
} as const;

/** GET and PUT /nodes/{identifier}/network: the plan, what the installed system reported, the differences, the netplan. */
export const NetworkPlan = {
  type: "object",
  properties: {
    node: { type: "string" },
    interfaces: { type: "array", items: plannedInterface },
    given: { type: "array", items: given },
    missingMacs: { type: "array", items: { type: "string" } },
    seen: {
      type: "object",
      properties: { nics: { type: "array", items: seenNic }, source: { type: "string" }, reportedAt: isoTime },
      required: ["nics", "source", "reportedAt"],
    },
    differences: { type: "array", items: { type: "string" } },
    netplan: { type: "object", properties: { version: { const: 2 } }, required: ["version"] },
    updatedAt: isoTime,
  },
  required: ["node", "interfaces", "given", "missingMacs", "differences", "netplan", "updatedAt"],
  additionalProperties: false,
} as const;
