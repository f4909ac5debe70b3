import type { JobAction } from "../../lib/wire/relay";
import type { MediaLibrary } from "../virtualMedia";
import { type Driver, type DriverResult, failed, type JobContext, text, unknownKind } from "./driver";
import { type Answer, type Call, connect, header, linkOf, messageOf, resource } from "./redfishSession";

/**
 * Redfish over HTTPS, as RackHD's redfish-obm-service and bmclib drive it: the first (or the
 * named, `systemId`) ComputerSystem's Reset action, a one-time boot override, its PowerState and
 * its indicator LED. The OBM config: uri (https://bmc), user, password, and TLS: verified unless
 * `verifySSL` is false, against `ca` (a PEM certificate to pin) when given. Each action opens a
 * session and closes it (redfishSession.ts). It follows what the BMC advertises, never a path it
 * builds: the service root's links, each action's `target`, each property's
 * `@Redfish.AllowableValues` and the BIOS attribute registry (a value outside them fails, naming
 * those allowed, before anything is sent). What BMCs differ in, and what is done about it (from
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
        const system = await systemPath(config, connection.call, connection.root);
        return await perform({ system, root: connection.root }, action, connection.call, options, job);
      } finally {
        await connection.close();
      }
    } catch (error) {
      return failed(`Redfish: ${(error as Error).message}`);
    }
  };
}

const getResource = resource;

/** Where the BMC is: its system's path and its service root. */
interface Target {
  system: string;
  root: Record<string, unknown>;
}

/** The system: the first of the collection the service root links (or the one whose Id is `systemId`). */
async function systemPath(config: Record<string, unknown>, call: Call, root: Record<string, unknown>): Promise<string> {
  const collection = linkOf(root.Systems);
  if (!collection) throw new Error("the service root links no Systems collection");
  const members =
    ((await getResource(call, collection)).Members as unknown[] | undefined)?.map(linkOf).filter((id) => id !== undefined) ?? [];
  const named = text(config, "systemId");
  if (!named) {
    if (!members[0]) throw new Error("the BMC lists no ComputerSystem");
    return members[0];
  }
  const found = members.find((id) => id.replace(/\/+$/, "").split("/").pop() === named);
  if (!found) throw new Error(`the BMC lists no ComputerSystem ${named} (it lists ${members.join(", ") || "none"})`);
  return found;
}

/** A property's allowed values (`<name>@Redfish.AllowableValues`), where the resource lists them. */
export const allowedValues = (resource: Record<string, unknown> | undefined, name: string): string[] | undefined => {
  const values = resource?.[`${name}@Redfish.AllowableValues`];
  return Array.isArray(values) ? values.map(String) : undefined;
};

async function perform(where: Target, action: JobAction, call: Call, timing: RedfishTiming, job?: JobContext): Promise<DriverResult> {
  const { system, root } = where;
  const unknown = unknownKind(action);
  if (unknown) return unknown;
  if (action.kind === "virtualMedia") return virtualMedia(where, action, call, timing.media, job);
  if (action.kind === "poll") return poll(system, action.command, call);
  if (action.kind === "inventory") return action.what === "bios" ? readBios(system, call) : readFirmware(root, call);
  if (action.kind === "biosSettings") return setBios(where, action.attributes, call);
  if (action.kind === "identify")
    return answered(await call("PATCH", system, { IndicatorLED: action.on ? "Lit" : "Off" }), `IndicatorLED ${action.on ? "Lit" : "Off"}`);
  if (action.kind === "bootDevice")
    return bootOnce(system, action.device, action.uefi, call, action.device === "http" ? action.uri : undefined);
  const read = () => getResource(call, system);
  const current = await read();
  if (action.action === "status") return { ok: true, output: `PowerState: ${String(current.PowerState ?? "Unknown")}` };
  const wanted = action.action === "reboot" ? (current.PowerState === "Off" ? "On" : "ForceRestart") : RESET[action.action];
  const target = linkOf({ "@odata.id": resetAction(current)?.target });
  if (!target) return failed(`Redfish: ${system} advertises no #ComputerSystem.Reset action`);
  return reset(target, wanted, allowedResets(current), call, read, timing);
}

/** The system's Reset action as it advertises it. */
const resetAction = (system: Record<string, unknown>): Record<string, unknown> | undefined =>
  (system.Actions as Record<string, Record<string, unknown> | undefined> | undefined)?.["#ComputerSystem.Reset"];

/** A one-time boot from `device` at the next reset; `uri`: UEFI HTTP boot from this file, where the BMC lists HttpBootUri (Redfish 2019.4 and later). */
async function bootOnce(system: string, device: string, uefi: boolean, call: Call, uri?: string): Promise<DriverResult> {
  const current = (await getResource(call, system)).Boot as Record<string, unknown> | undefined;
  const targets = allowedValues(current, "BootSourceOverrideTarget");
  if (targets && !targets.includes(TARGET[device]))
    return failed(
      `Boot once from ${TARGET[device]}: the BMC allows ${targets.join(", ")} (BootSourceOverrideTarget@Redfish.AllowableValues)`,
    );
  const modes = allowedValues(current, "BootSourceOverrideMode");
  const mode = uefi ? "UEFI" : "Legacy";
  const boot: Record<string, unknown> = {
    BootSourceOverrideTarget: TARGET[device],
    BootSourceOverrideEnabled: "Once",
    // A mode the BMC does not list is left out, as a BMC that refuses one is answered (below).
    ...((!modes || modes.includes(mode)) && { BootSourceOverrideMode: mode }),
    ...(uri && { HttpBootUri: uri }),
  };
  const first = await call("PATCH", system, { Boot: boot });
  if (first.status < 300) return answered(first, `Boot once from ${boot.BootSourceOverrideTarget} (${boot.BootSourceOverrideMode})`);
  // Some BMCs refuse BootSourceOverrideMode (bmclib retries without it); try once more without.
  const { BootSourceOverrideMode: _mode, ...withoutMode } = boot;
  const second = await call("PATCH", system, { Boot: withoutMode });
  return answered(second, `Boot once from ${boot.BootSourceOverrideTarget} (the BMC refused a boot mode: ${messageOf(first)})`);
}

/**
 * The BMC's virtual CD: the system's VirtualMedia collection (Redfish 2021.1 and later), else its
 * manager's (ManagedBy, else the first manager), and in it the first member that takes a CD or DVD.
 */
async function virtualCd({ system, root }: Target, call: Call): Promise<Record<string, unknown>> {
  const resource = await getResource(call, system);
  let collection = linkOf(resource.VirtualMedia);
  if (!collection) {
    const managedBy = linkOf((resource.Links as { ManagedBy?: unknown[] } | undefined)?.ManagedBy?.[0]);
    const managers = linkOf(root.Managers);
    const manager = managedBy ?? (managers && linkOf(((await getResource(call, managers)).Members as unknown[] | undefined)?.[0]));
    if (!manager) throw new Error("the BMC lists no manager, where its virtual media is");
    collection = linkOf((await getResource(call, manager)).VirtualMedia);
  }
  if (!collection) throw new Error("the BMC has no virtual media");
  for (const member of ((await getResource(call, collection)).Members as unknown[] | undefined) ?? []) {
    const path = linkOf(member);
    if (!path) continue;
    const media = await getResource(call, path);
    const types = (media.MediaTypes as string[] | undefined) ?? [];
    if (types.includes("CD") || types.includes("DVD")) return media;
  }
  throw new Error(`the BMC's virtual media (${collection}) has no CD or DVD drive`);
}

/** An action of the virtual CD at the target it names, else (older BMCs name no action) a PATCH of the resource. */
async function mediaAction(
  cd: Record<string, unknown>,
  name: string,
  body: Record<string, unknown>,
  patch: Record<string, unknown>,
  call: Call,
) {
  const path = String(cd["@odata.id"]);
  const target = (cd.Actions as Record<string, { target?: string } | undefined> | undefined)?.[`#VirtualMedia.${name}`]?.target;
  return target ? call("POST", target, body) : call("PATCH", path, patch);
}

/**
 * Virtual media: `insert` has the relay build and serve the node's boot image, ejects what the CD
 * holds, inserts the image's URL (write-protected) and sets a one-time boot from the CD; `eject`
 * takes the image out (and the relay stops serving it).
 */
async function virtualMedia(
  where: Target,
  action: Extract<JobAction, { kind: "virtualMedia" }>,
  call: Call,
  media: MediaLibrary | undefined,
  job: JobContext | undefined,
): Promise<DriverResult> {
  const { system } = where;
  const cd = await virtualCd(where, call);
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
async function readFirmware(root: Record<string, unknown>, call: Call): Promise<DriverResult> {
  const service = linkOf(root.UpdateService);
  if (!service) return failed("Redfish: the service root links no UpdateService, where the firmware inventory is");
  const update = await getResource(call, service);
  const inventory = linkOf(update.FirmwareInventory);
  if (!inventory) return failed(`Redfish: ${service} links no FirmwareInventory`);
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

/** An attribute as the BIOS attribute registry describes it (DMTF's AttributeRegistry schema). */
interface RegistryAttribute {
  AttributeName?: string;
  Type?: string;
  ReadOnly?: boolean;
  Value?: { ValueName?: string }[];
  LowerBound?: number;
  UpperBound?: number;
}

/**
 * The Bios resource's attribute registry's entries, by name: the registry the service root's
 * Registries lists under the Bios resource's `AttributeRegistry`, at its Location's Uri; none
 * where the BMC publishes none (the attributes' own types are then all that is checked).
 */
async function registryOf(root: Record<string, unknown>, name: unknown, call: Call): Promise<Map<string, RegistryAttribute> | undefined> {
  const registries = linkOf(root.Registries);
  if (typeof name !== "string" || !registries) return undefined;
  const members = ((await getResource(call, registries)).Members as unknown[] | undefined)?.map(linkOf) ?? [];
  const file = members.find((id) => id?.replace(/\/+$/, "").split("/").pop() === name);
  if (!file) return undefined;
  const locations = ((await getResource(call, file)).Location as { Uri?: string }[] | undefined) ?? [];
  const uri = locations.find((location) => typeof location.Uri === "string")?.Uri;
  if (!uri) return undefined;
  const entries = (await getResource(call, uri)).RegistryEntries as { Attributes?: RegistryAttribute[] } | undefined;
  return new Map((entries?.Attributes ?? []).flatMap((entry) => (entry.AttributeName ? [[entry.AttributeName, entry]] : [])));
}

/** Why the registry does not take `value` for `name`, or undefined. */
function refusedByRegistry(entry: RegistryAttribute, name: string, value: unknown): string | undefined {
  if (entry.ReadOnly) return `${name} is read-only`;
  if (entry.Type === "Enumeration") {
    const allowed = (entry.Value ?? []).map((each) => each.ValueName).filter((each) => each !== undefined);
    return allowed.includes(String(value)) && typeof value === "string" ? undefined : `${name} takes ${allowed.join(", ")}`;
  }
  if (entry.Type === "Integer") {
    const fits =
      Number.isInteger(value) &&
      (entry.LowerBound === undefined || (value as number) >= entry.LowerBound) &&
      (entry.UpperBound === undefined || (value as number) <= entry.UpperBound);
    return fits ? undefined : `${name} takes an integer from ${entry.LowerBound ?? "any"} to ${entry.UpperBound ?? "any"}`;
  }
  if (entry.Type === "Boolean") return typeof value === "boolean" ? undefined : `${name} takes true or false`;
  return undefined;
}

/**
 * BIOS attributes for the next reset: each checked against the attribute registry (its allowed
 * values named when one is not), then PATCHed to the settings object the Bios resource names
 * (DMTF's `@Redfish.Settings`), else `Bios/Settings`.
 */
async function setBios({ system, root }: Target, attributes: Record<string, unknown>, call: Call): Promise<DriverResult> {
  const resource = await getResource(call, system);
  const path = biosPath(resource, system);
  const bios = await getResource(call, path);
  const settings =
    (bios["@Redfish.Settings"] as { SettingsObject?: { "@odata.id"?: string } } | undefined)?.SettingsObject?.["@odata.id"] ??
    `${path}/Settings`;
  const unknown = Object.keys(attributes).filter((name) => !Object.hasOwn((bios.Attributes ?? {}) as object, name));
  if (unknown.length > 0)
    return failed(`The BIOS has no attribute ${unknown.join(", ")} (it has ${Object.keys((bios.Attributes ?? {}) as object).length})`);
  const registry = await registryOf(root, bios.AttributeRegistry, call);
  const refused = Object.entries(attributes).flatMap(([name, value]) => {
    const entry = registry?.get(name);
    const why = entry && refusedByRegistry(entry, name, value);
    return why ? [why] : [];
  });
  if (refused.length > 0) return failed(`The BIOS attribute registry (${String(bios.AttributeRegistry)}) refuses: ${refused.join("; ")}`);
  return answered(
    await call("PATCH", settings, { Attributes: attributes }),
    `BIOS attributes ${Object.keys(attributes).join(", ")} set for the next reset`,
  );
}

/** The ResetTypes the system lists as allowed, or undefined when it lists none (many BMCs do not). */
export function allowedResets(system: Record<string, unknown>): string[] | undefined {
  return allowedValues(resetAction(system), "ResetType");
}

/** Performs a reset (POSTed to `target`, the action the system advertises) the first way the BMC allows, or tries each way in turn where it lists none. */
async function reset(
  target: string,
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
      answer = await resetOnce(target, type, call, timing);
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
async function resetOnce(target: string, type: string, call: Call, timing: RedfishTiming): Promise<Answer> {
  const answer = await call("POST", target, { ResetType: type });
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
