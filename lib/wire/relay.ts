import { BOOT_ROUTES } from "./bootRoutes.generated";

/**
 * The wire between the service and a site's relay (issue 51): every shape, path and name both sides
 * must agree on, in one module both import. The relay imports nothing else from lib/
 * (tests/unit/architecture/boundaries.test.ts), so a job's new field, a route the relay calls, a
 * TFTP name or a new boot route is one change that both type checks see. No runtime dependency:
 * it is bundled into the relay.
 */

/** `reboot`: on when the machine is off, else reset (RackHD's reboot of a machine that may be off). */
export const POWER_ACTIONS = ["on", "off", "cycle", "reset", "soft", "status", "reboot"] as const;
export type PowerAction = (typeof POWER_ACTIONS)[number];
export const BOOT_DEVICES = ["pxe", "disk", "http"] as const;
export type BootDevice = (typeof BOOT_DEVICES)[number];

/** The IPMI polls RackHD's poller ran, and the ipmitool arguments of each, as it ran them. */
export const IPMI_POLL_COMMANDS = ["sdr", "sel", "selInformation", "chassis", "driveHealth"] as const;
export type IpmiPollCommand = (typeof IPMI_POLL_COMMANDS)[number];
export const IPMITOOL_POLL_ARGS: Record<IpmiPollCommand, string[]> = {
  sdr: ["-v", "sdr"],
  sel: ["-c", "sel", "list", "last", "25"],
  selInformation: ["sel"],
  chassis: ["raw", "0x00", "0x01"],
  driveHealth: ["-c", "sdr", "type", "0xd"],
};
/** The Redfish reads: the system's power state, its chassis' Thermal and Power resources. */
export const REDFISH_POLL_COMMANDS = ["powerState", "thermal", "power"] as const;
export type RedfishPollCommand = (typeof REDFISH_POLL_COMMANDS)[number];

/**
 * What a relay reads from a Redfish BMC into a node's catalogs (issue 53): the BIOS's attributes and
 * the boot order (`bios`), the firmware inventory (`firmware`).
 */
export const REDFISH_INVENTORIES = ["bios", "firmware"] as const;
export type RedfishInventory = (typeof REDFISH_INVENTORIES)[number];
/** A BIOS attribute's value, as Redfish's Bios resource holds them. */
export type BiosValue = string | number | boolean;

/**
 * What a virtual media boot (issue 53) starts: the microkernel's kernel and initrd (paths of the
 * service's shared files, which the relay fetches as it does for TFTP) and its kernel line's words
 * (the node, its boot interface, its consoles, its network when the site has no DHCP). The relay
 * adds API_BASE (its own boot server) and builds the image (relay/virtualMedia.ts). Each word is
 * MEDIA_WORD: what GRUB and the kernel read as one word, with nothing either would expand.
 */
export interface MediaBoot {
  kernel: string;
  initrd: string;
  args: string[];
}
export const MEDIA_WORD = /^[A-Za-z0-9_.,:/=@%+-]{1,512}$/;
/** The most words a media kernel line carries. */
export const MEDIA_WORDS_MAX = 32;

export type JobAction =
  | { kind: "power"; action: PowerAction }
  /** A Redfish read into the node's catalogs: its output is the resource's JSON (the relay keeps what the service needs). */
  | { kind: "inventory"; what: RedfishInventory }
  /** BIOS attributes to set (Redfish `PATCH …/Bios/Settings`): the BMC applies them at the machine's next reset. */
  | { kind: "biosSettings"; attributes: Record<string, BiosValue> }
  | { kind: "bootDevice"; device: BootDevice; uefi: boolean; persistent: false; uri?: string }
  | { kind: "identify"; on: boolean }
  /**
   * Virtual media (Redfish): `insert` builds the boot image, serves it from the relay's boot server,
   * inserts it into the BMC's virtual CD and sets a one-time boot from it; `eject` takes it out.
   */
  | { kind: "virtualMedia"; action: "insert"; uefi: boolean; boot: MediaBoot }
  | { kind: "virtualMedia"; action: "eject" }
  /** A poller's run: the command RackHD's IPMI poller ran, or a Redfish read. */
  | { kind: "poll"; command: IpmiPollCommand | RedfishPollCommand; poller: string };

export type JobState = "queued" | "leased" | "succeeded" | "failed";

/** A relay's report of one job (`POST` to `RELAY_ROUTES.result`). */
export interface JobResult {
  ok: boolean;
  output: string;
  error?: string;
}

export interface RelayJob {
  id: string;
  site: string;
  node: string;
  action: JobAction;
  /** The OBM setting the relay drives the BMC with (credentials included: only the site's relays get it). */
  obm: { service: string; config: Record<string, unknown> };
  /** The workflow task this job runs, if a workflow asked for it. */
  task?: { workflow: string; taskId: string };
  /** Who asked (a user, or the workflow), for the audit of power actions. */
  requestedBy: string;
  state: JobState;
  createdAt: string;
  updatedAt: string;
  /** Not taken by then: it fails. */
  deadline: string;
  lease?: { id: string; relay: string; until: string };
  /**
   * The leases handed out before the current one (at most MAX_ATTEMPTS): a relay whose lease ran
   * out while its BMC was slow still reports the BMC's answer under one of them, and that result
   * is the job's when it comes first.
   */
  pastLeases?: string[];
  /** When the relay said it was about to act on a BMC for an action that must not run twice. */
  actingSince?: string;
  attempts: number;
  result?: JobResult & { relay: string; at: string };
  /** A relay's result that came after the service had already failed the job: kept, not dropped (the first of them). */
  lateResult?: JobResult & { relay: string; at: string };
}

/** A job as a relay gets it from a lease: with its lease and the OBM setting's config. */
export type LeasedJob = Omit<RelayJob, "obm" | "lease"> & {
  obm: { service: string; config: Record<string, unknown> };
  lease: { id: string };
};

/** The job kinds, as each version of the wire knows them (the relay refuses a kind it does not know). */
export const JOB_KINDS = ["power", "bootDevice", "identify", "poll", "inventory", "biosSettings", "virtualMedia"] as const;

/** Where a relay's boot server serves the images it built, by name (`<random>.iso`). */
export const MEDIA_PATH = /^\/media\/([0-9a-f]{32})\.iso$/;

/** The service's routes a relay calls, from the service's base URL. */
export const RELAY_ROUTES = {
  lease: "/api/1.1/relay/jobs/lease",
  acting: (job: string) => `/api/1.1/relay/jobs/${encodeURIComponent(job)}/acting`,
  result: (job: string) => `/api/1.1/relay/jobs/${encodeURIComponent(job)}/result`,
  /** The loader the service chooses for a UEFI machine, known by its MAC (or not known: the setting's). */
  loader: (mac: string | undefined) => `/api/current/profiles/loader${mac ? `?macs=${mac}` : ""}`,
  /** A machine's own GRUB script. */
  grubScript: (mac: string) => `/api/current/profiles?macs=${mac.toLowerCase()}&loader=grub`,
} as const;

/**
 * The files a relay serves by TFTP under these names: the loader chosen for the machine asking,
 * GRUB's first script (the same for every machine), and each machine's own script, which GRUB
 * fetches by the MAC it booted from (`$net_default_mac`). The service names them in what it tells
 * a machine or an operator.
 */
export const TFTP_FILES = {
  uefiLoader: "uefi.efi",
  grubConfig: "grub/grub.cfg",
  grubMachine: (mac: string) => `grub/machine/${mac}`,
} as const;
/** `grub/machine/<mac>`, the MAC captured. */
export const GRUB_MACHINE_FILE = /^grub\/machine\/([0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5})$/;

/** The boot routes that serve a file every machine fetches alike: what TFTP serves by its path too. */
const FILE_ROUTES = new Set(["commonFile", "getFile", "latestFile", "fileMd5"]);

/** A route path of the registry as a pattern: each `{param}` one segment, `{param+}` the rest. */
const patternOf = (path: string): RegExp =>
  new RegExp(
    `^${path
      .replace(/[.*?^$()|[\]\\]/g, "\\$&")
      .replace(/\{[^/}]+\+\}/g, ".+")
      .replace(/\{[^/}]+\}/g, "[^/]+")}$`,
  );

const BOOT_PATTERNS = BOOT_ROUTES.map(([method, path, name]) => ({ method, name, pattern: patternOf(path) }));

/**
 * Whether a booting machine's request is one the relay forwards: a boot route of the registry
 * (generated into bootRoutes.generated.ts, so a new one is forwarded with no edit here), with its
 * method (HEAD as GET).
 */
export function isBootRoute(method: string, path: string): boolean {
  const asked = method === "HEAD" ? "GET" : method;
  return BOOT_PATTERNS.some((route) => route.method === asked && route.pattern.test(path));
}

/** Whether a path is one of the boot routes' shared files (TFTP serves those by path). */
export const isSharedFilePath = (path: string): boolean =>
  BOOT_PATTERNS.some((route) => route.method === "GET" && FILE_ROUTES.has(route.name) && route.pattern.test(path));

/**
 * The push connection (issue 56): a relay holds one WebSocket to the service's WebSocket API, and
 * the service sends `{"type":"jobs"}` on it when it makes a job for the relay's site. It carries no
 * job and no secret: the relay then leases over HTTPS as it does when it polls, so leases, retries
 * and sites are the same either way. The relay sends `{"action":"ping"}` (API Gateway's route
 * selection reads `action`) and gets `{"type":"pong"}`: it keeps the connection (API Gateway ends
 * one idle for 10 minutes) and tells the service the relay is still there.
 */
export const PUSH = {
  /** The lease answer's header naming the WebSocket URL a relay connects to (absent: the service pushes nothing). */
  urlHeader: "relay-push",
  /**
   * An empty lease answer's header: milliseconds until a job another relay holds can be taken again
   * (its lease runs out; no job is made then, so nothing is pushed). A connected relay leases then.
   */
  leaseEndsHeader: "relay-lease-ends-ms",
  /** The header a relay's connection request says its version in (its credential in `Authorization`, as on HTTPS). */
  versionHeader: "relay-version",
  pingRoute: "ping",
  ping: JSON.stringify({ action: "ping" }),
  /** A ping every 4 minutes: under API Gateway's 10 idle minutes with room for one lost. */
  keepAliveMs: 4 * 60_000,
  /** A relay that pinged is online this long after (a ping missed and a half). */
  onlineForMs: 10 * 60_000,
  /** A new connection before API Gateway's 2-hour limit ends the old one (the old closed once the new is open). */
  renewAfterMs: 110 * 60_000,
} as const;

/** What the service sends on a relay's connection. */
export type PushMessage = { type: "jobs" } | { type: "pong" } | { type: "reconnect" };
export const JOBS_MESSAGE = JSON.stringify({ type: "jobs" } satisfies PushMessage);
export const PONG_MESSAGE = JSON.stringify({ type: "pong" } satisfies PushMessage);
/** The answer to a ping on a connection the service no longer knows (or whose credential was revoked): connect again. */
export const RECONNECT_MESSAGE = JSON.stringify({ type: "reconnect" } satisfies PushMessage);
