import { ValidationError } from "../../errors";
import { normalizeMac } from "../mac";
import type { Node } from "../nodes/node";
import { canonical } from "../subnets/address";
import { familyOfSubnet, type Subnet } from "../subnets/subnet";
import { BOND_MODES, type BondMode, type INTERFACE_TYPES } from "./interfaceKinds";

/**
 * A node's network plan (issue 54, MAAS's interfaces): what its installed system configures.
 * Interfaces are NICs matched by MAC, bonds of NICs (members by MAC) and VLAN interfaces on
 * either; each has at most one address: `auto` (the next free one of its subnet's pool, given
 * once and kept across redeploys until the node is released or the plan changes), a fixed one,
 * or `dhcp`; none (a bond that only carries VLANs) is fine too.
 */
export { BOND_MODES, type BondMode, INTERFACE_TYPES } from "./interfaceKinds";

export interface PlannedInterface {
  name: string;
  type: (typeof INTERFACE_TYPES)[number];
  /** ethernet: the NIC's MAC. */
  mac?: string;
  /** bond: its members' MACs, and its mode. */
  members?: string[];
  mode?: BondMode;
  /** vlan: the plan's interface it is on, and its tag. */
  link?: string;
  vlan?: number;
  mtu?: number;
  subnet?: string;
  /** `auto`, `dhcp`, or an address of the subnet; absent: no address. */
  address?: string;
}

/** An address the service gave an interface of the plan. */
export interface GivenAddress {
  interface: string;
  subnet: string;
  address: string;
  /** Its allocation's id (subnets/addressStore.ts), which frees it. */
  allocation: string;
}

/** netplan version 2, as netplan.ts renders a plan. */
export interface Netplan {
  version: 2;
  ethernets: Record<string, Record<string, unknown>>;
  bonds?: Record<string, Record<string, unknown>>;
  vlans?: Record<string, Record<string, unknown>>;
}

/** The plan as kept on the node (`network`, a key only PUT /nodes/{id}/network writes). */
export interface NetworkPlan {
  interfaces: PlannedInterface[];
  given: GivenAddress[];
  /**
   * The plan as netplan, rendered when it or its addresses change (and again at each deploy, for
   * its subnets' newest name servers): an install script writes it into the installed system's
   * cloud-init configuration, read with no store at hand.
   */
  netplan: Netplan;
  updatedAt: string;
}

export const planOf = (node: Node): NetworkPlan | undefined => node.network as NetworkPlan | undefined;

/** The MACs the plan names (NICs and bond members), in plan order. */
export const planMacs = (plan: Pick<NetworkPlan, "interfaces">): string[] =>
  plan.interfaces.flatMap((iface) => (iface.type === "ethernet" ? [iface.mac!] : iface.type === "bond" ? iface.members! : []));

/** The MAC an interface's traffic leaves with (a bond's and its VLANs': its first member's, as Linux gives it). */
export function macOf(plan: Pick<NetworkPlan, "interfaces">, name: string): string | undefined {
  const iface = plan.interfaces.find((candidate) => candidate.name === name);
  if (!iface) return undefined;
  if (iface.type === "ethernet") return iface.mac;
  if (iface.type === "bond") return iface.members![0];
  return macOf(plan, iface.link!);
}

/** The MACs of the plan the machine does not have (`known`: its identifiers and the NICs its catalogs name, nodeMacs). */
export const missingMacs = (plan: Pick<NetworkPlan, "interfaces">, known: ReadonlySet<string>): string[] =>
  planMacs(plan).filter((mac) => !known.has(mac));

const fail = (message: string): never => {
  throw new ValidationError(message);
};

/**
 * The plan's interfaces checked against each other and their subnets (the HTTP schema checked
 * their shapes): names and MACs used once, each type's own fields and no other's, a VLAN on an
 * interface of the plan that is not a VLAN, a tag matching its subnet's, an address of the
 * subnet's family. Answers them with MACs and addresses in canonical form.
 */
export function checkInterfaces(interfaces: PlannedInterface[], subnets: ReadonlyMap<string, Subnet>, node: Node): PlannedInterface[] {
  const names = new Set<string>();
  const macs = new Set<string>();
  const tags = new Set<string>();
  const byName = new Map(interfaces.map((iface) => [iface.name, iface]));
  const mac = (text: string, where: string): string => {
    const normal = normalizeMac(text) ?? fail(`${where} (${text}) is not a MAC address`);
    if (macs.has(normal)) fail(`${where}: MAC ${normal} is in the plan twice (a NIC is one interface or one bond's member)`);
    macs.add(normal);
    return normal;
  };
  return interfaces.map((iface, index) => {
    const where = `interfaces[${index}] (${iface.name})`;
    if (names.has(iface.name)) fail(`${where}: the name ${iface.name} is in the plan twice`);
    names.add(iface.name);
    const stray = (["mac", "members", "mode", "link", "vlan"] as const).find(
      (key) => iface[key] !== undefined && !FIELDS_OF[iface.type].includes(key),
    );
    if (stray) fail(`${where}: ${iface.type === "ethernet" ? "an" : "a"} ${iface.type} interface has no ${stray}`);
    const checked: PlannedInterface = { ...iface };
    if (iface.type === "ethernet") checked.mac = mac(iface.mac ?? fail(`${where}: an ethernet interface needs its mac`), `${where}.mac`);
    if (iface.type === "bond") {
      if (!iface.mode) fail(`${where}: a bond needs its mode (${BOND_MODES.join(", ")})`);
      const members = iface.members ?? [];
      if (members.length === 0) fail(`${where}: a bond needs its members (MACs)`);
      checked.members = members.map((member, at) => mac(member, `${where}.members[${at}]`));
    }
    if (iface.type === "vlan") {
      const link = byName.get(iface.link ?? fail(`${where}: a VLAN interface needs its link (the plan's interface it is on)`));
      if (!link || link.type === "vlan") fail(`${where}: link ${iface.link} is not an ethernet or bond interface of the plan`);
      if (iface.vlan === undefined) fail(`${where}: a VLAN interface needs its vlan (1-4094)`);
      const tag = `${iface.link}/${iface.vlan}`;
      if (tags.has(tag)) fail(`${where}: VLAN ${iface.vlan} on ${iface.link} is in the plan twice`);
      tags.add(tag);
    }
    return { ...checked, ...addressOf(iface, where, subnets, node) };
  });
}

const FIELDS_OF: Record<PlannedInterface["type"], readonly string[]> = {
  ethernet: ["mac"],
  bond: ["members", "mode"],
  vlan: ["link", "vlan"],
};

function addressOf(iface: PlannedInterface, where: string, subnets: ReadonlyMap<string, Subnet>, node: Node): Partial<PlannedInterface> {
  if (iface.subnet === undefined) {
    if (iface.address !== undefined && iface.address !== "dhcp") fail(`${where}: address ${iface.address} needs its subnet`);
    return {};
  }
  const subnet = subnets.get(iface.subnet) ?? fail(`${where}: there is no subnet ${iface.subnet}`);
  if (subnet.site !== node.site) {
    fail(
      `${where}: subnet ${subnet.id} is ${subnet.site === undefined ? "of no site" : `site ${subnet.site}'s`}, and node ${node.id} is ${node.site === undefined ? "in none" : `site ${node.site}'s`}`,
    );
  }
  if (iface.type === "vlan" && subnet.vlan !== iface.vlan) {
    fail(
      `${where}: subnet ${subnet.id} is ${subnet.vlan === undefined ? "untagged" : `on VLAN ${subnet.vlan}`}, and the interface on VLAN ${iface.vlan}`,
    );
  }
  if (iface.address === undefined || iface.address === "auto" || iface.address === "dhcp") return {};
  const address = canonical(iface.address);
  if (address === undefined || (address.includes(":") ? 6 : 4) !== familyOfSubnet(subnet)) {
    fail(`${where}: address ${iface.address} is not auto, dhcp or an IPv${familyOfSubnet(subnet)} address`);
  }
  return { address };
}
