import type { JobAction } from "../../lib/wire/relay";
import type { MediaLibrary } from "../virtualMedia";
import { type Driver, type DriverResult, failed, type JobContext, text, unknownKind } from "./driver";
import { type Answer, type Call, connect, header, messageOf } from "./redfishSession";

/**
 * Redfish over HTTPS, as RackHD's redfish-obm-service and bmclib drive it: the first (or the
 * named, `systemId`) ComputerSystem's Reset action, a one-time boot override, its PowerState and
 * its indicator LED. The OBM config: uri (https://bmc), user, password, and TLS: verified unless
 * `verifySSL` is false, against `ca` (a PEM certificate to pin) when given. Each action opens a
 * session and closes it (redfishSession.ts). What BMCs differ in, and what is done about it (from
 * bmclib's, sushy's and Foreman's handling): a refused BootSourceOverrideMode is retried without
 * it; a Reset whose `ResetType@Redfish.AllowableValues` is absent is tried and, refused, the next
 * way is (sushy assumes every value allowed); a ResetType the BMC does not allow is replaced by
 * the next way to the same end (ForceRestart: PowerCycle, else ForceOff, the power seen off, then
 * On, as older iDRACs need); a Reset answered 202 is followed on its task monitor until it ends.
 */
const RESET: Record<string, string> = { on: "On", off: "ForceOff", soft: "GracefulShutdown", cycle: "PowerCycle", reset: "ForceRestart" };
const TARGET: Record<string, string> = { pxe: "Pxe", disk: "Hdd", http: "UefiHttp", cd: "Cd" };

/** The ways to each reset, in order: one ResetType, else another, else two in turn. */
export const RESET_WAYS: Record<string, string[][]> = {
  ForceRestart: [["ForceRestart"], ["PowerCycle"], ["ForceOff", "On"]],
  PowerCycle: [["PowerCycle"], ["ForceRestart"], ["ForceOff", "On"]],
  On: [["On"], ["ForceOn"]],
};

/** A refusal that means "not this ResetType here" (the next way may work), not a broken BMC or a wrong password. */
const UNSUPPORTED = /ActionParameterNotSupported|PropertyValueNotInList|ActionNotSupported|ActionParameterValueNotInList/;

export interface RedfishTiming {
  timeoutMs?: number;
  /** How often a task monitor or the power state is read again while waiting (default 1 s). */
  pollMs?: number;
  /** How long a task monitor or a power-off is waited for (default 60 s). */
  waitMs?: number;
  /** Builds and serves virtual media images (the relay's boot server); without it, a virtualMedia insert fails saying why. */
  media?: MediaLibrary;
}

export function redfishDriver(options: RedfishTiming = {}): Driver {
  return async (config, action, job) => {
    const base = text(config, "uri");
    if (!base) return failed("The Redfish OBM setting has no uri");
    try {
      const connection = await connect(config, base, options.timeoutMs ?? 30_000);
      try {
        const system = await systemPath(config, connection.call);
        return await perform(system, action, connection.call, options, job);
      } finally {
        await connection.close();
      }
    } catch (error) {
      return failed(`Redfish: ${(error as Error).message}`);
    }
  };
}

/** A resource the BMC must answer (200), else an error in its own words. */
async function getResource(call: Call, path: string): Promise<Record<string, unknown>> {
  const answer = await call("GET", path);
  if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}: ${messageOf(answer)}`);
  return answer.body;
}

async function systemPath(config: Record<string, unknown>, call: Call): Promise<string> {
  const named = text(config, "systemId");
  if (named) return `/redfish/v1/Systems/${encodeURIComponent(named)}`;
  const systems = await getResource(call, "/redfish/v1/Systems");
  const first = (systems.Members as { "@odata.id"?: string }[] | undefined)?.[0]?.["@odata.id"];
  if (!first) throw new Error("the BMC lists no ComputerSystem");
  return first;
}

async function perform(system: string, action: JobAction, call: Call, timing: RedfishTiming, job?: JobContext): Promise<DriverResult> {
  const unknown = unknownKind(action);
  if (unknown) return unknown;
  if (action.kind === "virtualMedia") return virtualMedia(system, action, call, timing.media, job);
  if (action.kind === "poll") return poll(system, action.command, call);
  if (action.kind === "inventory") return action.what === "bios" ? readBios(system, call) : readFirmware(call);
  if (action.kind === "biosSettings") return setBios(system, action.attributes, call);
  if (action.kind === "identify")
    return answered(await call("PATCH", system, { IndicatorLED: action.on ? "Lit" : "Off" }), `IndicatorLED ${action.on ? "Lit" : "Off"}`);
  if (action.kind === "bootDevice")
    return bootOnce(system, action.device, action.uefi, call, action.device === "http" ? action.uri : undefined);
  const read = () => getResource(call, system);
  const current = await read();
  if (action.action === "status") return { ok: true, output: `PowerState: ${String(current.PowerState ?? "Unknown")}` };
  const wanted = action.action === "reboot" ? (current.PowerState === "Off" ? "On" : "ForceRestart") : RESET[action.action];
  return reset(system, wanted, allowedResets(current), call, read, timing);
}

/** A one-time boot from `device` at the next reset; `uri`: UEFI HTTP boot from this file, where the BMC lists HttpBootUri (Redfish 2019.4 and later). */
async function bootOnce(system: string, device: string, uefi: boolean, call: Call, uri?: string): Promise<DriverResult> {
  const boot: Record<string, unknown> = {
    BootSourceOverrideTarget: TARGET[device],
    BootSourceOverrideEnabled: "Once",
    BootSourceOverrideMode: uefi ? "UEFI" : "Legacy",
    ...(uri && { HttpBootUri: uri }),
  };
  const first = await call("PATCH", system, { Boot: boot });
  if (first.status < 300) return answered(first, `Boot once from ${boot.BootSourceOverrideTarget} (${boot.BootSourceOverrideMode})`);
  // Some BMCs refuse BootSourceOverrideMode (bmclib retries without it); try once more without.
  const { BootSourceOverrideMode: _mode, ...withoutMode } = boot;
  const second = await call("PATCH", system, { Boot: withoutMode });
  return answered(second, `Boot once from ${boot.BootSourceOverrideTarget} (the BMC refused a boot mode: ${messageOf(first)})`);
}

const idOf = (value: unknown): string | undefined => (value as { "@odata.id"?: string } | undefined)?.["@odata.id"];

/**
 * The BMC's virtual CD: the system's VirtualMedia collection (Redfish 2021.1 and later), else its
 * manager's (ManagedBy, else the first manager), and in it the first member that takes a CD or DVD.
 */
async function virtualCd(system: string, call: Call): Promise<Record<string, unknown>> {
  const resource = await getResource(call, system);
  let collection = idOf(resource.VirtualMedia);
  if (!collection) {
    const managedBy = idOf((resource.Links as { ManagedBy?: unknown[] } | undefined)?.ManagedBy?.[0]);
    const manager = managedBy ?? idOf(((await getResource(call, "/redfish/v1/Managers")).Members as unknown[] | undefined)?.[0]);
    if (!manager) throw new Error("the BMC lists no manager, where its virtual media is");
    collection = idOf((await getResource(call, manager)).VirtualMedia);
  }
  if (!collection) throw new Error("the BMC has no virtual media");
  for (const member of ((await getResource(call, collection)).Members as unknown[] | undefined) ?? []) {
    const path = idOf(member);
    if (!path) continue;
    const media = await getResource(call, path);
    const types = (media.MediaTypes as string[] | undefined) ?? [];
    if (types.includes("CD") || types.includes("DVD")) return media;
  }
  throw new Error(`the BMC's virtual media (${collection}) has no CD or DVD drive`);
}

/** An action of the virtual CD (its own target when it names one), else, refused as absent, the older BMCs' PATCH of the resource. */
async function mediaAction(
  cd: Record<string, unknown>,
  name: string,
  body: Record<string, unknown>,
  patch: Record<string, unknown>,
  call: Call,
) {
  const path = String(cd["@odata.id"]);
  const target = (cd.Actions as Record<string, { target?: string } | undefined> | undefined)?.[`#VirtualMedia.${name}`]?.target;
  const answer = await call("POST", target ?? `${path}/Actions/VirtualMedia.${name}`, body);
  return [404, 405].includes(answer.status) && !target ? call("PATCH", path, patch) : answer;
}

/**
 * Virtual media: `insert` has the relay build and serve the node's boot image, ejects what the CD
 * holds, inserts the image's URL (write-protected) and sets a one-time boot from the CD; `eject`
 * takes the image out (and the relay stops serving it).
 */
async function virtualMedia(
  system: string,
  action: Extract<JobAction, { kind: "virtualMedia" }>,
  call: Call,
  media: MediaLibrary | undefined,
  job: JobContext | undefined,
): Promise<DriverResult> {
  const cd = await virtualCd(system, call);
  const eject = async () => {
    if (cd.Inserted !== true) return undefined;
    const answer = await mediaAction(cd, "EjectMedia", {}, { Image: null, Inserted: false }, call);
    return answer.status < 300 ? undefined : answered(answer, `Eject ${String(cd.Image ?? "the image")}`);
  };
  if (action.action === "eject") {
    if (job) media?.withdraw(job.node);
    return (await eject()) ?? { ok: true, output: cd.Inserted === true ? `Ejected ${String(cd.Image)}` : "The virtual CD was empty" };
  }
  if (!media || !job)
    return failed(
      "This relay serves no boot files (start it with --listen and --public-url): a BMC fetches a virtual media image from there",
    );
  const url = await media.publish(job.node, action.boot, action.uefi);
  const refused = await eject();
  if (refused) return refused;
  const inserted = await mediaAction(
    cd,
    "InsertMedia",
    { Image: url, Inserted: true, WriteProtected: true },
    { Image: url, Inserted: true, WriteProtected: true },
    call,
  );
  if (inserted.status >= 300) return answered(inserted, `Insert ${url}`);
  const boot = await bootOnce(system, "cd", action.uefi, call);
  return boot.ok ? { ok: true, output: `Inserted ${url} into ${String(cd["@odata.id"])}; ${boot.output}` } : boot;
}

/** What each Redfish poll reads, and the part of it the service keeps (pollers/redfishSamples.ts). */
const POLLS: Record<string, { resource: "system" | "Thermal" | "Power"; keep: string[] }> = {
  powerState: { resource: "system", keep: ["PowerState"] },
  thermal: { resource: "Thermal", keep: ["Temperatures", "Fans"] },
  power: { resource: "Power", keep: ["PowerControl"] },
};

/** A Redfish poller's run: the system's power state, or its chassis' Thermal or Power resource, as JSON. */
async function poll(system: string, command: string, call: Call): Promise<DriverResult> {
  const what = Object.hasOwn(POLLS, command) ? POLLS[command] : undefined;
  if (!what) return failed(`Redfish has no ${command} poll: it is an IPMI poller's`);
  const get = (path: string) => getResource(call, path);
  let resource = await get(system);
  if (what.resource !== "system") {
    const links = resource.Links as { Chassis?: { "@odata.id"?: string }[] } | undefined;
    const chassisPath = links?.Chassis?.[0]?.["@odata.id"];
    if (!chassisPath) return failed(`Redfish: ${system} links no Chassis, where its ${what.resource} is`);
    const chassis = await get(chassisPath);
    const link = (chassis[what.resource] as { "@odata.id"?: string } | undefined)?.["@odata.id"] ?? `${chassisPath}/${what.resource}`;
    resource = await get(link);
  }
  return { ok: true, output: JSON.stringify(Object.fromEntries(what.keep.map((key) => [key, resource[key]]))) };
}

/** The most firmware items read (a server lists a few dozen; a BMC that lists thousands is cut). */
const FIRMWARE_MAX = 200;
/** The most a job's result holds (the result route's bound): a read larger than it fails, saying so, rather than be refused. */
const RESULT_MAX = 65_536;

const jsonResult = (what: string, value: unknown): DriverResult => {
  const output = JSON.stringify(value);
  return output.length <= RESULT_MAX
    ? { ok: true, output }
    : failed(`${what} are ${output.length} characters of JSON, more than a job's result holds (${RESULT_MAX})`);
};

/** The system's Bios resource (its link, else the conventional path). */
const biosPath = (resource: Record<string, unknown>, system: string): string =>
  (resource.Bios as { "@odata.id"?: string } | undefined)?.["@odata.id"] ?? `${system}/Bios`;

/** The BIOS attributes, their registry, and the boot order and override the system reports, as JSON (the node's `redfish-bios` catalog). */
async function readBios(system: string, call: Call): Promise<DriverResult> {
  const resource = await getResource(call, system);
  const bios = await getResource(call, biosPath(resource, system));
  const boot = (resource.Boot ?? {}) as Record<string, unknown>;
  // What the BMC holds for the next reset, when it says where (`@Redfish.Settings`).
  const settingsPath = (bios["@Redfish.Settings"] as { SettingsObject?: { "@odata.id"?: string } } | undefined)?.SettingsObject?.[
    "@odata.id"
  ];
  const pending = settingsPath ? ((await call("GET", settingsPath)).body?.Attributes ?? {}) : {};
  return jsonResult("The BIOS attributes", {
    attributes: bios.Attributes ?? {},
    attributeRegistry: bios.AttributeRegistry ?? null,
    pending,
    bootOrder: boot.BootOrder ?? [],
    bootSourceOverride: { target: boot.BootSourceOverrideTarget ?? null, enabled: boot.BootSourceOverrideEnabled ?? null },
  });
}

/** UpdateService's FirmwareInventory, each item's name, version, whether it can be updated and its state (the node's `redfish-firmware` catalog). */
async function readFirmware(call: Call): Promise<DriverResult> {
  const root = await getResource(call, "/redfish/v1");
  const service = (root.UpdateService as { "@odata.id"?: string } | undefined)?.["@odata.id"] ?? "/redfish/v1/UpdateService";
  const update = await getResource(call, service);
  const inventory = (update.FirmwareInventory as { "@odata.id"?: string } | undefined)?.["@odata.id"] ?? `${service}/FirmwareInventory`;
  const members = ((await getResource(call, inventory)).Members as { "@odata.id"?: string }[] | undefined) ?? [];
  const items = [];
  for (const member of members.slice(0, FIRMWARE_MAX)) {
    if (!member["@odata.id"]) continue;
    const item = await getResource(call, member["@odata.id"]);
    items.push({
      id: item.Id ?? null,
      name: item.Name ?? null,
      version: item.Version ?? null,
      updateable: item.Updateable ?? null,
      status: item.Status ?? null,
    });
  }
  return jsonResult("The firmware inventory's items", { items, listed: members.length });
}

/** BIOS attributes for the next reset: PATCHed to the settings object the Bios resource names (DMTF's `@Redfish.Settings`), else `Bios/Settings`. */
async function setBios(system: string, attributes: Record<string, unknown>, call: Call): Promise<DriverResult> {
  const resource = await getResource(call, system);
  const path = biosPath(resource, system);
  const bios = await getResource(call, path);
  const settings =
    (bios["@Redfish.Settings"] as { SettingsObject?: { "@odata.id"?: string } } | undefined)?.SettingsObject?.["@odata.id"] ??
    `${path}/Settings`;
  const unknown = Object.keys(attributes).filter((name) => !Object.hasOwn((bios.Attributes ?? {}) as object, name));
  if (unknown.length > 0)
    return failed(`The BIOS has no attribute ${unknown.join(", ")} (it has ${Object.keys((bios.Attributes ?? {}) as object).length})`);
  return answered(
    await call("PATCH", settings, { Attributes: attributes }),
    `BIOS attributes ${Object.keys(attributes).join(", ")} set for the next reset`,
  );
}

/** The ResetTypes the system lists as allowed, or undefined when it lists none (many BMCs do not). */
export function allowedResets(system: Record<string, unknown>): string[] | undefined {
  const actions = system.Actions as Record<string, Record<string, unknown> | undefined> | undefined;
  const values = actions?.["#ComputerSystem.Reset"]?.["ResetType@Redfish.AllowableValues"];
  return Array.isArray(values) ? values.map(String) : undefined;
}

/** Performs a reset the first way the BMC allows, or tries each way in turn where it lists none. */
async function reset(
  system: string,
  wanted: string,
  allowed: string[] | undefined,
  call: Call,
  read: () => Promise<Record<string, unknown>>,
  timing: RedfishTiming,
): Promise<DriverResult> {
  const ways = (RESET_WAYS[wanted] ?? [[wanted]]).filter((way) => !allowed || way.every((type) => allowed.includes(type)));
  if (ways.length === 0) return failed(`ResetType ${wanted}: the BMC allows none of its ways (it lists ${allowed?.join(", ")})`);
  const refused: string[] = [];
  for (const way of ways) {
    let answer: Answer | undefined;
    for (const [index, type] of way.entries()) {
      if (index > 0) await until(async () => (await read()).PowerState === "Off", timing, "the power to go off");
      answer = await resetOnce(system, type, call, timing);
      if (answer.status >= 300) break;
    }
    const done = answer!;
    const what = `ResetType ${way.join(" then ")}${refused.length > 0 ? ` (the BMC refused ${refused.join(", ")})` : ""}`;
    if (done.status < 300) return { ok: true, output: what };
    if (allowed || !UNSUPPORTED.test(JSON.stringify(done.body))) return answered(done, what);
    refused.push(way.join(" then "));
  }
  return failed(`ResetType ${wanted}: the BMC refused every way (${refused.join("; ")})`);
}

/** One Reset; a 202 is followed on its task monitor (Location) until the task ends. */
async function resetOnce(system: string, type: string, call: Call, timing: RedfishTiming): Promise<Answer> {
  const answer = await call("POST", `${system}/Actions/ComputerSystem.Reset`, { ResetType: type });
  const monitor = answer.status === 202 ? header(answer, "location") : undefined;
  if (!monitor) return answer;
  let last = answer;
  await until(
    async () => {
      last = await call("GET", new URL(monitor, "https://bmc").pathname);
      return last.status !== 202;
    },
    timing,
    `the task at ${monitor} to end`,
  );
  const state = String(last.body.TaskState ?? "Completed");
  return ["Exception", "Killed", "Cancelled"].includes(state)
    ? { ...last, status: 500 }
    : { ...last, status: last.status < 300 ? 204 : last.status };
}

/** Waits (every pollMs, up to waitMs) for `done`; an error naming `what` when it never is. */
async function until(done: () => Promise<boolean>, timing: RedfishTiming, what: string): Promise<void> {
  const deadline = Date.now() + (timing.waitMs ?? 60_000);
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`waited ${(timing.waitMs ?? 60_000) / 1000} s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, timing.pollMs ?? 1000));
  }
}

const answered = (answer: Answer, what: string): DriverResult =>
  answer.status < 300 ? { ok: true, output: what } : failed(`${what}: the BMC answered ${answer.status}: ${messageOf(answer)}`);
