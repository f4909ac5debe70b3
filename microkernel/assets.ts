import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** What an initramfs is built from: Debian's busybox-static and its cloud kernel with its modules. */
export interface KernelAssets {
  busybox: string;
  /** A Linux kernel (Debian's cloud kernel) and its modules directory. */
  kernel: string;
  modules: string;
}

export const KERNEL_PACKAGE = "linux-image-cloud-amd64";
const BUSYBOX = "/bin/busybox";

/** Where the kernel package is unpacked and the microkernel built, kept between runs. */
export const cacheDir = (): string => join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "lambda-tasks-provisioning", "boot");

/** The cloud kernel's image and modules, fetched with `apt-get download` and unpacked once. */
function kernel(): { kernel: string; modules: string } {
  const root = cacheDir();
  const unpacked = join(root, "linux");
  const find = () => {
    const boot = join(unpacked, "boot");
    const image = existsSync(boot) ? readdirSync(boot).find((name) => name.startsWith("vmlinuz-")) : undefined;
    if (!image) return undefined;
    return { kernel: join(boot, image), modules: join(unpacked, "lib/modules", image.slice("vmlinuz-".length), "kernel") };
  };
  const cached = find();
  if (cached) return cached;
  mkdirSync(root, { recursive: true });
  // The meta package only depends on the versioned image package; fetch that one.
  const depends = spawnSync("apt-cache", ["depends", KERNEL_PACKAGE], { encoding: "utf8" });
  const image = /Depends: (linux-image-\S+)/.exec(depends.stdout ?? "")?.[1];
  if (!image) throw new Error(`Could not find Debian's ${KERNEL_PACKAGE} (run apt-get update first): ${depends.stderr}`);
  execFileSync("apt-get", ["download", image], { cwd: root, stdio: "pipe" });
  const deb = readdirSync(root).find((name) => name.startsWith(`${image}_`) && name.endsWith(".deb"));
  if (!deb) throw new Error(`apt-get download ${image} left no .deb in ${root}`);
  execFileSync("dpkg-deb", ["-x", join(root, deb), unpacked]);
  const found = find();
  if (!found) throw new Error(`${deb} holds no /boot/vmlinuz-*`);
  return found;
}

/** Busybox (a clear message when it is missing) and the kernel, fetched on first use. */
export function kernelAssets(): KernelAssets {
  if (!existsSync(BUSYBOX)) {
    throw new Error(`Building an initramfs needs ${BUSYBOX}. Install it with: apt-get update && apt-get install -y busybox-static`);
  }
  return { busybox: BUSYBOX, ...kernel() };
}
