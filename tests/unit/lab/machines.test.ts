import fc from "fast-check";
import {
  BMC_KINDS,
  DEFAULT_MACHINES,
  DISK_BUSES,
  FIRMWARES,
  LAB_LIMITS,
  LabFileError,
  labMac,
  labMachines,
  machinesFromFlags,
  NIC_MODELS,
  parseLabFile,
} from "../../../lab/machines";

/** The problems a file has, as the lab says them (every one at once). */
const problemsOf = (text: string): string[] => {
  try {
    parseLabFile(text);
  } catch (error) {
    if (error instanceof LabFileError) return error.problems;
    throw error;
  }
  return [];
};

describe("the lab's machines, as lab.yml declares them (issue 52)", () => {
  it("makes three machines when the file names none: one of each firmware, physical-class devices, each with its BMC", () => {
    for (const text of ["", "# nothing yet\n", "machines:\n"]) {
      const machines = parseLabFile(text.replace("machines:\n", ""));
      expect(machines.map((machine) => [machine.name, machine.firmware, machine.bmc])).toEqual([
        ["bios-1", "bios", "ipmi"],
        ["uefi-1", "uefi", "redfish"],
        ["secure-1", "uefi-secure-boot", "ipmi"],
      ]);
    }
    const [bios, uefi, secure] = labMachines(undefined);
    expect(bios.nics).toEqual([{ model: "e1000e", mac: "52:54:00:1a:b0:01" }]);
    expect(uefi.nics.map((nic) => nic.mac)).toEqual(["52:54:00:1a:b1:01", "52:54:00:1a:b1:02"]);
    expect(secure.disks).toEqual([
      { bus: "sata", sizeGiB: 4 },
      { bus: "sata", sizeGiB: 8 },
      { bus: "sata", sizeGiB: 4 },
    ]);
    // Physical-class NICs but the Secure Boot machine's boot NIC (OVMF's own driver: QEMU's ROMs are unsigned iPXE).
    expect(DEFAULT_MACHINES.flatMap((machine) => machine.nics?.map((nic) => nic.model))).toEqual([
      "e1000e",
      "e1000e",
      "e1000",
      "virtio",
      "e1000e",
    ]);
    expect(() => labMachines({ machines: [{ name: "sb", firmware: "uefi-secure-boot" }] })).toThrow(
      "machines[0].nics[0].model: a machine with Secure Boot on boots from virtio",
    );
    expect(
      labMachines({ machines: [{ name: "sb", firmware: "uefi-secure-boot", nics: [{ model: "virtio" }, { model: "igb" }] }] }),
    ).toHaveLength(1);
  });

  it("fills in what a machine leaves out: UEFI, one e1000e NIC with the lab's MAC, one 8 GiB NVMe disk, 1 GiB, an IPMI BMC", () => {
    expect(
      parseLabFile("machines:\n  - name: web-1\n  - name: web-2\n    nics: [{ mac: 52:54:00:AA:BB:CC }, { model: virtio }]\n"),
    ).toEqual([
      {
        name: "web-1",
        firmware: "uefi",
        nics: [{ model: "e1000e", mac: "52:54:00:1a:b0:01" }],
        disks: [{ bus: "nvme", sizeGiB: 8 }],
        memoryMiB: 1024,
        bmc: "ipmi",
      },
      {
        name: "web-2",
        firmware: "uefi",
        nics: [
          { model: "e1000e", mac: "52:54:00:aa:bb:cc" },
          { model: "virtio", mac: "52:54:00:1a:b1:02" },
        ],
        disks: [{ bus: "nvme", sizeGiB: 8 }],
        memoryMiB: 1024,
        bmc: "ipmi",
      },
    ]);
  });

  it("takes every firmware, NIC model, disk bus and BMC it names", () => {
    const text = [
      "machines:",
      ...FIRMWARES.map((firmware, index) =>
        [
          `  - name: m-${index}`,
          `    firmware: ${firmware}`,
          // The Secure Boot machine's boot NIC is virtio (OVMF's own driver); each model once in all.
          `    nics: [${(firmware === "uefi-secure-boot" ? [index + 3, index] : [index, index + 3]).map((n) => `{ model: ${Object.keys(NIC_MODELS)[n]} }`).join(", ")}]`,
          `    disks: [${DISK_BUSES.slice(index, index + 3)
            .map((bus) => `{ bus: ${bus}, sizeGiB: ${index + 1} }`)
            .join(", ")}]`,
          `    memoryMiB: ${512 * (index + 1)}`,
          `    bmc: ${BMC_KINDS[index]}`,
        ].join("\n"),
      ),
    ].join("\n");
    const machines = parseLabFile(text);
    expect(machines.map((machine) => machine.firmware)).toEqual([...FIRMWARES]);
    expect(machines.flatMap((machine) => machine.nics.map((nic) => nic.model)).sort()).toEqual(Object.keys(NIC_MODELS).sort());
    expect(new Set(machines.flatMap((machine) => machine.disks.map((disk) => disk.bus)))).toEqual(new Set(DISK_BUSES));
    expect(machines.map((machine) => machine.bmc)).toEqual([...BMC_KINDS]);
    expect(machines.map((machine) => machine.memoryMiB)).toEqual([512, 1024, 1536]);
  });

  it("names every mistake by its place in the file, all at once, and makes nothing", () => {
    expect(
      problemsOf(
        [
          "machines:",
          "  - name: Web_1",
          "    firmware: coreboot",
          "    nics: [{ model: e100, mac: 52-54-00-00-00-01 }, { model: e1000 }, { model: e1000 }]",
          "    disks: [{ bus: scsi, sizeGiB: 0.5 }, { bus: nvme, sizeGiB: 65, size: 3 }]",
          "    memoryMiB: 100",
          "    bmc: ilo",
          "    cpus: 4",
          "  - name: db-1",
          "  - name: db-1",
          "    nics: [{ mac: 52:54:00:1a:b1:01 }]",
          "site: lab",
        ].join("\n"),
      ),
    ).toEqual([
      "site: unknown (known: machines)",
      "machines[0].cpus: unknown (known: name, firmware, nics, disks, memoryMiB, bmc)",
      'machines[0].name: "Web_1" must be lower-case letters, digits and dashes, starting with a letter, at most 31',
      "machines[0].nics: must be a list of 1 to 2",
      'machines[0].disks[0].bus: "scsi" is not one of nvme, sata, sas, lsi, virtio',
      "machines[0].disks[0].sizeGiB: 0.5 is not a whole number from 1 to 64",
      "machines[0].disks[1].size: unknown (known: bus, sizeGiB)",
      "machines[0].disks[1].sizeGiB: 65 is not a whole number from 1 to 64",
      'machines[0].firmware: "coreboot" is not one of bios, uefi, uefi-secure-boot',
      "machines[0].memoryMiB: 100 is not a whole number from 512 to 8192",
      'machines[0].bmc: "ilo" is not one of ipmi, redfish, none',
      "machines[2].name: db-1 is machines[1]'s name too",
      "machines[2].nics[0].mac: 52:54:00:1a:b1:01 is machines[1].nics[0]'s too",
    ]);
    expect(problemsOf("machines: [{ name: a, nics: [{ model: e100, mac: nope }] }]")).toEqual([
      'machines[0].nics[0].mac: "nope" is not a MAC (six hex pairs, colons)',
      'machines[0].nics[0].model: "e100" is not one of e1000, e1000e, igb, vmxnet3, rtl8139, virtio',
    ]);
  });

  it("refuses a file that is no mapping, no YAML, too many machines, or YAML aliases (no billion laughs)", () => {
    expect(problemsOf("- a\n- b\n")).toEqual(["the file must be a mapping with `machines:`"]);
    expect(problemsOf("machines: [\n")[0]).toMatch(/^not YAML: /);
    expect(problemsOf(`machines:\n${Array.from({ length: 9 }, (_, i) => `  - name: m${i}`).join("\n")}\n`)).toEqual([
      "machines: must be a list of 1 to 8",
    ]);
    expect(problemsOf("machines: []")).toEqual(["machines: must be a list of 1 to 8"]);
    expect(problemsOf("a: &a [x, x]\nb: &b [*a, *a]\nmachines: [{ name: m }]\n")[0]).toMatch(/^not YAML: /);
    expect(problemsOf("machines: [web-1]")).toEqual(["machines[0]: must be a mapping with at least a name"]);
    expect(problemsOf("machines: [{ name: m, nics: [e1000], disks: [nvme] }]")).toEqual([
      "machines[0].nics[0]: must be a mapping",
      "machines[0].disks[0]: must be a mapping",
    ]);
  });

  it("gives each NIC of each machine a MAC of its own (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: LAB_LIMITS.machines - 1 }),
        fc.integer({ min: 0, max: LAB_LIMITS.machines - 1 }),
        fc.nat(1),
        fc.nat(1),
        (a, b, n, m) => {
          expect(labMac(a, n) === labMac(b, m)).toBe(a === b && n === m);
          expect(labMac(a, n)).toMatch(/^52:54:00:1a:[0-9a-f]{2}:0[12]$/);
        },
      ),
    );
  });

  it("answers any YAML with machines or a LabFileError, never anything else (property)", () => {
    const value = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.integer(),
      fc.constantFrom(...FIRMWARES, ...DISK_BUSES, ...BMC_KINDS, "e1000e"),
      fc.constant(null),
    );
    const machine = fc.dictionary(
      fc.constantFrom("name", "firmware", "nics", "disks", "memoryMiB", "bmc", "x"),
      fc.oneof(value, fc.array(fc.dictionary(fc.constantFrom("model", "mac", "bus", "sizeGiB"), value), { maxLength: 3 })),
    );
    fc.assert(
      fc.property(fc.oneof(fc.array(machine, { maxLength: 10 }), value), (machines) => {
        try {
          const made = labMachines({ machines });
          for (const each of made) {
            expect(each.nics.length).toBeGreaterThan(0);
            expect(each.disks.length).toBeGreaterThan(0);
          }
        } catch (error) {
          expect(error).toBeInstanceOf(LabFileError);
          expect((error as LabFileError).problems.length).toBeGreaterThan(0);
        }
      }),
    );
  });

  it("reads --machine flags as lab.yml's machines: a name, then key=value pairs, NICs and disks once each", () => {
    expect(machinesFromFlags(["web-1,firmware=bios,bmc=redfish,memory=2048,nic=e1000,nic=vmxnet3,disk=sas:16,disk=nvme"])).toEqual([
      {
        name: "web-1",
        firmware: "bios",
        nics: [
          { model: "e1000", mac: "52:54:00:1a:b0:01" },
          { model: "vmxnet3", mac: "52:54:00:1a:b0:02" },
        ],
        disks: [
          { bus: "sas", sizeGiB: 16 },
          { bus: "nvme", sizeGiB: 8 },
        ],
        memoryMiB: 2048,
        bmc: "redfish",
      },
    ]);
    expect(machinesFromFlags(["a", "b"]).map((machine) => [machine.name, machine.firmware])).toEqual([
      ["a", "uefi"],
      ["b", "uefi"],
    ]);
    expect(() => machinesFromFlags(["a,firmware=coreboot"])).toThrow(
      '--machine is not one the lab can make:\n- machines[0].firmware: "coreboot"',
    );
  });
});
