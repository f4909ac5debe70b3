import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { detach, inNamespace } from "../../../lab/host";
import { labDown } from "../../../lab/lab";
import type { OfflineServer } from "../../support/offlineServer";

/**
 * What the boot tier's lab tests (lab, lifecycle, virtual media) share around a lab of their own:
 * its teardown and a mirror on its site.
 */

/** Takes the lab down (whatever state it is in), stops the service, removes the test's folder and prints how `up` went. */
export async function labTestDown(lab: { dir: string; namespace: string; server?: OfflineServer; scratch: string; lines: string[] }) {
  await labDown(lab.dir, lab.namespace, () => undefined).catch(() => undefined);
  await lab.server?.stop();
  rmSync(lab.scratch, { recursive: true, force: true });
  process.stdout.write(`lab up:\n${lab.lines.join("\n")}\n`);
}

/**
 * The Debian image from a mirror on the site (busybox's httpd inside the lab's namespace, on its
 * bridge, port 8081), as a site's own repository: what these tests prove is not the file store's
 * path (docs/lab.md's walkthrough takes that one; under a loaded CI machine its 200 MB stream
 * through the local stage was once cut short). Answers the image's URL.
 */
export function siteMirror(namespace: string, hostIp: string, image: string, scratch: string): string {
  mkdirSync(join(scratch, "mirror"));
  symlinkSync(image, join(scratch, "mirror", "debian-12.raw.zst"));
  detach(
    inNamespace(namespace, ["busybox", "httpd", "-f", "-p", `${hostIp}:8081`, "-h", join(scratch, "mirror")]),
    join(scratch, "mirror.log"),
  );
  return `http://${hostIp}:8081/debian-12.raw.zst`;
}
