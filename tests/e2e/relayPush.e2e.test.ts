import { createServer, type Server, Socket } from "node:net";
import { type IpmiSim, ipmiToolsMissing, startIpmiSim } from "../../lab/ipmiSim";
import { freePort, type OfflineServer, rackhdApi, startOffline } from "../support/offlineServer";
import { jobEnded, type RelayProcess, startRelayProcess } from "../support/relayProcess";

jest.setTimeout(240_000);
const PASSWORD = "Bmc-Pa55word";

/**
 * The relays' push (issue 56) end to end: the built relay, serverless offline's real WebSocket API
 * (its `$connect`, `$disconnect` and `ping` functions, its `@connections` API that the service posts
 * to) and a real IPMI BMC, in both stores (the e2e-dynamodb tier runs this file too). The relay
 * polls every minute here, so a job taken in seconds was heard of by push. Between the relay and
 * the WebSocket API a TCP pass-through, which the test cuts to drop the connection as a network would.
 */
const missing = ipmiToolsMissing();
if (missing.length > 0)
  process.stdout.write(`relay push e2e: not run: missing ${missing.join(", ")} (apt-get install openipmi ipmitool)\n`);

/** A TCP pass-through to `port`: `cut()` ends every connection through it and refuses new ones until `mend()`. */
async function passThrough(port: number): Promise<{ port: number; cut: () => void; mend: () => void; close: () => Promise<void> }> {
  const open = new Set<Socket>();
  let refusing = false;
  const server: Server = createServer((client) => {
    if (refusing) return client.destroy();
    const upstream = new Socket();
    upstream.connect(port, "127.0.0.1");
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on("close", () => open.delete(socket));
      socket.on("error", () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  const listen = await freePort();
  await new Promise<void>((resolve) => server.listen(listen, "127.0.0.1", resolve));
  return {
    port: listen,
    cut: () => {
      refusing = true;
      for (const socket of open) socket.destroy();
    },
    mend: () => {
      refusing = false;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

(missing.length === 0 ? describe : describe.skip)("a relay that hears of its jobs at once (issue 56)", () => {
  let server: OfflineServer;
  let bmc: IpmiSim;
  let relay: RelayProcess | undefined;
  let link: Awaited<ReturnType<typeof passThrough>>;
  let site: string;
  let node: string;
  const api = rackhdApi(() => server.baseUrl);

  beforeAll(async () => {
    bmc = await startIpmiSim(PASSWORD);
    const webSocketPort = await freePort();
    link = await passThrough(webSocketPort);
    server = await startOffline({
      DEMO_NODES: "off",
      WEBSOCKET_PORT: String(webSocketPort),
      RELAY_PUSH_URL: `ws://127.0.0.1:${link.port}`,
    });
    site = (await api("POST", "/sites", { name: "push-lab" })).body.id;
    node = (await api("POST", "/nodes", { name: "push-1", identifiers: ["52:54:00:56:00:11"] })).body.id;
    const obm = { service: "ipmi-obm-service", config: { host: "127.0.0.1", port: bmc.port, user: "admin", password: PASSWORD } };
    expect((await api("POST", `/nodes/${node}/obm`, obm)).status).toBe(201);
    expect((await api("PUT", `/nodes/${node}/site`, { site })).status).toBe(200);
  });

  afterEach(() => relay?.stop());

  afterAll(async () => {
    await server?.stop();
    await link?.close();
    await bmc?.stop();
  });

  const startRelay = async (args: string[]) => {
    const credential = (await api("POST", `/sites/${site}/relays`, {})).body;
    relay = startRelayProcess(server.baseUrl, credential.token, args);
    return credential as { id: string; token: string };
  };
  const power = async (action: string) => (await api("POST", `/nodes/${node}/power`, { action })).body.id as string;
  const ended = (jobId: string, withinMs = 20_000) => jobEnded(server.baseUrl, site, jobId, relay!.log, withinMs);

  it("takes a job in seconds while it polls once a minute, and shows the relay online by its connection", async () => {
    const credential = await startRelay(["--busy-poll-ms", "60000", "--idle-poll-ms", "60000"]);
    await relay!.waitFor("push: connected", 30_000);
    const job = await ended(await power("status"));
    expect(job).toMatchObject({ state: "succeeded", attempts: 1 });
    const [listed] = (await api("GET", `/sites/${site}/relays`)).body.filter((each: { id: string }) => each.id === credential.id);
    expect(listed).toMatchObject({ online: true, pushedAt: expect.any(String) });
  });

  it("polls as before with --no-push, and holds no connection", async () => {
    await startRelay(["--no-push", "--busy-poll-ms", "500", "--idle-poll-ms", "1000"]);
    const job = await ended(await power("status"));
    expect(job).toMatchObject({ state: "succeeded", attempts: 1 });
    expect(relay!.log()).not.toContain("push: connected");
  });

  it("gets every job when its connection drops (by poll, then by push again) and leases none twice", async () => {
    await startRelay(["--busy-poll-ms", "500", "--idle-poll-ms", "1000"]);
    await relay!.waitFor("push: connected", 30_000);
    const before = await power("status");
    link.cut();
    await relay!.waitFor("push: connection closed", 15_000);
    // Made while the relay has no connection (the service's push to it fails, or finds it gone): taken by poll.
    const during = [await power("status"), await power("on")];
    for (const id of during) expect(await ended(id)).toMatchObject({ state: "succeeded" });
    link.mend();
    const connections = () => relay!.log().split("push: connected").length - 1;
    const until = Date.now() + 90_000;
    while (connections() < 2 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(connections()).toBe(2);
    const after = [await power("status"), await power("off")];
    const jobs = await Promise.all([before, ...during, ...after].map((id) => ended(id)));
    for (const job of jobs) expect(job).toMatchObject({ state: "succeeded", attempts: 1 });
  });
});
