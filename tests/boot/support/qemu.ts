import type { ChildProcess } from "node:child_process";
import { appendFileSync, copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnQemu } from "../../support/qemuConsole";
import type { BootAssets } from "./bootAssets";

/** SeaBIOS, OVMF, or OVMF with Secure Boot on (Microsoft's keys enrolled; its NICs boot with the firmware's own PXE). */
export type Firmware = "bios" | "uefi" | "uefi-secure-boot";

/** A NIC on its own QEMU user-mode network; only the one with the machine's `mac` is handed the boot URL. */
export interface Nic {
  /** QEMU's device model: e1000, e1000e, rtl8139, vmxnet3, virtio-net-pci, … */
  model: string;
  mac: string;
}

/** A machine's devices other than the default one virtio NIC: its NICs in PCI order, its storage controllers and disks. */
export interface Hardware {
  nics?: Nic[];
  /** QEMU arguments for the storage (`-device nvme,…`, `-blockdev …`). */
  storage?: string[];
}

export interface BootOptions {
  firmware: Firmware;
  mac: string;
  hardware?: Hardware;
  /** What QEMU's DHCP server hands the firmware as its boot file (an HTTP URL for iPXE). */
  bootUrl: string;
  /** The boot NIC's cable goes into this tap device (tapNetwork.ts: the site's DHCP answers it) instead of QEMU's user network. */
  tap?: string;
  /** Stop the machine once its serial console shows this (else wait for it to power off). */
  until?: RegExp;
  timeoutMs: number;
}

export interface BootRecord {
  /** The serial console, without terminal escape codes. */
  serial: string;
  seconds: number;
  /** Whether the machine powered itself off (else the test stopped it at `until`). */
  poweredOff: boolean;
}

/** Terminal escape sequences (ESC [ … letter, ESC ( letter) and carriage returns, which firmware consoles print. */
const ESCAPES = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]|${String.fromCharCode(27)}[()][A-Z0-9]|\\r`, "g");
const plain = (text: string): string => text.replace(ESCAPES, "");

/**
 * Boots a machine in QEMU (software emulation, no KVM) with one virtio NIC (or the `hardware`
 * given) on QEMU's user-mode network, whose DHCP hands out `bootUrl`. The NIC's option ROM is Debian's iPXE; the firmware is
 * SeaBIOS or OVMF. The guest reaches the host's loopback as 10.0.2.2, and nothing else.
 */
/**
 * QEMU's arguments for the machine, without its console: software emulation, 512 MB, one virtio
 * NIC on the user-mode network handing out `bootUrl`, network boot first, no reboot (a reboot ends
 * QEMU), SeaBIOS or OVMF (its variables copied into `scratch`).
 */
export function machineArgs(
  assets: BootAssets,
  options: Pick<BootOptions, "firmware" | "mac" | "bootUrl" | "hardware" | "tap">,
  scratch: string,
): string[] {
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
  if (options.firmware === "uefi-secure-boot") {
    const vars = join(scratch, "OVMF_VARS.fd");
    copyFileSync(assets.ovmfSecureVars, vars);
    args.push("-machine", "q35,smm=on", "-global", "driver=cfi.pflash01,property=secure,value=on");
    args.push("-drive", `if=pflash,format=raw,unit=0,readonly=on,file=${assets.ovmfSecureCode}`);
    args.push("-drive", `if=pflash,format=raw,unit=1,file=${vars}`);
  } else if (options.firmware === "uefi") {
    const vars = join(scratch, "OVMF_VARS.fd");
    copyFileSync(assets.ovmfVars, vars);
    args.push("-machine", "q35");
    args.push("-drive", `if=pflash,format=raw,unit=0,readonly=on,file=${assets.ovmfCode}`);
    args.push("-drive", `if=pflash,format=raw,unit=1,file=${vars}`);
  } else {
    args.push("-machine", "pc");
  }
  return args;
}

export async function bootMachine(assets: BootAssets, options: BootOptions): Promise<BootRecord> {
  const scratch = mkdtempSync(join(tmpdir(), "qemu-"));
  const args = ["-nographic", ...machineArgs(assets, options, scratch)];
  const started = performance.now();
  let raw = "";
  let onData = (chunk: Buffer) => {
    raw += chunk.toString("latin1");
  };
  const child: ChildProcess = spawnQemu(assets.qemu, args, join(scratch, "console.log"), (chunk) => onData(chunk));
  try {
    const poweredOff = await new Promise<boolean>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(
          new Error(`The ${options.firmware} boot of ${options.mac} took over ${options.timeoutMs} ms. Serial console:\n${plain(raw)}`),
        );
      }, options.timeoutMs);
      onData = (chunk: Buffer) => {
        raw += chunk.toString("latin1");
        if (options.until?.test(plain(raw))) {
          clearTimeout(timer);
          child.kill("SIGKILL");
          resolve(false);
        }
      };
      // After spawnQemu's own listener: the console's last lines are read by then.
      child.once("exit", () => {
        clearTimeout(timer);
        resolve(true);
      });
      child.once("error", reject);
    });
    return { serial: plain(raw), seconds: Math.round((performance.now() - started) / 100) / 10, poweredOff };
  } finally {
    child.kill("SIGKILL");
    rmSync(scratch, { recursive: true, force: true });
  }
}

export type DiskBus = "virtio" | "nvme" | "sata";

/** QEMU's devices for a drive on each bus; the disk's serial is its drive's id (its /dev/disk/by-id name ends with it). */
export const DISK_DEVICES: Record<DiskBus, (drive: string) => string[]> = {
  virtio: (drive) => ["-device", `virtio-blk-pci,drive=${drive},serial=${drive}`],
  nvme: (drive) => ["-device", `nvme,drive=${drive},serial=${drive}`],
  sata: (drive) => ["-device", "ahci,id=sata", "-device", `ide-hd,drive=${drive},bus=sata.0,serial=${drive}`],
};

export interface RunningMachine {
  /** The serial console so far, without terminal escape codes. */
  serial: () => string;
  /** Resolves when the serial console shows `pattern` (rejects after `timeoutMs` or if QEMU exits first). */
  waitFor: (pattern: RegExp, timeoutMs: number) => Promise<void>;
  stop: () => void;
}

/**
 * A machine that keeps running, with a disk: network boot first, then the disk (`-boot order=nc`),
 * reboots allowed (an installer reboots into what it installed), 1 GiB, and QEMU's user-mode
 * network forwarding `sshPort` on the host's loopback to the guest's port 22 (on a `tap` network
 * the host reaches the guest at the address the site's DHCP gave it).
 */
export function startMachine(
  assets: BootAssets,
  options: Pick<BootOptions, "firmware" | "mac" | "bootUrl" | "hardware" | "tap"> & {
    disk: string;
    /** The bus of the disk it installs to: virtio (the default), NVMe or SATA (an AHCI controller of its own). */
    diskBus?: DiskBus;
    sshPort?: number;
    serialLog?: string;
  },
): RunningMachine {
  const scratch = mkdtempSync(join(tmpdir(), "qemu-"));
  const args = machineArgs(assets, options, scratch)
    .join("\u0000")
    .replace(["-no-reboot", "-boot", "n"].join("\u0000"), ["-boot", "order=nc"].join("\u0000"))
    .replace(["-m", "512"].join("\u0000"), ["-m", "1024"].join("\u0000"))
    .replace(
      `bootfile=${options.bootUrl}`,
      `bootfile=${options.bootUrl}${options.sshPort ? `,hostfwd=tcp:127.0.0.1:${options.sshPort}-:22` : ""}`,
    )
    .split("\u0000");
  args.push("-drive", `file=${options.disk},format=raw,if=none,id=target`, ...DISK_DEVICES[options.diskBus ?? "virtio"]("target"));
  let raw = "";
  let exited = false;
  // The console also goes to `serialLog` as it comes, to follow a long boot from outside.
  const onData = (chunk: Buffer) => {
    raw += chunk.toString("latin1");
    if (options.serialLog) appendFileSync(options.serialLog, chunk);
  };
  const child = spawnQemu(assets.qemu, ["-nographic", ...args], join(scratch, "console.log"), onData);
  child.once("exit", () => {
    exited = true;
  });
  const serial = () => plain(raw);
  return {
    serial,
    waitFor: async (pattern, timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(serial())) {
        if (exited) throw new Error(`QEMU exited before ${pattern}. Serial console:\n${serial().slice(-6000)}`);
        if (Date.now() > deadline) throw new Error(`No ${pattern} within ${timeoutMs} ms. Serial console:\n${serial().slice(-6000)}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    },
    stop: () => {
      child.kill("SIGKILL");
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
