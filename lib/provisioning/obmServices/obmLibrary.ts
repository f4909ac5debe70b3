/** The OBM services known (RackHD 1.1's library, plus snmp and redfish), with their config fields. */
export interface ObmField {
  default?: unknown;
  type: "string" | "integer" | "array" | "boolean";
}

export interface ObmServiceEntry {
  service: string;
  config: Record<string, ObmField>;
}

const str = (value?: string): ObmField => (value === undefined ? { type: "string" } : { default: value, type: "string" });

export const OBM_LIBRARY: readonly ObmServiceEntry[] = [
  { service: "amt-obm-service", config: { host: str(), password: str() } },
  { service: "apc-obm-service", config: { host: str(), community: str(), port: { default: 1, type: "integer" } } },
  { service: "ipmi-obm-service", config: { host: str("localhost"), user: str("admin"), password: str("admin") } },
  { service: "noop-obm-service", config: {} },
  { service: "raritan-obm-service", config: { host: str(), user: str(), password: str(), port: { default: 1, type: "integer" } } },
  { service: "servertech-obm-service", config: { host: str(), community: str(), port: { default: 1, type: "integer" } } },
  {
    service: "panduit-obm-service",
    config: { host: str(), community: str(), cyclePassword: str("onrack"), pduOutlets: { default: [], type: "array" } },
  },
  { service: "vbox-obm-service", config: { alias: str("client"), user: str("root") } },
  { service: "vmrun-obm-service", config: { vmxpath: str("/tmp/vm.vmx") } },
  { service: "snmp-obm-service", config: { host: str(), community: str("public") } },
  { service: "redfish-obm-service", config: { uri: str(), user: str(), password: str(), verifySSL: { default: false, type: "boolean" } } },
];

const byName = new Map(OBM_LIBRARY.map((entry) => [entry.service, entry]));

export const obmServiceEntry = (service: string): ObmServiceEntry | undefined => byName.get(service);

export const NOOP_OBM_SERVICE = "noop-obm-service";

/**
 * Which node types a service may be set on (RackHD's Constants.ObmSettings): the node must match
 * one rule; a rule key the node lacks passes. Services without rules suit every node.
 */
const SUPPORT_RULES: Record<string, Record<string, unknown>[]> = {
  "noop-obm-service": [{ type: "compute" }],
  "ipmi-obm-service": [{ type: "compute" }],
  "vbox-obm-service": [{ type: "compute" }],
  "panduit-obm-service": [{ type: "enclosure" }, { type: "compute", sku: "noop" }],
  // RackHD 2.0 had Redfish nodes only; a compute machine's BMC speaks Redfish today, and a relay drives it.
  "redfish-obm-service": [{ type: "redfish" }, { type: "compute" }],
};

export function serviceSupportsNode(service: string, node: Record<string, unknown>): boolean {
  const rules = SUPPORT_RULES[service];
  if (!rules) return true;
  return rules.some((rule) => Object.entries(rule).every(([key, value]) => !Object.hasOwn(node, key) || node[key] === value));
}
