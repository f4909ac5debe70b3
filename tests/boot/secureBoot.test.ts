import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { publishMicrokernel } from "../../microkernel/cli";
import { buildMicrokernelInitramfs } from "../../microkernel/initramfs";
import { publishFile } from "../../microkernel/publish";
import { publishSecureBoot, secureBootFiles } from "../../microkernel/secureBoot";
import { freePort, type OfflineServer, rackhdApi, startOffline } from "../support/offlineServer";
import { type RelayProcess, startRelayProcess } from "../support/relayProcess";
import { type BootAssets, bootAssets } from "./support/bootAssets";
import { type BootRecord, bootMachine } from "./support/qemu";
import { startTapNetwork, type TapNetwork, tapNetworkMissing } from "./support/tapNetwork";

jest.setTimeout(900_000);

/**
 * Secure Boot on (issue 38): OVMF built with Secure Boot, Microsoft's keys enrolled, so the
 * firmware runs only what the UEFI CA (or a key it lets shim trust) signed. The machine's own PXE
 * loads Debian's shim from its site's relay by TFTP, shim loads Debian's signed GRUB, GRUB its
 * script (the service's, by the machine's MAC, through the relay) and Debian's signed kernel, the
 * microkernel, which discovers the machine under the kernel's lockdown. The machine's cable is a
 * tap device on which dnsmasq answers DHCP as a site's does (tests/boot/support/tapNetwork.ts:
 * root, as the boot tier has in CI); the relay is the built dist/relay.cjs, serving TFTP and HTTP
 * on the host's address there. QEMU's user network cannot carry it: its TFTP to the host is its own.
 */
const MAC = "52:54:00:5b:00:01";
/** A second machine with Secure Boot on, which the site's DHCP offers iPXE (unsigned). */
const UNSIGNED_MAC = "52:54:00:5b:00:02";
/** Debian's iPXE for UEFI (unsigned), which a machine with Secure Boot on must refuse. */
const IPXE_EFI = "/usr/lib/ipxe/snponly.efi";
const missing = tapNetworkMissing();
if (missing.length > 0) process.stdout.write(`secureBoot: not run here: needs ${missing.join(", ")}\n`);

(missing.length === 0 ? describe : describe.skip)(
  "a machine with Secure Boot on: shim, GRUB and the microkernel, signed, through its site's relay",
  () => {
    let assets: BootAssets;
    let server: OfflineServer;
    let relay: RelayProcess;
    let network: TapNetwork;
    let scratch: string;
    let site: string;
    let record: BootRecord;
    const api = rackhdApi(() => server.baseUrl);

    beforeAll(async () => {
      assets = bootAssets();
      scratch = mkdtempSync(join(tmpdir(), "secure-boot-"));
      const port = await freePort();
      server = await startOffline({ PORT: String(port), DEMO_NODES: "off" });
      await publishMicrokernel(server.baseUrl, {
        kernel: assets.kernel,
        initrd: buildMicrokernelInitramfs(assets, join(scratch, "mk.img")),
      });
      await publishSecureBoot({ api: server.baseUrl }, secureBootFiles());
      await publishFile({ api: server.baseUrl }, "snponly.efi", readFileSync(IPXE_EFI));
      site = (await api("POST", "/sites", { name: "secure-lab" })).body.id;
      // The site's network: its DHCP sends UEFI machines to shim on the relay (docs/boot.md).
      network = startTapNetwork(`sb${process.pid % 100_000}`, 98, [
        `--dhcp-host=${MAC},set:signed`,
        `--dhcp-host=${UNSIGNED_MAC},set:unsigned`,
        "--dhcp-boot=tag:signed,shimx64.efi,relay,10.98.0.1",
        "--dhcp-boot=tag:unsigned,snponly.efi,relay,10.98.0.1",
      ]);
      const relayPort = await freePort();
      const relayUrl = `http://${network.hostIp}:${relayPort}`;
      relay = startRelayProcess(server.baseUrl, (await api("POST", `/sites/${site}/relays`, {})).body.token, [
        "--listen",
        `${network.hostIp}:${relayPort}`,
        "--public-url",
        relayUrl,
        "--tftp",
        `${network.hostIp}:69`,
      ]);
      await relay.waitFor("tftp: serving");
      record = await bootMachine(assets, {
        firmware: "uefi-secure-boot",
        mac: MAC,
        bootUrl: "shimx64.efi",
        tap: network.tap,
        until: /MICROKERNEL: (told to reboot|FAILED)|No bootable option or device was found/,
        timeoutMs: 600_000,
      });
    });

    afterAll(async () => {
      relay?.stop();
      network?.close();
      await server?.stop();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
      const said = record?.serial.split("\n").filter((line) => /MICROKERNEL|secureboot|locked down/.test(line)) ?? [];
      process.stdout.write(`secure boot discovery: ${record?.seconds ?? "-"} s\n${said.join("\n")}\n`);
    });

    it("is discovered: each link of the chain verified by the one before, the kernel locked down, the catalogs posted", async () => {
      const serial = record.serial;
      if (!serial.includes("MICROKERNEL: told to reboot"))
        process.stdout.write(`serial:\n${serial.slice(-6000)}\nrelay:\n${relay.log()}\ndnsmasq:\n${network.log().slice(-3000)}\n`);
      // shim (verified by the firmware) fetched GRUB and verified it; GRUB ran its script from the service.
      expect(serial).toContain("Fetching Netboot Image grubx64.efi");
      expect(serial).toContain(`Starting the discovery microkernel for ${MAC}`);
      // Debian's kernel, verified by shim for GRUB, saw Secure Boot on and locked itself down.
      expect(serial).toMatch(/Secure boot enabled/);
      expect(serial).toMatch(/Kernel is locked down from EFI Secure Boot/);
      expect(serial).toContain("MICROKERNEL: told to reboot");
      expect(serial).not.toContain("MICROKERNEL: FAILED");
      expect(relay.log()).toMatch(/tftp: \S+ shimx64\.efi/);
      expect(relay.log()).toMatch(new RegExp(`tftp: \\S+ /?grub/machine/${MAC}`));

      const node = await api("GET", `/nodes/${MAC}`);
      expect(node.body).toMatchObject({ site });
      for (const source of ["dmi", "lspci", "lshw"])
        expect((await api("GET", `/nodes/${node.body.id}/catalogs/${source}`)).status).toBe(200);
      // What its firmware said of Secure Boot, read under lockdown: in its catalog and on the node.
      expect((await api("GET", `/nodes/${node.body.id}/catalogs/secure-boot`)).body.data).toEqual({
        secureBoot: "enabled",
        text: "SecureBoot enabled",
      });
      expect(node.body.secureBoot).toMatchObject({ state: "enabled" });
    });

    it("refuses an unsigned loader (iPXE): the service says the machine never asked for its profile, and that Secure Boot may be why", async () => {
      const node = (await api("POST", "/nodes", { name: "unsigned", identifiers: [UNSIGNED_MAC] })).body.id;
      const started = await api("POST", `/nodes/${node}/workflows`, {
        name: "Graph.Discovery",
        options: { "bootstrap-ubuntu": { _taskTimeout: 60_000 } },
      });
      expect(started.status).toBe(201);
      const refused = await bootMachine(assets, {
        firmware: "uefi-secure-boot",
        mac: UNSIGNED_MAC,
        bootUrl: "snponly.efi",
        tap: network.tap,
        until: /failed to (load|start) Boot\w+ "UEFI PXEv4[^\n]*(Access Denied|Security Violation)|No bootable option or device was found/,
        timeoutMs: 300_000,
      });
      // The firmware fetched iPXE from the relay and would not run it.
      expect(relay.log()).toMatch(/tftp: \S+ \/?snponly\.efi/);
      expect(refused.serial).toMatch(/failed to (load|start) Boot\w+ "UEFI PXEv4[^\n]*(Access Denied|Security Violation)/);
      expect(refused.serial).not.toContain("iPXE initialising");
      // When its task's time is up, the workflow says why it stopped.
      const until = Date.now() + 90_000;
      let workflow = (await api("GET", `/workflows/${started.body.instanceId}`)).body;
      while (workflow._status === "running" && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 2000));
        workflow = (await api("GET", `/workflows/${started.body.instanceId}`)).body;
      }
      expect(workflow.failure).toMatchObject({
        reason: "never-booted",
        message: expect.stringContaining("Secure Boot on, it refuses an unsigned loader"),
      });
    });
  },
);
