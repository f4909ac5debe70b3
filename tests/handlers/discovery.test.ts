import { nodeIdForMac } from "../../lib/provisioning/ids";
import { sampleMachine } from "../../scripts/microkernel";
import { api, freshContainer, get, send } from "../support/api";
import { discoverMachine, tasksPathFor } from "../support/microkernelInProcess";
import { stdoutLines } from "../support/stdoutLines";

const A = "/api/1.1";
const MAC = "52:54:00:aa:00:01";
const NODE = nodeIdForMac(MAC);

const VIRTUALBOX = { path: "dmi.System Information.Product Name", equals: "VirtualBox" };

beforeEach(() => {
  for (const name of ["PROVISIONING_AUTH", "AUTH_USERS", "API_SERVER", "DISCOVERY_GRAPH", "BOOT_TOKENS"]) delete process.env[name];
  process.env.DEMO_NODES = "off";
  freshContainer();
});

/** The dmi catalog task's commands: RackHD's dmidecode, and whether Secure Boot is on (issue 38). */
const DMI_COMMANDS = [{ cmd: "sudo dmidecode" }, { cmd: "sudo mokutil --sb-state" }];

describe("discovery: the microkernel protocol", () => {
  it("runs Graph.SKU.Discovery to the end: commands handed out, results become catalogs, the reboot ends it", async () => {
    await discoverMachine(MAC);
    const [workflow] = (await get(`${A}/nodes/${NODE}/workflows`)).body;
    expect(workflow).toMatchObject({ injectableName: "Graph.SKU.Discovery", _status: "succeeded" });
    expect(Object.values(workflow.tasks).every((task: any) => task.state === "succeeded")).toBe(true);
    const sources = (await get(`${A}/nodes/${NODE}/catalogs`)).body.map((catalog: { source: string }) => catalog.source);
    expect(sources).toEqual(["dmi", "secure-boot", "ohai", "lspci", "lshw", "lsscsi"]);
    // The sample machine is a BIOS one: no Secure Boot, on the node too (issue 38).
    expect((await get(`${A}/nodes/${NODE}`)).body).toMatchObject({ sku: null, tags: [], secureBoot: { state: "unsupported" } });
    expect((await get(`${A}/tasks/${NODE}`)).status).toBe(204);
  });

  it("serves bootstrap.js for a known MAC and RackHD's 404 for another; 400 for a value that is not a MAC", async () => {
    await api({ method: "GET", path: `${A}/profiles?macs=${MAC}`, headers: {} });
    const script = await get(`${A}/tasks/bootstrap.js?macAddress=${MAC.toUpperCase()}`);
    expect(script.status).toBe(200);
    expect(script.headers["content-type"]).toMatch(/^application\/javascript/);
    expect(script.raw).toContain(`/api/current/tasks/${NODE}?token=`);
    expect(await get(`${A}/tasks/bootstrap.js?macAddress=52:54:00:aa:00:99`)).toMatchObject({ status: 404, body: { error: "Not Found" } });
    expect((await get(`${A}/tasks/bootstrap.js?macAddress=nope`)).status).toBe(400);
  });

  it("hands the first catalog task's commands to the microkernel, again until its results arrive, and only with the boot token", async () => {
    await api({ method: "GET", path: `${A}/profiles?macs=${MAC}`, headers: {} });
    const path = await tasksPathFor(MAC);
    expect((await get(`${A}/tasks/${NODE}`)).status).toBe(403);
    const first = await get(path);
    expect(first).toMatchObject({ status: 200, body: { identifier: NODE, tasks: DMI_COMMANDS } });
    expect((await get(path)).body).toEqual(first.body);
    const active = (await get(`${A}/nodes/${NODE}/workflows/active`)).body;
    const states = Object.fromEntries(Object.values(active.tasks).map((task: any) => [task.label, task.state]));
    expect(states).toMatchObject({ "bootstrap-ubuntu": "succeeded", "catalog-dmi": "running", "catalog-ohai": "pending" });
  });

  it("ignores results for commands it did not hand out (201, as RackHD, nothing stored)", async () => {
    await api({ method: "GET", path: `${A}/profiles?macs=${MAC}`, headers: {} });
    const path = await tasksPathFor(MAC);
    await get(path);
    const stray = { identifier: NODE, tasks: [{ cmd: "sudo lshw -json", stdout: "{}" }] };
    expect((await send("POST", path, stray)).status).toBe(201);
    expect((await send("POST", `${A}/tasks/0123456789abcdef01234567`, stray)).status).toBe(201);
    expect((await get(`${A}/nodes/${NODE}/catalogs`)).body).toEqual([]);
    expect((await get(path)).body.tasks).toEqual(DMI_COMMANDS);
  });

  it.each([{}, { tasks: [{ stdout: "x" }] }, [], "text", null, { tasks: "dmidecode" }])(
    "answers 201 to a results body it cannot use (%j), as RackHD did, and changes nothing",
    async (body) => {
      await api({ method: "GET", path: `${A}/profiles?macs=${MAC}`, headers: {} });
      const path = await tasksPathFor(MAC);
      await get(path);
      expect((await send("POST", path, body)).status).toBe(201);
      expect((await get(`${A}/nodes/${NODE}/catalogs`)).body).toEqual([]);
      expect((await get(path)).body.tasks).toEqual(DMI_COMMANDS);
    },
  );

  it("answers 404 for the commands of an unknown node", async () => {
    expect((await get(`${A}/tasks/0123456789abcdef01234567`)).body).toEqual({
      message: "Could not find node with identifier 0123456789abcdef01234567",
    });
  });
});

describe("catalogs", () => {
  it("lists, filters, finds by id and by source (the latest), with RackHD's texts for what is not there", async () => {
    await discoverMachine(MAC);
    const all = (await get(`${A}/catalogs`)).body;
    expect(all).toHaveLength(6);
    expect(Object.keys(all[0]).sort()).toEqual(["createdAt", "data", "id", "node", "source", "updatedAt"]);
    const dmi = (await get(`${A}/catalogs?source=dmi`)).body;
    expect(dmi).toHaveLength(1);
    expect(dmi[0].data["System Information"]).toMatchObject({ Manufacturer: "innotek GmbH", "Product Name": "VirtualBox" });
    expect(dmi[0].data["BIOS Information"].Characteristics).toContain("PCI is supported");
    expect((await get(`${A}/catalogs/${dmi[0].id}`)).body).toEqual(dmi[0]);
    expect((await get(`${A}/nodes/${MAC}/catalogs/dmi`)).body).toEqual(dmi[0]);
    expect((await get(`${A}/catalogs?node=${NODE}&source=ohai`)).body[0].data.dmi.system.product_name).toBe("VirtualBox");
    expect(await get(`${A}/catalogs/0123456789abcdef01234567`)).toMatchObject({
      status: 404,
      body: { message: "Could not find catalog with identifier 0123456789abcdef01234567" },
    });
    expect(await get(`${A}/nodes/${NODE}/catalogs/bmc`)).toMatchObject({
      status: 404,
      body: { message: "No Catalogs Found for Source (bmc)." },
    });
    expect((await get(`${A}/nodes/0123456789abcdef01234567/catalogs`)).status).toBe(404);
  });

  it("answers the newest catalog of a source after a second discovery, and keeps every version", async () => {
    await discoverMachine(MAC);
    const first = (await get(`${A}/nodes/${NODE}/catalogs/dmi`)).body;
    const changed = sampleMachine(MAC);
    const start = await send("POST", `${A}/nodes/${NODE}/workflows`, { name: "Graph.Discovery" });
    expect(start.status).toBe(201);
    await api({ method: "GET", path: `${A}/profiles?macs=${MAC}`, headers: {} });
    const { runMicrokernel } = await import("../support/microkernelInProcess");
    await runMicrokernel(MAC, (cmd) =>
      cmd === "sudo dmidecode" ? { ...changed(cmd), stdout: changed(cmd).stdout.replace("Version: 1.2", "Version: 2.0") } : changed(cmd),
    );
    const latest = (await get(`${A}/nodes/${NODE}/catalogs/dmi`)).body;
    expect(latest.id > first.id).toBe(true);
    expect(latest.data["System Information"].Version).toBe("2.0");
    expect((await get(`${A}/nodes/${NODE}/catalogs`)).body.filter((c: { source: string }) => c.source === "dmi")).toHaveLength(2);
  });

  it("go with their node", async () => {
    await discoverMachine(MAC);
    expect((await api({ method: "DELETE", path: `${A}/nodes/${NODE}`, headers: {} })).status).toBe(200);
    expect((await get(`${A}/catalogs`)).body).toEqual([]);
  });
});

describe("SKUs", () => {
  it("matches a discovered node by rules on its catalogs and runs the SKU's discovery graph on it", async () => {
    const sku = await send("POST", `${A}/skus`, { name: "vbox", rules: [VIRTUALBOX], discoveryGraphName: "Graph.noop-example" });
    expect(sku.status).toBe(200);
    expect(sku.body).toMatchObject({ name: "vbox", rules: [VIRTUALBOX], discoveryGraphName: "Graph.noop-example" });
    await discoverMachine(MAC);
    expect((await get(`${A}/nodes/${NODE}`)).body.sku).toBe(sku.body.id);
    expect((await get(`${A}/skus/${sku.body.id}/nodes`)).body.map((n: { id: string }) => n.id)).toEqual([NODE]);
    // A page of them, read alone (issue 28); a SKU that does not exist is still a 404 first.
    const page = await get(`${A}/skus/${sku.body.id}/nodes?limit=1`);
    expect(page.body.map((n: { id: string }) => n.id)).toEqual([NODE]);
    expect(page.headers.link).toBeUndefined();
    expect((await get(`${A}/skus/${"0".repeat(24)}/nodes?limit=1`)).status).toBe(404);
    const graphs = (await get(`${A}/nodes/${NODE}/workflows`)).body.map((w: any) => [w.injectableName, w._status]);
    expect(graphs).toEqual([
      ["Graph.SKU.Discovery", "succeeded"],
      ["Graph.noop-example", "succeeded"],
    ]);
  });

  it("matches again when SKUs change: the deepest rule wins, then the newest; no match clears it", async () => {
    await discoverMachine(MAC);
    const shallow = (await send("POST", `${A}/skus`, { name: "any", rules: [] })).body;
    expect((await get(`${A}/nodes/${NODE}`)).body.sku).toBe(shallow.id);
    const deep = (await send("POST", `${A}/skus`, { name: "vbox", rules: [VIRTUALBOX] })).body;
    await send("POST", `${A}/skus`, { name: "shallower, newer", rules: [{ path: "dmi", notEmpty: true }] });
    expect((await get(`${A}/nodes/${NODE}`)).body.sku).toBe(deep.id);
    const patched = await send("PATCH", `${A}/skus/${deep.id}`, { rules: [{ ...VIRTUALBOX, equals: "VMware" }] });
    expect(patched.status).toBe(200);
    expect((await get(`${A}/nodes/${NODE}`)).body.sku).not.toBe(deep.id);
    const skus = (await get(`${A}/skus`)).body as { id: string }[];
    for (const { id } of skus) expect((await send("DELETE", `${A}/skus/${id}`)).status).toBe(204);
    expect((await get(`${A}/nodes/${NODE}`)).body.sku).toBeNull();
  });

  it("answers RackHD's texts and statuses for what is not there and for bad rules, changing nothing", async () => {
    expect(await get(`${A}/skus/0123456789abcdef01234567`)).toMatchObject({
      status: 404,
      body: { message: "Could not find sku with identifier 0123456789abcdef01234567" },
    });
    expect((await send("DELETE", `${A}/skus/0123456789abcdef01234567`)).status).toBe(404);
    expect((await send("PATCH", `${A}/skus/0123456789abcdef01234567`, { name: "x" })).status).toBe(404);
    const unknownRule = await send("POST", `${A}/skus`, { name: "x", rules: [{ path: "dmi.x", notEquals: "y" }] });
    expect(unknownRule.status).toBe(400);
    expect(unknownRule.body.message).toMatch(/^SKU rule 0 has an unknown rule notEquals/);
    expect((await send("POST", `${A}/skus`, { name: "x" })).body).toEqual({
      message: "rules ([object]) is required: an array of at most 64 rules",
    });
    expect((await send("POST", `${A}/skus`, { name: "x", rules: [{ path: "a", regex: "(" }] })).status).toBe(400);
    expect((await get(`${A}/skus`)).body).toEqual([]);
  });

  it("follows FIT rackhd11's sequence: POST 200, GET by id, PATCH the name, DELETE 204", async () => {
    const posted = await send("POST", `${A}/skus`, {
      name: "test1",
      rules: [{ contains: "test", path: "ohai.dmi.base_board.manufacturer" }],
    });
    expect(posted.status).toBe(200);
    expect((await get(`${A}/skus/${posted.body.id}`)).status).toBe(200);
    expect((await send("PATCH", `${A}/skus/${posted.body.id}`, { name: "test3" })).body.name).toBe("test3");
    expect((await send("DELETE", `${A}/skus/${posted.body.id}`)).status).toBe(204);
  });
});

describe("tags", () => {
  it("applies a tag by rules at discovery and to nodes already discovered; lists its nodes; runs a graph on them", async () => {
    await discoverMachine(MAC);
    const tag = await send("POST", `${A}/tags`, { name: "virtualbox", rules: [VIRTUALBOX] });
    expect(tag.status).toBe(201);
    expect(tag.body).toMatchObject({ id: "virtualbox", name: "virtualbox", rules: [VIRTUALBOX] });
    expect((await get(`${A}/nodes/${NODE}/tags`)).body).toEqual(["virtualbox"]);
    await discoverMachine("52:54:00:aa:00:02");
    const tagged = (await get(`${A}/tags/virtualbox/nodes`)).body.map((n: { id: string }) => n.id);
    expect(tagged).toEqual([NODE, nodeIdForMac("52:54:00:aa:00:02")]);
    const run = await send("POST", `${A}/tags/virtualbox/nodes/workflows?name=Graph.noop-example`);
    expect(run.status).toBe(202);
    expect(run.body.map((w: { node: string }) => w.node)).toEqual(tagged);
    expect((await get(`${A}/tags`)).body.map((t: { name: string }) => t.name)).toEqual(["virtualbox"]);
  });

  it("adds tags by hand (a set; answers the tags sent), takes one off, and keeps names when the record goes", async () => {
    await discoverMachine(MAC);
    const patched = await send("PATCH", `${A}/nodes/${NODE}/tags`, { tags: ["test_node", "dummy_node"] });
    expect(patched).toMatchObject({ status: 200, body: ["test_node", "dummy_node"] });
    await send("PATCH", `${A}/nodes/${NODE}/tags`, { tags: ["test_node"] });
    expect((await get(`${A}/nodes/${NODE}/tags`)).body).toEqual(["test_node", "dummy_node"]);
    expect((await get(`${A}/tags/test_node/nodes`)).body[0].tags).toEqual(["test_node", "dummy_node"]);
    expect((await send("PATCH", `${A}/nodes/${NODE}/tags`, {})).status).toBe(204);
    expect(await send("DELETE", `${A}/nodes/${NODE}/tags/dummy_node`)).toMatchObject({ status: 200, body: "dummy_node" });
    expect((await get(`${A}/nodes/${NODE}/tags`)).body).toEqual(["test_node"]);
    expect((await get(`${A}/tags/dummy_node/nodes`)).body).toEqual([]);
  });

  it("answers era C's statuses: 409 for a taken name, 404 for an unknown tag, 204 on delete", async () => {
    expect((await send("POST", `${A}/tags`, { name: "t", rules: [] })).status).toBe(201);
    expect(await send("POST", `${A}/tags`, { name: "t", rules: [] })).toMatchObject({
      status: 409,
      body: { message: "tag name already exists" },
    });
    expect(await get(`${A}/tags/nope`)).toMatchObject({ status: 404, body: { message: "name nope was not found" } });
    expect((await send("DELETE", `${A}/tags/t`)).status).toBe(204);
    expect((await send("DELETE", `${A}/tags/t`)).status).toBe(404);
    expect((await send("POST", `${A}/tags`, { name: "x", rules: [{ path: "dmi", bogus: 1 }] })).status).toBe(400);
    expect((await send("PATCH", `${A}/nodes/0123456789abcdef01234567/tags`, { tags: ["a"] })).status).toBe(404);
    expect((await send("PATCH", `${A}/nodes/${NODE}/tags`, { tags: "a" })).status).toBe(404);
  });
});

describe("a discovery whose machine never starts the microkernel", () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it("says so on screen, and ends after ten minutes with the reason, so the node is free for an install", async () => {
    const profile = await get(`${A}/profiles?macs=${MAC}`);
    expect(profile.raw).toContain("echo Could not load the discovery microkernel from");
    expect(profile.raw).not.toContain("Could not load the installer");
    jest.useFakeTimers({ now: Date.now() + 10 * 60_000 + 1, doNotFake: ["setTimeout", "setImmediate", "nextTick", "queueMicrotask"] });
    const [workflow] = (await get(`${A}/nodes/${NODE}/workflows`)).body;
    expect(workflow._status).toBe("failed");
    const bootstrap = Object.values(workflow.tasks as Record<string, { label: string; error?: string; state: string }>).find(
      (task) => task.label === "bootstrap-ubuntu",
    )!;
    expect(bootstrap).toMatchObject({
      state: "timeout",
      error: expect.stringMatching(/did not start the discovery microkernel within 600 s.*\/common\/vmlinuz/),
    });
    const install = await send("POST", `${A}/nodes/${NODE}/workflows`, {
      name: "Graph.InstallCentOS",
      options: { defaults: { obmServiceName: "noop-obm-service", version: "7", repo: "http://mirror/centos/7" } },
    });
    expect(install.status).toBe(201);
  });
});

describe("following a machine's boot in the logs and metrics (issue 25)", () => {
  it("names the node and its workflow on every line about them, and counts the boot and the workflow's start and end", async () => {
    Object.assign(process.env, { LOG_REQUESTS: "on", METRICS: "on" });
    const lines = await stdoutLines(() => discoverMachine(MAC)).finally(() => {
      Object.assign(process.env, { LOG_REQUESTS: "off", METRICS: "off" });
    });
    const parsed = lines.map((line) => JSON.parse(line));
    const requests = parsed.filter((line) => line.msg === "request");
    const metrics = parsed.filter((line) => line._aws);
    const [workflow] = (await get(`${A}/nodes/${NODE}/workflows`)).body;
    // The first request (no MACs yet) is about no node; from the profile with its MACs on, each is about this node and its discovery.
    const aboutTheNode = requests.filter((line) => line.route !== "GET /api/{version}/profiles" || line.nodeId);
    expect(aboutTheNode.length).toBeGreaterThan(5);
    for (const line of aboutTheNode) expect(line).toMatchObject({ nodeId: NODE, workflowId: workflow.instanceId });
    const total = (name: string) => metrics.reduce((sum, line) => sum + (line[name] ?? 0), 0);
    expect(total("Boots")).toBe(1);
    expect(total("WorkflowsStarted")).toBe(1);
    expect(total("WorkflowsSucceeded")).toBe(1);
    expect(total("WorkflowsFailed")).toBe(0);
    expect(total("Requests")).toBe(requests.length);
  });
});
