import fc from "fast-check";
import { LAB_LIMITS, labMachines } from "../../../lab/machines";
import { labLeftovers, labPlan } from "../../../lab/plan";

describe("what `npm run lab -- up` makes, planned before anything is made (issue 52)", () => {
  it("puts the default site on 10.77.0.0/24: a bridge, a tap per NIC, each machine's files and its BMC on a loopback address of its own", () => {
    const plan = labPlan(labMachines(undefined), { dir: "/lab", octet: 77 });
    expect([plan.bridge, plan.hostIp, plan.dhcpRange, plan.relayListen, plan.relayTftp]).toEqual([
      "lab77",
      "10.77.0.1",
      ["10.77.0.50", "10.77.0.99"],
      "10.77.0.1:8080",
      "10.77.0.1:69",
    ]);
    expect(plan.machines.map((each) => [each.machine.name, each.taps, each.diskFiles, each.serialLog, each.bmc])).toEqual([
      [
        "bios-1",
        ["lab77m0n0"],
        ["/lab/bios-1/disk0.raw"],
        "/lab/bios-1/serial.log",
        { kind: "ipmi", address: "127.0.0.120", port: 623, systemInterfacePort: 9100, user: "admin", dir: "/lab/bios-1/bmc" },
      ],
      [
        "uefi-1",
        ["lab77m1n0", "lab77m1n1"],
        ["/lab/uefi-1/disk0.raw"],
        "/lab/uefi-1/serial.log",
        { kind: "redfish", address: "127.0.0.121", port: 443, user: "admin", dir: "/lab/uefi-1/bmc" },
      ],
      [
        "secure-1",
        ["lab77m2n0", "lab77m2n1"],
        ["/lab/secure-1/disk0.raw", "/lab/secure-1/disk1.raw", "/lab/secure-1/disk2.raw"],
        "/lab/secure-1/serial.log",
        { kind: "ipmi", address: "127.0.0.122", port: 623, systemInterfacePort: 9102, user: "admin", dir: "/lab/secure-1/bmc" },
      ],
    ]);
    // The site's DHCP as docs/relay.md has it: no DNS, no TFTP of its own, on the bridge only.
    expect(plan.dnsmasqArgs).toEqual(
      expect.arrayContaining([
        "--port=0",
        "--interface=lab77",
        "--bind-interfaces",
        "--dhcp-range=10.77.0.50,10.77.0.99,12h",
        "--dhcp-leasefile=/lab/dnsmasq.leases",
      ]),
    );
    expect(plan.dnsmasqArgs.some((arg) => arg.startsWith("--enable-tftp"))).toBe(false);
    // What each machine boots: iPXE the relay's profiles, the Secure Boot machine (by its MAC) shim, other UEFI ones uefi.efi.
    expect(plan.dnsmasqArgs).toEqual(
      expect.arrayContaining([
        "--dhcp-host=52:54:00:1a:b2:01,set:sb",
        "--dhcp-boot=tag:ipxe,http://10.77.0.1:8080/api/current/profiles",
        "--dhcp-boot=tag:!ipxe,tag:sb,shimx64.efi,relay,10.77.0.1",
        "--dhcp-boot=tag:!ipxe,tag:!sb,tag:efi64,uefi.efi,relay,10.77.0.1",
      ]),
    );
    expect(plan.dnsmasqArgs.filter((arg) => arg.includes("set:sb"))).toHaveLength(1);
    expect([plan.namespace, plan.relayUrl]).toEqual(["lab77", "http://10.77.0.1:8080"]);
  });

  it("gives a machine with no BMC none, and removes its namespace (its devices with it), then the folder", () => {
    const plan = labPlan(labMachines({ machines: [{ name: "manual", bmc: "none", nics: [{}, {}] }] }), { dir: "/l", octet: 9 });
    expect(plan.machines[0].bmc).toBeUndefined();
    expect(labLeftovers(plan)).toEqual({ namespace: "lab9", dir: "/l" });
    expect(() => labPlan([], { dir: "/l", octet: 0 })).toThrow("octet 0 is not 1 to 254");
  });

  it("names every device within Linux's 15 characters and apart from every other, and every BMC apart (property)", () => {
    const machine = fc.record({
      name: fc.constantFrom("a", "b-1", "c"),
      nics: fc.array(fc.constant({}), { minLength: 1, maxLength: LAB_LIMITS.nics }),
      bmc: fc.constantFrom("ipmi", "redfish", "none"),
    });
    fc.assert(
      fc.property(
        fc.array(machine, { minLength: 1, maxLength: LAB_LIMITS.machines }),
        fc.integer({ min: 1, max: 254 }),
        (declared, octet) => {
          const machines = labMachines({ machines: declared.map((each, index) => ({ ...each, name: `${each.name}-${index}` })) });
          const plan = labPlan(machines, { dir: "/lab", octet });
          const devices = [...plan.machines.flatMap((each) => each.taps), plan.bridge];
          expect(new Set(devices).size).toBe(devices.length);
          for (const device of devices) expect(device.length).toBeLessThanOrEqual(15);
          const bmcs = plan.machines.flatMap((each) => (each.bmc ? [`${each.bmc.address}:${each.bmc.port}`] : []));
          expect(new Set(bmcs).size).toBe(bmcs.length);
        },
      ),
    );
  });
});
