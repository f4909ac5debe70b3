import { familyOfSubnet, prefixOf, type Subnet } from "../subnets/subnet";
import type { Netplan, NetworkPlan, PlannedInterface } from "./networkPlan";

/**
 * The plan as netplan version 2 (issue 54), the NoCloud seed's `network-config`: cloud-init
 * renders it into what the installed system uses (ifupdown on the Debian image, netplan on
 * Ubuntu, NetworkManager or sysconfig elsewhere). Written in the subset every one of its renderers
 * takes (cloud-init 22.4's ifupdown renderer refused a route `to: default`; `0.0.0.0/0` is the
 * same route in every version).
 */
type Config = Record<string, unknown>;

/** A bond member's name in the installed system: its MAC's hex (unique, and within Linux's 15 characters). */
export const memberName = (mac: string): string => `en${mac.replace(/:/g, "")}`;

const DEFAULT_ROUTE = { 4: "0.0.0.0/0", 6: "::/0" } as const;

/** How often a bond's driver checks its members' links (ms): a pulled cable fails over within it. */
export const MII_MONITOR_MS = 100;

export function renderNetplan(plan: Pick<NetworkPlan, "interfaces" | "given">, subnets: ReadonlyMap<string, Subnet>): Netplan {
  const ethernets: Record<string, Config> = {};
  const bonds: Record<string, Config> = {};
  const vlans: Record<string, Config> = {};
  // One default route a family, the first interface's with a gateway: two would fight in every renderer.
  const routed = new Set<4 | 6>();
  const layer3 = (iface: PlannedInterface): Config => {
    const subnet = iface.subnet === undefined ? undefined : subnets.get(iface.subnet);
    const mtu = iface.mtu ?? subnet?.mtu;
    const config: Config = mtu === undefined ? {} : { mtu };
    if (iface.address === "dhcp") return { ...config, [subnet && familyOfSubnet(subnet) === 6 ? "dhcp6" : "dhcp4"]: true };
    const given = plan.given.find((address) => address.interface === iface.name);
    if (!subnet || !given) return config;
    const family = familyOfSubnet(subnet);
    config.addresses = [`${given.address}/${prefixOf(subnet)}`];
    if (subnet.gateway !== undefined && !routed.has(family)) {
      routed.add(family);
      config.routes = [{ to: DEFAULT_ROUTE[family], via: subnet.gateway }];
    }
    if (subnet.nameservers.length > 0 || subnet.searchDomains.length > 0) {
      config.nameservers = {
        ...(subnet.nameservers.length > 0 && { addresses: subnet.nameservers }),
        ...(subnet.searchDomains.length > 0 && { search: subnet.searchDomains }),
      };
    }
    return config;
  };
  for (const iface of plan.interfaces) {
    const config = layer3(iface);
    if (iface.type === "ethernet") ethernets[iface.name] = { match: { macaddress: iface.mac }, "set-name": iface.name, ...config };
    if (iface.type === "vlan") vlans[iface.name] = { id: iface.vlan, link: iface.link, ...config };
    if (iface.type === "bond") {
      const members = iface.members!.map(memberName);
      iface.members!.forEach((mac, at) => {
        ethernets[members[at]] = {
          match: { macaddress: mac },
          "set-name": members[at],
          ...(iface.mtu !== undefined && { mtu: iface.mtu }),
        };
      });
      const parameters: Config = { mode: iface.mode, "mii-monitor-interval": MII_MONITOR_MS };
      if (iface.mode === "active-backup") parameters.primary = members[0];
      bonds[iface.name] = { interfaces: members, parameters, ...config };
    }
  }
  return {
    version: 2,
    ethernets,
    ...(Object.keys(bonds).length > 0 && { bonds }),
    ...(Object.keys(vlans).length > 0 && { vlans }),
  };
}
