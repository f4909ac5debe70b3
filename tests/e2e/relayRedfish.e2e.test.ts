import { idleMachine } from "../../lab/qmpMachine";
import { type RedfishBmc, startRedfishBmc } from "../../lab/redfishBmc";
import { MICROKERNEL_FILES } from "../../lib/provisioning/graphs/discoveryTasks";
import { publishFile } from "../../microkernel/publish";
import { freePort, type OfflineServer, rackhdApi, startOffline } from "../support/offlineServer";
import { jobEnded, pollerSample, type RelayProcess, runPollersNow, startRelayProcess } from "../support/relayProcess";

jest.setTimeout(180_000);

/**
 * A site's relay driving a Redfish BMC over verified HTTPS. The BMC is the project's stand-in
 * (tests/support/redfishBmc.ts says why), in DMTF's mockup shapes, its power a real QEMU process's
 * (an idle machine: this tier boots no firmware; the boot tier's lights-out test boots one through
 * it); the relay is the built dist/relay.cjs, which does not know it talks to a stand-in. Both stores.
 */
describe("a site's relay driving a Redfish BMC", () => {
  let server: OfflineServer;
  let bmc: RedfishBmc;
  let relay: RelayProcess;
  let site: string;
  const api = rackhdApi(() => server.baseUrl);
  const redfishNode = async (mac: string, config: Record<string, unknown>) => {
    const node = (await api("POST", "/nodes", { name: `redfish-${mac}`, identifiers: [mac] })).body;
    expect((await api("POST", `/nodes/${node.id}/obm`, { service: "redfish-obm-service", config })).status).toBe(201);
    expect((await api("PUT", `/nodes/${node.id}/site`, { site })).status).toBe(200);
    return node.id as string;
  };
  const ended = (jobId: string) => jobEnded(server.baseUrl, site, jobId, relay.log);
  const act = async (node: string, body: unknown) => ended((await api("POST", `/nodes/${node}/power`, body)).body.id);

  beforeAll(async () => {
    bmc = await startRedfishBmc({ user: "root", password: "calvin", rejectBootMode: true, machine: idleMachine() });
    server = await startOffline({ DEMO_NODES: "off" });
    site = (await api("POST", "/sites", { name: "redfish-lab" })).body.id;
    const { token } = (await api("POST", `/sites/${site}/relays`, {})).body;
    relay = startRelayProcess(server.baseUrl, token, ["--busy-poll-ms", "200", "--idle-poll-ms", "500"]);
  });

  afterAll(async () => {
    relay?.stop();
    await server?.stop();
    await bmc?.close();
  });

  it("powers on, reads the power state, and sets a one-time PXE boot, retrying without the boot mode the BMC refuses", async () => {
    const node = await redfishNode("52:54:00:4f:00:01", { uri: bmc.url, user: "root", password: "calvin", ca: bmc.ca });
    expect(await act(node, { action: "on" })).toMatchObject({ state: "succeeded", result: { output: "ResetType On" } });
    expect(bmc.system().PowerState).toBe("On");
    expect((await act(node, { action: "status" })).result.output).toBe("PowerState: On");
    expect((await api("GET", `/nodes/${node}`)).body.power).toMatchObject({ state: "on" });

    const pxe = await act(node, { device: "pxe", uefi: true });
    expect(pxe).toMatchObject({ state: "succeeded" });
    expect(pxe.result.output).toMatch(
      /^Boot once from Pxe \(the BMC refused a boot mode: The property BootSourceOverrideMode is a read only property/,
    );
    expect(bmc.system().Boot).toMatchObject({ BootSourceOverrideTarget: "Pxe", BootSourceOverrideEnabled: "Once" });
    // UEFI HTTP boot from a named file (no TFTP, no PXE).
    expect(await act(node, { device: "http", uri: "http://10.1.0.2:8080/snponly.efi" })).toMatchObject({ state: "succeeded" });
    expect(bmc.system().Boot).toMatchObject({ BootSourceOverrideTarget: "UefiHttp", HttpBootUri: "http://10.1.0.2:8080/snponly.efi" });
    expect(await act(node, { identify: true })).toMatchObject({ state: "succeeded" });
    expect(bmc.system().IndicatorLED).toBe("Lit");
    // reboot of a machine that is on: a restart.
    expect(await act(node, { action: "reboot" })).toMatchObject({ state: "succeeded", result: { output: "ResetType ForceRestart" } });
    expect(relay.log()).not.toContain("calvin");
  });

  it("opens a session for each action and closes it (X-Auth-Token); a BMC with no session free is driven with Basic", async () => {
    const node = await redfishNode("52:54:00:4f:00:04", { uri: bmc.url, user: "root", password: "calvin", ca: bmc.ca });
    const before = bmc.requests.length;
    expect(await act(node, { action: "status" })).toMatchObject({ state: "succeeded" });
    const calls = bmc.requests.slice(before);
    // The service root first, open to all; then a session where the root says sessions are (not the usual path).
    expect(calls[0]).toBe("GET /redfish/v1");
    expect(calls[1]).toMatch(/^POST \/redfish\/v1\/SessionService\/ActiveSessions /);
    expect(calls.at(-1)).toMatch(/^DELETE \/redfish\/v1\/SessionService\/ActiveSessions\/\d+$/);
    expect(bmc.openSessions()).toBe(0);
    const full = await startRedfishBmc({ user: "root", password: "calvin", sessionLimit: 0, machine: idleMachine() });
    try {
      const crowded = await redfishNode("52:54:00:4f:00:05", { uri: full.url, user: "root", password: "calvin", ca: full.ca });
      expect(await act(crowded, { action: "status" })).toMatchObject({ state: "succeeded", result: { output: "PowerState: Off" } });
      expect(full.requests.filter((call) => call.startsWith("GET /redfish/v1/Systems"))).not.toHaveLength(0);
    } finally {
      await full.close();
    }
  });

  it("survives the BMCs that differ: no AllowableValues, no ForceRestart or PowerCycle (ForceOff, then On), a 202 with a task monitor", async () => {
    const quirky = await startRedfishBmc({
      user: "root",
      password: "calvin",
      listsResetTypes: false,
      resetTypes: ["On", "ForceOff", "GracefulShutdown"],
      taskMonitor: true,
      machine: idleMachine(),
    });
    try {
      const node = await redfishNode("52:54:00:4f:00:06", { uri: quirky.url, user: "root", password: "calvin", ca: quirky.ca });
      expect(await act(node, { action: "on" })).toMatchObject({ state: "succeeded", result: { output: "ResetType On" } });
      // The task monitor was read until the task completed.
      expect(quirky.requests.filter((call) => call.startsWith("GET /redfish/v1/TaskService/Tasks/1"))).toHaveLength(3);
      const reboot = await act(node, { action: "reboot" });
      expect(reboot).toMatchObject({
        state: "succeeded",
        result: { output: "ResetType ForceOff then On (the BMC refused ForceRestart, PowerCycle)" },
      });
      const resets = quirky.requests
        .filter((call) => call.startsWith("POST /redfish/v1/Systems/437XR1138R2/Actions/Reset "))
        .map((call) => JSON.parse(call.split(" ")[2]).ResetType);
      expect(resets).toEqual(["On", "ForceRestart", "PowerCycle", "ForceOff", "On"]);
      expect(quirky.system().PowerState).toBe("On");
      expect(quirky.openSessions()).toBe(0);
    } finally {
      await quirky.close();
    }
  });

  it("runs a node's Redfish pollers through the relay: its power state, temperatures and fans, and the power it draws", async () => {
    const node = await redfishNode("52:54:00:4f:00:07", { uri: bmc.url, user: "root", password: "calvin", ca: bmc.ca });
    expect(await act(node, { action: "on" })).toMatchObject({ state: "succeeded" });
    const made: Record<string, string> = {};
    for (const command of ["powerState", "thermal", "power"]) {
      made[command] = (await api("POST", "/pollers", { type: "redfish", node, pollInterval: 3_600_000, config: { command } })).body.id;
    }
    expect(await runPollersNow(server.lambdaUrl)).toBe(200);
    const sampled = (id: string) => pollerSample(server.baseUrl, id, relay.log);
    expect(await sampled(made.powerState)).toMatchObject({ powerState: { powerState: "On" }, node, host: bmc.url });
    expect((await api("GET", `/nodes/${node}`)).body.power.state).toBe("on");
    expect((await sampled(made.thermal)).thermal).toEqual({
      temperatures: [
        { name: "CPU1 Temp", readingCelsius: 41, health: "OK" },
        { name: "Inlet Temp", readingCelsius: 21, health: "OK" },
      ],
      fans: [{ name: "BaseBoard System Fan", reading: 2100, units: "RPM", health: "OK" }],
    });
    expect((await sampled(made.power)).power).toEqual({
      powerControl: [{ name: "System Power Control", consumedWatts: 344, capacityWatts: 800 }],
    });
    expect((await api("GET", `/pollers/${made.thermal}`)).body).toMatchObject({ failureCount: 0 });
  });

  it("verifies the BMC's certificate by default, and says so when it cannot", async () => {
    const node = await redfishNode("52:54:00:4f:00:02", { uri: bmc.url, user: "root", password: "calvin" });
    const job = await act(node, { action: "status" });
    expect(job).toMatchObject({ state: "failed" });
    expect(job.result.error).toMatch(/^Redfish: .*(self[- ]signed|certificate)/i);
  });

  it("fails with the BMC's own words when it refuses the credentials", async () => {
    const node = await redfishNode("52:54:00:4f:00:03", { uri: bmc.url, user: "root", password: "wrong", ca: bmc.ca });
    const job = await act(node, { action: "status" });
    expect(job.state).toBe("failed");
    // In the BMC's own words, and tried once: BMCs lock an account after a few failed logins.
    expect(job.result.error).toContain("The user name or password is not valid.");
  });

  it("boots a node set to virtual media from the relay's image: built, served by the relay, inserted through Redfish, booted once (issue 53)", async () => {
    // The microkernel's files as the service keeps them (stand-ins: this tier boots nothing), and a
    // relay of its own site with a boot server, as virtual media needs.
    for (const name of [MICROKERNEL_FILES.kernel, MICROKERNEL_FILES.initrd])
      await publishFile({ api: server.baseUrl }, name, Buffer.from(`${name} `.repeat(4096)));
    const mediaSite = (await api("POST", "/sites", { name: "no-dhcp" })).body.id;
    const { token } = (await api("POST", `/sites/${mediaSite}/relays`, {})).body;
    const port = await freePort();
    const booting = startRelayProcess(server.baseUrl, token, [
      "--listen",
      `127.0.0.1:${port}`,
      "--public-url",
      `http://127.0.0.1:${port}`,
      "--busy-poll-ms",
      "200",
      "--idle-poll-ms",
      "500",
    ]);
    try {
      const node = (
        await api("POST", "/nodes", {
          name: "media-1",
          identifiers: ["52:54:00:4f:00:09"],
          virtualMedia: { address: "10.9.0.20/24", gateway: "10.9.0.1" },
          obmSettings: [{ service: "redfish-obm-service", config: { uri: bmc.url, user: "root", password: "calvin", ca: bmc.ca } }],
        })
      ).body;
      expect((await api("PUT", `/nodes/${node.id}/site`, { site: mediaSite })).status).toBe(200);
      const workflow = (await api("POST", `/nodes/${node.id}/workflows`, { name: "Graph.Refresh.Immediate.Discovery" })).body;
      let job: { state: string; action: { kind: string }; result?: { output: string; error?: string } } | undefined;
      for (const until = Date.now() + 60_000; !["succeeded", "failed"].includes(job?.state ?? "") && Date.now() < until; ) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        job = ((await api("GET", `/sites/${mediaSite}/jobs`)).body as (typeof job)[]).find((each) => each?.action.kind === "virtualMedia");
      }
      expect(job).toMatchObject({ state: "succeeded", action: { kind: "virtualMedia", action: "insert" } });
      const image = bmc.media().Image ?? "";
      expect(image).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/media/[0-9a-f]{32}\\.iso$`));
      // This BMC refuses a boot mode (rejectBootMode): the one-time boot is set without it, as for PXE.
      expect(job?.result?.output).toBe(
        `Inserted ${image} into /redfish/v1/Managers/BMC/VirtualMedia/CD1; Boot once from Cd (the BMC refused a boot mode: The property BootSourceOverrideMode is a read only property and cannot be assigned a value.)`,
      );
      // The image the BMC fetched is an ISO 9660 CD (its volume descriptor at 32 KiB), served by the relay alone.
      const bytes = Buffer.from(await (await fetch(image)).arrayBuffer());
      expect(bytes.subarray(32769, 32774).toString("latin1")).toBe("CD001");
      expect((await fetch(`http://127.0.0.1:${port}/media/${"f".repeat(32)}.iso`)).status).toBe(404);
      expect(booting.log()).toMatch(/media: built \d+ bytes for node/);
      expect((await api("DELETE", `/nodes/${node.id}/workflows/active`)).status).toBeLessThan(300);
      expect(workflow.instanceId).toBeDefined();
    } finally {
      booting.stop();
    }
  });
});
