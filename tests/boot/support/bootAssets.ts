import { existsSync } from "node:fs";
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

export const DEBIAN_PACKAGES = ["qemu-system-x86", "ipxe-qemu", "busybox-static", "ovmf", "pci.ids"];

const FILES = {
  qemu: "/usr/bin/qemu-system-x86_64",
  ipxeRom: "/usr/lib/ipxe/qemu/efi-virtio.rom",
  ovmfCode: "/usr/share/OVMF/OVMF_CODE_4M.fd",
  ovmfVars: "/usr/share/OVMF/OVMF_VARS_4M.fd",
  ovmfSecureCode: "/usr/share/OVMF/OVMF_CODE_4M.secboot.fd",
  ovmfSecureVars: "/usr/share/OVMF/OVMF_VARS_4M.ms.fd",
  pciIds: "/usr/share/misc/pci.ids",
};

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
