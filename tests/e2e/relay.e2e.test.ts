import { type IpmiSim, ipmiToolsMissing, startIpmiSim } from "../../lab/ipmiSim";
import { RELAY_VERSION } from "../../relay/version";
import { http, type OfflineServer, rackhdApi, startOffline } from "../support/offlineServer";
import { jobEnded, pollerSample, type RelayProcess, runPollersNow, startRelayProcess } from "../support/relayProcess";

jest.setTimeout(240_000);
const A = "/api/1.1";
const PASSWORD = "Bmc-Pa55word";

/**
 * A site's relay against the real service (both stores: the e2e-dynamodb tier runs this file too)
 * and a real IPMI BMC (OpenIPMI's ipmi_sim, driven by ipmitool): the relay built as a site gets it
 * (dist/relay.cjs), power and boot-device jobs, a workflow's OBM steps, a BMC that refuses the
 * password, and a revoked credential.
 */
const missing = ipmiToolsMissing();
if (missing.length > 0) process.stdout.write(`relay e2e: not run: missing ${missing.join(", ")} (apt-get install openipmi ipmitool)\n`);

(missing.length === 0 ? describe : describe.skip)("a site's relay driving a real IPMI BMC", () => {
  let server: OfflineServer;
  let bmc: IpmiSim;
  let relay: RelayProcess;
  let site: string;
  let credential: { id: string; token: string };
  const api = rackhdApi(() => server.baseUrl);

  /** A node of the site with an IPMI OBM setting on the BMC. */
  const ipmiNode = async (name: string, mac: string, password: string) => {
    const node = (await api("POST", "/nodes", { name, identifiers: [mac] })).body;
    const obm = { service: "ipmi-obm-service", config: { host: "127.0.0.1", port: bmc.port, user: "admin", password } };
    expect((await api("POST", `/nodes/${node.id}/obm`, obm)).status).toBe(201);
    expect((await api("PUT", `/nodes/${node.id}/site`, { site })).status).toBe(200);
    return node.id as string;
  };

  const ended = (jobId: string) => jobEnded(server.baseUrl, site, jobId, relay.log);

  beforeAll(async () => {
    bmc = await startIpmiSim(PASSWORD);
    server = await startOffline({ DEMO_NODES: "off" });
    site = (await api("POST", "/sites", { name: "lab-1" })).body.id;
    credential = (await api("POST", `/sites/${site}/relays`, { name: "relay-a" })).body;
    relay = startRelayProcess(server.baseUrl, credential.token, ["--busy-poll-ms", "200", "--idle-poll-ms", "500"]);
  });

  afterAll(async () => {
    relay?.stop();
    await server?.stop();
    await bmc?.stop();
  });

  it("keeps the token only in the answer that made it, and shows the relay online once it polls", async () => {
    expect(credential.token).toMatch(new RegExp(`^${credential.id}\\.[\\w-]{43}$`));
    const until = Date.now() + 15_000;
    let listed = (await api("GET", `/sites/${site}/relays`)).body;
    while (!listed[0]?.online && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      listed = (await api("GET", `/sites/${site}/relays`)).body;
    }
    expect(listed).toEqual([expect.objectContaining({ id: credential.id, name: "relay-a", online: true, relayVersion: RELAY_VERSION })]);
    expect(JSON.stringify(listed)).not.toContain(credential.token.split(".")[1]);
  });

  it("powers the machine on through the BMC, reads its power state back, and keeps it on the node", async () => {
    const node = await ipmiNode("ipmi-1", "52:54:00:1b:00:01", PASSWORD);
    const on = await api("POST", `/nodes/${node}/power`, { action: "on" });
    expect(on.status).toBe(202);
    expect(on.body).toMatchObject({ state: "queued", action: { kind: "power", action: "on" }, obm: { service: "ipmi-obm-service" } });
    expect(JSON.stringify(on.body)).not.toContain(PASSWORD);
    expect(await ended(on.body.id)).toMatchObject({ state: "succeeded", result: { ok: true, output: "Chassis Power Control: Up/On" } });
    expect(bmc.power()).toBe("1");

    const status = await api("POST", `/nodes/${node}/power`, { action: "status" });
    expect((await ended(status.body.id)).result.output).toBe("Chassis Power is on");
    expect((await api("GET", `/nodes/${node}`)).body.power).toEqual({ state: "on", readAt: expect.any(String) });

    const pxe = await api("POST", `/nodes/${node}/power`, { device: "pxe" });
    expect(await ended(pxe.body.id)).toMatchObject({ state: "succeeded", result: { output: "Set Boot Device to pxe" } });
    expect(bmc.calls()).toEqual(expect.arrayContaining(["set power 1", "set boot pxe"]));
    // The audit: who asked, and what the BMC said, for each.
    const audit = (await api("GET", `/sites/${site}/jobs`)).body;
    expect(audit.slice(0, 3).map((job: { requestedBy: string }) => job.requestedBy)).toEqual(
      Array(3).fill("anyone (PROVISIONING_AUTH off)"),
    );
    expect(relay.log()).not.toContain(PASSWORD);
  });

  it("runs a workflow's OBM steps through the relay: set-boot-pxe and reboot end with the BMC's answers, the install waits for the machine", async () => {
    const node = await ipmiNode("ipmi-2", "52:54:00:1b:00:02", PASSWORD);
    const started = await api("POST", `/nodes/${node}/workflows`, {
      name: "Graph.InstallCentOS",
      options: { "install-os": { version: "7", repo: "http://10.0.2.2:8080/centos/7", rootPassword: "Install-Pa55" } },
    });
    expect(started.status).toBe(201);
    const until = Date.now() + 30_000;
    let workflow = started.body;
    while (workflow.tasks && Date.now() < until) {
      workflow = (await api("GET", `/workflows/${started.body.instanceId}`)).body;
      const states = Object.values(workflow.tasks).map((task) => (task as { state: string }).state);
      if (!states.includes("pending") || workflow._status !== "running") break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const byLabel = Object.fromEntries(Object.values(workflow.tasks).map((task) => [(task as { label: string }).label, task]));
    expect(byLabel).toMatchObject({
      "set-boot-pxe": { state: "succeeded" },
      reboot: { state: "succeeded" },
      "install-os": { state: "running" },
    });
    expect(workflow._status).toBe("running");
    expect(bmc.calls().filter((call) => call === "set boot pxe").length).toBeGreaterThanOrEqual(2);
    expect((await api("DELETE", `/nodes/${node}/workflows/active`)).status).toBe(200);
  });

  it("runs a node's IPMI pollers through the relay: samples in RackHD's shapes, and the power state from the chassis poll", async () => {
    const node = await ipmiNode("ipmi-4", "52:54:00:1b:00:04", PASSWORD);
    const made: Record<string, string> = {};
    for (const command of ["chassis", "selInformation", "sel", "sdr"]) {
      made[command] = (await api("POST", "/pollers", { type: "ipmi", node, pollInterval: 3_600_000, config: { command } })).body.id;
    }
    expect(await runPollersNow(server.lambdaUrl)).toBe(200);
    const sampled = (id: string) => pollerSample(server.baseUrl, id, relay.log);
    const chassis = await sampled(made.chassis);
    expect(chassis).toMatchObject({ chassis: { power: expect.any(Boolean), uid: expect.any(String) }, node, host: "127.0.0.1" });
    expect((await api("GET", `/nodes/${node}`)).body.power.state).toBe(chassis.chassis.power ? "on" : "off");
    expect((await sampled(made.selInformation)).selInformation).toMatchObject({ Version: expect.any(String) });
    expect(Array.isArray((await sampled(made.sel)).sel)).toBe(true);
    expect(Array.isArray((await sampled(made.sdr)).sdr)).toBe(true);
    expect((await api("GET", `/pollers/${made.chassis}`)).body).toMatchObject({ failureCount: 0 });
  });

  it("fails the job with the BMC's own words when it refuses the password, within the deadline", async () => {
    const node = await ipmiNode("ipmi-3", "52:54:00:1b:00:03", "not-the-password");
    const job = await api("POST", `/nodes/${node}/power`, { action: "status" });
    const failed = await ended(job.body.id);
    expect(failed).toMatchObject({ state: "failed", result: { ok: false } });
    expect(failed.result.error).toMatch(/RMCP\+ session|password|Unauthorized|authentication/i);
  });

  it("refuses a revoked credential at once, and a relay credential is no operator's", async () => {
    const extra = (await api("POST", `/sites/${site}/relays`, {})).body;
    const lease = (token: string) =>
      http(server.baseUrl, "POST", `${A}/relay/jobs/lease`, {
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: "{}",
      });
    expect((await lease(extra.token)).status).toBe(200);
    expect((await api("DELETE", `/sites/${site}/relays/${extra.id}`)).status).toBe(200);
    expect((await lease(extra.token)).status).toBe(401);
    expect((await lease("nonsense")).status).toBe(401);
    expect((await lease(`${extra.id}.${"A".repeat(43)}`)).status).toBe(401);
  });
});
