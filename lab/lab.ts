import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  commandOf,
  detach,
  inNamespace,
  kvmSupport,
  missingTools,
  namespacePids,
  namespaces,
  processEnded,
  run,
  stopProcesses,
  tsx,
} from "./host";
import { ipmiSimConfig, ipmitoolArgv, lanSettings, waitForIpmi } from "./ipmiSim";
import { type LabMachine, NIC_MODELS } from "./machines";
import { type LabPlan, labLeftovers, labPlan, type PlannedMachine } from "./plan";
import { labMachineArgs, QEMU_FILES } from "./qemu";
import { newSshKey } from "./ssh";

/**
 * `npm run lab -- up | status | down` (issue 52): a site on this host. `up` carries out a plan
 * (lab/plan.ts) in a network namespace of its own: the bridge and a tap per NIC, dnsmasq as the
 * site's DHCP, a site and a relay credential made through the service's API, the relay (HTTP and
 * TFTP), a BMC per machine (ipmi_sim with the VM chassis, or the Redfish stand-in), each machine's
 * disks; the machines stay off until the service powers them through the relay. What it made is
 * written to `lab.json` in the lab's folder before it is made, so `down` (or the next `up`, after a
 * crash) removes it all: the namespace's processes, the namespace, the folder, the relay credential.
 */

export interface ServiceApi {
  /** The service's base URL (`http://localhost:3000`, or a deployed stage's). */
  url: string;
  /** An operator's `name:password` where the service asks for one. */
  user?: string;
}

export interface LabState {
  plan: LabPlan;
  api: ServiceApi;
  /** KVM for plain machines, and for those with SMM (Secure Boot); software emulation where not. */
  kvm: { kvm: boolean; smm: boolean };
  /** Each machine's BMC password (made at `up`; `status` shows them, as a site's BMC sheet does). */
  bmcPasswords: Record<string, string>;
  site?: { id: string; name: string };
  relayCredential?: string;
  /** The API bridge's end in the host's namespace (every other process is inside the lab's). */
  hostPid?: number;
  /** The watchdog of a lab with an owner (UpOptions.owner), in the host's namespace too. */
  watchPid?: number;
  sshKey: string;
}

export const stateFile = (dir: string): string => join(dir, "lab.json");

export function readLabState(file: string): LabState {
  return JSON.parse(readFileSync(file, "utf8")) as LabState;
}

/** The state holds BMC passwords and an operator's credential: root's only. */
function writeLabState(state: LabState): void {
  writeFileSync(stateFile(state.plan.dir), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

/** Calls the service's API (`/api/1.1…`) with the operator's credential; an answer that is not 2xx is an error naming it. */
export async function callApi(api: ServiceApi, method: string, path: string, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = {};
  if (api.user) headers.authorization = `Basic ${Buffer.from(api.user).toString("base64")}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(`${api.url}/api/1.1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new Error(
      `the service at ${api.url} does not answer (${(error as Error).cause ?? (error as Error).message}): is it started (npm start)?`,
    );
  }
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} /api/1.1${path}: ${response.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

const machineFolder = (planned: PlannedMachine): string => dirname(planned.serialLog);

/** A machine of the lab by its name, or an error that lists the lab's machines. */
export function plannedMachine(state: Pick<LabState, "plan">, name: string): PlannedMachine {
  const planned = state.plan.machines.find((each) => each.machine.name === name);
  if (!planned) throw new Error(`no machine ${name} in this lab: ${state.plan.machines.map((each) => each.machine.name).join(", ")}`);
  return planned;
}

/** QEMU's arguments for a lab machine, as its BMC starts it (the OVMF variables copied into its folder once, at `up`). */
function machineArgs(state: Pick<LabState, "kvm">, planned: PlannedMachine, copyVars: boolean): string[] {
  const place = {
    taps: planned.taps,
    diskFiles: planned.diskFiles,
    kvm: planned.machine.firmware === "uefi-secure-boot" ? state.kvm.smm : state.kvm.kvm,
    ...(planned.bmc?.systemInterfacePort !== undefined && { bmcPort: planned.bmc.systemInterfacePort }),
  };
  return labMachineArgs(QEMU_FILES, planned.machine, place, machineFolder(planned), copyVars);
}

/** The Redfish BMC's machine (lab/daemon.ts): its variables are the ones `up` copied. */
export const redfishMachineArgs = (state: LabState, name: string): string[] => machineArgs(state, plannedMachine(state, name), false);

const password = (): string => randomBytes(9).toString("base64url");
/** The BMC's own LAN MAC, beside its machine's (52:54:00:1b:…). */
const bmcMac = (index: number): string => `52:54:00:1b:${(0xb0 + index).toString(16)}:01`;

/** The OBM setting a node needs for the relay to reach the machine's BMC (as docs/relay.md has them). */
export function obmSetting(state: LabState, name: string): unknown {
  const planned = state.plan.machines.find((each) => each.machine.name === name);
  if (!planned?.bmc) throw new Error(`${name} has no BMC in this lab`);
  const password = state.bmcPasswords[name];
  if (planned.bmc.kind === "ipmi")
    return { service: "ipmi-obm-service", config: { host: planned.bmc.address, user: planned.bmc.user, password } };
  return {
    service: "redfish-obm-service",
    config: {
      uri: `https://${planned.bmc.address}`,
      user: planned.bmc.user,
      password,
      ca: readFileSync(join(planned.bmc.dir, "ca.pem"), "utf8"),
    },
  };
}

/**
 * The NICs a machine asks for that this host's QEMU does not have (`qemu -device help` lists what
 * it has): `igb` came in QEMU 8.0, and Debian 12 has 7.2. Said before anything is made.
 */
export function devicesMissing(machines: readonly LabMachine[], deviceHelp: string): string[] {
  const has = new Set([...deviceHelp.matchAll(/^name "([^"]+)"/gm)].map((match) => match[1]));
  return machines.flatMap((machine) =>
    machine.nics
      .filter((nic) => !has.has(NIC_MODELS[nic.model]))
      .map(
        (nic) => `${machine.name}: its QEMU has no ${nic.model} NIC (igb came in QEMU 8.0); choose e1000e, another model, or a newer QEMU`,
      ),
  );
}

export interface UpOptions {
  api: ServiceApi;
  dir: string;
  octet: number;
  machines: LabMachine[];
  say: (line: string) => void;
  /** false: a site whose DHCP cannot be used (no dnsmasq): its machines boot by virtual media, with static addresses (docs/lab.md). */
  dhcp?: boolean;
  /**
   * Tagged VLANs the site's network carries besides the untagged boot network (issue 54), every
   * machine's port a trunk; the host has an address on each, 10.<octet>.<vlan>.1/24
   * (lab/vlanPort.py, docs/lab.md, docs/network.md).
   */
  vlans?: number[];
  /**
   * A process the lab ends with (a test's: `process.pid`): a watchdog (lab/daemon.ts `watch`) takes
   * the lab down once that process has ended without doing so itself (a test run stopped by a
   * signal runs no afterAll, and the lab's QEMUs would go on using the CPU). A lab `up` makes from
   * the command line has none: it stays until `down`.
   */
  owner?: number;
}

/** The host's interface and address on a lab VLAN (`lab74v20`, 10.74.20.1/24), and the bridge's port that carries it tagged. */
export const labVlan = (octet: number, vlan: number) => ({
  device: `lab${octet}v${vlan}`,
  trunk: `lab${octet}t${vlan}`,
  hostIp: `10.${octet}.${vlan}.1`,
  cidr: `10.${octet}.${vlan}.0/24`,
});

/** What `up` needs on this host: root, Linux's `ip`, dnsmasq, QEMU and OVMF, OpenIPMI, OpenSSL, OpenSSH's client. */
export function labNeeds(): string[] {
  const missing =
    process.getuid?.() === 0
      ? []
      : ["root: the lab makes a network namespace, tap devices and BMCs on ports 623 and 443 (sudo npm run lab -- up)"];
  return [
    ...missing,
    ...missingTools({
      iproute2: "/usr/sbin/ip",
      dnsmasq: "/usr/sbin/dnsmasq",
      "qemu-system-x86": QEMU_FILES.qemu,
      ovmf: QEMU_FILES.ovmfSecureCode,
      openipmi: "/usr/bin/ipmi_sim",
      ipmitool: "/usr/bin/ipmitool",
      openssl: "/usr/bin/openssl",
      "openssh-client": "/usr/bin/ssh-keygen",
      // lab/vlanPort.py, a VLAN's host end (Debian's python3: cloud-init's too).
      python3: "/usr/bin/python3",
    }),
  ];
}

export async function labUp(options: UpOptions): Promise<LabState> {
  const started = performance.now();
  const say = (line: string) => options.say(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${line}`);
  const needs = labNeeds();
  if (needs.length > 0) throw new Error(`the lab needs:\n${needs.map((need) => `- ${need}`).join("\n")}`);
  if (/\s/.test(options.dir)) throw new Error(`the lab's folder ${options.dir} has a space: QEMU's arguments pass through a shell script`);
  const absent = devicesMissing(options.machines, run([QEMU_FILES.qemu, "-device", "help"]));
  if (absent.length > 0) throw new Error(`this host's QEMU cannot make these machines:\n${absent.map((each) => `- ${each}`).join("\n")}`);
  const plan = labPlan(options.machines, { dir: options.dir, octet: options.octet });
  const relayUp = namespacePids(plan.namespace).some((each) => each.command.includes("relay/cli.ts"));
  if (relayUp) throw new Error(`a lab is up in namespace ${plan.namespace} already: npm run lab -- down first`);
  if (existsSync(stateFile(plan.dir)) || namespaces().includes(plan.namespace)) {
    say(`removing what a previous lab left (${plan.namespace}, ${plan.dir})`);
    await labDown(plan.dir, plan.namespace, say);
  }
  // The service first: nothing is made for a service that does not answer.
  await callApi(options.api, "GET", "/config");
  // Booting a machine under KVM takes up to 10 s to tell: that runs while the network and the site are made.
  const kvmProbe = kvmSupport(QEMU_FILES.qemu);
  mkdirSync(plan.dir, { recursive: true, mode: 0o700 });
  const state: LabState = {
    plan,
    api: options.api,
    kvm: { kvm: false, smm: false },
    bmcPasswords: Object.fromEntries(plan.machines.filter((each) => each.bmc).map((each) => [each.machine.name, password()])),
    sshKey: join(plan.dir, "id_ed25519"),
  };
  writeLabState(state);

  // The site's network, in a namespace of its own.
  run(["ip", "netns", "add", plan.namespace]);
  const ip = (...args: string[]) => run(["ip", "-n", plan.namespace, ...args]);
  ip("link", "set", "lo", "up");
  ip("link", "add", plan.bridge, "type", "bridge");
  ip("addr", "add", `${plan.hostIp}/24`, "dev", plan.bridge);
  ip("link", "set", plan.bridge, "up");
  for (const tap of plan.machines.flatMap((each) => each.taps)) {
    ip("tuntap", "add", "dev", tap, "mode", "tap");
    ip("link", "set", tap, "master", plan.bridge);
    ip("link", "set", tap, "up");
  }
  for (const vlan of options.vlans ?? []) {
    if (!Number.isInteger(vlan) || vlan < 2 || vlan > 254)
      throw new Error(`VLAN ${vlan} is not 2 to 254 (the lab's addresses are 10.${options.octet}.<vlan>.0/24)`);
    // The bridge forwards tagged frames as they come (every port a trunk); the host's end of the
    // VLAN is lab/vlanPort.py between a tap in the bridge and a tap with the host's address: the
    // stand-in for a kernel VLAN interface, which this host's kernel cannot make (see its header).
    const { device, trunk, hostIp } = labVlan(options.octet, vlan);
    ip("tuntap", "add", "dev", trunk, "mode", "tap");
    ip("link", "set", trunk, "master", plan.bridge);
    ip("link", "set", trunk, "up");
    ip("tuntap", "add", "dev", device, "mode", "tap");
    ip("addr", "add", `${hostIp}/24`, "dev", device);
    ip("link", "set", device, "up");
    const port = ["/usr/bin/python3", join(__dirname, "vlanPort.py"), trunk, device, String(vlan)];
    detach(inNamespace(plan.namespace, port), join(plan.dir, `vlan${vlan}.log`));
    say(`VLAN ${vlan}: tagged on the site's network; the host is ${hostIp}/24 on ${device}`);
  }
  if (options.dhcp !== false)
    detach(inNamespace(plan.namespace, ["/usr/sbin/dnsmasq", ...plan.dnsmasqArgs]), join(plan.dir, "dnsmasq.log"));
  say(
    `network: namespace ${plan.namespace}, bridge ${plan.bridge} ${plan.hostIp}/24, ${options.dhcp === false ? "no DHCP (virtual media, static addresses)" : `DHCP ${plan.dhcpRange.join(" to ")} (dnsmasq)`}`,
  );

  // The service, reached from inside through the API bridge (lab/daemon.ts).
  const url = new URL(options.api.url);
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const socket = join(plan.dir, "api.sock");
  state.hostPid = detach(tsx(join(__dirname, "daemon.ts"), ["api-host", socket, url.hostname, port]), join(plan.dir, "api-bridge.log"));
  if (options.owner !== undefined) {
    const watch = ["watch", String(options.owner), plan.dir, plan.namespace];
    state.watchPid = detach(tsx(join(__dirname, "daemon.ts"), watch), join(plan.dir, "watch.log"));
  }
  writeLabState(state);
  if (!["localhost", "127.0.0.1", "[::1]"].includes(url.hostname)) {
    mkdirSync(`/etc/netns/${plan.namespace}`, { recursive: true });
    writeFileSync(`/etc/netns/${plan.namespace}/hosts`, `127.0.0.1 localhost ${url.hostname}\n::1 localhost\n`);
  }
  detach(inNamespace(plan.namespace, tsx(join(__dirname, "daemon.ts"), ["api-namespace", socket, port])), join(plan.dir, "api-bridge.log"));

  // The site and its relay's credential, through the service's API.
  const name = `lab-${options.octet}`;
  const sites = (await callApi(options.api, "GET", "/sites")) as { id: string; name: string }[];
  const site =
    sites.find((each) => each.name === name) ?? ((await callApi(options.api, "POST", "/sites", { name })) as { id: string; name: string });
  const credential = (await callApi(options.api, "POST", `/sites/${site.id}/relays`, { name: `lab ${plan.namespace}` })) as {
    id: string;
    token: string;
  };
  state.site = { id: site.id, name: site.name };
  state.relayCredential = credential.id;
  writeLabState(state);
  const tokenFile = join(plan.dir, "relay.token");
  writeFileSync(tokenFile, credential.token, { mode: 0o600 });
  say(`site ${site.name} (${site.id}) and a relay credential, through ${options.api.url}`);

  state.kvm = await kvmProbe;
  say(
    state.kvm.kvm
      ? `KVM works: machines run at the host's speed${state.kvm.smm ? "" : ", but not with SMM: Secure Boot machines run in software emulation (QEMU's TCG)"}`
      : "no working KVM here: machines run in software emulation (QEMU's TCG), several times slower",
  );

  // The machines: disks, and a BMC each, off until the service powers them.
  for (const [index, planned] of plan.machines.entries()) {
    mkdirSync(machineFolder(planned), { recursive: true });
    planned.diskFiles.forEach((file, disk) => {
      writeFileSync(file, "");
      truncateSync(file, planned.machine.disks[disk].sizeGiB * 1024 ** 3);
    });
    const args = machineArgs(state, planned, true);
    const bmc = planned.bmc;
    if (!bmc) {
      // No BMC: on at once, as a person would switch it on.
      detach(inNamespace(plan.namespace, [QEMU_FILES.qemu, ...args, "-nographic"]), planned.serialLog);
      continue;
    }
    mkdirSync(bmc.dir, { recursive: true });
    const secret = state.bmcPasswords[planned.machine.name];
    if (bmc.kind === "ipmi") {
      const config = ipmiSimConfig(bmc.dir, secret, {
        chassisControl: join(__dirname, "vm-chassis.sh"),
        systemInterfacePort: bmc.systemInterfacePort,
        lan: { address: bmc.address, port: bmc.port },
      });
      detach(inNamespace(plan.namespace, ["/usr/bin/ipmi_sim", ...config.args]), join(bmc.dir, "ipmi_sim.log"), {
        CHASSIS_STATE: config.state,
        QEMU: QEMU_FILES.qemu,
        QEMU_ARGS: args.join(" "),
        SERIAL_LOG: planned.serialLog,
      });
      await waitForIpmi(bmc.address, bmc.port, secret, inNamespace(plan.namespace, []));
      // Its LAN settings, as a site's BMC has them: the discovery's bmc catalog reports these.
      for (const command of lanSettings(bmc.address, bmcMac(index)))
        run(inNamespace(plan.namespace, [...ipmitoolArgv(bmc.address, bmc.port, secret), ...command]));
    } else {
      detach(
        inNamespace(plan.namespace, tsx(join(__dirname, "daemon.ts"), ["redfish", stateFile(plan.dir), planned.machine.name])),
        join(bmc.dir, "redfish.log"),
      );
      await waitFor(
        () => existsSync(join(bmc.dir, "ca.pem")),
        30_000,
        `${planned.machine.name}'s Redfish BMC (${join(bmc.dir, "redfish.log")})`,
      );
    }
    say(
      `${planned.machine.name}: ${planned.machine.firmware}, ${planned.machine.nics.map((nic) => `${nic.model} ${nic.mac}`).join(", ")}; ${bmc.kind} BMC at ${bmc.address}; off`,
    );
  }
  newSshKey(state.sshKey);
  writeLabState(state);

  // The relay last: it serves what is there.
  const relayLog = join(plan.dir, "relay.log");
  detach(
    inNamespace(
      plan.namespace,
      tsx(join(__dirname, "..", "relay", "cli.ts"), [
        "--api",
        options.api.url,
        "--token-file",
        tokenFile,
        "--listen",
        plan.relayListen,
        "--public-url",
        plan.relayUrl,
        "--tftp",
        plan.relayTftp,
        "--dhcp-leases",
        plan.leaseFile,
      ]),
    ),
    relayLog,
  );
  await waitFor(() => existsSync(relayLog) && readFileSync(relayLog, "utf8").includes("tftp: serving"), 60_000, `the relay (${relayLog})`);
  say(`relay: ${plan.relayUrl} and TFTP ${plan.relayTftp}, credential ${credential.id}`);
  chmodSync(plan.dir, 0o700);
  return state;
}

async function waitFor(ready: () => boolean, ms: number, what: string): Promise<void> {
  for (const until = Date.now() + ms; !ready(); ) {
    if (Date.now() > until) throw new Error(`${what} did not start in ${ms / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Removes a lab: its relay credential (when the service answers), every process in its namespace
 * and the API bridge's host end, the namespace (its devices go with it), its hosts file, its folder.
 * Works from what is there, so it cleans up after a crashed `up` as after a running lab.
 */
export async function labDown(dir: string, namespace: string, say: (line: string) => void): Promise<string[]> {
  const removed: string[] = [];
  const state = existsSync(stateFile(dir)) ? readLabState(stateFile(dir)) : undefined;
  if (state?.site && state.relayCredential) {
    try {
      await callApi(state.api, "DELETE", `/sites/${state.site.id}/relays/${state.relayCredential}`);
      removed.push(`relay credential ${state.relayCredential}`);
    } catch (error) {
      say(`the relay credential ${state.relayCredential} stays (revoke it in site ${state.site.id}): ${(error as Error).message}`);
    }
  }
  const inside = namespacePids(namespace).map((each) => each.pid);
  // The host's daemons: the API bridge, and the watchdog unless it is the one taking the lab down
  // (its pid is tsx's, this process's parent: ending it would end this one half way).
  const host = [state?.hostPid, state?.watchPid].filter(
    (pid): pid is number => pid !== undefined && pid !== process.pid && pid !== process.ppid && commandOf(pid).includes("daemon.ts"),
  );
  const stopped = await stopProcesses([...inside, ...host]);
  if (stopped > 0) removed.push(`${stopped} processes`);
  if (namespaces().includes(namespace)) {
    run(["ip", "netns", "del", namespace]);
    removed.push(`namespace ${namespace}`);
  }
  rmSync(`/etc/netns/${namespace}`, { recursive: true, force: true });
  const leftovers = state ? labLeftovers(state.plan) : { dir };
  if (existsSync(leftovers.dir)) {
    rmSync(leftovers.dir, { recursive: true, force: true });
    removed.push(leftovers.dir);
  }
  return removed;
}

/**
 * The watchdog of a lab with an owner (UpOptions.owner): every `everyMs`, the lab's state file gone
 * (it was taken down) ends the watch; its owner ended takes it down (`down`). Answers which.
 */
export async function watchLab(options: {
  owner: number;
  dir: string;
  everyMs: number;
  down: () => Promise<unknown>;
}): Promise<"taken down" | "owner ended"> {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, options.everyMs));
    if (!existsSync(stateFile(options.dir))) return "taken down";
    if (processEnded(options.owner)) {
      await options.down();
      return "owner ended";
    }
  }
}
