import type { ChildProcess } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BootDiskBus, DISK_DEVICES, type MachineOptions, machineArgs } from "../../../lab/qemu";
import { spawnQemu } from "../../../lab/qemuConsole";
import type { BootAssets } from "./bootAssets";
import { failOnPanic, panicLine } from "./panic";

export { DISK_DEVICES, type Firmware, type Hardware, machineArgs, type Nic } from "../../../lab/qemu";

export interface BootOptions extends MachineOptions {
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
 * SeaBIOS or OVMF. The guest reaches the host's loopback as 10.0.2.2, and nothing else. Its
 * arguments are the lab's (lab/qemu.ts).
 */
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
        const panic = panicLine(plain(raw));
        if (panic) {
          clearTimeout(timer);
          child.kill("SIGKILL");
          reject(
            new Error(`The ${options.firmware} boot of ${options.mac} panicked: ${panic}\nSerial console:\n${plain(raw).slice(-4000)}`),
          );
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

export type DiskBus = BootDiskBus;

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
        failOnPanic(`The ${options.firmware} machine ${options.mac}`, serial());
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
