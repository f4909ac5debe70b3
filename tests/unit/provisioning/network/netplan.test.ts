import { memberName, renderNetplan } from "../../../../lib/provisioning/networkPlans/netplan";
import { given, M1, M2, SHAPES, subnets } from "./shapes";

jest.setTimeout(60_000);

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
});
