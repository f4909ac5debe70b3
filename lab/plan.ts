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
  /** The network namespace the site lives in (its bridge, DHCP, relay, BMCs and machines): the host's own network is not touched. */
  namespace: string;
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
  /** The relay's URL as the site's machines reach it. */
  relayUrl: string;
}

/**
 * What the site's DHCP hands each machine to boot (docs/boot.md, docs/relay.md): iPXE (a NIC's
 * option ROM says so in option 175) the relay's profiles URL; a machine with Secure Boot on Debian's
 * shim from the relay's TFTP (named per MAC, as a site may: a new machine has no node yet to say
 * it); any other UEFI machine `uefi.efi`, the loader the service chooses; a BIOS machine without
 * iPXE iPXE's `undionly.kpxe`. The tags exclude each other, so their order does not matter.
 */
export function siteBootArgs(machines: readonly LabMachine[], hostIp: string, relayUrl: string): string[] {
  const secure = machines.filter((machine) => machine.firmware === "uefi-secure-boot").map((machine) => machine.nics[0].mac);
  return [
    "--dhcp-match=set:ipxe,175",
    "--dhcp-match=set:efi64,option:client-arch,7",
    ...secure.map((mac) => `--dhcp-host=${mac},set:sb`),
    `--dhcp-boot=tag:ipxe,${relayUrl}/api/current/profiles`,
    `--dhcp-boot=tag:!ipxe,tag:sb,shimx64.efi,relay,${hostIp}`,
    `--dhcp-boot=tag:!ipxe,tag:!sb,tag:efi64,uefi.efi,relay,${hostIp}`,
    `--dhcp-boot=tag:!ipxe,tag:!sb,tag:!efi64,undionly.kpxe,relay,${hostIp}`,
  ];
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
  const relayUrl = `http://${hostIp}:8080`;
  return {
    dir: options.dir,
    namespace: bridge,
    bridge,
    hostIp,
    dhcpRange,
    machines: planned,
    leaseFile,
    dnsmasqArgs: [...siteDhcpArgs(bridge, dhcpRange), `--dhcp-leasefile=${leaseFile}`, ...siteBootArgs(machines, hostIp, relayUrl)],
    relayListen: `${hostIp}:8080`,
    relayTftp: `${hostIp}:69`,
    relayUrl,
  };
}

/** What `down` removes, from a plan written down: the namespace (its devices go with it) and the folder. */
export function labLeftovers(plan: Pick<LabPlan, "namespace" | "dir">): { namespace: string; dir: string } {
  return { namespace: plan.namespace, dir: plan.dir };
}
