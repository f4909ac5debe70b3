import { existsSync } from "node:fs";
import { QEMU_FILES, QEMU_PACKAGES } from "../../../lab/qemu";
import { type KernelAssets, kernelAssets } from "../../../microkernel/assets";

/** What a network-boot test needs from Debian: QEMU, its iPXE ROMs, OVMF, and what an initramfs is built from. */
export interface BootAssets extends KernelAssets {
  qemu: string;
  ovmfCode: string;
  ovmfVars: string;
  /** OVMF built with Secure Boot (it needs SMM), and variables with Microsoft's keys enrolled and Secure Boot on. */
  ovmfSecureCode: string;
  ovmfSecureVars: string;
}

export const DEBIAN_PACKAGES = [...QEMU_PACKAGES, "busybox-static", "pci.ids"];

const FILES = { ...QEMU_FILES, pciIds: "/usr/share/misc/pci.ids" };

/** Checks the machine has what the boot tier needs (a clear message when not) and fetches the kernel. */
export function bootAssets(): BootAssets {
  for (const [name, file] of Object.entries(FILES)) {
    if (!existsSync(file)) {
      throw new Error(
        `The boot tier needs ${file} (${name}). Install it with: apt-get update && apt-get install -y ${DEBIAN_PACKAGES.join(" ")} (.ci/run does).`,
      );
    }
  }
  const { qemu, ovmfCode, ovmfVars, ovmfSecureCode, ovmfSecureVars } = FILES;
  return { qemu, ovmfCode, ovmfVars, ovmfSecureCode, ovmfSecureVars, ...kernelAssets() };
}
