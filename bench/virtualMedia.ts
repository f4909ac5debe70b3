import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { cacheDir } from "../microkernel/assets";
import { secureBootFiles } from "../microkernel/secureBoot";
import { mediaLibrary } from "../relay/virtualMedia";
import { percentile } from "./percentile";

/**
 * `npm run bench:media`: what a virtual media image costs the relay (issue 53): the time to build
 * one (fetch the kernel and initrd from the service, GRUB's BIOS image, the FAT image with the
 * signed loaders, xorriso) and its size, with the real microkernel (`npm run microkernel` builds it
 * into the cache) and Debian's signed shim and CD GRUB; against the baseline of a BIOS-only image
 * in the same run. The "service" is a local HTTP server with the files in memory, so the times are
 * the relay host's own work. Prints a Markdown table (bench/analysis.md keeps the last one).
 */
const RUNS = 7;

async function main(): Promise<void> {
  const boot = join(cacheDir(), "linux-image-6.1.0-56-amd64", "boot");
  const kernel = readFileSync(join(boot, readdirSync(boot).find((name) => name.startsWith("vmlinuz")) ?? ""));
  const initrd = readFileSync(join(cacheDir(), "microkernel.img"));
  const signed = secureBootFiles();
  const files: Record<string, Buffer> = {
    "/common/vmlinuz": kernel,
    "/common/initrd": initrd,
    "/common/shimx64.efi": readFileSync(signed["shimx64.efi"]),
    "/common/grubcdx64.efi": readFileSync(signed["grubcdx64.efi"]),
  };
  let withLoaders = true;
  const service = createServer((request, response) => {
    const body = files[request.url ?? ""];
    if (!body || (!withLoaders && request.url?.endsWith(".efi"))) return response.writeHead(404).end();
    response.writeHead(200, { "content-length": String(body.length) }).end(body);
  });
  await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
  const api = `http://127.0.0.1:${(service.address() as { port: number }).port}`;
  const sizes: Record<string, number> = {};
  const media = mediaLibrary({
    api,
    token: "bench",
    publicUrl: "http://10.1.0.2:8080",
    log: (line) => {
      const built = /built (\d+) bytes/.exec(line);
      if (built) sizes[withLoaders ? "hybrid" : "bios"] = Number(built[1]);
    },
  });
  const boot0 = { kernel: "/common/vmlinuz", initrd: "/common/initrd", args: ["NODE_ID=0123456789abcdef01234567", "MEDIA_PROFILE=1"] };
  const time = async (hybrid: boolean) => {
    withLoaders = hybrid;
    const runs: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const started = performance.now();
      await media.publish(`node-${run}`, boot0, hybrid);
      runs.push(performance.now() - started);
    }
    return runs.sort((a, b) => a - b);
  };
  const bios = await time(false);
  const hybrid = await time(true);
  media.close();
  service.close();
  const row = (what: string, runs: number[], bytes: number) =>
    `| ${what} | ${RUNS} | ${percentile(runs, 50).toFixed(0)} | ${runs[runs.length - 1].toFixed(0)} | ${(bytes / 1e6).toFixed(1)} |`;
  process.stdout.write(
    [
      `kernel ${(kernel.length / 1e6).toFixed(1)} MB, initrd ${(initrd.length / 1e6).toFixed(1)} MB`,
      "",
      "| image | builds | median ms | slowest ms | MB |",
      "|---|---:|---:|---:|---:|",
      row("BIOS only (baseline): GRUB's El Torito image", bios, sizes.bios),
      row("BIOS and UEFI: plus the FAT image with signed shim and CD GRUB", hybrid, sizes.hybrid),
      "",
    ].join("\n"),
  );
}

void main();
