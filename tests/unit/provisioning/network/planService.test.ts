import { deleteNode } from "../../../../lib/provisioning/lifecycle/deleteNode";
import { recordAddress } from "../../../../lib/provisioning/lookups/lookupService";
import type { PlannedInterface } from "../../../../lib/provisioning/networkPlans/networkPlan";
import {
  deleteNetworkPlan,
  differencesOf,
  getNetworkPlan,
  plannedNetworkConfig,
  prepareDeploy,
  releaseAddresses,
  setNetworkPlan,
} from "../../../../lib/provisioning/networkPlans/planService";
import { createSubnet } from "../../../../lib/provisioning/subnets/subnetService";
import { aNode, memoryStores, replacing, type Stores, T0 } from "../services/setUp";

const M1 = "52:54:00:00:00:01";
const M2 = "52:54:00:00:00:02";

async function world() {
  const stores = memoryStores();
  const subnet = await createSubnet(
    stores,
    {
      name: "prod",
      cidr: "10.20.0.0/24",
      gateway: "10.20.0.1",
      nameservers: ["10.20.0.1"],
      vlan: 20,
      ranges: [
        { kind: "pool", start: "10.20.0.10", end: "10.20.0.12" },
        { kind: "boot", start: "10.20.0.100", end: "10.20.0.199" },
      ],
    },
    T0,
  );
  const node = await aNode(stores, "n1", M1);
  // The second NIC, as discovery records it from the lshw catalog.
  await recordAddress(stores, M2, node.id, undefined, T0, "unclaimed");
  return { stores, subnet, node };
}

const bonded = (subnet: string, address = "auto"): PlannedInterface[] => [
  { name: "bond0", type: "bond", mode: "active-backup", members: [M1, M2] },
  { name: "bond0.20", type: "vlan", link: "bond0", vlan: 20, subnet, address },
];

const given = async (stores: Stores, subnet: string) =>
  (await stores.addresses.pageOfSubnet(subnet, { limit: 100 })).items.map((item) => [item.address, item.node, item.interface]);

describe("a node's network plan (issue 54)", () => {
  it("gives the auto address at once, keeps it when the same plan comes again, and makes it the node's lookup", async () => {
    const { stores, subnet, node } = await world();
    const view = await setNetworkPlan(stores, node.id, { interfaces: bonded(subnet.id) }, T0);
    expect(view).toMatchObject({
      node: node.id,
      missingMacs: [],
      differences: [],
      given: [{ interface: "bond0.20", address: "10.20.0.10" }],
    });
    expect(view.netplan.vlans?.["bond0.20"]).toMatchObject({ addresses: ["10.20.0.10/24"] });
    const again = await setNetworkPlan(stores, node.id, { interfaces: bonded(subnet.id) }, T0);
    expect(again.given).toEqual(view.given);
    expect(await given(stores, subnet.id)).toEqual([["10.20.0.10", node.id, "bond0.20"]]);
    expect((await stores.lookups.byMac(M1))?.ipAddress).toBe("10.20.0.10");
    // The install carries the plan: the seed's network-config, and the credential's netplan.
    expect(await plannedNetworkConfig(stores, (await stores.nodes.get(node.id))!)).toEqual(view.netplan);
    expect((await stores.nodes.get(node.id))?.network).toMatchObject({ netplan: view.netplan });
  });

  it("frees the old address when the plan changes it, and gives a fixed one", async () => {
    const { stores, subnet, node } = await world();
    await setNetworkPlan(stores, node.id, { interfaces: bonded(subnet.id) }, T0);
    const fixed = await setNetworkPlan(stores, node.id, { interfaces: bonded(subnet.id, "10.20.0.50") }, T0);
    expect(fixed.given).toEqual([expect.objectContaining({ address: "10.20.0.50" })]);
    expect(await given(stores, subnet.id)).toEqual([["10.20.0.50", node.id, "bond0.20"]]);
    const other = await aNode(stores, "n2", "52:54:00:00:00:03");
    await expect(
      setNetworkPlan(
        stores,
        other.id,
        { interfaces: [{ name: "eno1", type: "ethernet", mac: "52:54:00:00:00:03", subnet: subnet.id, address: "10.20.0.50" }] },
        T0,
      ),
    ).rejects.toMatchObject({ kind: "conflict", message: `10.20.0.50 of subnet ${subnet.id} is node ${node.id}'s (bond0.20)` });
  });

  it("changes nothing when one interface cannot be given its address: what the request gave is freed", async () => {
    const { stores, subnet, node } = await world();
    const untagged = await createSubnet(
      stores,
      { name: "mgmt", cidr: "10.30.0.0/24", ranges: [{ kind: "pool", start: "10.30.0.10", end: "10.30.0.10" }] },
      T0,
    );
    const interfaces: PlannedInterface[] = [
      { name: "eno1", type: "ethernet", mac: M1, subnet: untagged.id, address: "auto" },
      { name: "eno2", type: "ethernet", mac: M2, subnet: untagged.id, address: "10.30.0.255" },
    ];
    await expect(setNetworkPlan(stores, node.id, { interfaces }, T0)).rejects.toMatchObject({
      kind: "bad-request",
      message: "Cannot give eno2 10.30.0.255: 10.30.0.255 is 10.30.0.0/24's network or broadcast address",
    });
    expect(await given(stores, untagged.id)).toEqual([]);
    expect((await stores.nodes.get(node.id))?.network).toBeUndefined();
    // A full pool: a 409 that says so, and nothing given.
    await setNetworkPlan(stores, node.id, { interfaces: [interfaces[0]] }, T0);
    const other = await aNode(stores, "n2", "52:54:00:00:00:03");
    await expect(
      setNetworkPlan(
        stores,
        other.id,
        { interfaces: [{ name: "eno1", type: "ethernet", mac: "52:54:00:00:00:03", subnet: untagged.id, address: "auto" }] },
        T0,
      ),
    ).rejects.toThrow("has no free address left in its pool");
    expect(await given(stores, subnet.id)).toEqual([]);
  });

  it.each([
    [[{ name: "eno1", type: "ethernet" }], "an ethernet interface needs its mac"],
    [[{ name: "eno1", type: "ethernet", mac: "nope" }], "(nope) is not a MAC address"],
    [
      [
        { name: "eno1", type: "ethernet", mac: M1 },
        { name: "eno1", type: "ethernet", mac: M2 },
      ],
      "the name eno1 is in the plan twice",
    ],
    [
      [
        { name: "eno1", type: "ethernet", mac: M1 },
        { name: "bond0", type: "bond", mode: "802.3ad", members: [M1, M2] },
      ],
      `MAC ${M1} is in the plan twice`,
    ],
    [[{ name: "bond0", type: "bond", members: [M1] }], "a bond needs its mode"],
    [[{ name: "bond0", type: "bond", mode: "802.3ad", members: [] }], "a bond needs its members"],
    [[{ name: "eno1", type: "ethernet", mac: M1, mode: "802.3ad" }], "an ethernet interface has no mode"],
    [[{ name: "v20", type: "vlan", vlan: 20 }], "a VLAN interface needs its link"],
    [[{ name: "v20", type: "vlan", link: "eno9", vlan: 20 }], "link eno9 is not an ethernet or bond interface of the plan"],
    [
      [
        { name: "eno1", type: "ethernet", mac: M1 },
        { name: "v20", type: "vlan", link: "eno1" },
      ],
      "a VLAN interface needs its vlan",
    ],
    [
      [
        { name: "eno1", type: "ethernet", mac: M1 },
        { name: "a", type: "vlan", link: "eno1", vlan: 30 },
        { name: "b", type: "vlan", link: "eno1", vlan: 30 },
      ],
      "VLAN 30 on eno1 is in the plan twice",
    ],
    [[{ name: "eno1", type: "ethernet", mac: M1, address: "10.20.0.5" }], "address 10.20.0.5 needs its subnet"],
    [[{ name: "eno1", type: "ethernet", mac: M1, subnet: "nope", address: "auto" }], "there is no subnet nope"],
  ])("refuses %j: %s", async (interfaces, message) => {
    const { stores, node } = await world();
    await expect(setNetworkPlan(stores, node.id, { interfaces: interfaces as PlannedInterface[] }, T0)).rejects.toThrow(message);
  });

  it("refuses a subnet of another site, a VLAN that is not the subnet's, an address of the other family", async () => {
    const { stores, subnet, node } = await world();
    const site = await stores.sites.create({ id: "site-a", name: "a", createdAt: T0.toISOString() } as never);
    const other = await createSubnet(stores, { name: "a", site: site.id, cidr: "10.40.0.0/24" }, T0);
    const refused = (interfaces: PlannedInterface[], message: string) =>
      expect(setNetworkPlan(stores, node.id, { interfaces }, T0)).rejects.toThrow(message);
    const onVlan = (vlan: number, address: string): PlannedInterface[] => [
      { name: "eno1", type: "ethernet", mac: M1 },
      { name: `v${vlan}`, type: "vlan", link: "eno1", vlan, subnet: subnet.id, address },
    ];
    await refused(
      [{ name: "eno1", type: "ethernet", mac: M1, subnet: other.id, address: "dhcp" }],
      `subnet ${other.id} is site site-a's, and node ${node.id} is in none`,
    );
    await refused(onVlan(30, "auto"), `subnet ${subnet.id} is on VLAN 20, and the interface on VLAN 30`);
    await refused(onVlan(20, "2001:db8::5"), "address 2001:db8::5 is not auto, dhcp or an IPv4 address");
  });

  it("a release frees the addresses and keeps the plan; the next deploy gives them again; a MAC the machine lacks refuses the deploy", async () => {
    const { stores, subnet, node } = await world();
    await setNetworkPlan(stores, node.id, { interfaces: bonded(subnet.id) }, T0);
    await releaseAddresses(stores, (await stores.nodes.get(node.id))!, T0);
    expect(await given(stores, subnet.id)).toEqual([]);
    const released = await getNetworkPlan(stores, node.id);
    expect(released.given).toEqual([]);
    expect(released.interfaces).toHaveLength(2);
    expect(released.netplan.vlans?.["bond0.20"]).not.toHaveProperty("addresses");
    expect((await stores.nodes.get(node.id))?.network).toMatchObject({ given: [], netplan: { vlans: { "bond0.20": { id: 20 } } } });
    expect(JSON.stringify((await stores.nodes.get(node.id))?.network)).not.toContain("10.20.0.10");
    // The subnet's name servers changed meanwhile: the deploy renders the netplan anew.
    await stores.subnets.update(subnet.id, (current) => ({ ...current, nameservers: ["10.20.0.2"] }));
    await prepareDeploy(stores, (await stores.nodes.get(node.id))!, T0);
    expect((await getNetworkPlan(stores, node.id)).given).toEqual([expect.objectContaining({ address: "10.20.0.10" })]);
    expect((await stores.nodes.get(node.id))?.network).toMatchObject({
      netplan: { vlans: { "bond0.20": { addresses: ["10.20.0.10/24"], nameservers: { addresses: ["10.20.0.2"] } } } },
    });

    const lacking = await aNode(stores, "n3", "52:54:00:00:00:07");
    const view = await setNetworkPlan(
      stores,
      lacking.id,
      { interfaces: [{ name: "bond0", type: "bond", mode: "802.3ad", members: ["52:54:00:00:00:07", "52:54:00:00:00:08"] }] },
      T0,
    );
    expect(view.missingMacs).toEqual(["52:54:00:00:00:08"]);
    await expect(prepareDeploy(stores, (await stores.nodes.get(lacking.id))!, T0)).rejects.toThrow(
      `Node ${lacking.id}'s network plan names 52:54:00:00:00:08, which the machine does not have`,
    );
  });

  it("deleting the plan or the node frees its addresses", async () => {
    const { stores, subnet, node } = await world();
    await setNetworkPlan(stores, node.id, { interfaces: bonded(subnet.id) }, T0);
    await deleteNetworkPlan(stores, node.id, T0);
    expect(await given(stores, subnet.id)).toEqual([]);
    expect((await getNetworkPlan(stores, node.id)).interfaces).toEqual([]);
    expect(await deleteNetworkPlan(stores, node.id, T0)).toMatchObject({ id: node.id });
    await setNetworkPlan(stores, node.id, { interfaces: bonded(subnet.id) }, T0);
    await deleteNode(stores, node.id, T0);
    expect(await given(stores, subnet.id)).toEqual([]);
  });

  it("a plan stored by another writer first: what this request gave is freed (the node was deleted meanwhile)", async () => {
    const { stores, subnet, node } = await world();
    const racing = replacing(stores, "nodes", { update: async () => undefined });
    await expect(setNetworkPlan(racing, node.id, { interfaces: bonded(subnet.id) }, T0)).resolves.toMatchObject({ given: [] });
    expect(await given(stores, subnet.id)).toEqual([]);
  });

  it("compares the plan with what the installed system reported, per interface", () => {
    const subnets = new Map([["s", { cidr: "10.20.0.0/24" } as never]]);
    const plan = { given: [{ interface: "bond0.20", subnet: "s", address: "10.20.0.10", allocation: "x" }] };
    const seen = (nics: { name: string; addresses: string[] }[]) => ({
      nics: nics.map((nic) => ({ ...nic, mac: M1 })),
      source: "installed-system" as const,
      reportedAt: T0.toISOString(),
    });
    expect(differencesOf(plan, subnets, undefined)).toEqual([]);
    expect(differencesOf(plan, subnets, seen([{ name: "bond0.20", addresses: ["10.20.0.10/24"] }]))).toEqual([]);
    expect(differencesOf(plan, subnets, seen([{ name: "bond0.20", addresses: ["10.20.0.77/24"] }]))).toEqual([
      "bond0.20: planned 10.20.0.10/24, seen 10.20.0.77/24",
    ]);
    expect(differencesOf(plan, subnets, seen([{ name: "bond0.20", addresses: [] }]))).toEqual([
      "bond0.20: planned 10.20.0.10/24, seen no address",
    ]);
    expect(differencesOf(plan, subnets, seen([{ name: "eth0", addresses: ["10.0.0.5/24"] }]))).toEqual([
      "bond0.20: planned 10.20.0.10/24, and the installed system reported no bond0.20",
    ]);
  });
});
