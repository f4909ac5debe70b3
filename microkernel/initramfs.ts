import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { KernelAssets } from "./assets";

/** The modules virtio-net and virtio-blk need in Debian's cloud kernel, in load order (init loads them so; ext4 is built in). */
const MODULES = [
  "drivers/virtio/virtio_ring.ko",
  "drivers/virtio/virtio.ko",
  "drivers/virtio/virtio_pci_modern_dev.ko",
  "drivers/virtio/virtio_pci_legacy_dev.ko",
  "drivers/virtio/virtio_pci.ko",
  "net/core/failover.ko",
  "drivers/net/net_failover.ko",
  "drivers/net/virtio_net.ko",
  // The image install writes the machine's disk.
  "drivers/block/virtio_blk.ko",
];

function listTree(root: string, dir = root): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return [relative(root, path), ...(statSync(path).isDirectory() ? listTree(root, path) : [])];
  });
}

/** The discovery microkernel: init.sh as /init. Answers the file's path. */
export const buildMicrokernelInitramfs = (assets: KernelAssets, out: string): string =>
  buildInitramfs(assets, out, join(__dirname, "init.sh"));

/**
 * Builds an initramfs (uncompressed newc cpio): busybox, the virtio-net modules, a DHCP script,
 * boot-common.sh, and `init` as /init. Answers the file's path. The boot tests build their
 * stand-in installer with it too.
 */
export function buildInitramfs(assets: KernelAssets, out: string, init: string): string {
  const root = mkdtempSync(join(tmpdir(), "installer-rootfs-"));
  try {
    for (const dir of ["bin", "dev", "proc", "sys", "tmp", "lib/modules", "usr/share/udhcpc"])
      mkdirSync(join(root, dir), { recursive: true });
    copyFileSync(assets.busybox, join(root, "bin/busybox"));
    for (const module of MODULES) {
      copyFileSync(join(assets.modules, module), join(root, "lib/modules", module.split("/").pop()!));
    }
    copyFileSync(init, join(root, "init"));
    copyFileSync(join(__dirname, "boot-common.sh"), join(root, "lib/boot-common.sh"));
    copyFileSync(join(__dirname, "udhcpc.script"), join(root, "usr/share/udhcpc/default.script"));
    for (const file of ["bin/busybox", "init", "usr/share/udhcpc/default.script"]) chmodSync(join(root, file), 0o755);
    const archive = execFileSync(assets.busybox, ["cpio", "-o", "-H", "newc"], {
      cwd: root,
      input: `${listTree(root).join("\n")}\n`,
      maxBuffer: 64 << 20,
      stdio: ["pipe", "pipe", "ignore"],
    });
    writeFileSync(out, archive);
    return out;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
