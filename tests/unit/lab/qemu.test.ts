import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { labMachines } from "../../../lab/machines";
import { bmcDevices, DISK_DEVICES, type FirmwareFiles, labMachineArgs, machineArgs } from "../../../lab/qemu";

describe("QEMU's arguments for a machine (lab/qemu.ts, issue 52)", () => {
  let scratch: string;
  let files: FirmwareFiles;
  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), "lab-qemu-"));
    for (const name of ["code", "vars", "secure-code", "secure-vars"]) writeFileSync(join(scratch, name), name);
    files = {
      ovmfCode: join(scratch, "code"),
      ovmfVars: join(scratch, "vars"),
      ovmfSecureCode: join(scratch, "secure-code"),
      ovmfSecureVars: join(scratch, "secure-vars"),
    };
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  it("builds the boot tier's machines exactly as the boot tier's own builder did before it moved here", () => {
    // Recorded from tests/boot/support/qemu.ts's machineArgs before the move: every firmware, with and
    // without a tap and hardware of its own (the vars' copy in a scratch folder, named SCRATCH).
    const recorded = JSON.parse(readFileSync(join(__dirname, "bootMachineArgs.json"), "utf8")) as unknown[];
    const assets = { ovmfCode: "/c", ovmfVars: files.ovmfVars, ovmfSecureCode: "/sc", ovmfSecureVars: files.ovmfSecureVars };
    const built: unknown[] = [];
    for (const firmware of ["bios", "uefi", "uefi-secure-boot"] as const)
      for (const tap of [undefined, "tap0"])
        for (const hardware of [
          undefined,
          {
            nics: [
              { model: "e1000", mac: "52:54:00:00:00:01" },
              { model: "e1000e", mac: "52:54:00:00:00:02" },
            ],
            storage: ["-device", "x"],
          },
        ]) {
          const folder = mkdtempSync(join(scratch, "g-"));
          const args = machineArgs(assets, { firmware, mac: "52:54:00:00:00:02", bootUrl: "http://h/p", hardware, tap }, folder);
          built.push(args.map((arg) => arg.replace(folder, "SCRATCH")));
        }
    built.push(Object.fromEntries(Object.entries(DISK_DEVICES).map(([bus, devices]) => [bus, devices("d")])));
    expect(built).toEqual(recorded);
  });

  it("puts a lab machine's NICs on its taps, its disks on their controllers, its BMC on its KCS interface, and boots the network first", () => {
    const [bios, uefi, secure] = labMachines(undefined);
    const place = (machine: typeof bios, bmcPort?: number) => ({
      taps: machine.nics.map((_, index) => `lab-${machine.name}-${index}`),
      diskFiles: machine.disks.map((_, index) => `/lab/${machine.name}-${index}.raw`),
      bmcPort,
      kvm: false,
    });
    const biosArgs = labMachineArgs(files, bios, place(bios, 9001), scratch);
    expect(biosArgs).toEqual([
      ...["-name", "bios-1", "-accel", "tcg", "-m", "1024", "-smp", "1", "-boot", "order=nc"],
      ...[
        "-netdev",
        "tap,id=net0,ifname=lab-bios-1-0,script=no,downscript=no",
        "-device",
        "e1000e,netdev=net0,mac=52:54:00:1a:b0:01,bootindex=1",
      ],
      ...["-device", "megasas,id=sas", "-drive", "file=/lab/bios-1-0.raw,format=raw,if=none,id=bios-1-disk0"],
      ...["-device", "scsi-hd,drive=bios-1-disk0,bus=sas.0,serial=bios-1-disk0,bootindex=2"],
      ...bmcDevices(9001),
      ...["-machine", "pc"],
    ]);
    // A Redfish BMC is no device of the machine: it drives the machine through QEMU's monitor.
    const uefiArgs = labMachineArgs(files, uefi, place(uefi, 9002), scratch);
    expect(uefiArgs).not.toContain("ipmi-bmc-extern,id=bmc0,chardev=bmc-si");
    expect(uefiArgs.filter((arg) => arg.startsWith("e1000"))).toEqual([
      // The first NIC boots first, under OVMF as under SeaBIOS; the disks after it.
      "e1000e,netdev=net0,mac=52:54:00:1a:b1:01,bootindex=1",
      "e1000,netdev=net1,mac=52:54:00:1a:b1:02",
    ]);
    expect(uefiArgs).toEqual(expect.arrayContaining(["nvme,drive=uefi-1-disk0,serial=uefi-1-disk0,bootindex=2", "q35"]));
    // Three SATA disks on one AHCI controller, a port each; Secure Boot's NIC has no (unsigned) option ROM.
    const secureArgs = labMachineArgs(files, secure, { ...place(secure, 9003), kvm: true }, scratch);
    expect(secureArgs.filter((arg) => arg === "ahci,id=sata")).toHaveLength(1);
    expect(secureArgs.filter((arg) => arg.startsWith("ide-hd"))).toEqual(
      [0, 1, 2].map((n) => `ide-hd,drive=secure-1-disk${n},bus=sata.${n},serial=secure-1-disk${n},bootindex=${n + 2}`),
    );
    expect(secureArgs).toEqual(
      expect.arrayContaining(["kvm", "virtio-net-pci,netdev=net0,mac=52:54:00:1a:b2:01,romfile=,bootindex=1", "q35,smm=on"]),
    );
    expect(readFileSync(join(scratch, "OVMF_VARS.fd"), "utf8")).toBe("secure-vars");
  });

  it("gives each bus its controller once, however many disks hang off it", () => {
    const [machine] = labMachines({
      machines: [{ name: "many", disks: [{ bus: "lsi" }, { bus: "lsi" }, { bus: "virtio" }, { bus: "sas" }] }],
    });
    const args = labMachineArgs(files, machine, { taps: ["t0"], diskFiles: ["/a", "/b", "/c", "/d"], kvm: false }, scratch);
    expect(args.filter((arg) => arg === "lsi53c895a,id=lsi")).toHaveLength(1);
    expect(args.filter((arg) => arg === "megasas,id=sas")).toHaveLength(1);
    expect(args.filter((arg) => arg.startsWith("scsi-hd"))).toEqual([
      "scsi-hd,drive=many-disk0,bus=lsi.0,serial=many-disk0,bootindex=2",
      "scsi-hd,drive=many-disk1,bus=lsi.0,serial=many-disk1,bootindex=3",
      "scsi-hd,drive=many-disk3,bus=sas.0,serial=many-disk3,bootindex=5",
    ]);
    expect(args).toContain("virtio-blk-pci,drive=many-disk2,serial=many-disk2,bootindex=4");
  });

  it("refuses a place that does not fit the machine (a tap or a disk file short)", () => {
    const [machine] = labMachines(undefined);
    expect(() => labMachineArgs(files, machine, { taps: [], diskFiles: ["/a"], kvm: false }, scratch)).toThrow(
      "bios-1 has 1 NICs and 0 taps",
    );
    expect(() => labMachineArgs(files, machine, { taps: ["t"], diskFiles: [], kvm: false }, scratch)).toThrow(
      "bios-1 has 1 disks and 0 files",
    );
  });
});
