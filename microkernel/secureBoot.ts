import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cacheDir, unpackDebianPackage } from "./assets";
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
  // Debian's signed CD GRUB: a relay's virtual media image carries it beside shim (relay/virtualMedia.ts).
  "grubcdx64.efi": { package: "grub-efi-amd64-signed", path: "usr/lib/grub/x86_64-efi-signed/gcdx64.efi.signed" },
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
  const folder = join(cacheDir(), "secure-boot", `${name}_${candidate(name).replace(/[^\w.+-]/g, "_")}`);
  if (!existsSync(folder)) unpackDebianPackage(name, folder);
  return folder;
}

/** The signed files as Debian's packages hold them, by the names they are served under. */
export function secureBootFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [name, { package: pkg, path }] of Object.entries(SECURE_BOOT_FILES)) {
    files[name] = join(unpacked(pkg), path);
    if (!existsSync(files[name])) throw new Error(`${pkg} holds no ${path}`);
  }
  return files;
}

/** Puts the signed files into the service's file store (/common/<name>), where the relay fetches them. */
export async function publishSecureBoot(target: PublishTarget, files = secureBootFiles()): Promise<PublishedFile[]> {
  const published: PublishedFile[] = [];
  for (const [name, path] of Object.entries(files)) published.push(await publishFile(target, name, readFileSync(path)));
  return published;
}
