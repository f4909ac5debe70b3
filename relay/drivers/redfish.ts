import { request } from "node:https";
import type { JobAction } from "../../lib/provisioning/relays/job";
import { type Driver, type DriverResult, failed, text } from "./driver";

/**
 * Redfish over HTTPS, as RackHD's redfish-obm-service and bmclib drive it: the first (or the
 * named, `systemId`) ComputerSystem's Reset action, a one-time boot override, its PowerState and
 * its indicator LED. The OBM config: uri (https://bmc), user, password, and TLS: verified unless
 * `verifySSL` is false, against `ca` (a PEM certificate to pin) when given.
 */
interface Answer {
  status: number;
  body: Record<string, unknown>;
}

const RESET: Record<string, string> = { on: "On", off: "ForceOff", soft: "GracefulShutdown", cycle: "PowerCycle", reset: "ForceRestart" };
const TARGET: Record<string, string> = { pxe: "Pxe", disk: "Hdd", http: "UefiHttp" };

export function redfishDriver(options: { timeoutMs?: number } = {}): Driver {
  return async (config, action) => {
    const base = text(config, "uri");
    if (!base) return failed("The Redfish OBM setting has no uri");
    const call = (method: string, path: string, body?: unknown) =>
      send(config, new URL(path, base), method, body, options.timeoutMs ?? 30_000);
    try {
      const system = await systemPath(config, call);
      return await perform(system, action, call);
    } catch (error) {
      return failed(`Redfish: ${(error as Error).message}`);
    }
  };
}

type Call = (method: string, path: string, body?: unknown) => Promise<Answer>;

async function systemPath(config: Record<string, unknown>, call: Call): Promise<string> {
  const named = text(config, "systemId");
  if (named) return `/redfish/v1/Systems/${encodeURIComponent(named)}`;
  const systems = await call("GET", "/redfish/v1/Systems");
  if (systems.status !== 200) throw new Error(`GET /redfish/v1/Systems answered ${systems.status}: ${messageOf(systems)}`);
  const first = (systems.body.Members as { "@odata.id"?: string }[] | undefined)?.[0]?.["@odata.id"];
  if (!first) throw new Error("the BMC lists no ComputerSystem");
  return first;
}

async function perform(system: string, action: JobAction, call: Call): Promise<DriverResult> {
  if (action.kind === "poll") return failed(`Redfish has no ${action.command} poll here: IPMI pollers need an IPMI OBM setting`);
  if (action.kind === "identify")
    return answered(await call("PATCH", system, { IndicatorLED: action.on ? "Lit" : "Off" }), `IndicatorLED ${action.on ? "Lit" : "Off"}`);
  if (action.kind === "bootDevice") {
    const boot: Record<string, unknown> = {
      BootSourceOverrideTarget: TARGET[action.device],
      BootSourceOverrideEnabled: "Once",
      BootSourceOverrideMode: action.uefi ? "UEFI" : "Legacy",
      // UEFI HTTP boot from this file, where the BMC lists HttpBootUri (Redfish 2019.4 and later).
      ...(action.device === "http" && action.uri && { HttpBootUri: action.uri }),
    };
    const first = await call("PATCH", system, { Boot: boot });
    if (first.status < 300) return answered(first, `Boot once from ${boot.BootSourceOverrideTarget} (${boot.BootSourceOverrideMode})`);
    // Some BMCs refuse BootSourceOverrideMode (bmclib retries without it); try once more without.
    const { BootSourceOverrideMode: _mode, ...withoutMode } = boot;
    const second = await call("PATCH", system, { Boot: withoutMode });
    return answered(second, `Boot once from ${boot.BootSourceOverrideTarget} (the BMC refused a boot mode: ${messageOf(first)})`);
  }
  const state = async () => {
    const answer = await call("GET", system);
    if (answer.status !== 200) throw new Error(`GET ${system} answered ${answer.status}: ${messageOf(answer)}`);
    return String(answer.body.PowerState ?? "Unknown");
  };
  if (action.action === "status") return { ok: true, output: `PowerState: ${await state()}` };
  let reset = RESET[action.action];
  if (action.action === "reboot") reset = (await state()) === "Off" ? "On" : "ForceRestart";
  return answered(await call("POST", `${system}/Actions/ComputerSystem.Reset`, { ResetType: reset }), `ResetType ${reset}`);
}

const answered = (answer: Answer, what: string): DriverResult =>
  answer.status < 300 ? { ok: true, output: what } : failed(`${what}: the BMC answered ${answer.status}: ${messageOf(answer)}`);

/** A Redfish error's own words: its first extended message, else its message. */
function messageOf(answer: Answer): string {
  const error = answer.body.error as { message?: string; "@Message.ExtendedInfo"?: { Message?: string }[] } | undefined;
  return error?.["@Message.ExtendedInfo"]?.[0]?.Message ?? error?.message ?? JSON.stringify(answer.body).slice(0, 300);
}

function send(config: Record<string, unknown>, url: URL, method: string, body: unknown, timeoutMs: number): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const user = text(config, "user") ?? "";
  const password = text(config, "password") ?? "";
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method,
        timeout: timeoutMs,
        rejectUnauthorized: config.verifySSL !== false,
        ...(text(config, "ca") && { ca: text(config, "ca") }),
        headers: {
          accept: "application/json",
          authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`,
          ...(payload && { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          let parsed: Record<string, unknown> = {};
          try {
            parsed = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
          } catch {
            parsed = { error: { message: raw.slice(0, 300) } };
          }
          resolve({ status: response.statusCode ?? 0, body: parsed });
        });
      },
    );
    outgoing.on("timeout", () => outgoing.destroy(new Error(`no answer from ${url.host} within ${timeoutMs / 1000} s`)));
    outgoing.on("error", reject);
    outgoing.end(payload);
  });
}
