import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { type DiskBus, type Firmware, type LabMachine, NIC_MODELS } from "./machines";

/**
 * QEMU's arguments for a machine: the lab's (`labMachineArgs`, from a machine `lab.yml` declares)
 * and the boot tier's (`machineArgs`), one builder for both (issue 52: the boot tier's machines are
 * built by the lab's code, so the lab is tested on every CI run).
 */

export type { Firmware } from "./machines";

/** Debian's OVMF builds: the plain one and the Secure Boot one (which needs SMM), each with its variables to copy. */
export interface FirmwareFiles {
  ovmfCode: string;
  ovmfVars: string;
  /** OVMF built with Secure Boot, and variables with Microsoft's keys enrolled and Secure Boot on. */
  ovmfSecureCode: string;
  ovmfSecureVars: string;
}

/** Debian's QEMU and OVMF (packages qemu-system-x86, ipxe-qemu, ovmf): the files a machine's firmware is. */
export const QEMU_FILES = {
  qemu: "/usr/bin/qemu-system-x86_64",
  ipxeRom: "/usr/lib/ipxe/qemu/efi-virtio.rom",
  ovmfCode: "/usr/share/OVMF/OVMF_CODE_4M.fd",
  ovmfVars: "/usr/share/OVMF/OVMF_VARS_4M.fd",
  ovmfSecureCode: "/usr/share/OVMF/OVMF_CODE_4M.secboot.fd",
  ovmfSecureVars: "/usr/share/OVMF/OVMF_VARS_4M.ms.fd",
} as const;
export const QEMU_PACKAGES = ["qemu-system-x86", "ipxe-qemu", "ovmf"];

/** A NIC by QEMU's device model (e1000, e1000e, rtl8139, vmxnet3, virtio-net-pci, …) and its MAC. */
export interface Nic {
  model: string;
  mac: string;
}

/** A machine's devices other than the default one virtio NIC: its NICs in PCI order, its storage controllers and disks. */
export interface Hardware {
  nics?: Nic[];
  /** QEMU arguments for the storage (`-device nvme,…`, `-blockdev …`). */
  storage?: string[];
}

export interface MachineOptions {
  firmware: Firmware;
  mac: string;
  hardware?: Hardware;
  /** What QEMU's DHCP server hands the firmware as its boot file (an HTTP URL for iPXE). */
  bootUrl: string;
  /** The boot NIC's cable goes into this tap device (the site's DHCP answers it) instead of QEMU's user network. */
  tap?: string;
}

/** The firmware's arguments: SeaBIOS, OVMF or OVMF with Secure Boot (its variables copied into `scratch`, which the machine writes). */
function firmwareArgs(files: FirmwareFiles, firmware: Firmware, scratch: string, copyVars = true): string[] {
  if (firmware === "bios") return ["-machine", "pc"];
  const secure = firmware === "uefi-secure-boot";
  const vars = join(scratch, "OVMF_VARS.fd");
  if (copyVars) copyFileSync(secure ? files.ovmfSecureVars : files.ovmfVars, vars);
  return [
    ...(secure ? ["-machine", "q35,smm=on", "-global", "driver=cfi.pflash01,property=secure,value=on"] : ["-machine", "q35"]),
    "-drive",
    `if=pflash,format=raw,unit=0,readonly=on,file=${secure ? files.ovmfSecureCode : files.ovmfCode}`,
    "-drive",
    `if=pflash,format=raw,unit=1,file=${vars}`,
  ];
}

/**
 * The boot tier's machine: software emulation, 512 MB, one virtio NIC (or the `hardware` given) on
 * QEMU's user-mode network handing out `bootUrl`, network boot first, no reboot (a reboot ends
 * QEMU), SeaBIOS or OVMF (its variables copied into `scratch`).
 */
export function machineArgs(files: FirmwareFiles, options: MachineOptions, scratch: string): string[] {
  const args = ["-accel", "tcg", "-m", "512", "-smp", "1", "-monitor", "none", "-no-reboot", "-boot", "n"];
  for (const [index, nic] of (options.hardware?.nics ?? [{ model: "virtio-net-pci", mac: options.mac }]).entries()) {
    // A port on another network: its DHCP answers with no boot file, so its iPXE gives the boot back.
    const bootfile = nic.mac === options.mac ? `,bootfile=${options.bootUrl}` : "";
    if (options.tap && nic.mac === options.mac) {
      // No option ROM on a site's network either: the firmware's own PXE asks the site's DHCP.
      args.push("-netdev", `tap,id=net${index},ifname=${options.tap},script=no,downscript=no`);
      args.push("-device", `${nic.model},netdev=net${index},mac=${nic.mac},romfile=`);
    } else if (options.firmware === "uefi-secure-boot") {
      // No option ROM (QEMU's is iPXE, unsigned): the firmware's own PXE, as a server's. Without
      // QEMU's TFTP server, the machine's TFTP reaches the host's port 69 (the relay's).
      args.push("-netdev", `user,id=net${index}${bootfile}`, "-device", `${nic.model},netdev=net${index},mac=${nic.mac},romfile=`);
    } else {
      args.push("-nic", `user,model=${nic.model},mac=${nic.mac}${bootfile}`);
    }
  }
  args.push(...(options.hardware?.storage ?? []));
  args.push(...firmwareArgs(files, options.firmware, scratch));
  return args;
}

export type BootDiskBus = "virtio" | "nvme" | "sata";

/** QEMU's devices for a drive on each bus; the disk's serial is its drive's id (its /dev/disk/by-id name ends with it). */
export const DISK_DEVICES: Record<BootDiskBus, (drive: string) => string[]> = {
  virtio: (drive) => ["-device", `virtio-blk-pci,drive=${drive},serial=${drive}`],
  nvme: (drive) => ["-device", `nvme,drive=${drive},serial=${drive}`],
  sata: (drive) => ["-device", "ahci,id=sata", "-device", `ide-hd,drive=${drive},bus=sata.0,serial=${drive}`],
};

/** QEMU's arguments that give a machine the BMC whose system interface waits on `port` (a KCS interface, as most servers have). */
export const bmcDevices = (port: number): string[] => [
  "-chardev",
  `socket,id=bmc-si,host=127.0.0.1,port=${port},reconnect=10`,
  "-device",
  "ipmi-bmc-extern,id=bmc0,chardev=bmc-si",
  "-device",
  "isa-ipmi-kcs,bmc=bmc0",
];

/** Each lab disk bus's controller (one per bus a machine has) and how a disk hangs off it. */
const BUSES: Record<DiskBus, { controller: string[]; disk: (drive: string, index: number) => string }> = {
  nvme: { controller: [], disk: (drive) => `nvme,drive=${drive},serial=${drive}` },
  sata: { controller: ["-device", "ahci,id=sata"], disk: (drive, index) => `ide-hd,drive=${drive},bus=sata.${index},serial=${drive}` },
  sas: { controller: ["-device", "megasas,id=sas"], disk: (drive) => `scsi-hd,drive=${drive},bus=sas.0,serial=${drive}` },
  lsi: { controller: ["-device", "lsi53c895a,id=lsi"], disk: (drive) => `scsi-hd,drive=${drive},bus=lsi.0,serial=${drive}` },
  virtio: { controller: [], disk: (drive) => `virtio-blk-pci,drive=${drive},serial=${drive}` },
};

/** Where a lab machine's parts are on this host: a tap per NIC (on the site's bridge), a disk file per disk, its BMC's system interface. */
export interface MachinePlace {
  taps: string[];
  diskFiles: string[];
  /** The TCP port where its BMC (ipmi_sim) waits for the machine's KCS interface; none for a Redfish BMC or none. */
  bmcPort?: number;
  /** KVM when /dev/kvm works, else software emulation. */
  kvm: boolean;
}

/**
 * A lab machine as a server is: its NICs on the site's bridge (the first boots), its disks on their controllers, network boot first then the disk,
 * reboots allowed, a BMC on its KCS interface when it has an IPMI one, and its QEMU monitor kept
 * for its BMC (power and reset go through it). A SATA controller has six ports, a disk a port.
 */
export function labMachineArgs(files: FirmwareFiles, machine: LabMachine, place: MachinePlace, scratch: string, copyVars = true): string[] {
  if (place.taps.length !== machine.nics.length)
    throw new Error(`${machine.name} has ${machine.nics.length} NICs and ${place.taps.length} taps`);
  if (place.diskFiles.length !== machine.disks.length)
    throw new Error(`${machine.name} has ${machine.disks.length} disks and ${place.diskFiles.length} files`);
  const args = [
    "-name",
    machine.name,
    "-accel",
    place.kvm ? "kvm" : "tcg",
    "-m",
    String(machine.memoryMiB),
    "-smp",
    "1",
    "-boot",
    "order=nc",
  ];
  machine.nics.forEach((nic, index) => {
    args.push("-netdev", `tap,id=net${index},ifname=${place.taps[index]},script=no,downscript=no`);
    // SeaBIOS boots the network through the NIC's option ROM (QEMU's is iPXE, as a server's NIC has
    // its vendor's PXE ROM); Secure Boot firmware would refuse that unsigned ROM, and uses its own PXE.
    const rom = machine.firmware === "uefi-secure-boot" ? ",romfile=" : "";
    // The first NIC boots first (bootindex: OVMF follows it as SeaBIOS does `-boot order`, so a UEFI
    // machine whose installed system added its own boot entry still network-boots first, as the
    // lab's servers do); the loaders leave to the disk when the service has nothing for the machine.
    const first = index === 0 ? ",bootindex=1" : "";
    args.push("-device", `${NIC_MODELS[nic.model]},netdev=net${index},mac=${nic.mac}${rom}${first}`);
  });
  const onBus = new Map<DiskBus, number>();
  machine.disks.forEach((disk, index) => {
    const drive = `${machine.name}-disk${index}`;
    const count = onBus.get(disk.bus) ?? 0;
    if (count === 0) args.push(...BUSES[disk.bus].controller);
    onBus.set(disk.bus, count + 1);
    args.push(
      "-drive",
      `file=${place.diskFiles[index]},format=raw,if=none,id=${drive}`,
      "-device",
      `${BUSES[disk.bus].disk(drive, count)},bootindex=${index + 2}`,
    );
  });
  if (machine.bmc === "ipmi" && place.bmcPort !== undefined) args.push(...bmcDevices(place.bmcPort));
  // `copyVars` false: the machine's variables are the ones copied before (its boot entries and Secure Boot state kept).
  args.push(...firmwareArgs(files, machine.firmware, scratch, copyVars));
  return args;
}
