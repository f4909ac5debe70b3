import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bmcDevices, freeBmcAddress, type IpmiSim, lanSettings, startIpmiSim } from "../../lab/ipmiSim";
import { publishMicrokernel } from "../../microkernel/cli";
import { buildMicrokernelInitramfs, buildOverlay } from "../../microkernel/initramfs";
import { inFlight } from "../support/inFlight";
import { freePort, type OfflineServer, rackhdApi, startOffline } from "../support/offlineServer";
import { jobEnded, pollerSample, type RelayProcess, runPollersNow, startRelayProcess } from "../support/relayProcess";
import { type BootAssets, bootAssets } from "./support/bootAssets";
import { type BootRecord, bootMachine, type Firmware, type Hardware, machineArgs } from "./support/qemu";

jest.setTimeout(900_000);

/**
 * The hardware matrix (issue 37): one machine per NIC and storage model QEMU emulates here,
 * discovered by the real microkernel (Debian's generic kernel, its drivers loaded by the devices'
 * PCI ids) through real firmware and the real service. Each machine's catalogs must name its
 * devices (lspci's names from pci.ids, the driver that bound each NIC, each disk) and the node's
 * lookups must hold every NIC's MAC. The machines boot two at a time (two cores), each firmware
 * in turn. QEMU 7.2 (Debian 12) has no igb model (it came in QEMU 8.0), and its mptsas1068 showed
 * Linux 6.1's mptsas driver no disk in 40 s: those drivers are carried but not proven here.
 * The machine with a BMC boots through a site's relay (it joins the site) and its BMC's LAN
 * interface listens where its catalog says (UDP 623 on a loopback address), with the machine as its
 * chassis: once discovered, the relay powers it on and off with nobody setting anything up.
 * MATRIX_MACHINES=<words> boots only the machines whose names hold them.
 */
const HOST = "10.0.2.2";
const GiB = 1 << 30;
const BMC_PASSWORD = "Matrix-Bmc-1";

/** A disk on no file: QEMU's null block driver answers zeros, so a disk costs nothing. */
const disk = (id: string, gib: number, device: string): string[] => [
  "-blockdev",
  `driver=null-co,node-name=${id},size=${gib * GiB},read-zeroes=on`,
  "-device",
  `${device},drive=${id}`,
];

interface Expected {
  /** lspci's Device for each NIC and storage controller, as pci.ids names it, with its id. */
  devices: string[];
  /** The driver that bound each NIC, in the machine's NIC order. */
  nicDrivers: string[];
  /** Each disk's size in GiB, by its device name. */
  disks: Record<string, number>;
}

interface Machine {
  name: string;
  firmware: Firmware;
  /** A BMC (ipmi_sim) on the machine's KCS interface, with this LAN MAC (its address is a free loopback one). */
  bmc?: { mac: string };
  /** The MAC it boots from (its last NIC's). */
  mac: string;
  hardware: Hardware;
  expected: Expected;
}

const ALL_MACHINES: Machine[] = [
  {
    name: "e1000 and SATA (AHCI)",
    firmware: "bios",
    mac: "52:54:00:a7:00:01",
    hardware: {
      nics: [{ model: "e1000", mac: "52:54:00:a7:00:01" }],
      storage: ["-device", "ahci,id=sata", ...disk("d0", 2, "ide-hd,bus=sata.0")],
    },
    expected: {
      devices: ["82540EM Gigabit Ethernet Controller [100e]", "82801IR/IO/IH (ICH9R/DO/DH) 6 port SATA Controller [AHCI mode] [2922]"],
      nicDrivers: ["e1000"],
      disks: { "/dev/sda": 2 },
    },
  },
  {
    name: "e1000e and NVMe",
    firmware: "uefi",
    mac: "52:54:00:a7:00:02",
    hardware: { nics: [{ model: "e1000e", mac: "52:54:00:a7:00:02" }], storage: disk("d0", 3, "nvme,serial=matrix-nvme") },
    expected: {
      devices: ["82574L Gigabit Network Connection [10d3]", "QEMU NVM Express Controller [0010]"],
      nicDrivers: ["e1000e"],
      disks: { "/dev/nvme0n1": 3 },
    },
  },
  {
    name: "rtl8139 and MegaRAID SAS (megasas)",
    firmware: "bios",
    mac: "52:54:00:a7:00:03",
    hardware: {
      nics: [{ model: "rtl8139", mac: "52:54:00:a7:00:03" }],
      storage: ["-device", "megasas,id=raid", ...disk("d0", 2, "scsi-hd,bus=raid.0")],
    },
    expected: {
      devices: ["RTL-8100/8101L/8139 PCI Fast Ethernet Adapter [8139]", "MegaRAID SAS 1078 [0060]"],
      nicDrivers: ["8139cp"],
      disks: { "/dev/sda": 2 },
    },
  },
  {
    name: "vmxnet3 and LSI 53C895A",
    firmware: "uefi",
    mac: "52:54:00:a7:00:04",
    hardware: {
      nics: [{ model: "vmxnet3", mac: "52:54:00:a7:00:04" }],
      storage: ["-device", "lsi53c895a,id=lsi", ...disk("d0", 2, "scsi-hd,bus=lsi.0")],
    },
    expected: {
      devices: ["VMXNET3 Ethernet Controller [07b0]", "53c895a [0012]"],
      nicDrivers: ["vmxnet3"],
      disks: { "/dev/sda": 2 },
    },
  },
  {
    name: "two NICs, booting from the second; three disks (virtio-scsi, virtio-blk, NVMe)",
    firmware: "bios",
    mac: "52:54:00:a7:00:06",
    hardware: {
      nics: [
        { model: "e1000e", mac: "52:54:00:a7:00:05" },
        { model: "virtio-net-pci", mac: "52:54:00:a7:00:06" },
      ],
      storage: [
        "-device",
        "virtio-scsi-pci,id=vscsi",
        ...disk("d0", 4, "scsi-hd,bus=vscsi.0"),
        ...disk("d1", 2, "virtio-blk-pci"),
        ...disk("d2", 3, "nvme,serial=matrix-nvme"),
      ],
    },
    expected: {
      devices: [
        "82574L Gigabit Network Connection [10d3]",
        "Virtio network device [1000]",
        "Virtio SCSI [1004]",
        "Virtio block device [1001]",
        "QEMU NVM Express Controller [0010]",
      ],
      nicDrivers: ["e1000e", "virtio_net"],
      disks: { "/dev/sda": 4, "/dev/vda": 2, "/dev/nvme0n1": 3 },
    },
  },
  {
    name: "a BMC on its KCS interface (ipmi_sim), found from inside",
    firmware: "uefi",
    mac: "52:54:00:a7:00:07",
    bmc: { mac: "52:54:00:b3:c0:07" },
    hardware: { nics: [{ model: "virtio-net-pci", mac: "52:54:00:a7:00:07" }] },
    expected: { devices: ["Virtio network device [1000]"], nicDrivers: ["virtio_net"], disks: {} },
  },
];

const MATRIX = ALL_MACHINES.filter(({ name }) => name.includes(process.env.MATRIX_MACHINES ?? ""));

describe("the hardware matrix: every NIC and storage model QEMU emulates, discovered", () => {
  let assets: BootAssets;
  let server: OfflineServer;
  let scratch: string;
  const records = new Map<string, BootRecord | Error>();
  const bmcs = new Map<string, IpmiSim & { state: string }>();
  let bmcAddress: string;
  let relay: RelayProcess;
  let site: string;
  const api = rackhdApi(() => server.baseUrl);

  beforeAll(async () => {
    assets = bootAssets();
    scratch = mkdtempSync(join(tmpdir(), "hardware-matrix-"));
    // Built before the server starts (see secureBoot.test.ts: a blocked event loop and a kept-alive connection).
    const microkernel = buildMicrokernelInitramfs(assets, join(scratch, "mk.img"));
    const overlay = buildOverlay(assets.busybox, join(scratch, "overlay.cpio.gz"));
    const port = await freePort();
    server = await startOffline({ PORT: String(port), API_SERVER: `http://${HOST}:${port}`, DEMO_NODES: "off", LOG_REQUESTS: "on" });
    await publishMicrokernel(server.baseUrl, {
      kernel: assets.kernel,
      initrd: microkernel,
      overlay,
    });
    // A site with a relay whose boot server the machine with a BMC boots through.
    site = (await api("POST", "/sites", { name: "matrix-lab" })).body.id;
    const relayPort = await freePort();
    relay = startRelayProcess(server.baseUrl, (await api("POST", `/sites/${site}/relays`, {})).body.token, [
      "--listen",
      `127.0.0.1:${relayPort}`,
    ]);
    await relay.waitFor("boot: serving");
    bmcAddress = await freeBmcAddress();
    // The operator's SKU for machines with a BMC: its discovery graph gives them their IPMI OBM setting with these credentials.
    const sku = await api("POST", "/skus", {
      name: "Servers with a BMC",
      rules: [{ path: "bmc.IP Address", equals: bmcAddress }],
      discoveryGraphName: "Graph.Obm.Ipmi.CreateSettings",
      discoveryGraphOptions: { defaults: { user: "admin", password: BMC_PASSWORD } },
    });
    expect(sku.status).toBe(200);
    // Every machine is discovered before the checks: two at a time, as the two cores allow.
    await inFlight(2, MATRIX.length, async (i) => {
      const { name, firmware, mac, bmc } = MATRIX[i];
      let hardware = MATRIX[i].hardware;
      let bootUrl = `http://${HOST}:${port}/api/current/profiles`;
      if (bmc) {
        bootUrl = `http://${HOST}:${relayPort}/api/current/profiles`;
        const systemInterfacePort = await freePort();
        hardware = { ...hardware, storage: [...(hardware.storage ?? []), ...bmcDevices(systemInterfacePort)] };
        // Its chassis is the machine itself: power on starts this QEMU machine again, power off stops it.
        const chassis = machineArgs(assets, { firmware, mac, bootUrl, hardware }, mkdtempSync(join(scratch, "chassis-")));
        const sim = await startIpmiSim(BMC_PASSWORD, {
          systemInterfacePort,
          lan: { address: bmcAddress, port: 623 },
          chassisControl: join(__dirname, "../../lab/vm-chassis.sh"),
          env: { QEMU: assets.qemu, QEMU_ARGS: chassis.join(" ") },
        });
        bmcs.set(name, sim);
        for (const command of lanSettings(bmcAddress, bmc.mac)) sim.ipmitool(command);
      }
      const until = /MICROKERNEL: (told to reboot|FAILED)/;
      records.set(name, await bootMachine(assets, { firmware, mac, hardware, bootUrl, until, timeoutMs: 300_000 }).catch((error) => error));
    });
  });

  afterAll(async () => {
    for (const sim of bmcs.values()) {
      const pid = join(sim.state, "qemu.pid");
      if (existsSync(pid)) process.kill(Number(readFileSync(pid, "utf8")), "SIGKILL");
      await sim.stop();
    }
    relay?.stop();
    await server?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    const seconds = MATRIX.map(({ name }) => `${name}: ${(records.get(name) as BootRecord | undefined)?.seconds ?? "-"} s`);
    process.stdout.write(`hardware matrix discovery times: ${seconds.join("; ")}\n`);
  });

  it.each(MATRIX.map((machine) => [`${machine.firmware}: ${machine.name}`, machine] as const))("%s", async (_, machine) => {
    const record = records.get(machine.name);
    if (record instanceof Error) throw record;
    // A failed discovery shows the service's side of it: the node's requests and their answers.
    if (record?.serial.includes("MICROKERNEL: FAILED"))
      process.stdout.write(`${machine.name}: the service's log:\n${server.output().slice(-20_000)}\n`);
    expect(record?.serial).toContain("MICROKERNEL: told to reboot");
    expect(record?.serial).not.toContain("MICROKERNEL: FAILED");
    const node = await api("GET", `/nodes/${machine.mac}`);
    expect(node.status).toBe(200);
    // Secure Boot, as the microkernel read it: none on SeaBIOS, off on OVMF without its keys (issue 38).
    expect(node.body.secureBoot).toMatchObject({ state: machine.firmware === "bios" ? "unsupported" : "disabled" });

    // lspci names each NIC and storage controller as pci.ids does.
    const lspci = (await api("GET", `/nodes/${node.body.id}/catalogs/lspci`)).body.data as { Device: string }[];
    expect(lspci.map((device) => device.Device)).toEqual(expect.arrayContaining(machine.expected.devices));

    // lshw: every NIC, with its MAC and the driver that bound it; the port it booted from has a link.
    const lshw = (await api("GET", `/nodes/${node.body.id}/catalogs/lshw`)).body.data.children as Record<string, unknown>[];
    const nics = machine.hardware.nics!.map(({ mac }) => lshw.find((child) => child.class === "network" && child.serial === mac));
    expect(nics.map((nic) => (nic?.configuration as { driver?: string } | undefined)?.driver)).toEqual(machine.expected.nicDrivers);
    expect(nics.find((nic) => nic?.serial === machine.mac)?.configuration).toMatchObject({ link: "yes" });
    // Every disk, by its name and size.
    const disks = Object.fromEntries(
      lshw.filter((child) => child.class === "disk").map((child) => [child.logicalname, Number(child.size) / GiB]),
    );
    expect(disks).toEqual(machine.expected.disks);

    // A machine with a BMC: its bmc catalog, as the BMC answers its own OS (RackHD's `ipmitool lan print`, `mc info`).
    if (machine.bmc) {
      const bmc = await api("GET", `/nodes/${node.body.id}/catalogs/bmc`);
      expect(bmc).toMatchObject({
        status: 200,
        body: { source: "bmc", data: { "IP Address": bmcAddress, "MAC Address": machine.bmc.mac } },
      });
      const mc = await api("GET", `/nodes/${node.body.id}/catalogs/ipmi-mc-info`);
      expect(mc.body.data).toMatchObject({ "IPMI Version": "2.0", "Manufacturer ID": "4753" });
      // Its SKU's discovery graph gave it its IPMI OBM setting (the address from the catalog, the
      // SKU's credentials), and discovery its default IPMI pollers.
      const ended = async () => {
        for (let tries = 0; tries < 60; tries += 1) {
          const workflows = (await api("GET", `/nodes/${node.body.id}/workflows`)).body as { injectableName: string; _status: string }[];
          const obmGraph = workflows.find((workflow) => workflow.injectableName === "Graph.Obm.Ipmi.CreateSettings");
          if (obmGraph && obmGraph._status !== "running") return obmGraph._status;
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
        return "not started";
      };
      expect(await ended()).toBe("succeeded");
      expect((await api("GET", `/nodes/${node.body.id}/obm`)).body).toEqual([
        expect.objectContaining({ service: "ipmi-obm-service", config: { host: bmcAddress, user: "admin", password: "REDACTED" } }),
      ]);
      const pollers = (await api("GET", `/nodes/${node.body.id}/pollers`)).body as { id: string; config: { command: string } }[];
      expect(pollers.map((poller) => poller.config.command)).toEqual(expect.arrayContaining(["sdr", "chassis", "selInformation"]));

      // With nobody setting anything: it joined the relay's site by booting through it, so the
      // relay runs its pollers and its power, against the BMC at the address its catalog gave.
      expect(node.body.site).toBe(site);
      const sim = bmcs.get(machine.name)!;
      expect(await runPollersNow(server.lambdaUrl)).toBe(200);
      const chassis = pollers.find((poller) => poller.config.command === "chassis")!;
      expect(await pollerSample(server.baseUrl, chassis.id, relay.log, 60_000)).toMatchObject({
        chassis: { power: false },
        host: bmcAddress,
      });
      const power = async (action: string) =>
        jobEnded(server.baseUrl, site, (await api("POST", `/nodes/${node.body.id}/power`, { action })).body.id, relay.log, 60_000);
      expect(await power("on")).toMatchObject({ state: "succeeded" });
      expect(sim.power()).toBe("1");
      // The machine really runs again: its firmware starts over on its console.
      const serial = join(sim.state, "serial.log");
      const until = Date.now() + 120_000;
      while (!(existsSync(serial) && readFileSync(serial, "latin1").includes("iPXE")) && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 500));
      expect(readFileSync(serial, "latin1")).toContain("iPXE");
      expect(await power("off")).toMatchObject({ state: "succeeded" });
      expect(sim.power()).toBe("0");
      expect((await api("GET", `/nodes/${node.body.id}`)).body.power).toMatchObject({ state: "off" });
    } else {
      expect((await api("GET", `/nodes/${node.body.id}/catalogs/bmc`)).status).toBe(404);
    }

    // The node's lookups hold every NIC's MAC, the ports it did not boot from too.
    for (const { mac } of machine.hardware.nics!) {
      const lookups = (await api("GET", `/lookups?q=${mac}`)).body as { node?: string }[];
      expect(lookups.map((lookup) => lookup.node)).toContain(node.body.id);
    }
  });
});
