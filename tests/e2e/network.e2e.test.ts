import { simulateBoot } from "../../scripts/nodeSimulator";
import { http, type OfflineServer, startOffline } from "../support/offlineServer";

jest.setTimeout(240_000);
const JSON_TYPE = { "content-type": "application/json" };

/**
 * Addresses by plan over real HTTP against `serverless offline` (issue 54; in both stores: the
 * e2e-dynamodb tier runs this file on DynamoDB Local, whose conditional writes are what keep an
 * address one node's): many plans at once from one pool, and a machine's plan through its life
 * (the install script carries its netplan; release frees the address; the next deploy gives it).
 */
describe("subnets and network plans over HTTP", () => {
  let server: OfflineServer;
  const call = (method: string, path: string, body?: unknown) =>
    http(server.baseUrl, method, `/api/1.1${path}`, {
      headers: body === undefined ? {} : JSON_TYPE,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  let subnet = "";

  beforeAll(async () => {
    server = await startOffline({ DEMO_NODES: "off" });
    const made = await call("POST", "/subnets", {
      name: "prod",
      cidr: "10.54.0.0/24",
      gateway: "10.54.0.1",
      nameservers: ["10.54.0.1"],
      ranges: [
        { kind: "boot", start: "10.54.0.100", end: "10.54.0.199" },
        { kind: "pool", start: "10.54.0.10", end: "10.54.0.49" },
      ],
    });
    expect(made.status).toBe(201);
    subnet = made.body.id;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("gives 16 plans sent at once 16 distinct addresses, the pool's lowest, none lost", async () => {
    const macs = Array.from({ length: 16 }, (_, n) => `52:54:00:54:e2:${(n + 16).toString(16)}`);
    const nodes = await Promise.all(
      macs.map(async (mac, n) => (await call("POST", "/nodes", { name: `rack-${n}`, identifiers: [mac] })).body.id as string),
    );
    const answers = await Promise.all(
      nodes.map((node, n) =>
        call("PUT", `/nodes/${node}/network`, { interfaces: [{ name: "eno1", type: "ethernet", mac: macs[n], subnet, address: "auto" }] }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(nodes.map(() => 200));
    const given = answers.map((answer) => answer.body.given[0].address as string);
    expect(new Set(given).size).toBe(16);
    const listed = (await call("GET", `/subnets/${subnet}/addresses?limit=100`)).body as { address: string; node: string }[];
    expect(listed.map((each) => each.address)).toEqual(Array.from({ length: 16 }, (_, n) => `10.54.0.${10 + n}`));
    expect(listed.map((each) => each.node).sort()).toEqual([...nodes].sort());
    for (const node of nodes) expect((await call("DELETE", `/nodes/${node}`)).status).toBe(200);
    expect((await call("GET", `/subnets/${subnet}/addresses`)).body).toEqual([]);
  });

  it("carries a machine's plan into its install, frees its address at release and gives it again at the next deploy", async () => {
    const mac = "52:54:00:54:e2:01";
    const boot = () => simulateBoot({ server: server.baseUrl, macs: [mac], pollMs: 100 });
    expect((await boot()).outcome).toBe("discovered");
    await call("POST", `/nodes/${mac}/obm`, { service: "noop-obm-service", config: {} });
    const plan = await call("PUT", `/nodes/${mac}/network`, {
      interfaces: [{ name: "eno1", type: "ethernet", mac, subnet, address: "auto" }],
    });
    expect(plan.body.given).toEqual([expect.objectContaining({ address: "10.54.0.10" })]);
    // The planned address is the MAC's lookup at once (until a boot's DHCP lease or the installed system's report says where it was seen).
    expect((await call("GET", "/lookups?q=10.54.0.10")).body).toEqual([expect.objectContaining({ macAddress: mac })]);
    const act = async (action: string, options?: unknown) => {
      const answer = await call("POST", `/nodes/${mac}/actions`, { action, ...(options !== undefined && { options }) });
      expect({ action, status: answer.status, body: answer.status === 202 ? "" : answer.body }).toEqual({ action, status: 202, body: "" });
    };
    await act("provide");
    await act("allocate", { owner: "e2e" });
    await act("deploy", {
      graph: "Graph.InstallImage",
      options: { "install-os": { image: "debian-12.raw.zst", waitForFirstBoot: false } },
    });
    const installed = await boot();
    expect(installed.outcome).toBe("installed");
    // The install writes the netplan into the installed system's cloud-init configuration.
    expect(installed.installScript).toContain('"network":{"version":2,"ethernets":{"eno1":{"match":{"macaddress":"52:54:00:54:e2:01"}');
    expect(installed.installScript).toContain('"addresses":["10.54.0.10/24"]');
    expect((await call("GET", `/nodes/${mac}`)).body.provisionState).toBe("deployed");

    await act("release", { erase: "quick" });
    await boot();
    expect((await call("GET", `/nodes/${mac}`)).body.provisionState).toBe("ready");
    expect((await call("GET", `/subnets/${subnet}/addresses`)).body).toEqual([]);
    expect((await call("GET", `/nodes/${mac}/network`)).body).toMatchObject({ given: [], interfaces: [{ name: "eno1" }] });
    await act("allocate", { owner: "e2e" });
    await act("deploy", {
      graph: "Graph.InstallImage",
      options: { "install-os": { image: "debian-12.raw.zst", waitForFirstBoot: false } },
    });
    expect((await call("GET", `/nodes/${mac}/network`)).body.given).toEqual([expect.objectContaining({ address: "10.54.0.10" })]);
  });
});
