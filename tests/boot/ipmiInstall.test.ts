import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildInitramfs } from "../../microkernel/initramfs";
import { type IpmiSim, ipmiToolsMissing, startIpmiSim } from "../support/ipmiSim";
import { freePort, http, type OfflineServer, startOffline } from "../support/offlineServer";
import { type BootAssets, bootAssets } from "./support/bootAssets";
import { machineArgs } from "./support/qemu";
import { type StaticServer, serveFiles } from "./support/staticServer";

jest.setTimeout(600_000);

/**
 * Lights out: an install with no person. A real IPMI BMC (ipmi_sim) whose chassis is a real QEMU
 * machine (its power starts and stops the VM), a site's relay (the built dist/relay.cjs) driving it
 * with ipmitool, and the real service. Graph.InstallCentOS starts on a powered-off machine; the
 * relay sets PXE and powers it on; it boots, runs the test installer, completes; the workflow ends
 * succeeded with no step by the test in between. Then Graph.Reboot.Node boots it again, and a power
 * off stops it.
 */
const HOST = "10.0.2.2";
const MAC = "52:54:00:1d:00:01";
const PASSWORD = "Bmc-Pa55word";
const missing = ipmiToolsMissing();
if (missing.length > 0) process.stdout.write(`ipmi install: not run: missing ${missing.join(", ")} (apt-get install openipmi ipmitool)\n`);

(missing.length === 0 ? describe : describe.skip)("an install with no person: IPMI through a site's relay (ipmi_sim, QEMU)", () => {
  let assets: BootAssets;
  let server: OfflineServer;
  let repo: StaticServer;
  let bmc: IpmiSim & { state: string };
  let relay: ChildProcess;
  let relayLog = "";
  let scratch: string;
  let node: string;
  const serial = () => (existsSync(join(bmc.state, "serial.log")) ? readFileSync(join(bmc.state, "serial.log"), "latin1") : "");
  const api = (method: string, path: string, body?: unknown) =>
    http(server.baseUrl, method, `/api/1.1${path}`, {
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  /** Waits, bounded, for the workflow to end; says what was on the console and in the relay's log when it does not. */
  const finished = async (instanceId: string, withinMs: number) => {
    const until = Date.now() + withinMs;
    for (;;) {
      const workflow = (await api("GET", `/workflows/${instanceId}`)).body;
      if (workflow._status !== "running") return workflow;
      if (Date.now() > until) throw new Error(`still running after ${withinMs} ms\nserial:\n${serial().slice(-3000)}\nrelay:\n${relayLog}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };

  beforeAll(async () => {
    assets = bootAssets();
    scratch = mkdtempSync(join(tmpdir(), "ipmi-install-"));
    const initrd = buildInitramfs(assets, join(scratch, "initrd.img"), join(__dirname, "support/installer-init.sh"));
    repo = await serveFiles({ "/centos/7/images/pxeboot/vmlinuz": assets.kernel, "/centos/7/images/pxeboot/initrd.img": initrd });
    const port = await freePort();
    server = await startOffline({ PORT: String(port), API_SERVER: `http://${HOST}:${port}`, DEMO_NODES: "off" });
    const qemuArgs = machineArgs(assets, { firmware: "bios", mac: MAC, bootUrl: `http://${HOST}:${port}/api/current/profiles` }, scratch);
    bmc = await startIpmiSim(PASSWORD, {
      chassisControl: join(__dirname, "support/vm-chassis.sh"),
      env: { QEMU: assets.qemu, QEMU_ARGS: qemuArgs.join(" ") },
    });
    const site = (await api("POST", "/sites", { name: "lights-out" })).body.id;
    const { token } = (await api("POST", `/sites/${site}/relays`, {})).body;
    execFileSync("npm", ["run", "relay:build"], { cwd: join(__dirname, "../.."), stdio: "ignore" });
    relay = spawn(process.execPath, [join(__dirname, "../../dist/relay.cjs"), "--api", server.baseUrl], {
      env: { ...process.env, RELAY_TOKEN: token },
      stdio: ["ignore", "pipe", "pipe"],
    });
    relay.stdout?.on("data", (chunk) => {
      relayLog += chunk;
    });
    relay.stderr?.on("data", (chunk) => {
      relayLog += chunk;
    });
    node = (await api("POST", "/nodes", { name: "lights-out-1", identifiers: [MAC] })).body.id;
    const obm = { service: "ipmi-obm-service", config: { host: "127.0.0.1", port: bmc.port, user: "admin", password: PASSWORD } };
    expect((await api("POST", `/nodes/${node}/obm`, obm)).status).toBe(201);
    expect((await api("PUT", `/nodes/${node}/site`, { site })).status).toBe(200);
  });

  afterAll(async () => {
    relay?.kill("SIGTERM");
    await bmc?.stop(); // its chassis program's QEMU goes with the state folder's pid file
    if (bmc && existsSync(join(bmc.state, "qemu.pid"))) execFileSync("sh", ["-c", `kill $(cat ${join(bmc.state, "qemu.pid")}) || true`]);
    await server?.stop();
    await repo?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("installs a powered-off machine from start to succeeded, then reboots it and powers it off, through the BMC", async () => {
    expect(bmc.power()).toBe("0");
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
    expect(serial()).toContain("INSTALLER: done");
    const calls = bmc.calls();
    expect(calls.indexOf("set boot pxe")).toBeGreaterThanOrEqual(0);
    expect(calls.indexOf("set power 1")).toBeGreaterThan(calls.indexOf("set boot pxe"));

    // Graph.Reboot.Node: the machine (off after its install) boots again, and finds nothing to do.
    const before = serial().split("iPXE (http://ipxe.org)").length;
    const reboot = await api("POST", `/nodes/${node}/workflows`, { name: "Graph.Reboot.Node" });
    expect((await finished(reboot.body.instanceId, 60_000))._status).toBe("succeeded");
    const until = Date.now() + 120_000;
    while (!serial().includes("Unable to locate active workflow.") && Date.now() < until) await new Promise((r) => setTimeout(r, 500));
    expect(serial().split("iPXE (http://ipxe.org)").length).toBeGreaterThan(before);
    expect(serial()).toContain("Unable to locate active workflow.");

    // And off, with the power state read back.
    const off = await api("POST", `/nodes/${node}/power`, { action: "off" });
    const offUntil = Date.now() + 30_000;
    let job = off.body;
    while (job.state !== "succeeded" && job.state !== "failed" && Date.now() < offUntil) {
      await new Promise((r) => setTimeout(r, 300));
      job = (await api("GET", `/sites/${job.site}/jobs`)).body.find((candidate: { id: string }) => candidate.id === off.body.id);
    }
    expect(job).toMatchObject({ state: "succeeded" });
    expect(bmc.power()).toBe("0");
    expect((await api("GET", `/nodes/${node}`)).body.power.state).toBe("off");
  });
});
