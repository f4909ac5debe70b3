import { seedConfig } from "../../../../lib/provisioning/cloudInit/seedConfig";
import { renderNetplan } from "../../../../lib/provisioning/networkPlans/netplan";
import { SHAPES, subnets } from "./shapes";
import { cloudInitRenders, cloudInitSchemaErrors } from "./support";

jest.setTimeout(60_000);

/**
 * Each shape of plan as cloud-init itself reads it (issue 54): its renderers (`cloud-init devel
 * net-convert`) for ifupdown, netplan and sysconfig, and its schema check of the configuration file
 * the install writes. A compatibility check with the real cloud-init (half a second a call), not of
 * the rendering's logic, which netplan.test.ts pins exactly: the mutation run leaves this file out
 * (jest.stryker.config.js), where it made each mutant's run ten seconds.
 */
describe("a plan's netplan, read by cloud-init 22.4", () => {
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
