import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { MICROKERNEL_FILES } from "../lib/provisioning/graphs/discoveryTasks";
import { cacheDir, KERNEL_PACKAGE, kernelAssets } from "./assets";
import { buildMicrokernelInitramfs, buildOverlay } from "./initramfs";
import { type PublishedFile, publishFile } from "./publish";
import { publishSecureBoot, secureBootFiles } from "./secureBoot";

/**
 * `npm run microkernel`: builds the discovery microkernel from Debian's packages (the cloud kernel,
 * fetched with apt-get download and kept in the cache, and busybox-static) and puts its kernel and
 * initrd into the running service's file store, where the discovery profile loads them from
 * ({{file.server}}/common/…), with the signed shim and GRUB that machines with Secure Boot on
 * boot first (microkernel/secureBoot.ts). Run it once per `npm start` (the memory store forgets)
 * and once per deployed stage.
 */
const USAGE = `usage: npm run microkernel -- [--api http://localhost:3000] [--user name:password] [--build-only]`;

export interface MicrokernelFiles {
  kernel: string;
  initrd: string;
  /** The tools fetched only by a machine that uses them (ipmitool, for a machine with a BMC). */
  overlay?: string;
}

/** Builds (the kernel is fetched once and cached); answers the two files' paths. */
export function buildMicrokernel(): MicrokernelFiles {
  const assets = kernelAssets();
  return {
    kernel: assets.kernel,
    initrd: buildMicrokernelInitramfs(assets, join(cacheDir(), "microkernel.img")),
    overlay: buildOverlay(assets.busybox, join(cacheDir(), "discovery.overlay.cpio.gz")),
  };
}

/** Puts the files into the service's file store under the names the discovery task loads. */
export async function publishMicrokernel(api: string, files: MicrokernelFiles, credentials?: string): Promise<PublishedFile[]> {
  const target = { api, credentials };
  return [
    await publishFile(target, MICROKERNEL_FILES.kernel, readFileSync(files.kernel)),
    await publishFile(target, MICROKERNEL_FILES.initrd, readFileSync(files.initrd)),
    ...(files.overlay ? [await publishFile(target, MICROKERNEL_FILES.overlay, readFileSync(files.overlay))] : []),
  ];
}

async function main(argv: string[]): Promise<number> {
  let values: { api?: string; user?: string; "build-only"?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { api: { type: "string" }, user: { type: "string" }, "build-only": { type: "boolean" } },
    }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const api = values.api ?? `http://localhost:${process.env.PORT ?? 3000}`;
  try {
    const files = buildMicrokernel();
    const signed = secureBootFiles();
    process.stdout.write(
      `built: ${files.kernel} (${KERNEL_PACKAGE}), ${files.initrd}, ${files.overlay}; ${Object.values(signed).join(", ")}\n`,
    );
    if (values["build-only"]) return 0;
    const published = [
      ...(await publishMicrokernel(api, files, values.user)),
      ...(await publishSecureBoot({ api, credentials: values.user }, signed)),
    ];
    for (const file of published) {
      process.stdout.write(`published: ${api}/common/${file.name} (${file.bytes} bytes, file ${file.uuid})\n`);
    }
    return 0;
  } catch (error) {
    process.stderr.write(`microkernel: ${(error as Error).message}\n`);
    return 1;
  }
}

if (require.main === module) void main(process.argv.slice(2)).then((code) => process.exit(code));
