import { execFile } from "node:child_process";
import { IPMITOOL_POLL_ARGS, type IpmiPollCommand, type JobAction } from "../../lib/wire/relay";
import { type Driver, type DriverResult, failed, text, unknownKind } from "./driver";

/**
 * IPMI over LAN through Debian's `ipmitool`, as RackHD's ipmi-obm-service drove it. The OBM
 * config: host, port (623), user, password, privilege (ADMINISTRATOR), cipherSuite (3: naming it
 * spares the BMC a cipher-suite query that some answer slowly or not at all), interface (lanplus).
 * The password goes through the environment (`-E`), never the command line, where `ps` shows it.
 */
export interface IpmitoolOptions {
  /** The ipmitool binary (tests may point elsewhere). */
  binary?: string;
  timeoutMs?: number;
}

const POWER: Record<string, string> = { on: "on", off: "off", cycle: "cycle", reset: "reset", soft: "soft", status: "status" };

function argsFor(config: Record<string, unknown>): string[] | string {
  const host = text(config, "host");
  if (!host) return "The IPMI OBM setting has no host";
  const args = ["-I", text(config, "interface") ?? "lanplus", "-H", host, "-p", text(config, "port") ?? "623", "-E"];
  const user = text(config, "user");
  if (user) args.push("-U", user);
  args.push("-L", text(config, "privilege") ?? "ADMINISTRATOR", "-C", text(config, "cipherSuite") ?? "3", "-R", "2", "-N", "2");
  return args;
}

export function ipmitoolDriver(options: IpmitoolOptions = {}): Driver {
  const run = (config: Record<string, unknown>, command: string[]): Promise<DriverResult> => {
    const args = argsFor(config);
    if (typeof args === "string") return Promise.resolve(failed(args));
    const env = { ...process.env, IPMI_PASSWORD: text(config, "password") ?? "" };
    return new Promise((resolve) => {
      execFile(
        options.binary ?? "ipmitool",
        [...args, ...command],
        { env, timeout: options.timeoutMs ?? 30_000 },
        (error, stdout, stderr) => {
          const output = `${stdout}`.trim();
          if (!error) return resolve({ ok: true, output });
          // The BMC's (or ipmitool's) own words: the last lines it wrote are the ones that say why.
          const said = `${stderr}`.trim().split("\n").slice(-3).join(" ").trim();
          const why = error.killed ? `ipmitool gave no answer within ${(options.timeoutMs ?? 30_000) / 1000} s` : said || error.message;
          resolve(failed(why, output));
        },
      );
    });
  };

  return async (config, action: JobAction) => {
    const unknown = unknownKind(action);
    if (unknown) return unknown;
    if (action.kind === "identify") return run(config, ["chassis", "identify", action.on ? "force" : "0"]);
    if (action.kind === "inventory" || action.kind === "biosSettings")
      return failed("IPMI has no BIOS attributes or firmware inventory: a Redfish OBM setting reads and sets them");
    if (action.kind === "virtualMedia") return failed("IPMI has no virtual media: a Redfish OBM setting inserts a boot image");
    if (action.kind === "poll") {
      const args = Object.hasOwn(IPMITOOL_POLL_ARGS, action.command) ? IPMITOOL_POLL_ARGS[action.command as IpmiPollCommand] : undefined;
      return args ? run(config, args) : failed(`IPMI has no ${action.command} poll: it is a Redfish poller's`);
    }
    if (action.kind === "bootDevice") {
      if (action.device === "http") return failed("IPMI has no UEFI HTTP boot device: use a Redfish OBM setting for HTTP boot");
      const device = action.device === "pxe" ? "pxe" : "disk";
      return run(config, ["chassis", "bootdev", device, ...(action.uefi ? ["options=efiboot"] : [])]);
    }
    if (action.action === "reboot") {
      // RackHD's reboot of a machine that may be off: on when off, else reset.
      const status = await run(config, ["chassis", "power", "status"]);
      if (!status.ok) return status;
      const next = await run(config, ["chassis", "power", /is off/i.test(status.output) ? "on" : "reset"]);
      return { ...next, output: `${status.output}\n${next.output}`.trim() };
    }
    return run(config, ["chassis", "power", POWER[action.action]]);
  };
}
