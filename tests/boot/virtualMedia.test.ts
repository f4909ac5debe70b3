import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { namespacePids } from "../../lab/host";
import { type LabState, labNeeds, labUp, obmSetting, plannedMachine } from "../../lab/lab";
import { labMachines } from "../../lab/machines";
import { publishSecureBoot, secureBootFiles } from "../../microkernel/secureBoot";
import { type OfflineServer, rackhdApi } from "../support/offlineServer";
import { debianImage } from "./support/debianImage";
import { labTestDown, siteMirror } from "./support/labSite";
import { microkernelFiles, serviceWithMicrokernel } from "./support/microkernelService";
import { labPause } from "./support/panic";

jest.setTimeout(2_400_000);

/**
 * Virtual media (issue 53) on the lab's machines against the real `serverless offline`, as root: a
 * site with NO DHCP (no dnsmasq in its namespace), two machines behind Redfish BMCs (the tests'
 * stand-in, which inserts an image into the QEMU machine's CD drive as a BMC does), one BIOS and one
 * UEFI with Secure Boot on. Each node is given a static address (`virtualMedia`); the service's
 * one-time PXE boot becomes the relay's image, built with xorriso and GRUB (shim for UEFI),
 * inserted through Redfish and booted once. Each is discovered, then installed with the Debian image
 * from a mirror on the site, through virtual media alone. 10.78.0.0/24: no other test uses it.
 */
const missing = labNeeds();
if (missing.length > 0) process.stdout.write(`virtual media: not run here: needs ${missing.join(", ")}\n`);

(missing.length === 0 ? describe : describe.skip)("virtual media: machines on a network with no DHCP, discovered and installed", () => {
  let server: OfflineServer;
  let scratch: string;
  let dir: string;
  let state: LabState;
  const api = rackhdApi(() => server.baseUrl);
  const lines: string[] = [];
  let imageUrl = "";
  const machines = labMachines({
    machines: [
      {
        name: "vm-bios",
        firmware: "bios",
        nics: [{ model: "e1000e" }],
        disks: [{ bus: "sata", sizeGiB: 2 }],
        memoryMiB: 1024,
        bmc: "redfish",
      },
      {
        name: "vm-uefi",
        firmware: "uefi-secure-boot",
        nics: [{ model: "virtio" }],
        disks: [{ bus: "sata", sizeGiB: 2 }],
        memoryMiB: 1024,
        bmc: "redfish",
      },
    ],
  });
  const address: Record<string, string> = { "vm-bios": "10.78.0.21", "vm-uefi": "10.78.0.22" };

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "virtual-media-test-"));
    dir = join(scratch, "lab");
    const files = microkernelFiles(scratch);
    const image = debianImage();
    const signed = secureBootFiles();
    server = await serviceWithMicrokernel(files);
    await publishSecureBoot({ api: server.baseUrl }, signed);
    state = await labUp({
      api: { url: server.baseUrl },
      dir,
      octet: 78,
      machines,
      dhcp: false,
      owner: process.pid,
      say: (line) => lines.push(line),
    });
    imageUrl = siteMirror("lab78", state.plan.hostIp, image, scratch);
  });

  afterAll(() => labTestDown({ dir, namespace: "lab78", server, scratch, lines }));

  const serialOf = (name: string) => readFileSync(plannedMachine(state, name).serialLog, "latin1");
  function explain(name: string): string {
    return `serial of ${name}:\n${serialOf(name).slice(-5000)}\nrelay:\n${readFileSync(join(dir, "relay.log"), "utf8").slice(-3000)}`;
  }

  /** The workflow once it ended (or `ms` passed); fails at once, with its line, if `name`'s kernel panics. */
  async function finished(name: string, workflowId: string, ms: number): Promise<{ _status: string }> {
    let workflow = (await api("GET", `/workflows/${workflowId}`)).body;
    for (const end = Date.now() + ms; workflow._status === "running" && Date.now() < end; ) {
      await labPause(state, 3000, [name]);
      workflow = (await api("GET", `/workflows/${workflowId}`)).body;
    }
    return workflow;
  }

  it("has no DHCP on the site: no dnsmasq in its namespace", () => {
    expect(namespacePids("lab78").some((each) => each.command.startsWith("/usr/sbin/dnsmasq"))).toBe(false);
  });

  const life = (name: string) => async () => {
    const planned = plannedMachine(state, name);
    const mac = planned.machine.nics[0].mac;
    const setting = { address: `${address[name]}/24`, gateway: state.plan.hostIp, nameservers: [state.plan.hostIp] };
    const created = await api("POST", "/nodes", {
      name,
      identifiers: [mac],
      obmSettings: [obmSetting(state, name)],
      virtualMedia: setting,
    });
    expect(created.status).toBe(201);
    expect(created.body.virtualMedia).toEqual(setting);
    const node = created.body.id;
    expect((await api("PUT", `/nodes/${node}/site`, { site: state.site?.id })).status).toBe(200);

    const discovery = (await api("POST", `/nodes/${node}/workflows`, { name: "Graph.Refresh.Immediate.Discovery" })).body;
    const discovered = await finished(name, discovery.instanceId, 900_000);
    if (discovered._status !== "succeeded") process.stdout.write(explain(name));
    expect(discovered._status).toBe("succeeded");
    const serial = serialOf(name);
    // Booted from the image's GRUB (its echo may come cut by GRUB's terminal codes: the kernel's own line says it).
    expect(serial).toMatch(/Command line: BOOT_IMAGE=\/boot\/vmlinuz NODE_ID=\w+ BOOTIF=\S+ MEDIA_PROFILE=1 NET_ADDRESS=/);
    expect(serial).toContain(`is up (static): ${address[name]}/24 via ${state.plan.hostIp}`);
    expect(serial).toMatch(/MICROKERNEL: media profile: \d+ words/);
    if (planned.machine.firmware === "uefi-secure-boot") expect(serial).toMatch(/Kernel is locked down from EFI Secure Boot/);
    // The relay built the image; the BMC was told to insert it and boot it once, and no DHCP answered anyone.
    expect(readFileSync(join(dir, "relay.log"), "utf8")).toMatch(
      new RegExp(`"kind":"virtualMedia","action":"insert".*on node ${node}\\): done`),
    );
    const jobs = (await api("GET", `/sites/${state.site?.id}/jobs`)).body as {
      node: string;
      action: { kind: string };
      result?: { output: string };
    }[];
    expect(jobs.find((job) => job.node === node && job.action.kind === "virtualMedia")?.result?.output).toMatch(
      /^Inserted http:\/\/10\.78\.0\.1:8080\/media\/[0-9a-f]{32}\.iso into .*VirtualMedia\/CD1; Boot once from Cd/,
    );
    expect((await api("GET", `/nodes/${node}/catalogs/dmi`)).status).toBe(200);

    // Installed through virtual media alone: the image installer is the same microkernel, its step from the service.
    const install = await api("POST", `/nodes/${node}/workflows`, {
      name: "Graph.InstallImage",
      options: {
        "install-os": {
          image: imageUrl,
          installDisk: { byId: `ata-QEMU_HARDDISK_${name}-disk0` },
          waitForFirstBoot: false,
          _taskTimeout: 1_500_000,
        },
      },
    });
    expect(install.status).toBe(201);
    const installed = await finished(name, install.body.instanceId, 1_500_000);
    if (installed._status !== "succeeded") process.stdout.write(explain(name));
    expect(installed._status).toBe("succeeded");
    expect(serialOf(name)).toContain("MICROKERNEL: running the install script");
    const partitions = execFileSync("partx", ["-g", "-o", "START", planned.diskFiles[0]], { encoding: "utf8" });
    expect(partitions.trim().split("\n").length).toBeGreaterThan(0);
  };

  it.concurrent("discovers and installs the BIOS machine (SeaBIOS, GRUB's El Torito image) with a static address", life("vm-bios"));
  it.concurrent(
    "discovers and installs the Secure Boot machine (OVMF, shim and Debian's signed GRUB from the CD) with a static address",
    life("vm-uefi"),
  );
});
