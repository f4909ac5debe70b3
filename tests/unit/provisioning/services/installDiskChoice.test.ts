import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bootProfile, nodeTemplate } from "../../../../lib/provisioning/boot/bootService";
import { startWorkflow } from "../../../../lib/provisioning/workflows/workflowService";
import { API, aMachine, MAC } from "../installReports/support";
import { aCatalog, later, memoryStores, type Stores } from "./setUp";

/** The microkernel's lshw catalog of a machine with an NVMe disk, two SATA disks and a USB stick. */
const LSHW = {
  children: [
    { class: "network", logicalname: "eth0", serial: MAC },
    {
      class: "disk",
      logicalname: "/dev/nvme0n1",
      size: 3221225472,
      product: "QEMU NVMe Ctrl",
      serial: "nv-1",
      configuration: { driver: "nvme", removable: "no" },
    },
    {
      class: "disk",
      logicalname: "/dev/sda",
      size: 4294967296,
      product: "QEMU HARDDISK",
      vendor: "ATA",
      serial: "QM00001",
      configuration: { driver: "sd", removable: "no" },
    },
    {
      class: "disk",
      logicalname: "/dev/sdb",
      size: 2147483648,
      product: "QEMU HARDDISK",
      vendor: "ATA",
      serial: " QM00002 ",
      configuration: { driver: "sd", removable: "no" },
    },
    {
      class: "disk",
      logicalname: "/dev/sdd",
      size: 5368709120,
      product: "LOGICAL VOLUME",
      vendor: "HP",
      // A RAID controller's logical volume: no serial of its own (blanks in its VPD page).
      serial: "   ",
      configuration: { driver: "sd", removable: "no" },
    },
    { class: "disk", logicalname: "/dev/sdc", size: 1073741824, product: "Cruzer", vendor: "SanDisk", configuration: { removable: "yes" } },
  ],
};

/** A discovered machine (its lshw catalog, none when `lshw` is null) booted into Graph.InstallImage; answers its install script, or the error. */
async function installScript(stores: Stores, installDisk: unknown, lshw: unknown = LSHW, more: Record<string, unknown> = {}) {
  const node = await aMachine(stores);
  if (lshw !== null) await stores.catalogs.add([aCatalog(node.id, "lshw", lshw, "c-lshw")]);
  const workflow = await startWorkflow(
    stores,
    node.id,
    { name: "Graph.InstallImage", options: { "install-os": { image: "debian-12.raw.gz", installDisk, ...more } } },
    API,
    later(1),
  );
  const profile = await bootProfile(stores, [MAC], "10.0.0.5", API, later(2));
  const token = new URL(/INSTALL_SCRIPT=(\S+)/.exec(profile)![1]).searchParams.get("token") ?? undefined;
  const script = nodeTemplate(
    stores,
    "install-image.sh",
    { nodeId: node.id, macs: [], token },
    "/api/current/templates/install-image.sh",
    API,
    later(3),
    {
      requireToken: true,
    },
  );
  return { node, workflow, script };
}

describe("an installDisk rule, resolved from the node's lshw catalog when the script renders (issue 37)", () => {
  it.each<[string, unknown, string]>([
    ["the smallest non-removable disk", { smallest: true }, "/dev/sdb"],
    ["by model", { model: "QEMU NVMe Ctrl" }, "/dev/nvme0n1"],
    ["by /dev/disk/by-id name", { byId: "ata-QEMU_HARDDISK_QM00001" }, "/dev/sda"],
    ["by size", { minSize: "3GiB" }, "/dev/nvme0n1"],
  ])("%s", async (_, rule, disk) => {
    const stores = memoryStores();
    const { script } = await installScript(stores, rule);
    expect(await script).toContain(`disk='${disk}'`);
  });

  it("fails the install at once when no disk matches, naming the rule and the disks, and refuses the script (409)", async () => {
    const stores = memoryStores();
    const { node, workflow, script } = await installScript(stores, { model: "PERC H740P" });
    await expect(script).rejects.toMatchObject({
      kind: "conflict",
      message: expect.stringContaining(`No disk of node ${node.id} matches the installDisk rule {"model":"PERC H740P"}`),
    });
    const stored = (await stores.workflows.get(workflow.instanceId))!;
    const task = Object.values(stored.tasks).find((each) => each.label === "install-os")!;
    expect(task).toMatchObject({ state: "failed", reason: "no-install-disk" });
    expect(task.error).toContain("/dev/sdc (1073741824 bytes, Cruzer, removable)");
    expect(stored._status).toBe("failed");
  });

  it("fails a node with no lshw catalog, saying to discover it first", async () => {
    const stores = memoryStores();
    const { script } = await installScript(stores, { smallest: true }, null);
    await expect(script).rejects.toThrow(/has no lshw catalog to choose its install disk .* \(discover it first\)/);
  });

  it("leaves a device name as it is, with no catalog read", async () => {
    const stores = memoryStores();
    const reads = jest.spyOn(stores.catalogs, "latest");
    const { script } = await installScript(stores, "/dev/sdb", null);
    expect(await script).toContain("disk='/dev/sdb'");
    expect(await script).toContain("disk_serial=''");
    expect(reads).not.toHaveBeenCalled();
  });

  /**
   * The chosen disk's device name is its name at discovery; Linux names disks anew at each boot
   * (the lab's Secure Boot machine: its second SATA disk was /dev/sda at discovery, its first at the
   * install). The installer finds the disk by the serial and size the catalog gave, here run by sh
   * over a made-up /sys/block where the names have moved.
   */
  it("has the installer find the chosen disk by its serial and size, whatever its name at this boot, and write to none when it is gone", async () => {
    const stores = memoryStores();
    const script = await (await installScript(stores, { byId: "ata-QEMU_HARDDISK_QM00001" })).script;
    expect(script).toContain("disk='/dev/sda'");
    expect(script).toContain("disk_serial='QM00001'");
    expect(script).toContain("disk_size='4294967296'");
    const lines = script.split("\n");
    const find = lines.slice(
      lines.indexOf('if [ -n "$disk_serial" ]; then'),
      lines.findIndex((line, index) => index > lines.indexOf('if [ -n "$disk_serial" ]; then') && line === "fi") + 1,
    );
    const sys = mkdtempSync(join(tmpdir(), "sys-block-"));
    /** A disk as sysfs shows it: its size in sectors, its serial in VPD page 0x80 after a 4-byte header (SATA). */
    const disk = (name: string, bytes: number, serial: string) => {
      mkdirSync(join(sys, name, "device"), { recursive: true });
      writeFileSync(join(sys, name, "size"), `${bytes / 512}\n`);
      writeFileSync(join(sys, name, "device", "vpd_pg80"), Buffer.concat([Buffer.from([0, 0x80, 0, 20]), Buffer.from(serial.padEnd(20))]));
    };
    const run = () =>
      spawnSync("sh", ["-c", [...find, 'echo "disk=$disk"'].join("\n").replaceAll("/sys/block", sys)], {
        encoding: "utf8",
        env: { PATH: process.env.PATH, disk: "/dev/sda", disk_serial: "QM00001", disk_size: "4294967296" },
        input: "",
      });
    try {
      // This boot: the two SATA disks swapped names.
      disk("sda", 2147483648, "QM00002");
      disk("sdb", 4294967296, "QM00001");
      disk("nvme0n1", 3221225472, "");
      const moved = run();
      expect(moved.stdout.trim().split("\n").pop()).toBe("disk=/dev/sdb");
      // Gone (its serial elsewhere at another size does not count): the installer stops and writes nothing.
      rmSync(join(sys, "sdb"), { recursive: true });
      disk("sdc", 8589934592, "QM00001");
      const gone = spawnSync(
        "sh",
        ["-c", ['log() { echo "LOG $*"; }', 'die() { echo "DIE $*"; exit 1; }', ...find].join("\n").replaceAll("/sys/block", sys)],
        {
          encoding: "utf8",
          env: { PATH: process.env.PATH, disk: "/dev/sda", disk_serial: "QM00001", disk_size: "4294967296" },
        },
      );
      expect(gone.status).toBe(1);
      expect(gone.stdout).toContain(
        "DIE the chosen disk (serial QM00001, 4294967296 bytes; /dev/sda at discovery) is not on this machine now",
      );
    } finally {
      rmSync(sys, { recursive: true, force: true });
    }
  });

  it("gives the installer the chosen disk's serial as its catalog has it, trimmed, and none for a disk without one (its name alone)", async () => {
    const padded = await (await installScript(memoryStores(), { smallest: true })).script;
    expect(padded).toContain("disk='/dev/sdb'");
    expect(padded).toContain("disk_serial='QM00002'");
    const none = await (await installScript(memoryStores(), { minSize: "4.5GiB" })).script;
    expect(none).toContain("disk='/dev/sdd'");
    expect(none).toContain("disk_serial=''");
    expect(none).toContain("disk_size=''");
  });

  it("never takes the chosen disk's serial from the operator's options", async () => {
    const stores = memoryStores();
    const script = await (await installScript(stores, "/dev/sda", null, { _installDiskSerial: "evil", _installDiskSize: 1 })).script;
    expect(script).toContain("disk_serial=''");
    expect(script).not.toContain("evil");
  });

  it("refuses a malformed rule when the workflow starts, storing nothing", async () => {
    const stores = memoryStores();
    await expect(installScript(stores, { size: "big" })).rejects.toThrow(/installDisk for task .* has no field size/);
    expect(await stores.workflows.list()).toEqual([]);
  });
});
