import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "../support/offlineServer";

jest.setTimeout(600_000);

/**
 * UEFI HTTP Boot with no TFTP, with the default settings: scripts/uefiHttpBoot.sh as the README
 * names it (OVMF's HTTP boot client → snponly.efi over HTTP → iPXE → the profiles URL → the
 * published microkernel → the node's catalogs). It needs a tap device, so root: .ci/run runs as
 * root and installs dnsmasq and ipxe; elsewhere the test says why it cannot run.
 */
const NEEDS = ["/dev/net/tun", "/usr/sbin/dnsmasq", "/usr/lib/ipxe/snponly.efi", "/bin/busybox"];
const missing = NEEDS.filter((path) => !existsSync(path));
const root = process.getuid?.() === 0;
const runnable = root && missing.length === 0;
if (!runnable) {
  process.stdout.write(`uefiHttpBoot: not run here: ${root ? `missing ${missing.join(", ")}` : "needs root for a tap device"}\n`);
}

(runnable ? describe : describe.skip)("UEFI HTTP Boot with no TFTP (scripts/uefiHttpBoot.sh, default settings)", () => {
  it("boots iPXE over the firmware's HTTP client and discovers the machine with the published microkernel", async () => {
    const [apiPort, filePort, lambdaPort, webSocketPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const run = spawnSync("bash", [join(__dirname, "../../scripts/uefiHttpBoot.sh")], {
      env: {
        ...process.env,
        API_PORT: String(apiPort),
        FILE_PORT: String(filePort),
        LAMBDA_PORT: String(lambdaPort),
        WEBSOCKET_PORT: String(webSocketPort),
        MAC: "52:54:00:c0:ff:17",
      },
      encoding: "utf8",
      timeout: 540_000,
    });
    const output = `${run.stdout}\n${run.stderr}`;
    expect({ status: run.status, tail: output.slice(-3000) }).toMatchObject({ status: 0 });
    expect(output).toMatch(/UEFI HTTP Boot: discovered 52:54:00:c0:ff:17 with no TFTP; its dmi catalog: .*"Manufacturer":"QEMU"/);
    expect(output).toContain("MICROKERNEL: told to reboot");
  });
});
