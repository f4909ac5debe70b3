import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bmcDevices, freeBmcAddress, type IpmiSim, lanSettings, startIpmiSim } from "../../lab/ipmiSim";
import { newSshKey, opsUserData, sshRun } from "../../lab/ssh";
import { startTapNetwork, type TapNetwork, tapNetworkMissing } from "../../lab/tapNetwork";
import { publishMicrokernel } from "../../microkernel/cli";
import { buildMicrokernelInitramfs, buildOverlay } from "../../microkernel/initramfs";
import { publishFile } from "../../microkernel/publish";
import { publishSecureBoot, secureBootFiles } from "../../microkernel/secureBoot";
import { freePort, type OfflineServer, rackhdApi, startOffline } from "../support/offlineServer";
import { type RelayProcess, startRelayProcess } from "../support/relayProcess";
import { type BootAssets, bootAssets } from "./support/bootAssets";
import { debianImage } from "./support/debianImage";
import { failOnPanic } from "./support/panic";
import { type BootRecord, bootMachine, DISK_DEVICES, type RunningMachine, startMachine } from "./support/qemu";
import { type StaticServer, serveFiles } from "./support/staticServer";

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
 * Then the machine is installed with the Debian image (its ESP: shim, Debian's GRUB, Debian's
 * kernel, images/build-debian-12.sh) onto the SATA disk of its three that an `installDisk` rule
 * names (the service resolves it from the catalog its discovery posted), boots it from its disk with
 * Secure Boot still on, and the test logs in over SSH at the address the site's DHCP gave it. This
 * is also the boot tier's UEFI install of the image (imageInstall.test.ts installs it in BIOS mode):
 * OVMF boots the installed disk the same way with Secure Boot off, and an iPXE-booted microkernel
 * under OVMF is networkBoot.test.ts's and uefiHttpBoot.test.ts's. The machine has a BMC on its KCS
 * interface (ipmi_sim, as in hardwareMatrix.test.ts): GRUB's microkernel fetches the discovery
 * overlay for ipmitool, so the node gets its bmc catalog, its SKU's IPMI OBM setting and its
 * pollers (issue 50: under GRUB it got none), and its install's PXE boot and reboot go through the
 * relay to that BMC (a UEFI boot: its firmware reported Secure Boot). The installed system reports
 * its addresses: the node shows the one SSH reaches.
 */
const MAC = "52:54:00:5b:00:01";
/** The address the site's DHCP gives the machine: the test logs in there. */
const MACHINE_IP = "10.98.0.60";
/** The BMC's LAN MAC, and its credentials (the SKU's discovery graph gives them to the node). */
const BMC_MAC = "52:54:00:5b:0b:01";
const BMC_PASSWORD = "Secure-Bmc-1";
/** A second machine with Secure Boot on, which the site's DHCP offers iPXE (unsigned). */
const UNSIGNED_MAC = "52:54:00:5b:00:02";
/** Debian's iPXE for UEFI (unsigned), which a machine with Secure Boot on must refuse. */
const IPXE_EFI = "/usr/lib/ipxe/snponly.efi";
/**
 * The machine's disks: the SATA one the install rule names by its /dev/disk/by-id name, beside a
 * larger NVMe and a smaller virtio disk (QEMU's null driver: no file), the same at discovery and at
 * the install.
 */
const OTHER_DISKS = [
  ...["-blockdev", "driver=null-co,node-name=big,size=8589934592,read-zeroes=on", "-device", "nvme,drive=big,serial=big"],
  ...["-blockdev", "driver=null-co,node-name=small,size=1073741824,read-zeroes=on", "-device", "virtio-blk-pci,drive=small,serial=small"],
];
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
    let disk: string;
    let repo: StaticServer;
    let bmc: IpmiSim & { state: string };
    let bmcAddress: string;
    /** The QEMU arguments of the machine's BMC (its KCS interface), at discovery and at the install. */
    let bmcHardware: string[];
    const machines = new Set<RunningMachine>();
    const timings: string[] = [];
    const api = rackhdApi(() => server.baseUrl);

    beforeAll(async () => {
      assets = bootAssets();
      scratch = mkdtempSync(join(tmpdir(), "secure-boot-"));
      // What blocks this process (busybox's gzip, apt-cache) is done before the server starts: a
      // request sent after seconds of a blocked event loop can take a kept-alive connection the server
      // is closing at that moment ("other side closed", seen in CI).
      const microkernel = buildMicrokernelInitramfs(assets, join(scratch, "mk.img"));
      const overlay = buildOverlay(assets.busybox, join(scratch, "overlay.cpio.gz"));
      const signed = secureBootFiles();
      const image = debianImage();
      const port = await freePort();
      // The site's new machines have Secure Boot on: they are handed shim and GRUB (a node may still name iPXE).
      server = await startOffline({ PORT: String(port), DEMO_NODES: "off", UEFI_LOADER: "grub" });
      await publishMicrokernel(server.baseUrl, {
        kernel: assets.kernel,
        initrd: microkernel,
        overlay,
      }).catch((error: Error) => {
        throw new Error(`${error.message} (${String(error.cause)}); the server said:\n${server.output().slice(-4000)}`);
      });
      await publishSecureBoot({ api: server.baseUrl }, signed);
      await publishFile({ api: server.baseUrl }, "snponly.efi", readFileSync(IPXE_EFI));
      site = (await api("POST", "/sites", { name: "secure-lab" })).body.id;
      // The machine's BMC: its LAN on a loopback address the relay reaches, its system interface for the machine's KCS.
      bmcAddress = await freeBmcAddress();
      const systemInterfacePort = await freePort();
      bmc = await startIpmiSim(BMC_PASSWORD, { systemInterfacePort, lan: { address: bmcAddress, port: 623 } });
      for (const command of lanSettings(bmcAddress, BMC_MAC)) bmc.ipmitool(command);
      bmcHardware = bmcDevices(systemInterfacePort);
      // The operator's SKU for the site's servers with this BMC: their IPMI OBM setting, with these credentials.
      const sku = await api("POST", "/skus", {
        name: "Secure Boot servers",
        rules: [{ path: "bmc.IP Address", equals: bmcAddress }],
        discoveryGraphName: "Graph.Obm.Ipmi.CreateSettings",
        discoveryGraphOptions: { defaults: { user: "admin", password: BMC_PASSWORD } },
      });
      expect(sku.status).toBe(200);
      // The site's network: its DHCP sends every UEFI machine to the relay's uefi.efi, the loader
      // the service chooses for it (docs/boot.md); the relay knows the machine by its MAC. Two
      // machines run at once (the install and the refused one), each on its own cable.
      network = startTapNetwork(
        `sb${process.pid % 100_000}`,
        98,
        [`--dhcp-host=${MAC},${MACHINE_IP}`, "--dhcp-boot=uefi.efi,relay,10.98.0.1"],
        2,
      );
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
      // The image the install writes, where the machine reaches it: the site's network.
      repo = await serveFiles({ "/images/debian-12.raw.zst": image }, network.hostIp);
      disk = join(scratch, "disk.raw");
      writeFileSync(disk, "");
      truncateSync(disk, 2 * 1024 ** 3);
      record = await bootMachine(assets, {
        firmware: "uefi-secure-boot",
        mac: MAC,
        bootUrl: "uefi.efi",
        tap: network.taps[0],
        hardware: {
          storage: ["-drive", `file=${disk},format=raw,if=none,id=target`, ...DISK_DEVICES.sata("target"), ...OTHER_DISKS, ...bmcHardware],
        },
        until: /MICROKERNEL: (told to reboot|FAILED)|No bootable option or device was found|starting Boot0000 "UiApp"/,
        timeoutMs: 600_000,
      });
    });

    afterAll(async () => {
      for (const machine of machines) machine.stop();
      await repo?.close();
      relay?.stop();
      await bmc?.stop();
      network?.close();
      await server?.stop();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
      const said = record?.serial.split("\n").filter((line) => /MICROKERNEL|secureboot|locked down/.test(line)) ?? [];
      process.stdout.write(`secure boot discovery: ${record?.seconds ?? "-"} s; ${timings.join("; ")}\n${said.join("\n")}\n`);
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
      // A new machine: the setting's loader, shim.
      expect(relay.log()).toMatch(/tftp: \S+ uefi\.efi is shimx64\.efi \(setting\)/);
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

      // Its BMC, found from inside under GRUB as under iPXE: the overlay's ipmitool, the bmc catalog.
      expect(serial).toMatch(/MICROKERNEL: BMC found; overlay unpacked: \S*ipmitool/);
      expect((await api("GET", `/nodes/${node.body.id}/catalogs/bmc`)).body).toMatchObject({
        source: "bmc",
        data: { "IP Address": bmcAddress, "MAC Address": BMC_MAC },
      });
      // Its SKU's discovery graph gave it its IPMI OBM setting, and discovery its default pollers.
      let obmGraph: { _status?: string } | undefined;
      for (let tries = 0; tries < 60 && obmGraph?._status !== "succeeded"; tries += 1) {
        if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 1000));
        const workflows = (await api("GET", `/nodes/${node.body.id}/workflows`)).body as { injectableName: string; _status: string }[];
        obmGraph = workflows.find((workflow) => workflow.injectableName === "Graph.Obm.Ipmi.CreateSettings");
      }
      expect(obmGraph?._status).toBe("succeeded");
      expect((await api("GET", `/nodes/${node.body.id}/obm`)).body).toEqual([
        expect.objectContaining({ service: "ipmi-obm-service", config: { host: bmcAddress, user: "admin", password: "REDACTED" } }),
      ]);
      const pollers = (await api("GET", `/nodes/${node.body.id}/pollers`)).body as { config: { command: string } }[];
      expect(pollers.map((poller) => poller.config.command)).toEqual(expect.arrayContaining(["sdr", "chassis", "selInformation"]));
    });

    // The install's CPU fills the refused machine's idle wait: the two run side by side.
    it.concurrent("is installed with the Debian image onto the SATA disk of three a rule names, and boots it from that disk, Secure Boot still on: SSH works, mokutil says enabled", async () => {
      const node = (await api("GET", `/nodes/${MAC}`)).body.id as string;
      const key = join(scratch, "id_ed25519");
      expect((await api("PUT", `/nodes/${node}/user-data`, { userData: opsUserData("signed-1", newSshKey(key)) })).status).toBe(200);
      const workflow = await api("POST", `/nodes/${node}/workflows`, {
        name: "Graph.InstallImage",
        options: {
          "install-os": {
            image: `${repo.url}/images/debian-12.raw.zst`,
            installDisk: { byId: "ata-QEMU_HARDDISK_target" },
            _taskTimeout: 1_000_000,
          },
        },
      });
      expect(workflow.status).toBe(201);
      // Its one-time PXE boot and its reboot go through the site's relay to its BMC: a UEFI PXE boot,
      // as its firmware reported. The machine is started once the BMC was told.
      const until = Date.now() + 120_000;
      let steps = (await api("GET", `/workflows/${workflow.body.instanceId}`)).body;
      const stateOf = (label: string) =>
        (Object.values(steps.tasks) as { label: string; state: string }[]).find((task) => task.label === label)?.state;
      while (stateOf("reboot") !== "succeeded" && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        steps = (await api("GET", `/workflows/${workflow.body.instanceId}`)).body;
      }
      expect([stateOf("set-boot-pxe"), stateOf("reboot")]).toEqual(["succeeded", "succeeded"]);
      const jobs = (await api("GET", `/sites/${site}/jobs`)).body as { action: { kind: string }; state: string }[];
      expect(jobs.find((job) => job.action.kind === "bootDevice")).toMatchObject({
        action: { device: "pxe", uefi: true },
        state: "succeeded",
      });
      expect(bmc.calls().join("\n")).toMatch(/set boot pxe/);
      const started = performance.now();
      const machine = startMachine(assets, {
        firmware: "uefi-secure-boot",
        mac: MAC,
        bootUrl: "uefi.efi",
        tap: network.taps[0],
        disk,
        diskBus: "sata",
        hardware: { storage: [...OTHER_DISKS, ...bmcHardware] },
        serialLog: join(tmpdir(), "secure-boot-install.serial.log"),
      });
      machines.add(machine);
      let done = (await api("GET", `/workflows/${workflow.body.instanceId}`)).body;
      for (const until = Date.now() + 1_000_000; done._status === "running" && Date.now() < until; ) {
        await new Promise((resolve) => setTimeout(resolve, 2000));
        failOnPanic("The Secure Boot machine", machine.serial());
        done = (await api("GET", `/workflows/${workflow.body.instanceId}`)).body;
      }
      timings.push(`power-on to installed (first boot reported) ${Math.round((performance.now() - started) / 1000)} s`);
      const serial = machine.serial();
      if (done._status !== "succeeded") process.stdout.write(`serial:\n${serial.slice(-8000)}\nrelay:\n${relay.log().slice(-3000)}\n`);
      expect([done._status, done.failure]).toEqual(["succeeded", undefined]);
      // The installer came through shim and GRUB like the microkernel; the installed system's own
      // shim and GRUB (from its disk) then booted Debian's kernel, which saw Secure Boot on.
      expect(serial).toContain(`Starting the image installer for ${MAC}`);
      // A machine that reported Secure Boot on is handed shim whatever the setting.
      expect(relay.log()).toMatch(/tftp: \S+ uefi\.efi is shimx64\.efi \(secure-boot\)/);
      expect(serial).toContain("INSTALLER: installed on /dev/sda");
      expect(serial).toContain("Booting Debian from the disk");
      expect(serial.slice(serial.lastIndexOf("Booting Debian from the disk"))).toMatch(/Secure boot enabled/);
      expect(serial).toMatch(/Cloud-init v\. 22\.4\.2 finished/);
      const login = { host: MACHINE_IP, user: "ops" };
      expect((await sshRun(key, login, "hostname")).trim()).toBe("signed-1");
      expect((await sshRun(key, login, "mokutil --sb-state")).trim()).toBe("SecureBoot enabled");
      // Its /etc/hosts names it: sudo says nothing of resolving its host (issue 50).
      expect(await sshRun(key, login, "sudo -n true 2>&1")).toBe("");
      // The address the node shows is the one SSH reached: the installed system reported it, per NIC (issue 50).
      const shown = (await api("GET", `/nodes/${node}`)).body.addresses;
      expect(shown).toMatchObject({ source: "installed-system", reportedAt: expect.any(String) });
      expect(shown.nics).toEqual(
        expect.arrayContaining([expect.objectContaining({ mac: MAC, addresses: expect.arrayContaining([`${MACHINE_IP}/24`]) })]),
      );
      expect((await api("GET", `/lookups?q=${MAC}`)).body).toEqual([expect.objectContaining({ ipAddress: MACHINE_IP })]);
      machine.stop();
      machines.delete(machine);
    });

    it.concurrent("refuses an unsigned loader (iPXE): the service says the machine never asked for its profile, and that Secure Boot may be why", async () => {
      // Its node names iPXE, which its firmware (Secure Boot on) will not run.
      const node = (await api("POST", "/nodes", { name: "unsigned", identifiers: [UNSIGNED_MAC], bootLoader: "ipxe" })).body.id;
      // Registered in the site before its first boot: the site's relay knows it.
      expect((await api("PUT", `/nodes/${node}/site`, { site })).status).toBe(200);
      const started = await api("POST", `/nodes/${node}/workflows`, {
        name: "Graph.Discovery",
        options: { "bootstrap-ubuntu": { _taskTimeout: 60_000 } },
      });
      expect(started.status).toBe(201);
      const refused = await bootMachine(assets, {
        firmware: "uefi-secure-boot",
        mac: UNSIGNED_MAC,
        bootUrl: "uefi.efi",
        tap: network.taps[1],
        until:
          /failed to (load|start) Boot\w+ "UEFI PXEv4[^\n]*(Access Denied|Security Violation)|No bootable option or device was found|starting Boot0000 "UiApp"/,
        timeoutMs: 300_000,
      });
      // The firmware fetched iPXE from the relay and would not run it.
      expect(relay.log()).toMatch(/tftp: \S+ uefi\.efi is snponly\.efi \(node\)/);
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
