import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BootAssets } from "./bootAssets";

export type Firmware = "bios" | "uefi";

export interface BootOptions {
  firmware: Firmware;
  mac: string;
  /** What QEMU's DHCP server hands the firmware as its boot file (an HTTP URL for iPXE). */
  bootUrl: string;
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
 * Boots a machine in QEMU (software emulation, no KVM) with one virtio NIC on QEMU's user-mode
 * network, whose DHCP hands out `bootUrl`. The NIC's option ROM is Debian's iPXE; the firmware is
 * SeaBIOS or OVMF. The guest reaches the host's loopback as 10.0.2.2, and nothing else.
 */
/**
 * QEMU's arguments for the machine, without its console: software emulation, 512 MB, one virtio
 * NIC on the user-mode network handing out `bootUrl`, network boot first, no reboot (a reboot ends
 * QEMU), SeaBIOS or OVMF (its variables copied into `scratch`).
 */
export function machineArgs(assets: BootAssets, options: Pick<BootOptions, "firmware" | "mac" | "bootUrl">, scratch: string): string[] {
  const args = ["-accel", "tcg", "-m", "512", "-smp", "1", "-monitor", "none", "-no-reboot", "-boot", "n"];
  args.push("-nic", `user,model=virtio-net-pci,mac=${options.mac},bootfile=${options.bootUrl}`);
  if (options.firmware === "uefi") {
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
  const child: ChildProcess = spawn(assets.qemu, args, { stdio: ["ignore", "pipe", "pipe"] });
  let raw = "";
  try {
    const poweredOff = await new Promise<boolean>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(
          new Error(`The ${options.firmware} boot of ${options.mac} took over ${options.timeoutMs} ms. Serial console:\n${plain(raw)}`),
        );
      }, options.timeoutMs);
      const onData = (chunk: Buffer) => {
        raw += chunk.toString("latin1");
        if (options.until?.test(plain(raw))) {
          clearTimeout(timer);
          child.kill("SIGKILL");
          resolve(false);
        }
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
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
