import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createSocket } from "node:dgram";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A real IPMI BMC: OpenIPMI's `ipmi_sim` (Debian's openipmi) serving IPMI 2.0 over LAN on
 * loopback, with user admin and the given password. Its chassis (power, boot device) is a
 * chassis_control program that keeps each value in a file, so a test reads what the BMC was told.
 */
export interface IpmiSim {
  port: number;
  /** What the chassis was told, call by call ("set power 1", "set boot pxe", …). */
  calls: () => string[];
  power: () => string;
  /** Runs an ipmitool command against the BMC over its LAN interface; answers its output. */
  ipmitool: (command: string[]) => string;
  stop: () => Promise<void>;
}

export const IPMI_TOOLS = ["/usr/bin/ipmi_sim", "/usr/bin/ipmitool"];
export const ipmiToolsMissing = (): string[] => IPMI_TOOLS.filter((tool) => !existsSync(tool));

async function freeUdpPort(): Promise<number> {
  const socket = createSocket("udp4");
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

export interface IpmiSimOptions {
  /** The chassis_control program (default: lab/chassis-control.sh, which keeps values in files). */
  chassisControl?: string;
  /** More environment for the program (it gets CHASSIS_STATE, the folder it keeps its state in). */
  env?: Record<string, string>;
  /**
   * A TCP port on loopback where the BMC's system interface waits for a QEMU machine (QEMU's
   * `ipmi-bmc-extern` device, OpenIPMI's "VM" protocol): the machine's own OS then reaches this
   * BMC through its KCS interface, as a server's OS reaches its BMC.
   */
  systemInterfacePort?: number;
  /** Where its LAN interface listens (default: 127.0.0.1 on a free port); see `freeBmcAddress`. */
  lan?: { address: string; port: number };
}

/**
 * A loopback address whose IPMI port (UDP 623) is free: a BMC there is reached as a discovered one
 * is, by the address its catalog reports and no port, as a relay reaches a real BMC. Binding 623
 * needs root (or CAP_NET_BIND_SERVICE), as the boot tier has; 127.0.0.0/8 is all loopback on Linux.
 */
export async function freeBmcAddress(): Promise<string> {
  for (let host = 40; host < 100; host += 1) {
    const address = `127.0.0.${host}`;
    const socket = createSocket("udp4");
    const bound = await new Promise<boolean>((resolve) => {
      socket.once("error", () => resolve(false));
      socket.bind(623, address, () => resolve(true));
    });
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    if (bound) return address;
  }
  throw new Error("no loopback address 127.0.0.40-99 has UDP port 623 free (binding it needs root)");
}

/** QEMU's arguments for a machine's BMC on its KCS interface: the lab's (lab/qemu.ts). */
export { bmcDevices } from "./qemu";

/** ipmitool over IPMI 2.0 LAN (cipher suite 3) to a BMC configured here (user admin), up to its command. */
export const ipmitoolArgv = (address: string, port: number, password: string): string[] => [
  "ipmitool",
  "-I",
  "lanplus",
  "-C",
  "3",
  "-H",
  address,
  "-p",
  String(port),
  "-U",
  "admin",
  "-P",
  password,
];

function ipmitool(address: string, port: number, password: string, command: string[]): string {
  const [program, ...args] = [...ipmitoolArgv(address, port, password), ...command];
  return spawnSync(program, args, { timeout: 10_000, encoding: "utf8" }).stdout ?? "";
}

/**
 * Writes ipmi_sim's configuration into `dir` (its LAN on `lan`, user admin with `password`, its
 * chassis control, its system interface) and answers ipmi_sim's arguments: the tests' BMCs and the
 * lab's (lab/lab.ts, which runs it detached in the lab's namespace) are configured by this one.
 */
export function ipmiSimConfig(
  dir: string,
  password: string,
  options: IpmiSimOptions & { lan: { address: string; port: number } },
): { args: string[]; state: string } {
  const state = join(dir, "chassis");
  mkdirSync(state, { recursive: true });
  mkdirSync(join(dir, "persist"), { recursive: true });
  const { address, port } = options.lan;
  writeFileSync(
    join(dir, "lan.conf"),
    [
      'name "bmc0"',
      "set_working_mc 0x20",
      "  startlan 1",
      `    addr ${address} ${port}`,
      "    priv_limit admin",
      ...["callback", "user", "operator", "admin"].map((level) => `    allowed_auths_${level} none md2 md5 straight`),
      "    guid a123456789abcdefa123456789abcdef",
      "  endlan",
      `  chassis_control "${options.chassisControl ?? join(__dirname, "chassis-control.sh")}"`,
      `  user 2 true "admin" "${password}" admin 10 none md2 md5 straight`,
      ...(options.systemInterfacePort ? [`  serial kcs 127.0.0.1 ${options.systemInterfacePort} codec VM`] : []),
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(dir, "emu.cmd"),
    "mc_setbmc 0x20\nmc_add 0x20 0 no-device-sdrs 0x23 9 8 0x9f 0x1291 0xf02 persist_sdr\nsel_enable 0x20 1000 0x0a\nmc_enable 0x20\n",
  );
  return { args: ["-c", join(dir, "lan.conf"), "-f", join(dir, "emu.cmd"), "-n", "-s", join(dir, "persist")], state };
}

/**
 * ipmitool's commands that give a BMC its LAN settings as a site's BMC has them (a static address,
 * its MAC): the discovery's `bmc` catalog reports these. ipmi_sim starts with none.
 */
export const lanSettings = (address: string, mac: string): string[][] =>
  [
    ["ipsrc", "static"],
    ["ipaddr", address],
    ["macaddr", mac],
  ].map((setting) => ["lan", "set", "1", ...setting]);

/** Waits until the BMC at `address`:`port` answers a status query over its LAN (ipmitool, after `prefix`: the lab's namespace), bounded. */
export async function waitForIpmi(address: string, port: number, password: string, prefix: readonly string[] = []): Promise<void> {
  const argv = [...prefix, ...ipmitoolArgv(address, port, password)];
  for (let tries = 0; ; tries += 1) {
    const probe = spawnSync(argv[0], [...argv.slice(1), "chassis", "power", "status"], { timeout: 5_000, encoding: "utf8" });
    if (probe.status === 0) return;
    if (tries > 20) throw new Error(`ipmi_sim did not answer on ${address}:${port}: ${probe.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function startIpmiSim(password: string, options: IpmiSimOptions = {}): Promise<IpmiSim & { state: string }> {
  const dir = mkdtempSync(join(tmpdir(), "ipmi-sim-"));
  const { address, port } = options.lan ?? { address: "127.0.0.1", port: await freeUdpPort() };
  const { args, state } = ipmiSimConfig(dir, password, { ...options, lan: { address, port } });
  const child: ChildProcess = spawn("ipmi_sim", args, {
    env: { ...process.env, ...options.env, CHASSIS_STATE: state },
    stdio: "ignore",
  });
  await waitForIpmi(address, port, password);
  const read = (file: string, fallback: string) =>
    existsSync(join(state, file)) ? readFileSync(join(state, file), "utf8").trim() : fallback;
  return {
    state,
    port,
    ipmitool: (command) => ipmitool(address, port, password, command),
    calls: () => read("calls", "").split("\n").filter(Boolean),
    // What the BMC itself answers (ipmitool), "1" on and "0" off.
    power: () => (/is on/.test(ipmitool(address, port, password, ["chassis", "power", "status"])) ? "1" : "0"),
    stop: async () => {
      child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
