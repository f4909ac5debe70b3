import type { GivenAddress, PlannedInterface } from "../../../../lib/provisioning/networkPlans/networkPlan";
import type { Subnet } from "../../../../lib/provisioning/subnets/subnet";
import { aSubnet } from "./support";

/** The plans' shapes docs/network.md shows, and their edges, with the subnets they name: netplan.test.ts renders them, netplanCloudInit.test.ts has cloud-init read them. */
export const M1 = "52:54:00:12:34:01";
export const M2 = "52:54:00:12:34:02";

export const subnets = new Map<string, Subnet>([
  ["prod", aSubnet("prod", { vlan: 20, mtu: 1500 })],
  [
    "v6",
    aSubnet("v6", {
      cidr: "2001:db8:20::/64",
      gateway: "2001:db8:20::1",
      nameservers: ["2001:db8:20::53"],
      searchDomains: [],
      ranges: [{ kind: "pool", start: "2001:db8:20::100", end: "2001:db8:20::1ff" }],
    }),
  ],
  ["mgmt", aSubnet("mgmt", { cidr: "10.30.0.0/24", gateway: "10.30.0.1", nameservers: [], searchDomains: [] })],
]);

export const given = (iface: string, subnet: string, address: string): GivenAddress => ({
  interface: iface,
  subnet,
  address,
  allocation: `${subnet}/x`,
});

/** The shapes docs/network.md shows, and their edges: each rendered, then read by cloud-init's own renderers. */
export const SHAPES: { name: string; interfaces: PlannedInterface[]; given: GivenAddress[] }[] = [
  {
    name: "one NIC, a static address",
    interfaces: [{ name: "eno1", type: "ethernet", mac: M1, subnet: "mgmt", address: "auto" }],
    given: [given("eno1", "mgmt", "10.30.0.10")],
  },
  { name: "one NIC by DHCP", interfaces: [{ name: "eno1", type: "ethernet", mac: M1, address: "dhcp" }], given: [] },
  {
    name: "an active-backup bond with a VLAN interface on it",
    interfaces: [
      { name: "bond0", type: "bond", mode: "active-backup", members: [M1, M2] },
      { name: "bond0.20", type: "vlan", link: "bond0", vlan: 20, subnet: "prod", address: "auto" },
    ],
    given: [given("bond0.20", "prod", "10.20.0.10")],
  },
  {
    name: "an 802.3ad bond with its own address and a jumbo MTU",
    interfaces: [{ name: "bond0", type: "bond", mode: "802.3ad", members: [M1, M2], mtu: 9000, subnet: "mgmt", address: "10.30.0.5" }],
    given: [given("bond0", "mgmt", "10.30.0.5")],
  },
  {
    name: "a NIC on two networks: untagged IPv6, VLAN 20 IPv4",
    interfaces: [
      { name: "eno1", type: "ethernet", mac: M1, subnet: "v6", address: "auto" },
      { name: "eno1.20", type: "vlan", link: "eno1", vlan: 20, subnet: "prod", address: "auto" },
    ],
    given: [given("eno1", "v6", "2001:db8:20::100"), given("eno1.20", "prod", "10.20.0.11")],
  },
  {
    name: "a balance-alb bond by DHCP beside a static NIC (one default route: the first's)",
    interfaces: [
      { name: "eno1", type: "ethernet", mac: M1, subnet: "mgmt", address: "auto" },
      { name: "bond1", type: "bond", mode: "balance-alb", members: ["52:54:00:12:34:03", "52:54:00:12:34:04"], address: "dhcp" },
    ],
    given: [given("eno1", "mgmt", "10.30.0.12")],
  },
];
