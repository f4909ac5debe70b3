import { seedConfig } from "../../../../lib/provisioning/cloudInit/seedConfig";
import { memberName, renderNetplan } from "../../../../lib/provisioning/networkPlans/netplan";
import type { GivenAddress, PlannedInterface } from "../../../../lib/provisioning/networkPlans/networkPlan";
import type { Subnet } from "../../../../lib/provisioning/subnets/subnet";
import { aSubnet, cloudInitRenders, cloudInitSchemaErrors } from "./support";

jest.setTimeout(60_000);

const M1 = "52:54:00:12:34:01";
const M2 = "52:54:00:12:34:02";

const subnets = new Map<string, Subnet>([
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

const given = (iface: string, subnet: string, address: string): GivenAddress => ({
  interface: iface,
  subnet,
  address,
  allocation: `${subnet}/x`,
});

/** The shapes docs/network.md shows, and their edges: each rendered, then read by cloud-init's own renderers. */
const SHAPES: { name: string; interfaces: PlannedInterface[]; given: GivenAddress[] }[] = [
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

describe("a network plan as netplan v2 (issue 54)", () => {
  it("writes an active-backup bond's members by MAC, its primary, its VLAN with address, default route, name servers and MTU", () => {
    const [, , shape] = SHAPES;
    expect(renderNetplan(shape, subnets)).toEqual({
      version: 2,
      ethernets: {
        [memberName(M1)]: { match: { macaddress: M1 }, "set-name": "en525400123401" },
        [memberName(M2)]: { match: { macaddress: M2 }, "set-name": "en525400123402" },
      },
      bonds: {
        bond0: {
          interfaces: ["en525400123401", "en525400123402"],
          parameters: { mode: "active-backup", "mii-monitor-interval": 100, primary: "en525400123401" },
        },
      },
      vlans: {
        "bond0.20": {
          id: 20,
          link: "bond0",
          mtu: 1500,
          addresses: ["10.20.0.10/24"],
          routes: [{ to: "0.0.0.0/0", via: "10.20.0.1" }],
          nameservers: { addresses: ["10.20.0.1"], search: ["lab.example"] },
        },
      },
    });
  });

  it("gives one default route a family, DHCP by the subnet's family, no address where none was given", () => {
    const rendered = renderNetplan(SHAPES[4], subnets);
    expect(rendered.ethernets.eno1).toMatchObject({ addresses: ["2001:db8:20::100/64"], routes: [{ to: "::/0", via: "2001:db8:20::1" }] });
    expect(rendered.vlans?.["eno1.20"]).toMatchObject({ routes: [{ to: "0.0.0.0/0", via: "10.20.0.1" }] });
    const two = renderNetplan(
      {
        interfaces: [...SHAPES[0].interfaces, { name: "eno2", type: "ethernet", mac: M2, subnet: "mgmt", address: "auto" }],
        given: [...SHAPES[0].given, given("eno2", "mgmt", "10.30.0.11")],
      },
      subnets,
    );
    expect(two.ethernets.eno1.routes).toHaveLength(1);
    expect(two.ethernets.eno2.routes).toBeUndefined();
    expect(
      renderNetplan({ interfaces: [{ name: "eno1", type: "ethernet", mac: M1, subnet: "v6", address: "dhcp" }], given: [] }, subnets)
        .ethernets.eno1,
    ).toEqual({
      match: { macaddress: M1 },
      "set-name": "eno1",
      dhcp6: true,
    });
    // Freed by a release and not yet given again: the interface comes up without an address.
    expect(renderNetplan({ interfaces: SHAPES[0].interfaces, given: [] }, subnets).ethernets.eno1).toEqual({
      match: { macaddress: M1 },
      "set-name": "eno1",
    });
    expect(renderNetplan({ interfaces: [], given: [] }, subnets)).toEqual({ version: 2, ethernets: {} });
  });

  it("rides in the installed system's cloud-init configuration, which cloud-init's schema takes and its renderer reads", () => {
    const netplan = renderNetplan(SHAPES[2], subnets);
    const config = seedConfig("http://relay:8080/api/current/seed/x/", netplan);
    // cloud-init reads its configuration files as YAML, of which JSON is a part; its schema check wants the header.
    expect(cloudInitSchemaErrors(`#cloud-config\n${config}`)).toBe("");
    const network = JSON.parse(config).network;
    expect(network).toEqual(netplan);
    expect(cloudInitRenders(JSON.stringify(network), "eni")["etc/network/interfaces.d/50-cloud-init"]).toContain("address 10.20.0.10/24");
    expect(JSON.parse(seedConfig("http://relay:8080/x/"))).not.toHaveProperty("network");
  });

  describe.each(SHAPES)("cloud-init's own renderers take $name", (shape) => {
    const config = `${JSON.stringify(renderNetplan(shape, subnets), null, 2)}\n`;

    it("ifupdown (Debian's image): each interface, its address and its bond or VLAN stanza", () => {
      const files = cloudInitRenders(config, "eni");
      const eni = files["etc/network/interfaces.d/50-cloud-init"];
      for (const iface of shape.interfaces) expect(eni).toContain(`iface ${iface.name} inet`);
      for (const address of shape.given) expect(eni).toContain(address.address);
      for (const bond of shape.interfaces.filter((iface) => iface.type === "bond")) expect(eni).toContain(`bond-mode ${bond.mode}`);
      for (const vlan of shape.interfaces.filter((iface) => iface.type === "vlan"))
        expect(eni).toMatch(new RegExp(`vlan[-_]raw[-_]device ${vlan.link!.replace(".", "\\.")}`));
    });

    it("netplan (Ubuntu): the same document back", () => {
      const netplan = cloudInitRenders(config, "netplan")["etc/netplan/50-cloud-init.yaml"];
      for (const iface of shape.interfaces) expect(netplan).toContain(`${iface.name}:`);
      for (const address of shape.given) expect(netplan).toContain(address.address);
    });

    it("sysconfig (RHEL's): an ifcfg file an interface", () => {
      const files = cloudInitRenders(config, "sysconfig");
      for (const iface of shape.interfaces) expect(Object.keys(files)).toContain(`etc/sysconfig/network-scripts/ifcfg-${iface.name}`);
    });
  });
});
