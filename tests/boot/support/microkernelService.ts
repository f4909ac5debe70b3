import { join } from "node:path";
import { publishMicrokernel } from "../../../microkernel/cli";
import { buildMicrokernelInitramfs, buildOverlay } from "../../../microkernel/initramfs";
import { freePort, type OfflineServer, startOffline } from "../../support/offlineServer";
import { bootAssets } from "./bootAssets";

/** The discovery microkernel's files, as `npm run microkernel` builds them: Debian's kernel, the initramfs, the overlay. */
export interface MicrokernelFiles {
  kernel: string;
  initrd: string;
  overlay: string;
}

/**
 * Builds the microkernel into `scratch`. Before the server starts: busybox's gzip blocks this
 * process, and a server whose function is waited on that long times out (secureBoot.test.ts says so).
 */
export function microkernelFiles(scratch: string): MicrokernelFiles {
  const assets = bootAssets();
  return {
    kernel: assets.kernel,
    initrd: buildMicrokernelInitramfs(assets, join(scratch, "mk.img")),
    overlay: buildOverlay(assets.busybox, join(scratch, "overlay.cpio.gz")),
  };
}

/** The real `serverless offline` on a free port with `settings` (no demo nodes), the microkernel published to it. */
export async function serviceWithMicrokernel(files: MicrokernelFiles, settings: Record<string, string> = {}): Promise<OfflineServer> {
  const server = await startOffline({ PORT: String(await freePort()), DEMO_NODES: "off", ...settings });
  await publishMicrokernel(server.baseUrl, files);
  return server;
}
