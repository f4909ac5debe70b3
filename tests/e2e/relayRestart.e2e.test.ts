import { type IpmiSim, ipmiToolsMissing, startIpmiSim } from "../../lab/ipmiSim";
import { type OfflineServer, rackhdApi, startOffline } from "../support/offlineServer";
import { type RelayProcess, startRelayProcess } from "../support/relayProcess";

jest.setTimeout(180_000);
const PASSWORD = "Bmc-Pa55word";

/**
 * A relay killed in the middle of a job, then started again (both stores): the job it held goes
 * back to the site when its lease runs out (RELAY_LEASE_SECONDS=3 here), the restarted relay runs
 * it, and it completes once, with one result. The BMC (ipmi_sim) is slow on purpose, so the kill
 * lands while the relay waits for it.
 */
const missing = ipmiToolsMissing();
(missing.length === 0 ? describe : describe.skip)("a relay restarted in the middle of a job", () => {
  let server: OfflineServer;
  let bmc: IpmiSim;
  let relay: RelayProcess | undefined;
  let token: string;
  let site: string;
  const api = rackhdApi(() => server.baseUrl);
  const logs: string[] = [];
  const startRelay = () => {
    relay = startRelayProcess(server.baseUrl, token, ["--busy-poll-ms", "200", "--idle-poll-ms", "300"]);
    const started = relay;
    logs.push("");
    const at = logs.length - 1;
    started.child.on("exit", () => {
      logs[at] = started.log();
    });
  };
  const relayLog = () => [...logs.slice(0, -1), relay?.log() ?? ""].join("\n--- restarted ---\n");
  /** The job as the site's list shows it; none yet while the store answers "try again" (503, a loaded DynamoDB Local). */
  const jobOf = async (id: string) => {
    const answer = await api("GET", `/sites/${site}/jobs`);
    if (answer.status === 503) return undefined;
    // API Gateway's answer for a function that did not finish (serverless offline's, in worker-thread
    // mode, when an invocation passes its time-out under the whole run's load: seen once, 2026-11-26):
    // this test is about the relay's restart, and the list is asked again; the fuzz holds the no-5xx rule.
    if (answer.status === 500 && answer.raw === '{"message":"Internal server error"}') {
      process.stdout.write("relayRestart: a jobs poll was not answered in time (500 from the local gateway); asked again\n");
      return undefined;
    }
    if (answer.status !== 200) throw new Error(`GET /sites/${site}/jobs answered ${answer.status}: ${answer.raw}`);
    return answer.body.find((job: { id: string }) => job.id === id);
  };
  const until = async (id: string, done: (job: { state: string }) => boolean, withinMs: number) => {
    const end = Date.now() + withinMs;
    for (;;) {
      const job = await jobOf(id);
      if (job && done(job)) return job;
      if (Date.now() > end) throw new Error(`job ${id} is ${job?.state} after ${withinMs} ms; relay log:\n${relayLog()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  beforeAll(async () => {
    bmc = await startIpmiSim(PASSWORD, { env: { CHASSIS_DELAY: "1.5" } });
    server = await startOffline({ DEMO_NODES: "off", RELAY_LEASE_SECONDS: "3" });
    site = (await api("POST", "/sites", { name: "restart-lab" })).body.id;
    token = (await api("POST", `/sites/${site}/relays`, {})).body.token;
  });

  afterAll(async () => {
    relay?.stop("SIGKILL");
    await server?.stop();
    await bmc?.stop();
  });

  it("hands the killed relay's job to the restarted one, which completes it once", async () => {
    const node = (await api("POST", "/nodes", { name: "restart-1", identifiers: ["52:54:00:1e:00:01"] })).body.id;
    await api("POST", `/nodes/${node}/obm`, {
      service: "ipmi-obm-service",
      config: { host: "127.0.0.1", port: bmc.port, user: "admin", password: PASSWORD },
    });
    await api("PUT", `/nodes/${node}/site`, { site });
    startRelay();
    const job = (await api("POST", `/nodes/${node}/power`, { action: "on" })).body;
    await until(job.id, (current) => current.state === "leased", 15_000);
    await new Promise((resolve) => setTimeout(resolve, 300)); // it is now waiting for the slow BMC
    relay?.stop("SIGKILL");
    expect((await jobOf(job.id)).state).toBe("leased");

    startRelay();
    const done = await until(job.id, (current) => current.state === "succeeded" || current.state === "failed", 30_000);
    expect(done).toMatchObject({ state: "succeeded", attempts: 2, result: { ok: true, output: "Chassis Power Control: Up/On" } });
    expect(bmc.power()).toBe("1");
    // One result: the job's record holds one, and the site's audit one job.
    expect((await api("GET", `/sites/${site}/jobs`)).body.filter((candidate: { id: string }) => candidate.id === job.id)).toHaveLength(1);
  });
});
