import { execFileSync, spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { namespacePids } from "../../lab/host";
import { type LabState, labNeeds, labUp, obmSetting, plannedMachine } from "../../lab/lab";
import { labMachines } from "../../lab/machines";
import { labSshArgv, leasedAddress } from "../../lab/ssh";
import { type OfflineServer, rackhdApi } from "../support/offlineServer";
import { debianImage } from "./support/debianImage";
import { labTestDown, siteMirror } from "./support/labSite";
import { microkernelFiles, serviceWithMicrokernel } from "./support/microkernelService";

jest.setTimeout(2_400_000);

/**
 * A machine's life through its actions (issue 53), on the lab's machines (issue 52) against the real
 * `serverless offline`, as root: two machines side by side, each with an NVMe and a SATA disk, an
 * IPMI BMC (ipmi_sim) and the site's relay; discovered, made ready, allocated, deployed with the
 * Debian image onto the SATA disk; the BIOS one rescued (SSH into its microkernel with the lab's
 * key) and unrescued; then released: `quick` on the BIOS machine, `full` on the UEFI one. The test wrote a partition table, a file system and marker bytes onto the NVMe disk and
 * markers past the image on the SATA one; once the machine has powered itself off, it reads both
 * disk files from the host: no partition table, no signature at either end or where a partition
 * began; after `full`, none of the markers either (after `quick` they are still there, as
 * docs/lifecycle.md says). 10.75.0.0/24: no other test uses it.
 */
const missing = labNeeds();
if (missing.length > 0) process.stdout.write(`lifecycle: not run here: needs ${missing.join(", ")}\n`);

const MARKER = Buffer.from("LIFECYCLE-53-MARKER-".repeat(200));
const MiB = 1 << 20;
/** Where the test writes its markers: the NVMe disk's middle and end, the SATA disk past the image (912 MiB). */
const MARKS = { nvme: [100 * MiB, 700 * MiB], sata: [1500 * MiB] };

function writeMarkers(file: string, offsets: number[]): void {
  const fd = openSync(file, "r+");
  for (const offset of offsets) writeSync(fd, MARKER, 0, MARKER.length, offset);
  closeSync(fd);
}

/** How many of the markers' places still hold them. */
function markersLeft(file: string, offsets: number[]): number {
  const fd = openSync(file, "r");
  const found = offsets.filter((offset) => {
    const read = Buffer.alloc(MARKER.length);
    readSync(fd, read, 0, read.length, offset);
    return read.equals(MARKER);
  });
  closeSync(fd);
  return found.length;
}

/** The start (in bytes) of each partition of a disk file, as its partition table says. */
const partitionStarts = (file: string): number[] =>
  execFileSync("partx", ["-g", "-o", "START", file], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => Number(line.trim()) * 512);

/** Every signature blkid's low-level probe finds at `offset` of the file (partition table, file system, RAID…): "" when none. */
function signaturesAt(file: string, offset: number): string {
  const probe = spawnSync("blkid", ["-p", "-o", "export", "-O", String(offset), file], { encoding: "utf8" });
  return probe.status === 2 ? "" : probe.stdout.trim() || `blkid exit ${probe.status}: ${probe.stderr}`;
}

(missing.length === 0 ? describe : describe.skip)("a machine's life: deployed, then released with its disks erased", () => {
  let server: OfflineServer;
  let scratch: string;
  let dir: string;
  let state: LabState;
  const api = rackhdApi(() => server.baseUrl);
  const lines: string[] = [];
  let imageUrl = "";
  const machine = (name: string, firmware: "bios" | "uefi") => ({
    name,
    firmware,
    nics: [{ model: "e1000e" as const }],
    disks: [
      { bus: "nvme" as const, sizeGiB: 1 },
      { bus: "sata" as const, sizeGiB: 2 },
    ],
    memoryMiB: 1024,
    bmc: "ipmi" as const,
  });
  const machines = labMachines({ machines: [machine("r-quick", "bios"), machine("r-full", "uefi")] });

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "lifecycle-test-"));
    dir = join(scratch, "lab");
    const files = microkernelFiles(scratch);
    const image = debianImage();
    server = await serviceWithMicrokernel(files);
    state = await labUp({ api: { url: server.baseUrl }, dir, octet: 75, machines, say: (line) => lines.push(line) });
    imageUrl = siteMirror("lab75", state.plan.hostIp, image, scratch);
    // What the last owner left: a partition table and a file system on the NVMe disk, markers on both.
    for (const each of machines) {
      const [nvme, sata] = plannedMachine(state, each.name).diskFiles;
      execFileSync("sgdisk", ["-n", "1:2048:+200M", "-n", "2:0:0", nvme], { stdio: "ignore" });
      execFileSync("mkfs.ext4", ["-q", "-F", "-E", `offset=${MiB}`, nvme, "200M"]);
      writeMarkers(nvme, MARKS.nvme);
      writeMarkers(sata, MARKS.sata);
    }
  });

  afterAll(() => labTestDown({ dir, namespace: "lab75", server, scratch, lines }));

  const powered = (name: string) => namespacePids("lab75").some((each) => each.command.includes(`-name ${name} `));

  /**
   * The node, read again every 3 s while its state is one of `from`. A read the connection drops
   * (a keep-alive socket the server closed as it was reused: undici's ECONNRESET) is read again.
   */
  async function settled(node: string, from: string[], ms: number): Promise<{ provisionState: string; provisioning?: unknown }> {
    const read = async () => {
      for (let tries = 1; ; tries += 1) {
        try {
          return (await api("GET", `/nodes/${node}`)).body;
        } catch (error) {
          if (tries >= 5) throw error;
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      }
    };
    let current = await read();
    for (const end = Date.now() + ms; from.includes(current.provisionState) && Date.now() < end; ) {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      current = await read();
    }
    return current;
  }

  async function act(node: string, action: string, options?: unknown): Promise<void> {
    const answer = await api("POST", `/nodes/${node}/actions`, { action, ...(options !== undefined && { options }) });
    if (answer.status !== 202) throw new Error(`${action}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }

  function explain(name: string): string {
    const serial = readFileSync(plannedMachine(state, name).serialLog, "latin1");
    return `serial of ${name}:\n${serial.slice(-5000)}\nrelay:\n${readFileSync(join(dir, "relay.log"), "utf8").slice(-2000)}`;
  }

  /** The machine's address: its newest DHCP lease from the site's dnsmasq. */
  function addressOf(name: string): string {
    const address = leasedAddress(state.plan.leaseFile, [plannedMachine(state, name).machine.nics[0].mac]);
    if (!address) throw new Error(`no lease for ${name}`);
    return address;
  }

  /** Rescue: the microkernel with SSH for the lab's key, its disks untouched; unrescue: the installed system again. */
  async function rescueAndBack(node: string, name: string): Promise<void> {
    const [, sata] = plannedMachine(state, name).diskFiles;
    const before = partitionStarts(sata);
    await act(node, "rescue", { sshKey: readFileSync(`${state.sshKey}.pub`, "utf8").trim() });
    const rescued = await settled(node, ["rescuing"], 900_000);
    if (rescued.provisionState !== "rescue") process.stdout.write(`${JSON.stringify(rescued.provisioning)}\n${explain(name)}`);
    expect(rescued.provisionState).toBe("rescue");
    const ssh = (command: string, options: string[] = ["-i", state.sshKey]) => {
      const argv = labSshArgv(
        "lab75",
        state.sshKey,
        `root@${addressOf(name)}`,
        [command],
        ["-o", "BatchMode=yes", "-o", "ConnectTimeout=20", ...options],
      );
      return spawnSync(argv[0], argv.slice(1), { encoding: "utf8", timeout: 60_000 });
    };
    const inside = ssh("cat /proc/cmdline; ls /sys/block").stdout;
    expect(inside).toContain("NODE_ID=");
    expect(inside).toMatch(/nvme0n1[\s\S]*sda/);
    // Password logins are off: a key-less attempt is refused.
    const keyless = ssh("true", ["-o", "PubkeyAuthentication=no"]);
    expect(keyless.status).not.toBe(0);
    await act(node, "unrescue");
    expect((await settled(node, ["unrescuing"], 300_000)).provisionState).toBe("deployed");
    // The BMC was told to boot the disk once; the installed system's disk is as it was.
    expect(readFileSync(join(plannedMachine(state, name).bmc?.dir ?? "", "chassis", "calls"), "utf8")).toContain("set boot default");
    expect(partitionStarts(sata)).toEqual(before);
  }

  const life =
    (name: string, erase: "quick" | "full", rescue = false) =>
    async () => {
      const planned = plannedMachine(state, name);
      const [nvme, sata] = planned.diskFiles;
      const mac = planned.machine.nics[0].mac;
      const node = (await api("POST", "/nodes", { name, identifiers: [mac], obmSettings: [obmSetting(state, name)] })).body.id;
      expect((await api("PUT", `/nodes/${node}/site`, { site: state.site?.id })).status).toBe(200);
      // Discovery (reset through the relay and ipmi_sim), then its actions.
      const discovery = (await api("POST", `/nodes/${node}/workflows`, { name: "Graph.Refresh.Immediate.Discovery" })).body;
      let workflow = discovery;
      for (const end = Date.now() + 900_000; workflow._status === "running" && Date.now() < end; ) {
        await new Promise((resolve) => setTimeout(resolve, 3000));
        workflow = (await api("GET", `/workflows/${discovery.instanceId}`)).body;
      }
      if (workflow._status !== "succeeded") process.stdout.write(explain(name));
      expect(workflow._status).toBe("succeeded");
      await act(node, "provide");
      await act(node, "allocate", { owner: "lifecycle-test" });
      await act(node, "deploy", {
        graph: "Graph.InstallImage",
        options: {
          "install-os": {
            image: imageUrl,
            installDisk: { byId: `ata-QEMU_HARDDISK_${name}-disk1` },
            waitForFirstBoot: false,
            _taskTimeout: 1_500_000,
          },
        },
      });
      const deployed = await settled(node, ["deploying"], 1_500_000);
      if (deployed.provisionState !== "deployed") process.stdout.write(`${JSON.stringify(deployed.provisioning)}\n${explain(name)}`);
      expect(deployed.provisionState).toBe("deployed");
      const imageStarts = partitionStarts(sata);
      expect(imageStarts.length).toBeGreaterThan(0);
      const nvmeStarts = partitionStarts(nvme);
      expect(nvmeStarts).toEqual([MiB, 201 * MiB]);
      if (rescue) await rescueAndBack(node, name);

      await act(node, "release", { erase });
      const released = await settled(node, ["releasing"], 1_500_000);
      if (released.provisionState !== "ready") process.stdout.write(`${JSON.stringify(released.provisioning)}\n${explain(name)}`);
      expect(released).toMatchObject({ provisionState: "ready" });
      expect(released.provisioning).not.toHaveProperty("owner");
      // It powered itself off once its disks were erased.
      for (const end = Date.now() + 60_000; powered(name) && Date.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(powered(name)).toBe(false);

      // The erase report, per disk, in its catalog.
      const report = (await api("GET", `/nodes/${node}/catalogs/erase`)).body.data as { disk: string; result: string; method: string }[];
      expect(report.map((entry) => entry.disk).sort()).toEqual(["/dev/nvme0n1", "/dev/sda"]);
      expect(report.every((entry) => entry.result === "erased")).toBe(true);
      process.stdout.write(`${name} erase report: ${JSON.stringify(report)}\n`);

      // Read from the host: no partition table and no signature at either disk's start or where a partition began.
      for (const [file, starts] of [
        [nvme, nvmeStarts],
        [sata, imageStarts],
      ] as const) {
        expect(signaturesAt(file, 0)).toBe("");
        for (const start of starts) expect(`${start}: ${signaturesAt(file, start)}`).toBe(`${start}: `);
        expect(spawnSync("partx", ["-g", file]).status).not.toBe(0);
      }
      const left = markersLeft(nvme, MARKS.nvme) + markersLeft(sata, MARKS.sata);
      // quick clears the metadata only: the data blocks stay (NIST 800-88 "clear" of the labels, not of the data).
      expect(left).toBe(erase === "full" ? 0 : MARKS.nvme.length + MARKS.sata.length);
    };

  it.concurrent(
    "rescues the BIOS machine (SSH with the operator's key, no disk touched) and back, then releases it with quick: no partition table or signature left, its data blocks untouched",
    life("r-quick", "quick"),
  );
  it.concurrent(
    "releases the UEFI machine with full: no partition table, signature or byte of the last owner's data left",
    life("r-full", "full"),
  );
});
