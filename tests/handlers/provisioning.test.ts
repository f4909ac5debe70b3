import fc from "fast-check";
import { nodeIdForMac } from "../../lib/provisioning/ids";
import { api, freshContainer } from "../support/api";
import { basic } from "../support/apiGatewayEvent";

const A = "/api/1.1";
const JSON_TYPE = { "content-type": "application/json" };
const MAC = "08:00:27:27:eb:12";
const DEMO_ID = nodeIdForMac(MAC);

const get = (path: string, headers: Record<string, string> = {}) => api({ method: "GET", path, headers });
const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = JSON_TYPE) =>
  api({ method, path, headers, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) });

const CENTOS = {
  name: "Graph.InstallCentOS",
  options: {
    defaults: { obmServiceName: "noop-obm-service" },
    "install-os": { version: "7.0", repo: "{{api.server}}/Centos/7.0", rootPassword: "s3cr3t-root" },
  },
};

beforeEach(() => {
  for (const name of ["PROVISIONING_AUTH", "AUTH_USERS", "API_SERVER", "DEMO_NODES", "MEMORY_STORE_CAPACITY", "DISCOVERY_GRAPH"])
    delete process.env[name];
  process.env.DEMO_NODES = "on";
  freshContainer();
});

async function startInstall(options: { name: string; options: Record<string, unknown> } = CENTOS) {
  expect((await send("POST", `${A}/nodes/${DEMO_ID}/obm`, { service: "noop-obm-service", config: {} })).status).toBe(201);
  const started = await send("POST", `${A}/nodes/${DEMO_ID}/workflows`, options);
  expect(started.status).toBe(201);
  return started.body;
}

describe("nodes", () => {
  it("lists the demo nodes with stable ids derived from their MACs", async () => {
    const answer = await get(`${A}/nodes`);
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    expect(answer.body.map((n: any) => n.id)).toEqual([DEMO_ID, nodeIdForMac("08:00:27:9b:d4:01")]);
    expect(answer.body[0]).toMatchObject({
      name: MAC,
      identifiers: [MAC],
      type: "compute",
      obmSettings: [],
      autoDiscover: false,
      sku: null,
      relations: [],
      tags: [],
      workflows: [],
      catalogs: [],
    });
  });

  it("starts empty with DEMO_NODES=off", async () => {
    process.env.DEMO_NODES = "off";
    freshContainer();
    expect((await get(`${A}/nodes`)).body).toEqual([]);
  });

  it("filters by top-level fields and by identifiers in any MAC spelling", async () => {
    await send("POST", `${A}/nodes`, { name: "sw", type: "switch" });
    expect((await get(`${A}/nodes?type=switch`)).body.map((n: any) => n.name)).toEqual(["sw"]);
    expect((await get(`${A}/nodes?identifiers=08-00-27-27-EB-12`)).body.map((n: any) => n.id)).toEqual([DEMO_ID]);
    expect((await get(`${A}/nodes?type=compute&_=123`)).body).toHaveLength(2);
    expect((await get(`${A}/nodes?type=pdu`)).body).toEqual([]);
  });

  it("creates a node with 201, keeping extra keys and a client-supplied id", async () => {
    const answer = await send("POST", `${A}/nodes`, {
      id: "1234abcd1234abcd1234abcd",
      name: "test",
      identifiers: ["00:1E:67:98:BC:7E"],
      profile: "diskboot.ipxe",
      obmSettings: [{ service: "ipmi-obm-service", config: { host: "1.2.3.4", user: "u", password: "ipmi-pass" } }],
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      id: "1234abcd1234abcd1234abcd",
      name: "test",
      identifiers: ["00:1e:67:98:bc:7e"],
      profile: "diskboot.ipxe",
      type: "compute",
    });
    expect(answer.body.obmSettings[0].config).toEqual({ host: "1.2.3.4", user: "u", password: "REDACTED" });
    expect(answer.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(answer.raw).not.toContain("ipmi-pass");
  });

  it("gets, patches and deletes by id or by MAC", async () => {
    expect((await get(`${A}/nodes/${MAC}`)).body.id).toBe(DEMO_ID);
    expect((await get(`${A}/nodes/08-00-27-27-EB-12`)).body.id).toBe(DEMO_ID);
    const patched = await send("PATCH", `${A}/nodes/${DEMO_ID}`, {
      name: "renamed",
      status: "available",
      id: "ffffffffffffffffffffffff",
      createdAt: "x",
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: DEMO_ID, name: "renamed", status: "available", createdAt: "2015-11-30T21:37:18.441Z" });
    const deleted = await send("DELETE", `${A}/nodes/${MAC}`);
    expect(deleted).toMatchObject({ status: 200, body: { id: DEMO_ID, name: "renamed" } });
    expect(await get(`${A}/nodes/${MAC}`)).toMatchObject({ status: 404, body: { message: `Could not find node with identifier ${MAC}` } });
  });

  it("accepts a whole node echoed back by PATCH, keeping redacted secrets", async () => {
    await send("POST", `${A}/nodes/${DEMO_ID}/obm`, { service: "ipmi-obm-service", config: { host: "h", user: "u", password: "keep-me" } });
    const node = (await get(`${A}/nodes/${DEMO_ID}`)).body;
    const echoed = await send("PATCH", `${A}/nodes/${DEMO_ID}`, { ...node, terraform: true });
    expect(echoed.status).toBe(200);
    expect(echoed.body.terraform).toBe(true);
    // The stored secret survived the echo: an OBM change that needs it still sees the real value.
    const stores = await (await import("../../lib/store/compositionRoot")).provisioningStores();
    expect((await stores.nodes.get(DEMO_ID))!.obmSettings[0].config.password).toBe("keep-me");
  });

  it.each([
    ["no name", { type: "compute" }, 400],
    ["a bad type", { name: "n", type: "toaster" }, 400],
    ["a bad id", { name: "n", id: "zz" }, 400],
    ["a MAC another node has", { name: "n", identifiers: [MAC] }, 409],
    ["an id in use", { name: "n", id: DEMO_ID }, 409],
    [
      "an OBM service the type does not support",
      { name: "n", type: "switch", obmSettings: [{ service: "ipmi-obm-service", config: {} }] },
      400,
    ],
  ])("refuses a POST with %s", async (_label, body, status) => {
    const answer = await send("POST", `${A}/nodes`, body);
    expect(answer.status).toBe(status);
    expect(typeof answer.body.message).toBe("string");
    expect((await get(`${A}/nodes`)).body).toHaveLength(2);
  });

  it("answers 404 before looking at a PATCH body, then 400 and 409", async () => {
    expect((await send("PATCH", `${A}/nodes/fooey`, "{", JSON_TYPE)).status).toBe(404);
    expect(await send("PATCH", `${A}/nodes/${DEMO_ID}`, "{", JSON_TYPE)).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/^Error parsing JSON/) },
    });
    expect(await send("PATCH", `${A}/nodes/${DEMO_ID}`, { a: 1 }, { "content-type": "text/plain" })).toMatchObject({
      status: 400,
      body: { message: "Content-Type must be application/json" },
    });
    expect((await send("PATCH", `${A}/nodes/${DEMO_ID}`, { identifiers: ["08:00:27:9b:d4:01"] })).status).toBe(409);
  });

  it("refuses a node larger than one stored record may be with 413, as the DynamoDB store must", async () => {
    const big = "x".repeat(360 * 1024);
    expect(await send("POST", `${A}/nodes`, { name: "huge", notes: big })).toMatchObject({
      status: 413,
      body: { message: expect.stringMatching(/^The node would take \d+ bytes once stored/) },
    });
    expect((await send("PATCH", `${A}/nodes/${DEMO_ID}`, { notes: big })).status).toBe(413);
    expect((await get(`${A}/nodes/${DEMO_ID}`)).body).not.toHaveProperty("notes");
  });

  it("refuses to delete a node while a workflow is active (409), and allows it after", async () => {
    await startInstall();
    const refused = await send("DELETE", `${A}/nodes/${DEMO_ID}`);
    expect(refused).toMatchObject({ status: 409, body: { message: `Could not remove node ${DEMO_ID}, active workflow is running` } });
    await send("DELETE", `${A}/nodes/${DEMO_ID}/workflows/active`);
    expect((await send("DELETE", `${A}/nodes/${DEMO_ID}`)).status).toBe(200);
  });
});

describe("OBM", () => {
  it("serves the library and one entry, 404 for an unknown one", async () => {
    const library = await get(`${A}/obms/library`);
    const services = library.body.map((entry: any) => entry.service);
    expect(services).toEqual(
      expect.arrayContaining([
        "noop-obm-service",
        "ipmi-obm-service",
        "amt-obm-service",
        "apc-obm-service",
        "raritan-obm-service",
        "servertech-obm-service",
        "panduit-obm-service",
        "vbox-obm-service",
        "vmrun-obm-service",
        "snmp-obm-service",
        "redfish-obm-service",
      ]),
    );
    expect(new Set(services).size).toBe(services.length);
    expect((await get(`${A}/obms/library/ipmi-obm-service`)).body.config.host).toEqual({ default: "localhost", type: "string" });
    expect((await get(`${A}/obms/library/nope`)).status).toBe(404);
  });

  it("sets (upserts per service) and reads OBM settings with secrets redacted", async () => {
    expect((await get(`${A}/nodes/${DEMO_ID}/obm`)).body).toEqual([]);
    const set = await send("POST", `${A}/nodes/${DEMO_ID}/obm`, {
      service: "ipmi-obm-service",
      config: { host: "h", user: "u", password: "p1" },
    });
    expect(set.status).toBe(201);
    expect(set.body.obmSettings).toEqual([{ service: "ipmi-obm-service", config: { host: "h", user: "u", password: "REDACTED" } }]);
    await send("POST", `${A}/nodes/${DEMO_ID}/obm`, [
      { service: "ipmi-obm-service", config: { host: "h2", password: "p2" } },
      { service: "noop-obm-service", config: {} },
    ]);
    const read = await get(`${A}/nodes/${DEMO_ID}/obm`);
    expect(read.body).toEqual([
      { service: "ipmi-obm-service", config: { host: "h2", password: "REDACTED" } },
      { service: "noop-obm-service", config: {} },
    ]);
    expect(read.raw).not.toMatch(/p1|p2/);
  });

  it("checks the node (404), then the body and service (400)", async () => {
    expect(await send("POST", `${A}/nodes/fooey/obm`, "not json")).toMatchObject({
      status: 404,
      body: { message: "Could not find node with identifier fooey" },
    });
    expect((await send("POST", `${A}/nodes/${DEMO_ID}/obm`, "")).status).toBe(400);
    expect((await send("POST", `${A}/nodes/${DEMO_ID}/obm`, { config: {} })).status).toBe(400);
    expect(await send("POST", `${A}/nodes/${DEMO_ID}/obm`, { service: "warp-obm-service", config: {} })).toMatchObject({
      status: 400,
      body: { message: "Unknown OBM service warp-obm-service" },
    });
    const sw = (await send("POST", `${A}/nodes`, { name: "sw", type: "switch" })).body;
    expect(await send("POST", `${A}/nodes/${sw.id}/obm`, { service: "noop-obm-service", config: {} })).toMatchObject({
      status: 400,
      body: { message: "Service noop-obm-service is not supported in current node" },
    });
    expect((await get(`${A}/nodes/fooey/obm`)).status).toBe(404);
  });
});

describe("workflows", () => {
  it("serves the graph library in every form", async () => {
    const names = (await get(`${A}/workflows/library`)).body.map((g: any) => g.injectableName);
    for (const name of [
      "Graph.InstallCentOS",
      "Graph.InstallRHEL",
      "Graph.InstallUbuntu",
      "Graph.InstallCoreOS",
      "Graph.InstallEsx",
      "Graph.Reboot.Node",
      "Graph.PowerOn.Node",
      "Graph.PowerOff.Node",
      "Graph.noop-example",
    ]) {
      expect(names).toContain(name);
    }
    expect((await get(`${A}/workflows/library/*`)).body).toHaveLength(names.length);
    const centos = (await get(`${A}/workflows/library/Graph.InstallCentOS`)).body;
    expect(centos.tasks).toEqual([
      { label: "set-boot-pxe", taskName: "Task.Obm.Node.PxeBoot", ignoreFailure: true },
      { label: "reboot", taskName: "Task.Obm.Node.Reboot", waitOn: { "set-boot-pxe": "finished" } },
      { label: "install-os", taskName: "Task.Os.Install.CentOS", waitOn: { reboot: "succeeded" } },
    ]);
    expect((await get(`${A}/workflows/library/Graph.Nope`)).status).toBe(404);
  });

  it("serves the task library (RackHD era B/C: concrete tasks) at /workflows/tasks/library and /workflows/tasks, secrets redacted", async () => {
    const library = await get(`${A}/workflows/tasks/library`);
    expect(library.status).toBe(200);
    const names = library.body.map((task: { injectableName: string }) => task.injectableName);
    expect(names).toEqual(expect.arrayContaining(["Task.Obm.Node.PxeBoot", "Task.Obm.Node.Reboot", "Task.Os.Install.CentOS"]));
    const centos = library.body.find((task: { injectableName: string }) => task.injectableName === "Task.Os.Install.CentOS");
    expect(Object.keys(centos).sort()).toEqual(["friendlyName", "implementsTask", "injectableName", "options", "properties"]);
    expect(centos).toMatchObject({ implementsTask: "Task.Base.Os.Install", options: { rootPassword: "REDACTED" } });
    expect((await get(`${A}/workflows/tasks`)).body).toEqual(library.body);
    const page = await get(`${A}/workflows/tasks/library?limit=2`);
    expect(page.body).toEqual(library.body.slice(0, 2));
    expect(page.headers.link).toMatch(/rel="next"/);
  });

  it("starts Graph.InstallCentOS: 201 with RackHD's era-C record, noop steps already done, no password", async () => {
    const workflow = await startInstall();
    expect(workflow).toMatchObject({
      name: "Install CentOS",
      injectableName: "Graph.InstallCentOS",
      _status: "running",
      node: DEMO_ID,
      context: { target: DEMO_ID, graphId: workflow.instanceId },
      definition: { injectableName: "Graph.InstallCentOS" },
    });
    expect(workflow.instanceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(workflow.id).toMatch(/^[0-9a-f]{24}$/);
    const tasks = Object.values(workflow.tasks) as any[];
    expect(tasks.map((t) => [t.label, t.state])).toEqual([
      ["set-boot-pxe", "succeeded"],
      ["reboot", "succeeded"],
      ["install-os", "running"],
    ]);
    const install = tasks[2];
    expect(install.options.repo).toBe("https://abc123.execute-api.us-east-1.amazonaws.com/Centos/7.0");
    expect(install.options).not.toHaveProperty("kind");
    expect(install).not.toHaveProperty("kind");
    expect(JSON.stringify(workflow)).not.toContain("s3cr3t-root");
  });

  it("renders {{api.server}} from API_SERVER when set", async () => {
    process.env.API_SERVER = "http://172.31.128.1:8080";
    const workflow = await startInstall();
    const install = (Object.values(workflow.tasks) as any[]).find((t) => t.label === "install-os");
    expect(install.options.repo).toBe("http://172.31.128.1:8080/Centos/7.0");
  });

  it("takes ?name= with no body", async () => {
    await send("POST", `${A}/nodes/${DEMO_ID}/obm`, { service: "noop-obm-service", config: {} });
    const answer = await api({ method: "POST", path: `${A}/nodes/${DEMO_ID}/workflows?name=Graph.noop-example` });
    expect(answer).toMatchObject({ status: 201, body: { _status: "succeeded" } });
  });

  it.each([
    ["no name", `${A}/nodes/${DEMO_ID}/workflows`, { options: {} }, 400, "Graph name is missing or in wrong format"],
    ["a name that is not a string", `${A}/nodes/${DEMO_ID}/workflows`, { name: 5 }, 400, "Graph name is missing or in wrong format"],
    ["an unknown node", `${A}/nodes/fooey/workflows`, CENTOS, 404, "Could not find node with identifier fooey"],
    ["an unknown graph", `${A}/nodes/${DEMO_ID}/workflows`, { name: "Graph.Nope" }, 404, "Graph definition not found for Graph.Nope"],
    [
      "options that are not an object",
      `${A}/nodes/${DEMO_ID}/workflows`,
      { name: "Graph.InstallCentOS", options: [] },
      400,
      "options must be a JSON object",
    ],
    [
      "a missing template value",
      `${A}/nodes/${DEMO_ID}/workflows`,
      { name: "Graph.InstallCentOS" },
      400,
      "Value does not exist for options.version",
    ],
    [
      "an empty required option",
      `${A}/nodes/${DEMO_ID}/workflows`,
      { name: "Graph.InstallCentOS", options: { "install-os": { version: "7", profile: "" } } },
      400,
      "required option profile for task Task.Os.Install.CentOS in graph Graph.InstallCentOS",
    ],
  ])("refuses %s", async (_label, path, body, status, message) => {
    const answer = await send("POST", path, body);
    expect(answer).toMatchObject({ status, body: { message } });
    expect((await get(`${A}/workflows`)).body).toEqual([]);
  });

  it("refuses a second workflow on a node with an active one", async () => {
    await startInstall();
    expect(await send("POST", `${A}/nodes/${DEMO_ID}/workflows`, CENTOS)).toMatchObject({
      status: 400,
      body: { message: "Unable to run multiple task graphs against a single target." },
    });
    expect((await get(`${A}/workflows`)).body).toHaveLength(1);
  });

  it("reads workflows: all, active, by instanceId or id, per node, active per node", async () => {
    const workflow = await startInstall();
    expect((await get(`${A}/workflows`)).body).toHaveLength(1);
    expect((await get(`${A}/workflows?active=true`)).body).toHaveLength(1);
    expect((await get(`${A}/workflows?active=false`)).body).toHaveLength(0);
    expect((await get(`${A}/workflows/${workflow.instanceId}`)).body.instanceId).toBe(workflow.instanceId);
    expect((await get(`${A}/workflows/${workflow.id}`)).body.instanceId).toBe(workflow.instanceId);
    expect((await get(`${A}/workflows/nope`)).status).toBe(404);
    expect((await get(`${A}/nodes/${MAC}/workflows`)).body.map((w: any) => w.instanceId)).toEqual([workflow.instanceId]);
    expect((await get(`${A}/nodes/${DEMO_ID}/workflows/active`)).body.instanceId).toBe(workflow.instanceId);
    expect((await get(`${A}/nodes/fooey/workflows`)).status).toBe(404);
  });

  it("cancels the active workflow: 200 with it, then 204 on GET active and 404 on a second cancel", async () => {
    const workflow = await startInstall();
    const cancelled = await send("DELETE", `${A}/nodes/${DEMO_ID}/workflows/active`);
    expect(cancelled).toMatchObject({ status: 200, body: { instanceId: workflow.instanceId, _status: "cancelled" } });
    expect((Object.values(cancelled.body.tasks) as any[]).map((t) => t.state)).toEqual(["succeeded", "succeeded", "cancelled"]);
    expect(await get(`${A}/nodes/${DEMO_ID}/workflows/active`)).toMatchObject({ status: 204, raw: "" });
    expect(await send("DELETE", `${A}/nodes/${DEMO_ID}/workflows/active`)).toMatchObject({
      status: 404,
      body: { message: `No active workflow graph found for node ${DEMO_ID}` },
    });
  });

  it("times out without timers: a short _taskTimeout makes the graph fail when next read", async () => {
    const workflow = await startInstall({
      ...CENTOS,
      options: { ...CENTOS.options, "install-os": { ...CENTOS.options["install-os"], _taskTimeout: 30 } },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const read = await get(`${A}/workflows/${workflow.instanceId}`);
    expect(read.body._status).toBe("failed");
    expect((Object.values(read.body.tasks) as any[])[2]).toMatchObject({
      state: "timeout",
      reason: "never-booted",
      error: expect.stringMatching(/^Task timed out after 30 ms: the machine never booted from the network/),
    });
    expect(read.body.failure).toMatchObject({ reason: "never-booted", task: "install-os", timeline: `nodes/${DEMO_ID}/timeline` });
    expect((await get(`${A}/nodes/${DEMO_ID}/workflows/active`)).status).toBe(204);
  });

  it("fails the graph with a clear message when the node has no OBM setting", async () => {
    const answer = await send("POST", `${A}/nodes/${DEMO_ID}/workflows`, { name: "Graph.Reboot.Node" });
    expect(answer.body._status).toBe("failed");
    expect((Object.values(answer.body.tasks) as any[])[0].error).toBe("No OBM service assigned to this node.");
  });
});

describe("boot flow (southbound)", () => {
  const profiles = (query = "", sourceIp = "172.31.128.10") => api({ method: "GET", path: `/api/current/profiles${query}`, sourceIp });

  it("answers a MAC-collecting redirect without ?macs", async () => {
    const answer = await profiles();
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(answer.raw).toMatch(/^#!ipxe\n/);
    expect(answer.raw).toContain("chain --autofree https://abc123.execute-api.us-east-1.amazonaws.com/api/current/profiles?${query}");
  });

  it("discovers unknown MACs: node named after the first MAC, all MACs as identifiers, the microkernel's profile", async () => {
    const answer = await profiles("?macs=52:54:00:AA:BB:01&macs=52-54-00-aa-bb-02");
    const id = nodeIdForMac("52:54:00:aa:bb:01");
    expect(answer.raw).toContain("echo Starting the discovery microkernel for 52:54:00:aa:bb:01");
    expect(answer.raw).toMatch(
      /^kernel https:\/\/\S+\/common\/vmlinuz-3\.16\.0-25-generic initrd=initrd\.img-3\.16\.0-25-generic auto=true .*API_CB=\S+:443 .*NODE_ID=[0-9a-f]{24} BOOT_TOKEN=\S+ .*BOOTIF=01-52-54-00-aa-bb-01 /m,
    );
    expect(answer.raw).toMatch(/^initrd \S+\/common\/initrd\.img-3\.16\.0-25-generic \|\| goto failed$/m);
    const active = (await get(`${A}/nodes/${id}/workflows/active`)).body;
    expect(active).toMatchObject({ injectableName: "Graph.SKU.Discovery", _status: "running" });
    const states = Object.values(active.tasks).map((task: any) => [task.label, task.state]);
    expect(states.slice(0, 2)).toEqual([
      ["bootstrap-ubuntu", "running"],
      ["catalog-dmi", "pending"],
    ]);
    // A second boot of the machine gets the same profile from the same workflow.
    expect((await profiles("?macs=52:54:00:aa:bb:01")).raw).toContain("echo Starting the discovery microkernel");
    expect((await get(`${A}/nodes/${id}/workflows`)).body).toHaveLength(1);
  });

  it("with DISCOVERY_GRAPH=off only records unknown MACs and leaves the network boot", async () => {
    process.env.DISCOVERY_GRAPH = "off";
    freshContainer();
    const answer = await profiles("?macs=52:54:00:AA:BB:01&macs=52-54-00-aa-bb-02");
    expect(answer.raw).toMatch(/echo No workflow is active for this node\necho Leaving the network boot.*\nexit\n$/);
    const node = (await get(`${A}/nodes/52:54:00:aa:bb:02`)).body;
    expect(node).toMatchObject({
      id: nodeIdForMac("52:54:00:aa:bb:01"),
      name: "52:54:00:aa:bb:01",
      identifiers: ["52:54:00:aa:bb:01", "52:54:00:aa:bb:02"],
      type: "compute",
    });
    expect((await profiles("?macs=52:54:00:aa:bb:01,52:54:00:aa:bb:02")).raw).toContain("echo Unable to locate active workflow.");
  });

  it("refuses a ?macs value that is not a MAC", async () => {
    expect(await profiles("?macs=fooey")).toMatchObject({ status: 400, body: { message: "Invalid MAC address: fooey" } });
  });

  /** The boot token the profile renders into the kickstart URL. */
  const tokenIn = (script: string): string => /centos-ks\?nodeId=[0-9a-f]{24}&token=([\w-]+)/.exec(script)![1];
  const template = (query: string, name = "centos-ks", method = "GET") =>
    api({ method, path: `/api/common/templates/${name}${query}`, sourceIp: "172.31.128.77" });
  const workflowStatus = async () => (await get(`${A}/nodes/${DEMO_ID}/workflows`)).body[0]._status;

  it("serves the install profile with a per-workflow token, the kickstart for that token only, and completes by HEAD of the completionUri", async () => {
    await startInstall();
    const profile = await profiles(`?macs=${MAC}`, "172.31.128.77");
    expect(profile.raw).toContain("kernel ${base-url}/vmlinuz repo=https://abc123.execute-api.us-east-1.amazonaws.com/Centos/7.0");
    expect(profile.raw).toContain(
      `ks=https://abc123.execute-api.us-east-1.amazonaws.com/api/current/templates/centos-ks?nodeId=${DEMO_ID}&token=`,
    );
    expect(profile.raw).toContain("BOOTIF=01-08-00-27-27-eb-12");
    const token = tokenIn(profile.raw);
    expect(token).toMatch(/^[\w-]{24}$/);

    const ks = await template(`?nodeId=${DEMO_ID}&token=${token}`);
    expect(ks.status).toBe(200);
    expect(ks.raw).toMatch(/^rootpw --iscrypted \$6\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{86}$/m);
    expect(ks.raw).not.toContain("s3cr3t-root");
    expect(ks.raw).toContain(`renasar-ansible.pub?nodeId=${DEMO_ID}&token=${token}'`);
    expect(ks.raw).toContain(`/notification?nodeId=${DEMO_ID}&token=${token}'`);
    // Without the token, or naming the node only by MAC or source address: refused, nothing changed.
    for (const query of [`?nodeId=${DEMO_ID}`, `?nodeId=${DEMO_ID}&token=wrong`, `?macs=${MAC}`, ""]) {
      expect(await template(query)).toMatchObject({ status: 403, body: { message: expect.stringMatching(/token/) } });
    }
    expect((await template("", "renasar-ansible.pub", "HEAD")).status).toBe(403);
    expect(await workflowStatus()).toBe("running");

    const head = await template(`?nodeId=${DEMO_ID}&token=${token}`, "renasar-ansible.pub", "HEAD");
    expect(head).toMatchObject({ status: 200, raw: "" });
    expect(await workflowStatus()).toBe("succeeded");
    expect((await profiles(`?macs=${MAC}`)).raw).toContain("echo Unable to locate active workflow.");
  });

  it("with BOOT_TOKENS=off, finds the node by nodeId, MAC or source IP as RackHD did, and completes without a token", async () => {
    process.env.BOOT_TOKENS = "off";
    try {
      await startInstall();
      await profiles(`?macs=${MAC}`, "172.31.128.77");
      for (const query of [`?nodeId=${DEMO_ID}`, `?macs=${MAC}`, ""]) expect((await template(query)).status).toBe(200);
      expect((await template("", "renasar-ansible.pub", "HEAD")).status).toBe(200);
      expect(await workflowStatus()).toBe("succeeded");
    } finally {
      delete process.env.BOOT_TOKENS;
    }
  });

  it("completes by POST /notification?nodeId=&token= (201, the message echoed), and refuses it without the token", async () => {
    await startInstall();
    const token = tokenIn((await profiles(`?macs=${MAC}`)).raw);
    const notify = (query: string) => api({ method: "POST", path: `/api/current/notification${query}`, headers: JSON_TYPE });
    expect((await notify(`?nodeId=${DEMO_ID}`)).status).toBe(403);
    expect((await notify(`?nodeId=${DEMO_ID}&token=${token.slice(1)}x`)).status).toBe(403);
    expect(await workflowStatus()).toBe("running");
    const answer = await notify(`?nodeId=${DEMO_ID}&token=${token}`);
    expect(answer).toMatchObject({ status: 201, body: { nodeId: DEMO_ID, token } });
    expect(await workflowStatus()).toBe("succeeded");
  });

  it("checks notifications: bad nodeId 400, unknown 404, none is a broadcast", async () => {
    expect(await send("POST", "/api/current/notification", { nodeId: 5 })).toMatchObject({
      status: 400,
      body: { message: "Invalid node ID in query or body" },
    });
    expect((await send("POST", "/api/current/notification?nodeId=fooey", undefined)).status).toBe(404);
    expect(await send("POST", "/api/current/notification", { event: "hello" })).toMatchObject({ status: 201, body: { event: "hello" } });
  });

  it("answers 404 for templates with no waiting task or an unknown name", async () => {
    expect((await get(`/api/current/templates/centos-ks?nodeId=${DEMO_ID}&token=x`)).status).toBe(404);
    expect((await get(`/api/current/templates/nope?nodeId=${DEMO_ID}`)).status).toBe(404);
    expect((await get(`/api/current/templates/centos-ks?nodeId=fooey&token=x`)).status).toBe(404);
  });
});

describe("aliases, auth, unknown routes", () => {
  it("serves the same routes under /api/current and /api/common, and 404 JSON under other versions", async () => {
    for (const version of ["1.1", "current", "common"]) expect((await get(`/api/${version}/nodes`)).body).toHaveLength(2);
    expect(await get("/api/2.0/nodes")).toMatchObject({ status: 404, body: { message: "Cannot GET /api/2.0/nodes" } });
    expect(await get("/api/1.1/xyz")).toMatchObject({ status: 404, body: { message: "Cannot GET /api/1.1/xyz" } });
    expect(await send("PUT", `${A}/nodes`, {})).toMatchObject({ status: 405, headers: { allow: "GET, POST, OPTIONS" } });
  });

  it("puts northbound routes behind Basic auth with PROVISIONING_AUTH=on, never southbound ones", async () => {
    process.env.PROVISIONING_AUTH = "on";
    process.env.AUTH_USERS = "admin:pw";
    const refused = await get(`${A}/nodes`);
    expect(refused).toMatchObject({ status: 401, body: { message: "Unauthorized access" } });
    expect(refused.headers["www-authenticate"]).toBe('Basic realm="Authentication Required"');
    expect((await get(`${A}/nodes/fooey`)).status).toBe(401);
    expect((await get(`${A}/nodes`, { authorization: basic("admin", "pw") })).status).toBe(200);
    expect((await get("/api/current/profiles")).status).toBe(200);
    expect((await send("POST", "/api/current/notification", { event: "x" })).status).toBe(201);
  });
});

describe("properties", () => {
  const paths = fc.oneof(
    fc.constantFrom(
      `${A}/nodes`,
      `${A}/nodes/${DEMO_ID}`,
      `${A}/nodes/${MAC}`,
      `${A}/nodes/${DEMO_ID}/obm`,
      `${A}/nodes/${DEMO_ID}/workflows`,
      `${A}/nodes/${DEMO_ID}/workflows/active`,
      `${A}/workflows`,
      `${A}/workflows/library/*`,
      `${A}/obms/library`,
      "/api/current/profiles",
      "/api/current/notification",
      "/api/current/templates/centos-ks",
    ),
    fc.string().map((s) => `${A}/nodes/${encodeURIComponent(s)}`),
  );
  const queries = fc.oneof(
    fc.constant(""),
    fc.string().map((s) => `?${s}`),
    fc.string().map((s) => `?macs=${encodeURIComponent(s)}`),
    fc.constant("?name=Graph.InstallCentOS"),
  );
  const bodies = fc.oneof(
    fc.constant(undefined),
    fc.string(),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc
      .record({ name: fc.oneof(fc.constantFrom("Graph.InstallCentOS", "Graph.Reboot.Node"), fc.jsonValue()), options: fc.jsonValue() })
      .map((v) => JSON.stringify(v)),
    fc.record({ service: fc.oneof(fc.constant("noop-obm-service"), fc.string()), config: fc.jsonValue() }).map((v) => JSON.stringify(v)),
    fc.dictionary(fc.string(), fc.jsonValue()).map((v) => JSON.stringify(v)),
  );
  const methods = fc.constantFrom("GET", "POST", "PATCH", "DELETE", "PUT", "HEAD", "OPTIONS");

  it("no body or query yields a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        methods,
        paths,
        queries,
        bodies,
        fc.constantFrom("application/json", "text/plain"),
        async (method, path, query, body, type) => {
          const answer = await api({ method, path: path + query, headers: { "content-type": type }, body });
          expect(answer.status).toBeLessThan(500);
        },
      ),
      { numRuns: 400 },
    );
  });
});
