import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** What a network-boot test needs from Debian: QEMU, its iPXE ROMs, OVMF, busybox and a kernel. */
export interface BootAssets {
  qemu: string;
  busybox: string;
  ovmfCode: string;
  ovmfVars: string;
  /** A Linux kernel (Debian's cloud kernel) and its modules directory. */
  kernel: string;
  modules: string;
}

export const DEBIAN_PACKAGES = ["qemu-system-x86", "ipxe-qemu", "busybox-static", "ovmf"];
const KERNEL_PACKAGE = "linux-image-cloud-amd64";

/** Where the kernel is unpacked, kept between runs (CI reuses it on the same machine). */
const cacheDir = (): string => join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "lambda-tasks-provisioning", "boot");

const FILES = {
  qemu: "/usr/bin/qemu-system-x86_64",
  busybox: "/bin/busybox",
  ipxeRom: "/usr/lib/ipxe/qemu/efi-virtio.rom",
  ovmfCode: "/usr/share/OVMF/OVMF_CODE_4M.fd",
  ovmfVars: "/usr/share/OVMF/OVMF_VARS_4M.fd",
};

const missingMessage = (what: string): string =>
  `The boot tier needs ${what}. Install it with: apt-get update && apt-get install -y ${DEBIAN_PACKAGES.join(" ")} (.ci/run does).`;

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

/** Checks the machine has what the boot tier needs (a clear message when not) and fetches the kernel. */
export function bootAssets(): BootAssets {
  for (const [name, file] of Object.entries(FILES)) if (!existsSync(file)) throw new Error(missingMessage(`${file} (${name})`));
  return { qemu: FILES.qemu, busybox: FILES.busybox, ovmfCode: FILES.ovmfCode, ovmfVars: FILES.ovmfVars, ...kernel() };
}
