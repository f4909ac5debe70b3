import { join } from "node:path";
import type { LabMachine } from "./machines";
import { siteDhcpArgs } from "./tapNetwork";

/**
 * What `npm run lab -- up` makes, decided before anything is made (issue 52): the site's network
 * (a bridge, a private /24, a tap per NIC), each machine's files and BMC address, and the site's
 * DHCP and relay. `up` carries a plan out and writes it down; `down` removes what the plan names,
 * so a crashed `up` is cleaned up by the same list. Names are short (a Linux interface name is at
 * most 15 characters) and the lab's own (`lab…`), so `down` never touches another's device.
 */

export interface LabOptions {
  /** Where the lab keeps its files: disks, serial logs, the BMCs' state, the plan (default ~/.cache/…/lab). */
  dir: string;
  /** The second octet of the site's subnet 10.<octet>.0.0/24 (default 77). */
  octet: number;
}

export interface PlannedBmc {
  kind: "ipmi" | "redfish";
  /** Where the relay reaches it: a loopback address of its own, on IPMI's port 623 or HTTPS's 443, as a BMC on a site's management network. */
  address: string;
  port: number;
  /** ipmi_sim's system interface (TCP, loopback), which the machine's KCS interface connects to. */
  systemInterfacePort?: number;
  user: string;
  /** Its state folder (ipmi_sim's chassis state, the Redfish BMC's QMP socket). */
  dir: string;
}

export interface PlannedMachine {
  machine: LabMachine;
  taps: string[];
  diskFiles: string[];
  serialLog: string;
  bmc?: PlannedBmc;
}

export interface LabPlan {
  dir: string;
  bridge: string;
  /** The host's address on the site's network: the relay listens there, the DHCP names it. */
  hostIp: string;
  dhcpRange: [string, string];
  machines: PlannedMachine[];
  /** dnsmasq as the site's DHCP (docs/relay.md): no DNS, no TFTP of its own (the relay's), leases in the lab's folder. */
  dnsmasqArgs: string[];
  leaseFile: string;
  /** Where the relay serves the site's booting machines (HTTP) and TFTP. */
  relayListen: string;
  relayTftp: string;
}

/** The lab's BMC LAN addresses: 127.0.0.(120 + n), a loopback address per machine. */
const bmcAddress = (index: number): string => `127.0.0.${120 + index}`;

export function labPlan(machines: readonly LabMachine[], options: LabOptions): LabPlan {
  if (!Number.isInteger(options.octet) || options.octet < 1 || options.octet > 254)
    throw new Error(`octet ${options.octet} is not 1 to 254`);
  const hostIp = `10.${options.octet}.0.1`;
  const bridge = `lab${options.octet}`;
  const leaseFile = join(options.dir, "dnsmasq.leases");
  const planned = machines.map((machine, index): PlannedMachine => {
    const folder = join(options.dir, machine.name);
    const bmc: PlannedBmc | undefined =
      machine.bmc === "none"
        ? undefined
        : {
            kind: machine.bmc,
            address: bmcAddress(index),
            port: machine.bmc === "ipmi" ? 623 : 443,
            ...(machine.bmc === "ipmi" && { systemInterfacePort: 9100 + index }),
            user: "admin",
            dir: join(folder, "bmc"),
          };
    return {
      machine,
      taps: machine.nics.map((_, nic) => `${bridge}m${index}n${nic}`),
      diskFiles: machine.disks.map((_, disk) => join(folder, `disk${disk}.raw`)),
      serialLog: join(folder, "serial.log"),
      ...(bmc && { bmc }),
    };
  });
  const dhcpRange: [string, string] = [`10.${options.octet}.0.50`, `10.${options.octet}.0.99`];
  return {
    dir: options.dir,
    bridge,
    hostIp,
    dhcpRange,
    machines: planned,
    leaseFile,
    dnsmasqArgs: [...siteDhcpArgs(bridge, dhcpRange), `--dhcp-leasefile=${leaseFile}`],
    relayListen: `${hostIp}:8080`,
    relayTftp: `${hostIp}:69`,
  };
}

/** What `down` removes, from a plan written down: the devices (taps before their bridge) and the folder. */
export function labLeftovers(plan: Pick<LabPlan, "bridge" | "machines" | "dir">): { devices: string[]; dir: string } {
  return { devices: [...plan.machines.flatMap((machine) => machine.taps), plan.bridge], dir: plan.dir };
}
