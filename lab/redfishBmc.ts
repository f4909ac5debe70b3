import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A Redfish BMC for the tests and the lab, a STAND-IN: no Redfish emulator can be installed on these machines
 * (sushy-tools and DMTF's mockup server are Python packages outside the registries they reach). Like
 * ipmi_sim, it really acts: its power is a QEMU machine's (lab/qmpMachine.ts), started,
 * stopped and reset through QMP; no power state is kept as a value. It serves, over HTTPS with its own self-signed
 * certificate, the few resources a relay uses, in the shapes of DMTF's public mockups (the
 * "public-rackmount1" system 437XR1138R2), some at other paths than the usual (SYSTEMS below): the service root, the systems collection, one
 * ComputerSystem with `Boot`, `PowerState`, `IndicatorLED` and its Reset action, and the session
 * service (X-Auth-Token, with a limit of open sessions, as BMCs have). It checks Basic credentials
 * or a session's token, and acts as the BMCs the relay must survive when told to: it refuses a
 * `BootSourceOverrideMode` (bmclib retries without), leaves out `ResetType@Redfish.AllowableValues`,
 * does not perform ForceRestart (older iDRACs: ForceOff, then On), answers a Reset 202 with a task
 * monitor, and refuses a session past its limit, with DMTF-style error bodies. The relay's driver
 * does not know it talks to a stand-in. Its BIOS (issue 53) is a Bios resource whose attributes a
 * PATCH of `Bios/Settings` changes only at the machine's next reset or power-on, as a server's does,
 * kept across resets for as long as the BMC runs; its firmware inventory is UpdateService's.
 * Its boot override is kept as a BMC keeps it: a `Once` target is the device the machine's next
 * start boots first (then it is `Disabled`), `Continuous` every start's. Its manager's virtual
 * media (issue 53) is one CD: `VirtualMedia.InsertMedia` fetches the image from its URL over HTTP
 * into the BMC's own storage, as a BMC does, and puts it in the machine's CD drive (QEMU's
 * blockdev-change-medium when it runs, the drive's image at its next start); `EjectMedia` takes it out.
 */
export interface RedfishBmc {
  url: string;
  /** The certificate to pin (PEM). */
  ca: string;
  system: () => { PowerState: string; Boot: Record<string, unknown>; IndicatorLED: string };
  /** Its virtual CD: the image's URL, and whether one is inserted. */
  media: () => { Image: string | null; Inserted: boolean };
  /** Its BIOS attributes: those in effect, and those set for the next reset. */
  bios: () => { current: Record<string, unknown>; pending: Record<string, unknown> };
  requests: string[];
  /** Sessions opened and not yet closed. */
  openSessions: () => number;
  close: () => Promise<void>;
}

/**
 * Where it serves its resources: not all at the paths most BMCs use (its systems collection, its
 * sessions and its Reset action are elsewhere, as some BMCs' are), so a client that builds paths
 * instead of following the service root's links and the actions' targets fails against it.
 */
const SYSTEMS = "/redfish/v1/ComputerSystems";
const SESSIONS = "/redfish/v1/SessionService/ActiveSessions";
const SYSTEM = "/redfish/v1/Systems/437XR1138R2";
const RESET = `${SYSTEM}/Actions/Reset`;
const REGISTRIES = "/redfish/v1/Registries";
const BIOS_REGISTRY = "BiosAttributeRegistryP89.v1_0_0";
const BIOS_REGISTRY_FILE = `/redfish/v1/registryfiles/${BIOS_REGISTRY}.json`;
const BIOS = `${SYSTEM}/Bios`;
const FIRMWARE = "/redfish/v1/UpdateService/FirmwareInventory";
/** The mockup's BIOS attributes (a few of DMTF's public-rackmount1 Bios), each with the type its registry gives. */
const BIOS_DEFAULTS: Record<string, string | number | boolean> = {
  BootMode: "Uefi",
  ProcTurboMode: "Enabled",
  ProcCoreDisable: 0,
  SriovGlobalEnable: false,
  EmbeddedSata: "Raid",
  NicBoot1: "NetworkBoot",
  NicBoot2: "Disabled",
};
/** Its BIOS attribute registry's entries (DMTF's AttributeRegistry schema): what each attribute takes, which a PATCH is held to. */
const BIOS_ATTRIBUTES = [
  { AttributeName: "BootMode", Type: "Enumeration", Value: [{ ValueName: "Uefi" }, { ValueName: "LegacyBios" }] },
  { AttributeName: "ProcTurboMode", Type: "Enumeration", Value: [{ ValueName: "Enabled" }, { ValueName: "Disabled" }] },
  { AttributeName: "ProcCoreDisable", Type: "Integer", LowerBound: 0, UpperBound: 8 },
  { AttributeName: "SriovGlobalEnable", Type: "Boolean" },
  { AttributeName: "EmbeddedSata", Type: "Enumeration", Value: [{ ValueName: "Raid" }, { ValueName: "Ahci" }] },
  { AttributeName: "NicBoot1", Type: "Enumeration", Value: [{ ValueName: "NetworkBoot" }, { ValueName: "Disabled" }] },
  { AttributeName: "NicBoot2", Type: "Enumeration", Value: [{ ValueName: "NetworkBoot" }, { ValueName: "Disabled" }] },
];

/** Whether the registry takes `value` for `name`. */
const registryTakes = (name: string, value: unknown): boolean => {
  const entry = BIOS_ATTRIBUTES.find((each) => each.AttributeName === name);
  if (!entry) return false;
  if (entry.Type === "Enumeration") return (entry.Value ?? []).some((each) => each.ValueName === value);
  if (entry.Type === "Integer")
    return Number.isInteger(value) && (value as number) >= (entry.LowerBound ?? 0) && (value as number) <= (entry.UpperBound ?? 0);
  return typeof value === "boolean";
};

/** Its firmware inventory: the BMC's own, the BIOS's and a NIC's. */
const FIRMWARE_ITEMS = [
  { Id: "BMC", Name: "Manager firmware", Version: "1.45.455b66-rev4", Updateable: true },
  { Id: "BIOS", Name: "Contoso BIOS Firmware", Version: "P79 v1.45 (12/06/2017)", Updateable: true },
  { Id: "NIC", Name: "Contoso Ethernet Adapter firmware", Version: "14.20.1010", Updateable: false },
];
const CHASSIS = "/redfish/v1/Chassis/1U";
const RESET_TYPES = ["On", "ForceOff", "GracefulShutdown", "GracefulRestart", "ForceRestart", "PowerCycle"];
const TARGETS = ["None", "Pxe", "Hdd", "Cd", "UefiHttp", "BiosSetup"];
const MANAGER = "/redfish/v1/Managers/BMC";
const CD = `${MANAGER}/VirtualMedia/CD1`;
/** The largest image it takes (a BMC's own storage is small; the microkernel's image is some 30 MB). */
const IMAGE_MAX_BYTES = 512 << 20;

/** An image fetched to a file, as a BMC copies a remote image (up to IMAGE_MAX_BYTES). */
async function fetchImage(url: string, file: string): Promise<void> {
  const answer = await fetch(url, { signal: AbortSignal.timeout(120_000) });
  if (answer.status !== 200) throw new Error(`it answered ${answer.status}`);
  const bytes = Buffer.from(await answer.arrayBuffer());
  if (bytes.length > IMAGE_MAX_BYTES) throw new Error(`it is larger than ${IMAGE_MAX_BYTES} bytes`);
  writeFileSync(file, bytes);
}

const error = (code: string, message: string) => ({
  error: { code: `Base.1.8.${code}`, message, "@Message.ExtendedInfo": [{ MessageId: `Base.1.8.${code}`, Message: message }] },
});

export interface RedfishMachine {
  running: () => boolean;
  reset: (type: string) => Promise<void>;
  stop: () => Promise<void>;
  /** Its CD drive's image (lab/qmpMachine.ts); a machine without one has no virtual media. */
  insertMedia?: (file: string | undefined) => Promise<void>;
  /** The device its next start boots first. */
  bootOnce?: (target: string | undefined) => void;
}

export async function startRedfishBmc(options: {
  user: string;
  password: string;
  rejectBootMode?: boolean;
  /** The ResetTypes it performs (default: all six); others are refused as not supported. */
  resetTypes?: readonly string[];
  /** Whether its system lists `ResetType@Redfish.AllowableValues` (default true; many BMCs do not). */
  listsResetTypes?: boolean;
  /** Answer a Reset 202 with a task monitor (Location) that ends a moment later, as iDRAC and iLO do. */
  taskMonitor?: boolean;
  /** The boot targets it allows (default: None, Pxe, Hdd, Cd, UefiHttp, BiosSetup); another is refused 400 (PropertyValueNotInList). */
  bootTargets?: readonly string[];
  /** Answers a resource with a body that is not its JSON, as broken BMCs do: the system's cut short, or an HTML page for the systems collection. */
  notJson?: "system" | "systems";
  /** Its session service's limit of open sessions (default 4); one more is refused 503 (SessionLimitExceeded). */
  sessionLimit?: number;
  /** The QEMU machine whose power this BMC drives (lab/qmpMachine.ts): a booting one, or an idle one. */
  machine: RedfishMachine;
  /** Where it listens (default: 127.0.0.1 on a free port); the lab's is a loopback address of its own on 443, as a BMC's. */
  listen?: { address: string; port: number };
}): Promise<RedfishBmc> {
  const dir = mkdtempSync(join(tmpdir(), "redfish-bmc-"));
  const listen = options.listen ?? { address: "127.0.0.1", port: 0 };
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      `/CN=${listen.address}`,
      "-addext",
      `subjectAltName=IP:${listen.address}`,
    ].concat(["-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")]),
    { stdio: "ignore" },
  );
  const ca = readFileSync(join(dir, "cert.pem"), "utf8");
  const state = {
    IndicatorLED: "Off",
    Boot: { BootSourceOverrideTarget: "None", BootSourceOverrideEnabled: "Disabled" } as Record<string, unknown>,
  };
  const bios = { current: { ...BIOS_DEFAULTS }, pending: {} as Record<string, string | number | boolean> };
  /** A reset or power-on is when the firmware reads its settings: the pending ones become current. */
  const applyBiosSettings = () => {
    bios.current = { ...bios.current, ...bios.pending };
    bios.pending = {};
  };
  const media = { Image: null as string | null, Inserted: false, fetches: 0 };
  /** A start reads the boot override: a Once target is used up. */
  const applyBootOverride = () => {
    const enabled = state.Boot.BootSourceOverrideEnabled;
    if (enabled !== "Once" && enabled !== "Continuous") return options.machine.bootOnce?.(undefined);
    options.machine.bootOnce?.(String(state.Boot.BootSourceOverrideTarget));
    if (enabled === "Once") state.Boot = { ...state.Boot, BootSourceOverrideEnabled: "Disabled", BootSourceOverrideTarget: "None" };
  };
  const requests: string[] = [];
  const sessions = new Map<string, string>();
  let sessionCount = 0;
  const tasks = new Map<string, number>();
  const resetTypes = options.resetTypes ?? RESET_TYPES;
  const targets = options.bootTargets ?? TARGETS;
  const powered = () => options.machine.running();
  const powerState = () => (powered() ? "On" : "Off");
  const send = (response: ServerResponse, status: number, body: unknown) =>
    status === 204
      ? response.writeHead(204).end()
      : response.writeHead(status, { "content-type": "application/json", "odata-version": "4.0" }).end(JSON.stringify(body));

  const handle = (request: IncomingMessage, response: ServerResponse, raw: string) => {
    const path = (request.url ?? "").split("?")[0].replace(/\/$/, "");
    requests.push(`${request.method} ${path}${raw ? ` ${raw}` : ""}`);
    const expected = `Basic ${Buffer.from(`${options.user}:${options.password}`).toString("base64")}`;
    const token = request.headers["x-auth-token"];
    const signedIn = request.headers.authorization === expected || (typeof token === "string" && [...sessions.values()].includes(token));
    // The session service: POST with the credentials in the body (no other credentials needed).
    if (request.method === "POST" && path === SESSIONS) {
      let login: { UserName?: unknown; Password?: unknown } = {};
      try {
        login = JSON.parse(raw || "{}");
      } catch {
        // refused below
      }
      if (login.UserName !== options.user || login.Password !== options.password)
        return send(response, 401, error("InsufficientPrivilege", "The user name or password is not valid."));
      if (sessions.size >= (options.sessionLimit ?? 4))
        return send(
          response,
          503,
          error(
            "SessionLimitExceeded",
            "The session establishment failed due to the number of simultaneous sessions exceeding the limit of the implementation.",
          ),
        );
      sessionCount += 1;
      const id = String(sessionCount);
      const secret = `token-${id}-${Math.random().toString(36).slice(2)}`;
      sessions.set(id, secret);
      const location = `${SESSIONS}/${id}`;
      response.writeHead(201, { "content-type": "application/json", "x-auth-token": secret, location });
      return response.end(JSON.stringify({ "@odata.id": location, Id: id, UserName: options.user }));
    }
    // The service root: open to all, as Redfish says.
    if (request.method === "GET" && path === "/redfish/v1")
      return send(response, 200, {
        "@odata.id": "/redfish/v1",
        Id: "RootService",
        RedfishVersion: "1.15.0",
        Systems: { "@odata.id": SYSTEMS },
        SessionService: { "@odata.id": "/redfish/v1/SessionService" },
        UpdateService: { "@odata.id": "/redfish/v1/UpdateService" },
        Managers: { "@odata.id": "/redfish/v1/Managers" },
        Registries: { "@odata.id": REGISTRIES },
        Links: { Sessions: { "@odata.id": SESSIONS } },
      });
    if (signedIn && request.method === "DELETE" && path.startsWith(`${SESSIONS}/`)) {
      const id = path.split("/").pop() ?? "";
      if (!sessions.delete(id)) return send(response, 404, error("ResourceMissingAtURI", `The resource at the URI ${path} was not found.`));
      return send(response, 204, {});
    }
    if (signedIn && request.method === "GET" && path.startsWith("/redfish/v1/TaskService/Tasks/")) {
      const left = tasks.get(path);
      if (left === undefined) return send(response, 404, error("ResourceMissingAtURI", `The resource at the URI ${path} was not found.`));
      if (left > 0) {
        tasks.set(path, left - 1);
        response.writeHead(202, { "content-type": "application/json", location: path, "retry-after": "1" });
        return response.end(JSON.stringify({ "@odata.id": path, TaskState: "Running" }));
      }
      return send(response, 200, { "@odata.id": path, TaskState: "Completed", TaskStatus: "OK" });
    }
    if (!signedIn)
      return send(
        response,
        401,
        error(
          "InsufficientPrivilege",
          "There are insufficient privileges for the account or credentials associated with the current session to perform the requested operation.",
        ),
      );
    let body: Record<string, unknown> = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      return send(
        response,
        400,
        error("MalformedJSON", "The request body submitted was malformed JSON and could not be parsed by the receiving service."),
      );
    }
    const route = `${request.method} ${path}`;
    if (route === `GET ${REGISTRIES}`)
      return send(response, 200, {
        "@odata.id": REGISTRIES,
        Members: [{ "@odata.id": `${REGISTRIES}/${BIOS_REGISTRY}` }],
        "Members@odata.count": 1,
      });
    if (route === `GET ${REGISTRIES}/${BIOS_REGISTRY}`)
      return send(response, 200, {
        "@odata.id": `${REGISTRIES}/${BIOS_REGISTRY}`,
        Id: BIOS_REGISTRY,
        Registry: BIOS_REGISTRY,
        Location: [{ Language: "en", Uri: BIOS_REGISTRY_FILE }],
      });
    if (route === `GET ${BIOS_REGISTRY_FILE}`)
      return send(response, 200, { Id: BIOS_REGISTRY, RegistryVersion: "1.0.0", RegistryEntries: { Attributes: BIOS_ATTRIBUTES } });
    if (route === "GET /redfish/v1/Managers")
      return send(response, 200, { "@odata.id": "/redfish/v1/Managers", Members: [{ "@odata.id": MANAGER }], "Members@odata.count": 1 });
    if (route === `GET ${MANAGER}`)
      return send(response, 200, {
        "@odata.id": MANAGER,
        Id: "BMC",
        ManagerType: "BMC",
        VirtualMedia: { "@odata.id": `${MANAGER}/VirtualMedia` },
      });
    if (route === `GET ${MANAGER}/VirtualMedia`)
      return send(response, 200, { "@odata.id": `${MANAGER}/VirtualMedia`, Members: [{ "@odata.id": CD }], "Members@odata.count": 1 });
    if (route === `GET ${CD}`)
      return send(response, 200, {
        "@odata.id": CD,
        Id: "CD1",
        MediaTypes: ["CD", "DVD"],
        Image: media.Image,
        Inserted: media.Inserted,
        WriteProtected: true,
        ConnectedVia: media.Inserted ? "URI" : "NotConnected",
        Actions: {
          "#VirtualMedia.InsertMedia": { target: `${CD}/Actions/VirtualMedia.InsertMedia` },
          "#VirtualMedia.EjectMedia": { target: `${CD}/Actions/VirtualMedia.EjectMedia` },
        },
      });
    if (route === `POST ${CD}/Actions/VirtualMedia.InsertMedia`) {
      const image = typeof body.Image === "string" && URL.canParse(body.Image) ? new URL(body.Image) : undefined;
      if (image?.protocol !== "http:")
        return send(response, 400, error("ActionParameterValueFormatError", "The value for the parameter Image is not an http URI."));
      if (media.Inserted) return send(response, 409, error("ResourceInUse", "The virtual media is in use: eject it first."));
      media.fetches += 1;
      const file = join(dir, `image-${media.fetches}.iso`);
      fetchImage(image.href, file).then(
        () =>
          (options.machine.insertMedia?.(file) ?? Promise.resolve()).then(() => {
            media.Image = image.href;
            media.Inserted = true;
            send(response, 204, {});
          }),
        (failure: Error) =>
          send(response, 400, error("ActionParameterValueError", `The image at ${image.href} could not be read: ${failure.message}`)),
      );
      return;
    }
    if (route === `POST ${CD}/Actions/VirtualMedia.EjectMedia`) {
      media.Image = null;
      media.Inserted = false;
      (options.machine.insertMedia?.(undefined) ?? Promise.resolve()).then(() => send(response, 204, {}));
      return;
    }
    if (route === "GET /redfish/v1/UpdateService")
      return send(response, 200, {
        "@odata.id": "/redfish/v1/UpdateService",
        Id: "UpdateService",
        FirmwareInventory: { "@odata.id": FIRMWARE },
      });
    if (route === `GET ${FIRMWARE}`)
      return send(response, 200, {
        "@odata.id": FIRMWARE,
        Members: FIRMWARE_ITEMS.map((item) => ({ "@odata.id": `${FIRMWARE}/${item.Id}` })),
        "Members@odata.count": FIRMWARE_ITEMS.length,
      });
    const item = FIRMWARE_ITEMS.find((each) => route === `GET ${FIRMWARE}/${each.Id}`);
    if (item) return send(response, 200, { "@odata.id": `${FIRMWARE}/${item.Id}`, ...item, Status: { State: "Enabled", Health: "OK" } });
    if (route === `GET ${BIOS}`)
      return send(response, 200, {
        "@odata.id": BIOS,
        Id: "BIOS",
        AttributeRegistry: BIOS_REGISTRY,
        Attributes: bios.current,
        "@Redfish.Settings": { SettingsObject: { "@odata.id": `${BIOS}/Settings` } },
      });
    if (route === `GET ${BIOS}/Settings`) return send(response, 200, { "@odata.id": `${BIOS}/Settings`, Attributes: bios.pending });
    if (route === `PATCH ${BIOS}/Settings`) {
      const attributes = (body.Attributes ?? {}) as Record<string, unknown>;
      const wrong = Object.entries(attributes).find(
        ([name, value]) => !Object.hasOwn(BIOS_DEFAULTS, name) || typeof value !== typeof BIOS_DEFAULTS[name],
      );
      if (wrong)
        return send(
          response,
          400,
          error(
            "PropertyUnknown",
            `The property ${wrong[0]} is not in the list of valid properties for the resource, or its value's type is wrong.`,
          ),
        );
      const outside = Object.entries(attributes).find(([name, value]) => !registryTakes(name, value));
      if (outside)
        return send(
          response,
          400,
          error(
            "PropertyValueNotInList",
            `The value ${JSON.stringify(outside[1])} for the property ${outside[0]} is not in the list of acceptable values.`,
          ),
        );
      bios.pending = { ...bios.pending, ...(attributes as Record<string, string | number | boolean>) };
      return send(response, 200, { "@odata.id": `${BIOS}/Settings`, Attributes: bios.pending });
    }
    if (route === `GET ${SYSTEMS}` && options.notJson === "systems")
      return response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>Login</title><p>Please sign in");
    if (route === `GET ${SYSTEM}` && options.notJson === "system")
      return response
        .writeHead(200, { "content-type": "application/json" })
        .end('{"@odata.id": "/redfish/v1/Systems/437XR1138R2", "PowerSta');
    if (route === `GET ${SYSTEMS}`)
      return send(response, 200, { "@odata.id": SYSTEMS, Members: [{ "@odata.id": SYSTEM }], "Members@odata.count": 1 });
    if (route === `GET ${SYSTEM}`) {
      return send(response, 200, {
        "@odata.id": SYSTEM,
        Id: "437XR1138R2",
        Name: "WebFrontEnd483",
        SystemType: "Physical",
        PowerState: powerState(),
        IndicatorLED: state.IndicatorLED,
        Boot: { ...state.Boot, "BootSourceOverrideTarget@Redfish.AllowableValues": targets, BootOrder: ["NIC.Slot.1-1", "Disk.Bay.0"] },
        Bios: { "@odata.id": BIOS },
        Links: { Chassis: [{ "@odata.id": CHASSIS }], ManagedBy: [{ "@odata.id": MANAGER }] },
        Actions: {
          "#ComputerSystem.Reset": {
            target: RESET,
            ...(options.listsResetTypes !== false && { "ResetType@Redfish.AllowableValues": resetTypes }),
          },
        },
      });
    }
    // The chassis, its temperatures and fans, and the power it draws (more when the machine runs).
    if (route === `GET ${CHASSIS}`)
      return send(response, 200, {
        "@odata.id": CHASSIS,
        Id: "1U",
        ChassisType: "RackMount",
        Thermal: { "@odata.id": `${CHASSIS}/Thermal` },
        Power: { "@odata.id": `${CHASSIS}/Power` },
      });
    if (route === `GET ${CHASSIS}/Thermal`)
      return send(response, 200, {
        "@odata.id": `${CHASSIS}/Thermal`,
        Temperatures: [
          { Name: "CPU1 Temp", ReadingCelsius: powered() ? 41 : 22, Status: { State: "Enabled", Health: "OK" } },
          { Name: "Inlet Temp", ReadingCelsius: 21, Status: { State: "Enabled", Health: "OK" } },
        ],
        Fans: [{ Name: "BaseBoard System Fan", Reading: powered() ? 2100 : 0, ReadingUnits: "RPM", Status: { Health: "OK" } }],
      });
    if (route === `GET ${CHASSIS}/Power`)
      return send(response, 200, {
        "@odata.id": `${CHASSIS}/Power`,
        PowerControl: [{ Name: "System Power Control", PowerConsumedWatts: powered() ? 344 : 8, PowerCapacityWatts: 800 }],
      });
    if (route === `PATCH ${SYSTEM}`) {
      const boot = body.Boot as Record<string, unknown> | undefined;
      if (boot && "BootSourceOverrideMode" in boot && options.rejectBootMode) {
        return send(
          response,
          400,
          error("PropertyNotWritable", "The property BootSourceOverrideMode is a read only property and cannot be assigned a value."),
        );
      }
      if (boot && !targets.includes(String(boot.BootSourceOverrideTarget))) {
        return send(
          response,
          400,
          error(
            "PropertyValueNotInList",
            `The value ${String(boot.BootSourceOverrideTarget)} for the property BootSourceOverrideTarget is not in the list of acceptable values.`,
          ),
        );
      }
      if (boot) state.Boot = { ...state.Boot, ...boot };
      if (typeof body.IndicatorLED === "string") state.IndicatorLED = body.IndicatorLED;
      return send(response, 200, { "@odata.id": SYSTEM, PowerState: powerState(), Boot: state.Boot });
    }
    if (route === `POST ${RESET}`) {
      const type = String(body.ResetType);
      if (!resetTypes.includes(type))
        return send(
          response,
          400,
          error(
            "ActionParameterNotSupported",
            `The parameter ResetType for the action ComputerSystem.Reset is not supported on the target resource.`,
          ),
        );
      // With a task monitor: 202 at once, the task running for two more reads of its monitor.
      const done = () => {
        if (!options.taskMonitor) return send(response, 204, {});
        const monitor = `/redfish/v1/TaskService/Tasks/${tasks.size + 1}`;
        tasks.set(monitor, 2);
        response.writeHead(202, { "content-type": "application/json", location: monitor });
        return response.end(JSON.stringify({ "@odata.id": monitor, TaskState: "Running" }));
      };
      // The firmware reads its settings as the machine starts: not at a power-off.
      if (!["ForceOff", "GracefulShutdown"].includes(type)) {
        applyBiosSettings();
        applyBootOverride();
      }
      options.machine.reset(type).then(done, (error: Error) => send(response, 500, error.message));
      return;
    }
    return send(response, 404, error("ResourceMissingAtURI", `The resource at the URI ${path} was not found.`));
  };

  const server = createServer({ key: readFileSync(join(dir, "key.pem")), cert: ca }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => handle(request, response, Buffer.concat(chunks).toString("utf8")));
  });
  await new Promise<void>((resolve) => server.listen(listen.port, listen.address, resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `https://${listen.address}${port === 443 ? "" : `:${port}`}`,
    ca,
    bios: () => ({ current: { ...bios.current }, pending: { ...bios.pending } }),
    media: () => ({ Image: media.Image, Inserted: media.Inserted }),
    system: () => ({
      PowerState: powerState(),
      Boot: { ...state.Boot },
      IndicatorLED: state.IndicatorLED,
    }),
    requests,
    openSessions: () => sessions.size,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await options.machine.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
