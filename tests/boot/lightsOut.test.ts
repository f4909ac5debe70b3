import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ipmiToolsMissing, startIpmiSim } from "../../lab/ipmiSim";
import { qmpMachine } from "../../lab/qmpMachine";
import { startRedfishBmc } from "../../lab/redfishBmc";
import { publishMicrokernel } from "../../microkernel/cli";
import { buildInitramfs, buildMicrokernelInitramfs } from "../../microkernel/initramfs";
import { freePort, type OfflineServer, rackhdApi, startOffline } from "../support/offlineServer";
import { type RelayProcess, startRelayProcess } from "../support/relayProcess";
import { type BootAssets, bootAssets } from "./support/bootAssets";
import { machineArgs } from "./support/qemu";
import { type StaticServer, serveFiles } from "./support/staticServer";

jest.setTimeout(600_000);

/**
 * Lights out: an install with no person, for each kind of BMC. IPMI: a real BMC (ipmi_sim) whose
 * chassis is a real QEMU machine (its power starts and stops the VM), driven with ipmitool.
 * Redfish: the project's Redfish BMC fixture (the one hand-written stand-in) driving the same kind
 * of QEMU machine through QMP, over verified HTTPS. A site's relay (the built dist/relay.cjs) and
 * the real service. Graph.InstallCentOS starts on a powered-off machine; the relay sets a one-time
 * PXE boot and powers it on; it boots, runs the test installer, completes; the workflow ends
 * succeeded with no step by the test in between. Then Graph.Reboot.Node boots it again; the Redfish
 * one is discovered again (Graph.Refresh.Immediate.Discovery, through two vendors' quirks at
 * once; its BIOS attributes, boot order and firmware read into catalogs first); and a power off stops it.
 */
const HOST = "10.0.2.2";
const MACS = { ipmi: "52:54:00:1d:00:01", redfish: "52:54:00:1d:00:02" };

/** A BMC with a QEMU machine behind it: what the node's OBM setting says, its console, its power. */
interface Bmc {
  obm: { service: string; config: Record<string, unknown> };
  serial: () => string;
  poweredOn: () => boolean;
  /** The ResetTypes the relay asked a Redfish BMC for, in order (none for IPMI). */
  resets: () => string[];
  stop: () => Promise<void>;
}

async function startBmc(kind: "ipmi" | "redfish", qemu: string, args: string[], scratch: string): Promise<Bmc> {
  if (kind === "ipmi") {
    const sim = await startIpmiSim(PASSWORD, {
      chassisControl: join(__dirname, "../../lab/vm-chassis.sh"),
      env: { QEMU: qemu, QEMU_ARGS: args.join(" ") },
    });
    const log = join(sim.state, "serial.log");
    return {
      obm: { service: "ipmi-obm-service", config: { host: "127.0.0.1", port: sim.port, user: "admin", password: PASSWORD } },
      serial: () => (existsSync(log) ? readFileSync(log, "latin1") : ""),
      poweredOn: () => sim.power() === "1",
      resets: () => [],
      stop: async () => {
        const pid = join(sim.state, "qemu.pid");
        if (existsSync(pid)) execFileSync("sh", ["-c", `kill $(cat ${pid}) 2>/dev/null || true`]);
        await sim.stop();
      },
    };
  }
  const machine = qmpMachine(qemu, args, scratch);
  // Two vendors' quirks at once: it refuses a boot mode (bmclib retries without), and, as older
  // iDRACs, performs no ForceRestart or PowerCycle, lists no ResetTypes and answers a Reset with a
  // task monitor: a reboot is then a ForceOff, the power seen off, and an On.
  const bmc = await startRedfishBmc({
    user: "root",
    password: PASSWORD,
    rejectBootMode: true,
    resetTypes: ["On", "ForceOff", "GracefulShutdown"],
    listsResetTypes: false,
    taskMonitor: true,
    machine,
  });
  return {
    obm: { service: "redfish-obm-service", config: { uri: bmc.url, user: "root", password: PASSWORD, ca: bmc.ca } },
    serial: machine.serial,
    poweredOn: machine.running,
    resets: () =>
      bmc.requests
        .filter((line) => line.startsWith("POST /redfish/v1/Systems/437XR1138R2/Actions/Reset "))
        .map((line) => JSON.parse(line.slice(line.indexOf("{"))).ResetType),
    stop: async () => {
      await machine.stop();
      await bmc.close();
    },
  };
}
const PASSWORD = "Bmc-Pa55word";
const missing = ipmiToolsMissing();
if (missing.length > 0) process.stdout.write(`ipmi install: not run: missing ${missing.join(", ")} (apt-get install openipmi ipmitool)\n`);

const KINDS = (missing.length === 0 ? ["ipmi", "redfish"] : ["redfish"]) as ("ipmi" | "redfish")[];

describe.each(KINDS)("an install with no person through a site's relay: %s BMC (QEMU)", (kind) => {
  let assets: BootAssets;
  let server: OfflineServer;
  let repo: StaticServer;
  let bmc: Bmc;
  let relay: RelayProcess;
  let scratch: string;
  let node: string;
  const serial = () => bmc.serial();
  /**
   * Waits (up to `withinMs`) until the console shows `text`. A machine prints its last line after the call
   * that ends its workflow: on a busy host the workflow was read as ended before that line reached
   * the console (CI, 2026-11-27).
   */
  const consoleShows = async (text: string, withinMs = 60_000): Promise<void> => {
    for (const until = Date.now() + withinMs; !serial().includes(text) && Date.now() < until; )
      await new Promise((resolve) => setTimeout(resolve, 500));
  };
  const api = rackhdApi(() => server.baseUrl);
  /** Waits, bounded, for the workflow to end; says what was on the console and in the relay's log when it does not. */
  const finished = async (instanceId: string, withinMs: number) => {
    const until = Date.now() + withinMs;
    for (;;) {
      const workflow = (await api("GET", `/workflows/${instanceId}`)).body;
      if (workflow._status !== "running") return workflow;
      if (Date.now() > until)
        throw new Error(`still running after ${withinMs} ms\nserial:\n${serial().slice(-3000)}\nrelay:\n${relay.log()}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };

  beforeAll(async () => {
    assets = bootAssets();
    scratch = mkdtempSync(join(tmpdir(), "ipmi-install-"));
    const initrd = buildInitramfs(assets, join(scratch, "initrd.img"), join(__dirname, "support/installer-init.sh"));
    repo = await serveFiles({ "/centos/7/images/pxeboot/vmlinuz": assets.kernel, "/centos/7/images/pxeboot/initrd.img": initrd });
    // Built before the server starts (see secureBoot.test.ts: a blocked event loop and a kept-alive connection).
    const microkernel = kind === "redfish" ? buildMicrokernelInitramfs(assets, join(scratch, "mk.img")) : "";
    const port = await freePort();
    server = await startOffline({ PORT: String(port), API_SERVER: `http://${HOST}:${port}`, DEMO_NODES: "off" });
    const qemuArgs = machineArgs(
      assets,
      { firmware: "bios", mac: MACS[kind], bootUrl: `http://${HOST}:${port}/api/current/profiles` },
      scratch,
    );
    bmc = await startBmc(kind, assets.qemu, qemuArgs, scratch);
    if (kind === "redfish")
      await publishMicrokernel(server.baseUrl, {
        kernel: assets.kernel,
        initrd: microkernel,
      });
    const site = (await api("POST", "/sites", { name: "lights-out" })).body.id;
    const { token } = (await api("POST", `/sites/${site}/relays`, {})).body;
    relay = startRelayProcess(server.baseUrl, token, []);
    node = (await api("POST", "/nodes", { name: `lights-out-${kind}`, identifiers: [MACS[kind]] })).body.id;
    expect((await api("POST", `/nodes/${node}/obm`, bmc.obm)).status).toBe(201);
    expect((await api("PUT", `/nodes/${node}/site`, { site })).status).toBe(200);
  });

  afterAll(async () => {
    relay?.stop();
    await bmc?.stop();
    await server?.stop();
    await repo?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("installs a powered-off machine from start to succeeded, then reboots it and powers it off, through the BMC", async () => {
    expect(bmc.poweredOn()).toBe(false);
    const started = await api("POST", `/nodes/${node}/workflows`, {
      name: "Graph.InstallCentOS",
      options: {
        "install-os": {
          version: "7",
          repo: `${repo.url.replace("127.0.0.1", HOST)}/centos/7`,
          rootPassword: "Install-Pa55",
          installDisk: "vda",
        },
      },
    });
    expect(started.status).toBe(201);
    const installed = await finished(started.body.instanceId, 240_000);
    expect(installed._status).toBe("succeeded");
    await consoleShows("INSTALLER: done");
    expect(serial()).toContain("INSTALLER: done");
    const steps = Object.values(installed.tasks as Record<string, { label: string; state: string }>);
    expect(steps.filter((task) => ["set-boot-pxe", "reboot"].includes(task.label)).map((task) => task.state)).toEqual([
      "succeeded",
      "succeeded",
    ]);

    // Graph.Reboot.Node: the machine (off after its install) boots again, and finds nothing to do.
    const before = serial().split("iPXE (http://ipxe.org)").length;
    const reboot = await api("POST", `/nodes/${node}/workflows`, { name: "Graph.Reboot.Node" });
    expect((await finished(reboot.body.instanceId, 60_000))._status).toBe("succeeded");
    await consoleShows("Unable to locate active workflow.", 120_000);
    expect(serial().split("iPXE (http://ipxe.org)").length).toBeGreaterThan(before);
    expect(serial()).toContain("Unable to locate active workflow.");
    // Redfish: the running machine discovered again by a workflow through the BMC's quirks. The
    // relay asks for a ForceRestart (the machine is on), then each way in turn (the BMC lists
    // none) and takes the one it has, ForceOff then On; the machine boots the microkernel.
    if (kind === "redfish") {
      const refresh = await api("POST", `/nodes/${node}/workflows`, { name: "Graph.Refresh.Immediate.Discovery" });
      expect(refresh.status).toBe(201);
      const refreshed = await finished(refresh.body.instanceId, 240_000);
      expect(refreshed._status).toBe("succeeded");
      await consoleShows("MICROKERNEL: told to reboot");
      expect(serial()).toContain("MICROKERNEL: told to reboot");
      expect(bmc.resets().slice(-4)).toEqual(["ForceRestart", "PowerCycle", "ForceOff", "On"]);
      expect((await api("GET", `/nodes/${node}/catalogs/dmi`)).status).toBe(200);
      // Its BMC's BIOS attributes and boot order, and its firmware inventory, read first (issue 53).
      expect((await api("GET", `/nodes/${node}/catalogs/redfish-bios`)).body.data).toMatchObject({
        attributes: { BootMode: "Uefi" },
        bootOrder: ["NIC.Slot.1-1", "Disk.Bay.0"],
      });
      expect((await api("GET", `/nodes/${node}/catalogs/redfish-firmware`)).body.data).toMatchObject({ listed: 3 });
    }

    // And off, with the power state read back.
    const off = await api("POST", `/nodes/${node}/power`, { action: "off" });
    const offUntil = Date.now() + 30_000;
    let job = off.body;
    while (job.state !== "succeeded" && job.state !== "failed" && Date.now() < offUntil) {
      await new Promise((r) => setTimeout(r, 300));
      job = (await api("GET", `/sites/${job.site}/jobs`)).body.find((candidate: { id: string }) => candidate.id === off.body.id);
    }
    expect(job).toMatchObject({ state: "succeeded" });
    expect(bmc.poweredOn()).toBe(false);
    expect((await api("GET", `/nodes/${node}`)).body.power.state).toBe("off");
  });
});
