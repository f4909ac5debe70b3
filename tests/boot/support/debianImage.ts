import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { cacheDir } from "../../../microkernel/assets";

const SCRIPT = join(__dirname, "../../../images/build-debian-12.sh");
export const IMAGE_PACKAGES = ["mmdebstrap", "e2fsprogs", "dosfstools", "mtools", "syslinux", "syslinux-common", "fdisk"];

/**
 * The Debian 12 disk image with cloud-init (images/build-debian-12.sh), zstd-compressed, built once
 * and cached under ~/.cache by the script's hash: a changed script builds a new one (about a minute, from
 * Debian's mirror), an unchanged one costs nothing.
 */
export function debianImage(): string {
  const hash = createHash("sha256").update(readFileSync(SCRIPT)).digest("hex").slice(0, 12);
  const dir = join(cacheDir(), "..", "images");
  const image = join(dir, `debian-12-${hash}.raw.zst`);
  if (existsSync(image)) return image;
  if (!existsSync("/usr/bin/mmdebstrap")) {
    throw new Error(`Building the Debian image needs: apt-get install -y ${IMAGE_PACKAGES.join(" ")} (.ci/run does), and root`);
  }
  mkdirSync(dir, { recursive: true });
  // Under a lock: two boot test files start at once on a new machine, and each built the image
  // (two mmdebstraps side by side, minutes of CPU for nothing). The second waits and finds it built.
  execFileSync("flock", [join(dir, ".build.lock"), "sh", "-c", '[ -e "$1" ] || "$0" "$1"', SCRIPT, image], {
    stdio: "inherit",
    timeout: 900_000,
  });
  // The images of the script's earlier versions go: the cache holds one.
  for (const old of readdirSync(dir))
    if (/^debian-12-[0-9a-f]{12}\.raw\.(gz|zst)$/.test(old) && join(dir, old) !== image) rmSync(join(dir, old));
  return image;
}
