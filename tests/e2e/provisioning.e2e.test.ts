import { simulateBoot } from "../../scripts/nodeSimulator";
import { http, type OfflineServer, startOffline } from "../support/offlineServer";

jest.setTimeout(120_000);
const JSON_TYPE = { "content-type": "application/json" };
const ROOT_PASSWORD = "Pl41n-R00t-Passw0rd";
const USER_PASSWORD = "Us3r-Passw0rd-Plain";
const IPMI_PASSWORD = "1pm1-Passw0rd-Plain";

/** Every raw response body of the run, searched for plaintext secrets at the end. */
const bodies: string[] = [];
const realFetch = globalThis.fetch;
globalThis.fetch = (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
  const response = await realFetch(input, init);
  bodies.push(await response.clone().text());
  return response;
}) as typeof fetch;

const installBody = (installOs: Record<string, unknown> = {}) =>
  JSON.stringify({
    name: "Graph.InstallCentOS",
    options: {
      defaults: { obmServiceName: "noop-obm-service" },
      "install-os": {
        version: "7.0",
        repo: "{{api.server}}/Centos/7.0",
        rootPassword: ROOT_PASSWORD,
        users: [{ name: "ops", password: USER_PASSWORD, uid: 1010 }],
        ...installOs,
      },
    },
  });

describe("provisioning service over HTTP (RackHD quick start with the node simulator)", () => {
  let server: OfflineServer;
  const call = (method: string, path: string, options?: Parameters<typeof http>[3]) => http(server.baseUrl, method, path, options);
  let nodeId: string;
  let mac: string;

  beforeAll(async () => {
    server = await startOffline({ DEMO_NODES: "on" });
  });
  afterAll(async () => {
    await server?.stop();
    globalThis.fetch = realFetch;
  });

  it("runs the quick start: list nodes, set the noop OBM, start Graph.InstallCentOS, boot the node, see it succeed", async () => {
    const nodes = await call("GET", "/api/1.1/nodes");
    expect(nodes.status).toBe(200);
    expect(nodes.body.length).toBeGreaterThanOrEqual(2);
    ({ id: nodeId, name: mac } = nodes.body[0]);

    // Before any workflow the node boots from disk.
    expect((await simulateBoot({ server: server.baseUrl, macs: [mac] })).outcome).toBe("no-workflow");

    expect(
      (await call("POST", `/api/1.1/nodes/${nodeId}/obm`, { headers: JSON_TYPE, body: '{"service":"noop-obm-service","config":{}}' }))
        .status,
    ).toBe(201);
    const started = await call("POST", `/api/1.1/nodes/${nodeId}/workflows`, { headers: JSON_TYPE, body: installBody() });
    expect(started.status).toBe(201);
    expect(started.body._status).toBe("running");

    const boot = await simulateBoot({ server: server.baseUrl, macs: [mac], completion: "none" });
    expect(boot.outcome).toBe("installed");
    expect(boot.installScriptUrl).toMatch(
      new RegExp(`^${server.baseUrl}/api/current/templates/centos-ks\\?nodeId=${nodeId}&token=[\\w-]{24}$`),
    );
    // A completion that does not carry the workflow's token (another machine behind the same NAT, say) is refused.
    const bare = await call("HEAD", "/api/current/templates/renasar-ansible.pub");
    expect(bare.status).toBe(403);
    expect((await call("POST", `/api/current/notification?nodeId=${nodeId}`, { headers: JSON_TYPE })).status).toBe(403);
    expect((await call("GET", `/api/1.1/workflows/${started.body.instanceId}`)).body._status).toBe("running");

    const done = await simulateBoot({ server: server.baseUrl, macs: [mac] });
    expect(done.outcome).toBe("installed");
    expect(boot.installScript).toMatch(/^rootpw --iscrypted \$6\$/m);
    expect(boot.installScript).toMatch(/^user --name=ops --password=\$6\$\S+ --iscrypted --uid=1010$/m);
    expect(done.completionRequests.map((r) => [r.method, r.status])).toEqual([
      ["HEAD", 200],
      ["POST", 201],
    ]);

    const workflow = await call("GET", `/api/1.1/workflows/${started.body.instanceId}`);
    expect(workflow.body._status).toBe("succeeded");
    expect(Object.values(workflow.body.tasks).map((t: any) => t.state)).toEqual(["succeeded", "succeeded", "succeeded"]);
    expect((await call("GET", `/api/common/nodes/${nodeId}/workflows/active`)).status).toBe(204);
    expect((await simulateBoot({ server: server.baseUrl, macs: [mac] })).outcome).toBe("no-workflow");
  });

  it.each([["uri"], ["notification"]] as const)("completes with the %s style alone", async (completion) => {
    expect((await call("POST", `/api/current/nodes/${nodeId}/workflows`, { headers: JSON_TYPE, body: installBody() })).status).toBe(201);
    const boot = await simulateBoot({ server: server.baseUrl, macs: [mac], completion });
    expect(boot.completionRequests).toHaveLength(1);
    const [latest] = (await call("GET", `/api/1.1/nodes/${nodeId}/workflows`)).body.slice(-1);
    expect(latest._status).toBe("succeeded");
  });

  it("discovers a machine it has never seen", async () => {
    const boot = await simulateBoot({ server: server.baseUrl, macs: ["52:54:00:E2:E2:01", "52:54:00:e2:e2:02"] });
    expect(boot.outcome).toBe("discovered");
    const found = await call("GET", "/api/1.1/nodes/52:54:00:e2:e2:02");
    expect(found.body).toMatchObject({ name: "52:54:00:e2:e2:01", identifiers: ["52:54:00:e2:e2:01", "52:54:00:e2:e2:02"] });
  });

  it("cancels an active workflow; the node then boots from disk", async () => {
    const started = await call("POST", `/api/1.1/nodes/${mac}/workflows`, { headers: JSON_TYPE, body: installBody() });
    expect(started.status).toBe(201);
    expect((await call("GET", `/api/1.1/nodes/${nodeId}/workflows/active`)).body.instanceId).toBe(started.body.instanceId);
    const cancelled = await call("DELETE", `/api/1.1/nodes/${nodeId}/workflows/active`);
    expect(cancelled).toMatchObject({ status: 200, body: { instanceId: started.body.instanceId, _status: "cancelled" } });
    expect((await call("DELETE", `/api/1.1/nodes/${nodeId}/workflows/active`)).status).toBe(404);
    expect((await simulateBoot({ server: server.baseUrl, macs: [mac] })).outcome).toBe("no-workflow");
  });

  it("times a workflow out by its _taskTimeout option, with no timer running", async () => {
    const started = await call("POST", `/api/1.1/nodes/${nodeId}/workflows`, {
      headers: JSON_TYPE,
      body: installBody({ _taskTimeout: 300 }),
    });
    expect(started.body._status).toBe("running");
    await new Promise((resolve) => setTimeout(resolve, 500));
    const read = await call("GET", `/api/1.1/workflows/${started.body.instanceId}`);
    expect(read.body._status).toBe("failed");
    expect(Object.values(read.body.tasks).map((t: any) => t.state)).toEqual(["succeeded", "succeeded", "timeout"]);
    expect((await simulateBoot({ server: server.baseUrl, macs: [mac] })).outcome).toBe("no-workflow");
  });

  it("answers every error of the contract with its status and RackHD message", async () => {
    const ipmiNode = await call("POST", "/api/1.1/nodes", {
      headers: JSON_TYPE,
      body: JSON.stringify({
        name: "ipmi",
        identifiers: ["00:1e:67:98:bc:7e"],
        obmSettings: [{ service: "ipmi-obm-service", config: { host: "10.0.0.9", user: "root", password: IPMI_PASSWORD } }],
      }),
    });
    expect(ipmiNode.status).toBe(201);
    const cases: [string, string, string | undefined, number, string | RegExp][] = [
      ["GET", "/api/1.1/nodes/fooey", undefined, 404, "Could not find node with identifier fooey"],
      ["POST", "/api/1.1/nodes", "{", 400, /^Error parsing JSON/],
      ["POST", "/api/1.1/nodes", '{"type":"compute"}', 400, /JSON Schema Violation/],
      ["POST", "/api/1.1/nodes", '{"name":"dup","identifiers":["00:1E:67:98:BC:7E"]}', 409, /already belongs/],
      ["POST", `/api/1.1/nodes/fooey/obm`, '{"service":"noop-obm-service"}', 404, "Could not find node with identifier fooey"],
      ["POST", `/api/1.1/nodes/${nodeId}/obm`, '{"service":"nope"}', 400, "Unknown OBM service nope"],
      ["POST", `/api/1.1/nodes/${nodeId}/workflows`, "{}", 400, "Graph name is missing or in wrong format"],
      ["POST", `/api/1.1/nodes/fooey/workflows`, '{"name":"Graph.InstallCentOS"}', 404, "Could not find node with identifier fooey"],
      ["POST", `/api/1.1/nodes/${nodeId}/workflows`, '{"name":"Graph.Nope"}', 404, "Graph definition not found for Graph.Nope"],
      ["POST", `/api/1.1/nodes/${nodeId}/workflows`, '{"name":"Graph.InstallCentOS"}', 400, "Value does not exist for options.version"],
      ["GET", "/api/1.1/workflows/library/Graph.Nope", undefined, 404, /Graph.Nope/],
      ["GET", "/api/1.1/obms/library/nope", undefined, 404, /nope/],
      ["GET", "/api/1.1/workflows/nope", undefined, 404, /nope/],
      ["GET", "/api/current/profiles?macs=fooey", undefined, 400, "Invalid MAC address: fooey"],
      ["GET", "/api/1.1/nope", undefined, 404, "Cannot GET /api/1.1/nope"],
      // Bounded: a 4,000-character identifier never reaches the store (DynamoDB keys hold 1 KB).
      ["GET", `/api/1.1/nodes/${"x".repeat(4000)}`, undefined, 404, /^Cannot GET \/api\/1\.1\/nodes\/x+$/],
      ["POST", "/api/1.1/nodes", JSON.stringify({ name: "long", identifiers: ["x".repeat(4000)] }), 400, /identifiers must be an array/],
    ];
    for (const [method, path, body, status, message] of cases) {
      const answer = await call(method, path, { headers: JSON_TYPE, body });
      expect({ method, path, status: answer.status }).toEqual({ method, path, status });
      expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
      expect(answer.body.message).toMatch(message);
    }
    // No Content-Type (a Buffer body makes fetch send none): 400, as behind API Gateway.
    expect(await call("POST", "/api/1.1/nodes", { body: Buffer.from('{"name":"untyped"}') })).toMatchObject({
      status: 400,
      body: { message: "Content-Type must be application/json" },
    });
    // An active workflow: a second start is 400, deleting the node 409.
    await call("POST", `/api/1.1/nodes/${nodeId}/workflows`, { headers: JSON_TYPE, body: installBody() });
    expect((await call("POST", `/api/1.1/nodes/${nodeId}/workflows`, { headers: JSON_TYPE, body: installBody() })).body.message).toBe(
      "Unable to run multiple task graphs against a single target.",
    );
    expect((await call("DELETE", `/api/1.1/nodes/${nodeId}`)).status).toBe(409);
    // An IPMI node that belongs to no site: no relay can drive its BMC, and its task says so.
    const reboot = await call("POST", `/api/1.1/nodes/${ipmiNode.body.id}/workflows?name=Graph.Reboot.Node`);
    expect(reboot.body._status).toBe("failed");
    expect((Object.values(reboot.body.tasks)[0] as any).error).toMatch(/belongs to no site: a relay of its site drives its BMC/);
  });

  it("never sends a plaintext password back, in any response of the run", async () => {
    expect(bodies.length).toBeGreaterThan(40);
    for (const secret of [ROOT_PASSWORD, USER_PASSWORD, IPMI_PASSWORD]) {
      expect(bodies.filter((body) => body.includes(secret))).toEqual([]);
    }
  });

  it("never writes a plaintext password to the log", () => {
    for (const secret of [ROOT_PASSWORD, USER_PASSWORD, IPMI_PASSWORD]) expect(server.output()).not.toContain(secret);
  });
});

describe("provisioning service over HTTP with PROVISIONING_AUTH=on", () => {
  let server: OfflineServer;
  beforeAll(async () => {
    server = await startOffline({ DEMO_NODES: "on", PROVISIONING_AUTH: "on", AUTH_USERS: "admin:pw", LOG_REQUESTS: "on" });
  });
  afterAll(() => server?.stop());

  it("asks for credentials on northbound routes only", async () => {
    const refused = await http(server.baseUrl, "GET", "/api/1.1/nodes");
    expect(refused).toMatchObject({ status: 401, body: { message: "Unauthorized access" } });
    expect(refused.headers.get("www-authenticate")).toBe('Basic realm="Authentication Required"');
    const allowed = await http(server.baseUrl, "GET", "/api/1.1/nodes", {
      headers: { authorization: `Basic ${Buffer.from("admin:pw").toString("base64")}` },
    });
    expect(allowed.status).toBe(200);
    expect((await simulateBoot({ server: server.baseUrl, macs: ["52:54:00:00:00:aa"] })).outcome).toBe("discovered");
    expect(server.output()).toContain('"route":"GET /api/{version}/profiles"');
    expect(server.output()).not.toContain("YWRtaW46cHc");
  });
});
