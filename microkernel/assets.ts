import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/** What an initramfs is built from: Debian's busybox-static and its generic kernel with its modules. */
export interface KernelAssets {
  busybox: string;
  /** The kernel image (Debian's generic kernel, the one physical servers boot). */
  kernel: string;
  /** The kernel's release (`uname -r`), the name of its modules folder. */
  release: string;
  /** Its /lib/modules/<release> folder, with the modules.dep and modules.alias depmod writes. */
  modules: string;
}

/** Debian's generic kernel: the drivers of real servers' NICs and disks (the cloud flavour has virtio and little else). */
export const KERNEL_PACKAGE = "linux-image-amd64";
const BUSYBOX = "/bin/busybox";

/** Where the kernel package is unpacked and the microkernel built, kept between runs. */
export const cacheDir = (): string => join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "lambda-tasks-provisioning", "boot");

/** The unpacked package's kernel, release and modules folder, if its depmod has run. */
function unpackedKernel(unpacked: string): Omit<KernelAssets, "busybox"> | undefined {
  const boot = join(unpacked, "boot");
  const image = existsSync(boot) ? readdirSync(boot).find((name) => name.startsWith("vmlinuz-")) : undefined;
  if (!image) return undefined;
  const release = image.slice("vmlinuz-".length);
  const modules = join(unpacked, "lib/modules", release);
  return existsSync(join(modules, "modules.dep")) ? { kernel: join(boot, image), release, modules } : undefined;
}

/**
 * A Debian package unpacked into `folder`: fetched with `apt-get download` into a folder of this
 * process's own, unpacked, made ready by `prepare` (given the tree and the .deb's name), then
 * renamed into place: boot-tier files that start together each fetch it, and only one rename
 * wins (`ready` says whether the folder another process renamed there is whole).
 */
export function unpackDebianPackage(
  name: string,
  folder: string,
  prepare: (tree: string, deb: string) => void = () => undefined,
  ready: (folder: string) => boolean = existsSync,
): void {
  const root = dirname(folder);
  mkdirSync(root, { recursive: true });
  const scratch = mkdtempSync(join(root, `${name}.`));
  try {
    execFileSync("apt-get", ["download", name], { cwd: scratch, stdio: "pipe" });
    const deb = readdirSync(scratch).find((file) => file.startsWith(`${name}_`) && file.endsWith(".deb"));
    if (!deb) throw new Error(`apt-get download ${name} left no .deb in ${scratch}`);
    const tree = join(scratch, "tree");
    execFileSync("dpkg-deb", ["-x", join(scratch, deb), tree]);
    prepare(tree, deb);
    try {
      renameSync(tree, folder);
    } catch (error) {
      if (!ready(folder)) throw error;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The generic kernel's image and modules: fetched and unpacked once, in a folder named by the
 * versioned package (a new kernel in Debian's sources is a new folder), and indexed with
 * busybox's depmod (the package ships no modules.dep; its postinst makes one).
 */
function kernel(): Omit<KernelAssets, "busybox"> {
  // The meta package only depends on the versioned image package; fetch that one.
  const depends = spawnSync("apt-cache", ["depends", KERNEL_PACKAGE], { encoding: "utf8" });
  const image = /Depends: (linux-image-\S+)/.exec(depends.stdout ?? "")?.[1];
  if (!image) throw new Error(`Could not find Debian's ${KERNEL_PACKAGE} (run apt-get update first): ${depends.stderr}`);
  const unpacked = join(cacheDir(), image);
  const cached = unpackedKernel(unpacked);
  if (cached) return cached;
  const index = (tree: string, deb: string) => {
    const release = existsSync(join(tree, "lib/modules")) ? readdirSync(join(tree, "lib/modules"))[0] : undefined;
    if (!release) throw new Error(`${deb} holds no /lib/modules`);
    execFileSync(BUSYBOX, ["depmod", "-b", tree, release]);
    if (!unpackedKernel(tree)) throw new Error(`${deb} holds no /boot/vmlinuz-*`);
  };
  unpackDebianPackage(image, unpacked, index, (folder) => unpackedKernel(folder) !== undefined);
  return unpackedKernel(unpacked)!;
}

/** Busybox (a clear message when it is missing) and the kernel, fetched on first use. */
export function kernelAssets(): KernelAssets {
  if (!existsSync(BUSYBOX)) {
    throw new Error(`Building an initramfs needs ${BUSYBOX}. Install it with: apt-get update && apt-get install -y busybox-static`);
  }
  return { busybox: BUSYBOX, ...kernel() };
}
