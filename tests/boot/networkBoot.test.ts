import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { publishMicrokernel } from "../../microkernel/cli";
import { buildInitramfs, buildMicrokernelInitramfs } from "../../microkernel/initramfs";
import { freePort, type OfflineServer, rackhdApi, startOffline } from "../support/offlineServer";
import { type RelayProcess, startRelayProcess } from "../support/relayProcess";
import { type BootAssets, bootAssets } from "./support/bootAssets";
import { bootMachine, type Firmware } from "./support/qemu";

/** The firmware that boots iPXE (Secure Boot has its own test). */
type IpxeFirmware = Exclude<Firmware, "uefi-secure-boot">;

import { type StaticServer, serveFiles } from "./support/staticServer";

jest.setTimeout(600_000);

/**
 * A real network boot: Debian's iPXE firmware in QEMU (SeaBIOS and OVMF), on QEMU's user-mode
 * network whose DHCP hands out the profiles URL, against the real `serverless offline`. A fresh
 * MAC is discovered: Graph.SKU.Discovery boots the product's microkernel (a real kernel and a
 * busybox initramfs, published into the file store as `npm run microkernel` does, loaded from the
 * default {{file.server}}/common/…), reporting the VM's own hardware, and a SKU defined on it matches;
 * Graph.InstallCentOS then boots the kernel and an initramfs "installer" from the workflow's
 * repo, which fetches its kickstart and signals completion as the kickstart says; a third boot
 * finds nothing to do and leaves the network boot at once.
 */
const HOST = "10.0.2.2"; // the host's loopback, as QEMU's user-mode network shows it to the guest
const ROOT_PASSWORD = "Boot-Test-Pa55";
/** The firmware moving on after iPXE gave the boot back (so anything iPXE ran after "leaving" is seen too). */
const FIRMWARE_MOVED_ON: Record<IpxeFirmware, RegExp> = {
  bios: /No bootable device/,
  // OVMF names the entry it tried: iPXE's is the NIC's "UEFI PXEv4 (MAC:…)".
  uefi: /BdsDxe: failed to load Boot\w+ "UEFI PXEv4 \(MAC:/,
};
/** What the first boot script said when a chained script returned: untrue, and followed by a 5 s wait. */
const FALSE_FAILURE = "Could not fetch this machine's boot script";
const BOOT_TIMEOUT_MS = 180_000;

/** Each mode's machines: both firmwares directly; through a relay, one (the path is the same for both). */
const MACHINES: Record<string, [IpxeFirmware, string][]> = {
  direct: [
    ["bios", "52:54:00:b0:07:01"],
    ["uefi", "52:54:00:b0:07:02"],
  ],
  relay: [["bios", "52:54:00:b0:07:11"]],
};

describe.each(["direct", "relay"])("network boot of a real machine (QEMU, iPXE), %s", (mode) => {
  const viaRelay = mode === "relay";
  let assets: BootAssets;
  let server: OfflineServer;
  let relay: RelayProcess | undefined;
  let bootBase = "";
  let site = "";
  let repo: StaticServer;
  let scratch: string;
  const timings: string[] = [];

  beforeAll(async () => {
    assets = bootAssets();
    scratch = mkdtempSync(join(tmpdir(), "network-boot-"));
    const initrd = buildInitramfs(assets, join(scratch, "initrd.img"), join(__dirname, "support/installer-init.sh"));
    const microkernel = buildMicrokernelInitramfs(assets, join(scratch, "microkernel.img"));
    repo = await serveFiles({
      "/centos/7/images/pxeboot/vmlinuz": assets.kernel,
      "/centos/7/images/pxeboot/initrd.img": initrd,
    });
    const port = await freePort();
    // FILE_SERVER is left unset, as a user leaves it: the microkernel comes from the service.
    const settings = { PORT: String(port), API_SERVER: `http://${HOST}:${port}`, DEMO_NODES: "off", LOG_REQUESTS: "on" };
    server = await startOffline(viaRelay ? { ...settings, BOOT_VIA_RELAY: "on" } : settings);
    await publishMicrokernel(server.baseUrl, { kernel: assets.kernel, initrd: microkernel });
    bootBase = `http://${HOST}:${port}`;
    if (viaRelay) {
      // The site's relay serves the machines; the service answers boot requests from it only.
      site = (await api("POST", "/sites", { name: "qemu-lab" })).body.id;
      const { token } = (await api("POST", `/sites/${site}/relays`, {})).body;
      const relayPort = await freePort();
      bootBase = `http://${HOST}:${relayPort}`;
      relay = startRelayProcess(server.baseUrl, token, ["--listen", `127.0.0.1:${relayPort}`, "--public-url", bootBase]);
      await relay.waitFor("boot: serving");
    }
  });

  afterAll(async () => {
    relay?.stop();
    if (relay?.log().includes("FAILED")) process.stdout.write(`relay log:\n${relay.log()}\n`);
    await server?.stop();
    await repo?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    if (timings.length > 0) process.stdout.write(`network boot timings: ${timings.join("; ")}\n`);
  });

  const api = rackhdApi(() => server.baseUrl);

  const boot = async (firmware: IpxeFirmware, mac: string, label: string, until?: RegExp) => {
    const bootUrl = `${bootBase}/api/current/profiles`;
    const record = await bootMachine(assets, { firmware, mac, bootUrl, until, timeoutMs: BOOT_TIMEOUT_MS });
    timings.push(`${firmware} ${label} ${record.seconds} s`);
    return record;
  };

  it.each<[IpxeFirmware, string]>(MACHINES[mode])(
    "%s: discovers a new machine, installs it, then leaves it alone",
    async (firmware, mac) => {
      // 1. Discovery: an unknown MAC becomes a node, and Graph.SKU.Discovery boots the microkernel,
      //    which reports the VM's hardware; the catalogs show it, and a SKU defined on them matches.
      const sku = await api("POST", "/skus", {
        name: "QEMU VMs",
        rules: [{ path: "dmi.System Information.Manufacturer", equals: "QEMU" }],
      });
      expect(sku.status).toBe(200);
      const first = await boot(firmware, mac, "discovery", /MICROKERNEL: (told to reboot|FAILED)/);
      expect(first.serial).toContain("Collecting MAC addresses");
      expect(first.serial).toContain(`Starting the discovery microkernel for ${mac}`);
      expect(first.serial).not.toContain("MICROKERNEL: FAILED");
      expect(first.serial).toContain("MICROKERNEL: sudo dmidecode -> exit 0");
      expect(first.serial).toContain("MICROKERNEL: told to reboot");
      expect(first.serial).not.toContain(FALSE_FAILURE);
      const node = await api("GET", `/nodes/${mac}`);
      expect(node).toMatchObject({ status: 200, body: { name: mac, identifiers: [mac], sku: sku.body.id } });
      if (viaRelay) {
        // Discovered through the relay: in its site, and every request of the boot went through it.
        expect(node.body.site).toBe(site);
        expect(first.serial).toContain(bootBase);
        expect(first.serial).not.toContain(`${HOST}:${server.port}`);
      }
      const dmi = (await api("GET", `/nodes/${mac}/catalogs/dmi`)).body;
      expect(dmi.data["System Information"].Manufacturer).toBe("QEMU");
      expect(dmi.data["System Information"]["Product Name"]).toMatch(/^Standard PC/);
      const lspci = (await api("GET", `/nodes/${mac}/catalogs/lspci`)).body;
      // virtio-net: vendor 1af4 (Red Hat), class 0200 (Ethernet), named as lspci names them.
      expect(lspci.data).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            Vendor: "Red Hat, Inc. [1af4]",
            Device: "Virtio network device [1000]",
            Class: "Ethernet controller [0200]",
          }),
        ]),
      );
      const lshw = (await api("GET", `/nodes/${mac}/catalogs/lshw`)).body;
      expect(lshw.data.children).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ class: "network", serial: mac, configuration: { driver: "virtio_net", link: "yes" } }),
        ]),
      );
      expect((await api("GET", `/nodes/${node.body.id}/workflows`)).body[0]).toMatchObject({
        injectableName: "Graph.SKU.Discovery",
        _status: "succeeded",
      });
      for (const file of ["vmlinuz-3.16.0-25-generic", "initrd.img-3.16.0-25-generic"]) {
        expect(server.output()).toMatch(new RegExp(`"path":"/common/${file.replace(/\./g, "\\.")}","status":200`));
      }

      // 2. Install: the profile boots the repo's kernel and initramfs; the "installer" fetches its
      //    kickstart and runs the completion commands it holds; the workflow ends succeeded.
      expect((await api("POST", `/nodes/${mac}/obm`, { service: "noop-obm-service", config: {} })).status).toBe(201);
      const started = await api("POST", `/nodes/${mac}/workflows`, {
        name: "Graph.InstallCentOS",
        options: {
          defaults: { obmServiceName: "noop-obm-service" },
          "install-os": {
            version: "7",
            repo: `${repo.url.replace("127.0.0.1", HOST)}/centos/7`,
            rootPassword: ROOT_PASSWORD,
            installDisk: "vda",
          },
        },
      });
      expect(started.status).toBe(201);
      const second = await boot(firmware, mac, "install", /INSTALLER: (done|FAILED)/);
      expect(second.serial).toContain("Starting CentOS/RHEL 7 installer");
      expect(second.serial).not.toContain("INSTALLER: FAILED");
      expect(second.serial).toContain("INSTALLER: done");
      const workflow = await api("GET", `/workflows/${started.body.instanceId}`);
      expect(workflow.body._status).toBe("succeeded");
      // The kickstart's root password is the SHA-512 crypt of the one the workflow was started with.
      const hash = /INSTALLER: rootpw --iscrypted (\$6\$[^$\s]+\$\S+)/.exec(second.serial)![1];
      const salt = hash.split("$")[2];
      expect(execFileSync("openssl", ["passwd", "-6", "-salt", salt, ROOT_PASSWORD], { encoding: "utf8" }).trim()).toBe(hash);
      // RackHD's installDisk option names the disk (a virtio disk is vda, not the default sda).
      expect(second.serial).toContain("INSTALLER: clearpart --all --initlabel --drives=vda");
      // The serial console is the installer's console (it is named last on the command line).
      expect(second.serial).toMatch(/Command line: .*console=tty0 console=ttyS0,115200n8/);

      // 3. Nothing to do: the machine leaves the network boot at once, and says nothing untrue.
      const third = await boot(firmware, mac, "nothing to do", FIRMWARE_MOVED_ON[firmware]);
      expect(third.serial).toContain("Leaving the network boot");
      expect(third.serial).toContain("Unable to locate active workflow.");
      expect(third.serial).not.toContain(FALSE_FAILURE);
      expect(repo.log).toEqual(
        expect.arrayContaining(["GET /centos/7/images/pxeboot/vmlinuz 200", "GET /centos/7/images/pxeboot/initrd.img 200"]),
      );
    },
  );
});
