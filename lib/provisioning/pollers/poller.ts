import { redact } from "../secrets";

/**
 * A poller (RackHD §7: a `Pollers.*` work item): what to ask a node's management controller,
 * how often, and how its last runs went. The API shows `name` as `type` (`ipmi`, `snmp`,
 * `redfish`); `GET /nodes/{id}/pollers` answers the records as RackHD's did (`name`), secrets redacted.
 */
export interface PollerRecord {
  id: string;
  name: PollerName;
  node: string | null;
  config: Record<string, unknown>;
  pollInterval: number;
  nextScheduled: string | null;
  lastStarted: string | null;
  lastFinished: string | null;
  leaseToken: null;
  leaseExpires: null;
  failureCount: number;
  paused: boolean;
  /** Why the last run failed (not RackHD's: it only logged it). */
  lastError?: string;
  createdAt: string;
  updatedAt: string;
}

export const POLLER_NAMES = { ipmi: "Pollers.IPMI", snmp: "Pollers.SNMP", redfish: "Pollers.REDFISH" } as const;
export type PollerType = keyof typeof POLLER_NAMES;
export type PollerName = (typeof POLLER_NAMES)[PollerType];

export const typeOf = (name: PollerName): PollerType =>
  (Object.keys(POLLER_NAMES) as PollerType[]).find((type) => POLLER_NAMES[type] === name)!;

/** The API's form: `type` in place of `name`. */
/** A poller as answered: its type, and its config's secrets (a BMC's password, an SNMP community) redacted (issue 35 §10). */
export function presentPoller({ name, ...rest }: PollerRecord): Record<string, unknown> {
  return { ...rest, config: redact(rest.config), type: typeOf(name) };
}

/** A poller's last samples (RackHD's message cache: the newest 10). */
export interface PollerSamples {
  id: string;
  samples: Record<string, unknown>[];
  createdAt: string;
  updatedAt: string;
}

export const SAMPLES_KEPT = 10;

/** GET /pollers/library (RackHD §7, B+ with redfish). */
export const POLLER_LIBRARY = [
  {
    name: "ipmi",
    node: true,
    config: [
      { key: "host", type: "string" },
      { key: "user", type: "string", defaultsTo: "admin" },
      { key: "password", type: "string", defaultsTo: "admin" },
      { key: "alerts", type: "json", required: false },
    ],
  },
  {
    name: "snmp",
    config: [
      { key: "host", type: "string", required: true },
      { key: "communityString", type: "string", required: true },
      { key: "extensionMibs", type: "string[]", required: false },
    ],
  },
  {
    name: "redfish",
    config: [
      { key: "uri", type: "string", required: true },
      { key: "user", type: "string", required: false },
      { key: "password", type: "string", required: false },
    ],
  },
] as const;

/** The IPMI pollers RackHD's discovery creates for a node with a BMC: command and interval (ms). */
export const DEFAULT_IPMI_POLLERS = [
  ["sdr", 60_000],
  ["selInformation", 60_000],
  ["sel", 60_000],
  ["chassis", 15_000],
  ["driveHealth", 30_000],
] as const;
