import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { cacheDir, type KernelAssets } from "./assets";
import { ALL_DRIVERS } from "./drivers";
import { moduleClosure } from "./kernelModules";
import { keyedNames } from "./pciIds";

/** The PCI ids' names (Debian's pci.ids package), so the catalogs name a device as lspci does; without it, numbers only. */
const PCI_IDS = "/usr/share/misc/pci.ids";

function listTree(root: string, dir = root): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return [relative(root, path), ...(lstatSync(path).isDirectory() ? listTree(root, path) : [])];
  });
}

/**
 * What a node's life-cycle actions run in the microkernel (lifecycle.sh, issue 53): util-linux's
 * wipefs and blkdiscard, nvme-cli, hdparm (a release's erase) and dropbear (a rescue's SSH). Debian's
 * packages util-linux, nvme-cli, hdparm and dropbear-bin; a program this machine lacks is left out
 * and its step says so in the erase report or the rescue's failure. In the overlay, not every boot:
 * nvme-cli alone brings 6 MB of libraries (libcrypto, libsystemd), which a discovery has no use for.
 */
export const LIFECYCLE_PROGRAMS = ["/usr/sbin/wipefs", "/usr/sbin/blkdiscard", "/usr/sbin/nvme", "/usr/sbin/hdparm", "/usr/sbin/dropbear"];

/** The programs the discovery overlay carries, with the shared libraries each needs (ldd's list). */
const OVERLAY_PROGRAMS = ["/usr/bin/ipmitool", ...LIFECYCLE_PROGRAMS];

/**
 * The programs every boot carries beside busybox: Debian's zstd, for the image installer's `.zst`
 * images (busybox has no zstd). Under emulation it unpacks and writes the Debian image in 35 s
 * where busybox's gunzip took 101 s (docs/boot.md); it adds 1.8 MB to the initramfs (0.4 s a boot).
 */
const INITRAMFS_PROGRAMS = ["/usr/bin/zstd"];

/** The files a program needs beside itself: its shared libraries and the dynamic loader, as ldd lists them. */
export function sharedLibraries(lddOutput: string): string[] {
  return [...new Set([...lddOutput.matchAll(/(?:=> )?(\/\S+) \(0x[0-9a-f]+\)/g)].map((match) => match[1]))].sort();
}

/** A gzip-compressed newc cpio of the files under `root`. */
function archive(busybox: string, root: string): Buffer {
  const cpio = execFileSync(busybox, ["cpio", "-o", "-H", "newc"], {
    cwd: root,
    input: `${listTree(root).join("\n")}\n`,
    maxBuffer: 256 << 20,
    stdio: ["pipe", "pipe", "ignore"],
  });
  return execFileSync(busybox, ["gzip", "-9", "-c"], { input: cpio, maxBuffer: 256 << 20 });
}

/** Each program this machine has, with its shared libraries and loader. */
const programFiles = (programs: readonly string[]): string[] =>
  programs
    .filter((path) => existsSync(path))
    .flatMap((program) => [program, ...sharedLibraries(execFileSync("ldd", [program], { encoding: "utf8" }))]);

/** Copies each program this machine has into `root` at its own path, with its libraries and loader. */
function copyPrograms(root: string, programs: readonly string[]): void {
  for (const file of programFiles(programs)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    copyFileSync(file, join(root, file));
  }
  for (const program of programs.filter((path) => existsSync(path))) chmodSync(join(root, program), 0o755);
}

/** How many built archives the cache keeps (about 10 MB each): the newest. */
export const CACHED_BUILDS = 8;

/**
 * Where built archives are kept between runs (issue 51: the boot tier built the same initramfs in
 * each of its files, 3-4 s of CPU each, busybox's gzip -9 most of it).
 */
export const archiveCache = (): string => join(cacheDir(), "initramfs");

/** What an input file is, for the cache's key: a project file by its bytes, a system file (a program, a library, a package's data) by its size and time, as apt replaces it. */
function fingerprint(file: string, byContent: boolean): string {
  if (!existsSync(file)) return `${file}: none`;
  if (byContent) return `${file}: ${createHash("sha256").update(readFileSync(file)).digest("hex")}`;
  const { size, mtimeMs } = statSync(file);
  return `${file}: ${size} ${mtimeMs}`;
}

/**
 * The archive `build` makes from `inputs`, written to `out`: taken from the cache when the same
 * inputs built it before, else built and kept. The key holds this folder's code and scripts (what
 * builds, and what goes in), `init`, and every system file copied in, so any change builds again.
 */
function cachedArchive(
  out: string,
  inputs: { project: readonly string[]; system: readonly string[]; names: readonly string[] },
  build: () => Buffer,
): string {
  const own = readdirSync(__dirname)
    .filter((name) => /\.(ts|sh|script)$/.test(name))
    .sort()
    .map((name) => join(__dirname, name));
  const key = createHash("sha256")
    .update(
      [
        ...inputs.names,
        ...[...own, ...inputs.project].map((file) => fingerprint(file, true)),
        ...inputs.system.map((file) => fingerprint(file, false)),
      ].join("\n"),
    )
    .digest("hex")
    .slice(0, 24);
  const dir = archiveCache();
  const kept = join(dir, `${key}.gz`);
  if (!existsSync(kept)) {
    mkdirSync(dir, { recursive: true });
    // Written whole, then renamed: two test files building at once never read half a file.
    const partial = `${kept}.${process.pid}`;
    writeFileSync(partial, build());
    renameSync(partial, kept);
    const older = readdirSync(dir)
      .filter((name) => name.endsWith(".gz"))
      .map((name) => ({ path: join(dir, name), at: statSync(join(dir, name)).mtimeMs }))
      .sort((a, b) => b.at - a.at);
    for (const { path } of older.slice(CACHED_BUILDS)) rmSync(path, { force: true });
  }
  copyFileSync(kept, out);
  return out;
}

/**
 * The discovery overlay (RackHD's discovery.overlay.cpio.gz): the tools too large for every boot,
 * which the microkernel fetches only on a machine that has a use for them. Today: ipmitool and its
 * libraries, for a machine with a BMC (/dev/ipmi0). A program this machine lacks is left out (its
 * catalog command then fails with 127, as RackHD's did without the tool). Answers the file's path.
 */
export function buildOverlay(busybox: string, out: string, programs: readonly string[] = OVERLAY_PROGRAMS): string {
  return cachedArchive(out, { names: ["overlay", ...programs], project: [], system: [busybox, ...programFiles(programs)] }, () => {
    const root = mkdtempSync(join(tmpdir(), "microkernel-overlay-"));
    try {
      copyPrograms(root, programs);
      return archive(busybox, root);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
}

/** The discovery microkernel: init.sh as /init. Answers the file's path. */
export const buildMicrokernelInitramfs = (assets: KernelAssets, out: string): string =>
  buildInitramfs(assets, out, join(__dirname, "init.sh"));

/** Copies the drivers (drivers.ts) and what they depend on into `root`, and indexes them with busybox's depmod. */
function stageModules(assets: KernelAssets, root: string): void {
  const modules = join(root, "lib/modules", assets.release);
  for (const path of moduleClosure(readFileSync(join(assets.modules, "modules.dep"), "utf8"), ALL_DRIVERS)) {
    mkdirSync(dirname(join(modules, path)), { recursive: true });
    copyFileSync(join(assets.modules, path), join(modules, path));
  }
  // modprobe reads modules.builtin to answer "already there" for a driver compiled into the kernel.
  copyFileSync(join(assets.modules, "modules.builtin"), join(modules, "modules.builtin"));
  execFileSync(assets.busybox, ["depmod", "-b", root, assets.release]);
}

/**
 * Builds an initramfs (a gzip-compressed newc cpio): busybox, zstd (when this machine has it), the
 * drivers of drivers.ts with their modules.dep and modules.alias, the PCI ids' names, a DHCP script,
 * boot-common.sh, and `init` as /init. Answers the file's path. The boot tests build their stand-in
 * installer with it too.
 */
export function buildInitramfs(assets: KernelAssets, out: string, init: string): string {
  const inputs = {
    names: ["initramfs", assets.release, assets.modules, ...INITRAMFS_PROGRAMS],
    project: [init],
    system: [assets.busybox, assets.kernel, join(assets.modules, "modules.dep"), PCI_IDS, ...programFiles(INITRAMFS_PROGRAMS)],
  };
  return cachedArchive(out, inputs, () => initramfsArchive(assets, init));
}

/** The initramfs's bytes (buildInitramfs's, uncached). */
function initramfsArchive(assets: KernelAssets, init: string): Buffer {
  const root = mkdtempSync(join(tmpdir(), "installer-rootfs-"));
  try {
    for (const dir of ["bin", "sbin", "dev", "proc", "sys", "tmp", "usr/share/udhcpc", "usr/share/misc"])
      mkdirSync(join(root, dir), { recursive: true });
    copyFileSync(assets.busybox, join(root, "bin/busybox"));
    // The kernel runs /sbin/modprobe for what a driver asks for by name (mlx4_en, crc32c for ext4).
    symlinkSync("/bin/busybox", join(root, "sbin/modprobe"));
    stageModules(assets, root);
    copyPrograms(root, INITRAMFS_PROGRAMS);
    if (existsSync(PCI_IDS)) writeFileSync(join(root, "usr/share/misc/pci.names"), keyedNames(readFileSync(PCI_IDS, "utf8")));
    copyFileSync(init, join(root, "init"));
    copyFileSync(join(__dirname, "boot-common.sh"), join(root, "lib/boot-common.sh"));
    copyFileSync(join(__dirname, "lifecycle.sh"), join(root, "lib/lifecycle.sh"));
    copyFileSync(join(__dirname, "udhcpc.script"), join(root, "usr/share/udhcpc/default.script"));
    for (const file of ["bin/busybox", "init", "usr/share/udhcpc/default.script"]) chmodSync(join(root, file), 0o755);
    return archive(assets.busybox, root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
