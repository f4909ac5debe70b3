import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { cacheDir } from "./assets";
import { type PublishedFile, type PublishTarget, publishFile } from "./publish";

/**
 * The signed boot chain for machines with Secure Boot on (issue 38), from Debian's packages:
 * shim signed by the UEFI CA (which the firmware of nearly every server trusts), its MokManager,
 * and Debian's network GRUB signed by Debian (which shim trusts). Fetched with `apt-get download`
 * once per package version and kept in the cache; never committed. The relay serves them by TFTP
 * under these names (relay/tftpServer.ts): shim loads `grubx64.efi` from where it came from.
 */
export const SECURE_BOOT_FILES: Record<string, { package: string; path: string }> = {
  "shimx64.efi": { package: "shim-signed", path: "usr/lib/shim/shimx64.efi.signed" },
  "mmx64.efi": { package: "shim-helpers-amd64-signed", path: "usr/lib/shim/mmx64.efi.signed" },
  "grubx64.efi": { package: "grub-efi-amd64-signed", path: "usr/lib/grub/x86_64-efi-signed/grubnetx64.efi.signed" },
};

/** The package's candidate version (what `apt-get download` fetches). */
function candidate(name: string): string {
  const policy = spawnSync("apt-cache", ["policy", name], { encoding: "utf8" });
  const version = /Candidate: (\S+)/.exec(policy.stdout ?? "")?.[1];
  if (!version || version === "(none)") throw new Error(`Debian's ${name} is not in the package sources (run apt-get update first)`);
  return version;
}

/** The package unpacked in the cache, in a folder named by its version; fetched the first time. */
function unpacked(name: string): string {
  const root = join(cacheDir(), "secure-boot");
  const folder = join(root, `${name}_${candidate(name).replace(/[^\w.+-]/g, "_")}`);
  if (existsSync(folder)) return folder;
  mkdirSync(root, { recursive: true });
  // Fetched into a folder of this process's own, then renamed into place: only one rename wins.
  const scratch = mkdtempSync(join(root, `${name}.`));
  try {
    execFileSync("apt-get", ["download", name], { cwd: scratch, stdio: "pipe" });
    const deb = readdirSync(scratch).find((file) => file.startsWith(`${name}_`) && file.endsWith(".deb"));
    if (!deb) throw new Error(`apt-get download ${name} left no .deb in ${scratch}`);
    execFileSync("dpkg-deb", ["-x", join(scratch, deb), join(scratch, "tree")]);
    try {
      renameSync(join(scratch, "tree"), folder);
    } catch (error) {
      if (!existsSync(folder)) throw error;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return folder;
}

/** The signed files, copied under their served names into `into` (default: the cache); answers name → path. */
export function secureBootFiles(into = join(cacheDir(), "secure-boot", "served")): Record<string, string> {
  mkdirSync(into, { recursive: true });
  const files: Record<string, string> = {};
  for (const [name, { package: pkg, path }] of Object.entries(SECURE_BOOT_FILES)) {
    const source = join(unpacked(pkg), path);
    if (!existsSync(source)) throw new Error(`${pkg} holds no ${path}`);
    files[name] = join(into, name);
    copyFileSync(source, files[name]);
  }
  return files;
}

/** Puts the signed files into the service's file store (/common/<name>), where the relay fetches them. */
export async function publishSecureBoot(target: PublishTarget, files = secureBootFiles()): Promise<PublishedFile[]> {
  const published: PublishedFile[] = [];
  for (const [name, path] of Object.entries(files)) published.push(await publishFile(target, name, readFileSync(path)));
  return published;
}
